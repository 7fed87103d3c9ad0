// The question before unsaved edits are replaced: a small alert dialog in the page (not
// window.confirm, which blocks the tab and cannot be styled or tested), like the cost prompt.

import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { PendingReplace } from './useScenarioFiles';

export function ConfirmReplace({ pending, onAnswer }: { pending: PendingReplace; onAnswer: (replace: boolean) => void }) {
  const cancel = useRef<HTMLButtonElement>(null);
  // The safe answer has the focus, so Enter or Space keeps the edits.
  useEffect(() => cancel.current?.focus(), [pending]);
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      onAnswer(false);
    }
  };
  return (
    <div className="notice confirm" role="alertdialog" aria-labelledby="confirm-replace-text" onKeyDown={onKey} data-testid="confirm-replace">
      <span id="confirm-replace-text">The scenario has unsaved edits. Load {pending.what} and lose them?</span>
      <span className="confirm-buttons">
        <button type="button" onClick={() => onAnswer(true)} data-testid="confirm-replace-yes">
          Load and lose my edits
        </button>{' '}
        <button type="button" ref={cancel} className="quiet" onClick={() => onAnswer(false)} data-testid="confirm-replace-cancel">
          Cancel
        </button>
      </span>
    </div>
  );
}
