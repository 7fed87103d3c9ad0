// Nothing a teacher typed is lost: the text last loaded or saved (so "unsaved" means the editor
// differs from it), a question before a preset or a lesson step replaces unsaved edits, the
// autosaved draft and its restoring notice, and opening, saving and loading element-set files.
// App.tsx joins what this returns to the lessons and the address bar; ScenarioPane.tsx shows it; the scenario text itself stays useSimulation's.

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { downloadText } from '../export/export';
import { presetById, type Preset } from '../scenario/presets';
import { SHARE_PARAM } from '../share/share';
import { PRESET_PARAM } from '../share/urlState';
import { browserStorage, clearDraft, loadDraft, saveDraft, type Draft } from './draft';
import { scenarioFileName, withElementSet } from './scenarioFile';

/** Typing pauses this long before the draft is written. */
const DRAFT_DEBOUNCE_MS = 400;

/** The page was opened with a scenario of its own: a shared one or a preset. */
function urlHasScenario(): boolean {
  const hash = new URLSearchParams(window.location.hash.slice(1));
  return hash.has(SHARE_PARAM) || hash.has(PRESET_PARAM);
}

/** A draft the page restored at opening, or one it offers because the URL named a scenario. */
export interface DraftNotice {
  kind: 'restored' | 'offered';
  draft: Draft;
}

/** A replacement of unsaved edits waiting for the user's answer. */
export interface PendingReplace {
  /** What would replace the edits, for the question: 'the preset "default"'. */
  what: string;
}

/** A message of the file controls: what was opened or saved, or why not. */
export interface FileMessage {
  text: string;
  error: boolean;
}

interface Editor {
  text: string;
  presetId: string | undefined;
  /** Put a scenario in the editor (not a preset). */
  load: (text: string) => void;
  /** Put a preset in the editor. */
  pickPreset: (preset: Preset) => void;
  /** Change the text as an edit would. */
  edit: (text: string) => void;
}

