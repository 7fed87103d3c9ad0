// A <details> whose body is built the first time it opens. A constellation flow's tables of every
// node it used run to hundreds of rows (2 500 elements for the Beijing-New York preset's INTCP
// flow), folded away by default: built with the results, they cost the page their layout for
// nothing until someone opens them.

import { useState, type ReactNode } from 'react';

export interface FoldProps {
  /** Open at first (a short table); the body is then built at once. */
  open: boolean;
  summary: ReactNode;
  /** The body, built once the fold has been open. */
  children: () => ReactNode;
  className?: string;
  testid?: string;
}

export function Fold({ open, summary, children, className, testid }: FoldProps) {
  const [opened, setOpened] = useState(false);
  return (
    <details
      className={className}
      open={open}
      data-testid={testid}
      onToggle={(e) => {
        if (e.currentTarget.open) setOpened(true);
      }}
    >
      <summary>{summary}</summary>
      {(open || opened) && children()}
    </details>
  );
}
