// The page's keyboard shortcuts: Ctrl+Enter (Cmd+Enter on a Mac) runs the scenario when it is
// valid, Esc cancels the run under way. Esc is left alone while something else wants it: a
// dialog or prompt that is open, or a handler that already used the key.

import { useEffect, useLayoutEffect, useRef } from 'react';

/** As `aria-keyshortcuts` writes them: both, since the page cannot know the keyboard. */
export const RUN_KEYS = 'Control+Enter Meta+Enter';
export const CANCEL_KEYS = 'Escape';

/** The part of a keydown event the decision needs. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  defaultPrevented: boolean;
  repeat: boolean;
}

export interface ShortcutState {
  canRun: boolean;
  running: boolean;
  /** A dialog or prompt is open that Esc belongs to. */
  dialogOpen: boolean;
}

/** What a key press does, if anything. */
export function shortcutFor(e: KeyPress, s: ShortcutState): 'run' | 'cancel' | null {
  if (e.defaultPrevented || e.repeat) return null;
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey) return s.canRun && !s.running ? 'run' : null;
  if (e.key === 'Escape' && !e.ctrlKey && !e.metaKey && !e.altKey) return s.running && !s.dialogOpen ? 'cancel' : null;
  return null;
}

/** Something on the page that Esc should close first. */
function dialogOpen(): boolean {
  return document.querySelector('dialog[open], [role="dialog"], [role="alertdialog"], [aria-modal="true"]') !== null;
}

export function useRunShortcuts(opts: { canRun: boolean; running: boolean; run: () => void; cancel: () => void }) {
  const latest = useRef(opts);
  // A layout effect: it runs as the render is committed, so a key pressed right after a run
  // starts already sees `running`. (Preact runs plain effects a frame later, and Esc pressed
  // in that frame was lost.)
  useLayoutEffect(() => {
    latest.current = opts;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const o = latest.current;
      const what = shortcutFor(e, { canRun: o.canRun, running: o.running, dialogOpen: e.key === 'Escape' && dialogOpen() });
      if (!what) return;
      e.preventDefault();
      if (what === 'run') o.run();
      else o.cancel();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
