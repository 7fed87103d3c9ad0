// The editor's file controls: Open… (a scenario file), Save (the text as `<name>.json`), and for
// a constellation scenario its satellites from a TLE or OMM file; what happened, in words.

import { useId, useRef, type ChangeEvent } from 'react';
import type { FileMessage } from './useScenarioFiles';
import './files.css';

/** Reads the first chosen file's text, then clears the input so the same file can be chosen again. */
function readChosen(e: ChangeEvent<HTMLInputElement>, onText: (name: string, text: string) => void, onFail: (name: string, why: string) => void) {
  const input = e.currentTarget;
  const file = input.files?.[0];
  if (!file) return;
  file.text().then(
    (t) => onText(file.name, t),
    (err: unknown) => onFail(file.name, err instanceof Error ? err.message : String(err)),
  );
  input.value = '';
}

export function FileBar({
  constellation,
  dirty,
  message,
  draftFailed,
  onOpen,
  onSave,
  onElements,
  onFail,
  onDismiss,
}: {
  constellation: boolean;
  dirty: boolean;
  message: FileMessage | null;
  draftFailed: boolean;
  onOpen: (name: string, text: string) => void;
  onSave: () => void;
  onElements: (name: string, text: string) => void;
  onFail: (name: string, why: string) => void;
  onDismiss: () => void;
}) {
  const uid = useId();
  const openInput = useRef<HTMLInputElement>(null);
  const tleInput = useRef<HTMLInputElement>(null);
  return (
    <div className="file-bar" role="group" aria-label="Scenario file">
      {/* The inputs are hidden behind ordinary buttons, which keyboards and screen readers know. */}
      <input ref={openInput} id={`${uid}-open`} type="file" accept=".json,application/json" hidden onChange={(e) => readChosen(e, onOpen, onFail)} data-testid="open-file" />
      <button type="button" onClick={() => openInput.current?.click()} title="Open a scenario file (.json); you can also drop one on the editor">
        Open…
      </button>
      <button type="button" onClick={onSave} title="Download the editor's text as a .json file" data-testid="save-file">
        Save
      </button>
      {constellation && (
        <>
          <input ref={tleInput} type="file" accept=".tle,.txt,.3le,.json,text/plain,application/json" hidden onChange={(e) => readChosen(e, onElements, onFail)} data-testid="open-elements" />
          <button type="button" onClick={() => tleInput.current?.click()} title="Put the satellites of a TLE file or CelesTrak OMM JSON into this constellation">
            Satellites from TLE/OMM…
          </button>
        </>
      )}
      <span className="file-state" data-testid="unsaved">
        {dirty ? 'unsaved edits' : ''}
      </span>
      {draftFailed && <span className="file-state">The draft could not be kept in this browser (storage is off or full): save your work.</span>}
      {message && (
        <p className={message.error ? 'file-message error' : 'file-message'} role={message.error ? 'alert' : 'status'} data-testid="file-message">
          {message.text}{' '}
          <button type="button" className="quiet" onClick={onDismiss} aria-label="Dismiss">
            ×
          </button>
        </p>
      )}
    </div>
  );
}
