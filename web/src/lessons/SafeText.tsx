// Renders safe text (text.ts) as React elements: strings are React text nodes, so nothing in a
// lesson can become markup, a link or a script.

import type { ReactNode } from 'react';
import { parseText, type Block, type Inline } from './text';

function inline(nodes: Inline[]): ReactNode[] {
  return nodes.map((n, i) => {
    switch (n.kind) {
      case 'text':
        return n.text;
      case 'code':
        return <code key={i}>{n.text}</code>;
      case 'em':
        return <em key={i}>{inline(n.children)}</em>;
      case 'strong':
        return <strong key={i}>{inline(n.children)}</strong>;
      case 'sup':
        return <sup key={i}>{inline(n.children)}</sup>;
      case 'sub':
        return <sub key={i}>{inline(n.children)}</sub>;
    }
  });
}

export function Blocks({ blocks }: { blocks: Block[] }) {
  return (
    <>
      {blocks.map((b, i) =>
        b.kind === 'paragraph' ? (
          <p key={i}>{inline(b.children)}</p>
        ) : (
          <ul key={i}>
            {b.items.map((item, j) => (
              <li key={j}>{inline(item)}</li>
            ))}
          </ul>
        ),
      )}
    </>
  );
}

/** A lesson's text, parsed and rendered. */
export function SafeText({ text }: { text: string }) {
  return <Blocks blocks={parseText(text)} />;
}
