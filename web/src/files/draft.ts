// The autosaved draft: the editor's text in localStorage, so that a closed tab, a reload or a
// crash loses nothing a teacher typed. Storage can be missing (a privacy mode, a sandboxed
// frame), throw on access, or be full; every function here then does nothing and says so in
// its return value, and the page goes on without a draft.

/** The localStorage key; versioned, so a later format can ignore this one. */
export const DRAFT_KEY = 'orbitcp.draft.v1';

export interface Draft {
  text: string;
  /** When it was saved, ms since the epoch. */
  savedAt: number;
}

/** The page's localStorage, or null where reading it throws (it can, by browser settings). */
export function browserStorage(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}

/** The stored draft, or null when there is none or it cannot be read. */
export function loadDraft(storage: Storage | null): Draft | null {
  if (!storage) return null;
  try {
    const raw = storage.getItem(DRAFT_KEY);
    if (raw === null) return null;
    const d = JSON.parse(raw) as Partial<Draft>;
    return typeof d.text === 'string' && typeof d.savedAt === 'number' && Number.isFinite(d.savedAt) ? { text: d.text, savedAt: d.savedAt } : null;
  } catch {
    return null;
  }
}

/** Saves the draft; false when storage is missing or refuses it (full, disabled). */
export function saveDraft(storage: Storage | null, draft: Draft): boolean {
  if (!storage) return false;
  try {
    storage.setItem(DRAFT_KEY, JSON.stringify(draft));
    return true;
  } catch {
    return false;
  }
}

export function clearDraft(storage: Storage | null): void {
  try {
    storage?.removeItem(DRAFT_KEY);
  } catch {
    // Nothing to do: a draft that cannot be removed is restored again, with its notice.
  }
}

/** "14:05" today, "3 Mar, 14:05" another day: when a draft was saved, for its notice. */
export function draftTime(savedAt: number, now: number = Date.now()): string {
  const d = new Date(savedAt);
  const time = d.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
  const sameDay = new Date(now).toDateString() === d.toDateString();
  return sameDay ? time : `${d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short' })}, ${time}`;
}
