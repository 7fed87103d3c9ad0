// The notice of a draft: restored at opening ("Restored your draft from 14:05. Discard"), or
// offered when the URL opened another scenario. Never silent: the user sees where the text came from.

import { draftTime } from './draft';
import type { DraftNotice as Notice } from './useScenarioFiles';

export function DraftNotice({ notice, onDiscard, onRestore, onDismiss }: { notice: Notice; onDiscard: () => void; onRestore: () => void; onDismiss: () => void }) {
  const when = draftTime(notice.draft.savedAt);
  return (
    <div className="draft-notice" role="status" data-testid="draft-notice">
      {notice.kind === 'restored' ? (
        <>
          <span>Restored your draft from {when}.</span>{' '}
          <button type="button" className="small" onClick={onDiscard} data-testid="draft-discard">
            Discard
          </button>
        </>
      ) : (
        <>
          <span>You have an unsaved draft from {when}.</span>{' '}
          <button type="button" className="small" onClick={onRestore} data-testid="draft-restore">
            Restore it
          </button>
        </>
      )}{' '}
      <button type="button" className="quiet" onClick={onDismiss} aria-label="Dismiss the draft notice">
        ×
      </button>
    </div>
  );
}