export function useScenarioFiles({ text, presetId, load, pickPreset, edit }: Editor) {
  const storage = useMemo(() => browserStorage(), []);
  // What the page opened with, and the draft found then (read before anything is saved).
  const [opening] = useState(() => ({ text, presetId, draft: loadDraft(storage) }));
  const [reference, setReference] = useState(text);
  const dirty = text !== reference;

  const markLoaded = useCallback((t: string) => setReference(t), []);

  // What the draft holds (see "the draft" below), and what clears it.
  const lastStored = useRef<string | null>(opening.draft?.text ?? null);
  /** The edits are kept elsewhere (saved) or given up (replaced): the draft goes. */
  const dropDraft = useCallback(() => {
    clearDraft(storage);
    lastStored.current = null;
  }, [storage]);

  // ---------- asking before unsaved edits are replaced ----------
  const [pending, setPending] = useState<PendingReplace | null>(null);
  /** The actions waiting with the question (a lesson step's load, then its run). A ref, so an
   * action queued in the same event as the question joins it. */
  const queued = useRef<(() => void)[] | null>(null);

  /** Does `replace` at once, or after the user agrees when the text has unsaved edits. */
  const guard = useCallback(
    (what: string, replace: () => void) => {
      if (!dirty) return replace();
      queued.current = [replace];
      setPending({ what });
    },
    [dirty],
  );
  /** Does `then` after the replacement in question, if one is waiting; else at once. */
  const afterGuard = useCallback((then: () => void) => {
    if (queued.current) queued.current.push(then);
    else then();
  }, []);
  const answer = useCallback((replace: boolean) => {
    const actions = queued.current ?? [];
    queued.current = null;
    setPending(null);
    if (replace) {
      dropDraft();
      for (const a of actions) a();
    }
  }, [dropDraft]);

  // ---------- the draft ----------
  const [draftNotice, setDraftNotice] = useState<DraftNotice | null>(null);
  const [draftFailed, setDraftFailed] = useState(false);
  useEffect(() => {
    const d = opening.draft;
    if (!d || d.text === opening.text) return;
    if (urlHasScenario()) {
      setDraftNotice({ kind: 'offered', draft: d });
    } else {
      load(d.text);
      setDraftNotice({ kind: 'restored', draft: d });
    }
    // Once, at opening: the draft found then is the one to restore.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // An offered draft stays stored until the user answers: the URL's own text must not
  // overwrite it behind the notice (a reload would lose it). Only edits are a draft: a preset,
  // a lesson step or a saved file as it was loaded has nothing to lose, and storing it would
  // bring it back at the next visit as "unsaved edits" that were never made. A draft is cleared
  // when the edits are saved or the user agrees to replace them, never by the text merely
  // changing (a link opened in the tab replaces the editor's text without asking).
  const holdDraft = draftNotice?.kind === 'offered' && text === opening.text;
  useEffect(() => {
    if (holdDraft || !dirty || text === lastStored.current) return;
    const handle = setTimeout(() => {
      const ok = saveDraft(storage, { text, savedAt: Date.now() });
      if (ok) lastStored.current = text;
      setDraftFailed(!ok);
    }, DRAFT_DEBOUNCE_MS);
    return () => clearTimeout(handle);
  }, [text, storage, holdDraft, dirty]);

  /** The restored draft is thrown away: the editor gets what the page opened with. */
  const discardDraft = useCallback(() => {
    clearDraft(storage);
    lastStored.current = null;
    setDraftNotice(null);
    const p = opening.presetId ? presetById(opening.presetId) : undefined;
    if (p) pickPreset(p);
    else load(opening.text);
    setReference(opening.text);
  }, [storage, opening, load, pickPreset]);

  /** The offered draft goes into the editor (unsaved, as it was). */
  const restoreDraft = useCallback(() => {
    if (draftNotice) load(draftNotice.draft.text);
    setDraftNotice(null);
  }, [draftNotice, load]);
  const dismissDraftNotice = useCallback(() => setDraftNotice(null), []);

  // ---------- files ----------
  const [message, setMessage] = useState<FileMessage | null>(null);

  const openText = useCallback(
    (fileName: string, fileText: string) =>
      guard(`the file "${fileName}"`, () => {
        load(fileText);
        setReference(fileText);
        setMessage({ text: `Opened ${fileName}.`, error: false });
      }),
    [guard, load],
  );

  const save = useCallback(() => {
    const name = scenarioFileName(text);
    downloadText(name, text, 'application/json');
    setReference(text);
    dropDraft();
    setMessage({ text: `Saved as ${name}.`, error: false });
  }, [text, dropDraft]);

  const loadElements = useCallback(
    (fileName: string, fileText: string) => {
      const r = withElementSet(text, fileText);
      if (!r.ok) {
        setMessage({ text: `${fileName} was not loaded: ${r.path || 'scenario'}: ${r.message}.`, error: true });
        return;
      }
      edit(r.text);
      const where = `topology.constellation.${r.kind}`;
      setMessage({
        text: `${fileName} is in ${where}${
          r.hypatia
            ? `: a Hypatia tles.txt, ${r.hypatia.planes} planes × ${r.hypatia.satsPerPlane} satellites${r.hypatia.replacedWalker ? ', in place of the Walker shell' : ''}`
            : r.keptWalker
              ? '; the Walker shell is still there (remove topology.constellation.walker for these satellites alone)'
              : ''
        }.`,
        error: false,
      });
    },
    [text, edit],
  );

  const fileFailed = useCallback((fileName: string, why: string) => setMessage({ text: `${fileName} could not be read: ${why}.`, error: true }), []);
  const dismissMessage = useCallback(() => setMessage(null), []);

  return {
    dirty,
    markLoaded,
    guard,
    afterGuard,
    pending,
    answer,
    draftNotice,
    draftFailed,
    discardDraft,
    restoreDraft,
    dismissDraftNotice,
    message,
    dismissMessage,
    openText,
    save,
    loadElements,
    fileFailed,
  };
}
