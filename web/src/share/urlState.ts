// The page's screen in the URL fragment, so that Reload, Back and Forward and a pasted link all
// show what the address bar says. Beside the lesson's parameters (lessons/state.ts), the
// fragment carries:
//
//   preset=ID   the editor holds preset ID, unedited (a short link)
//   s=PAYLOAD   the editor holds this text (share.ts); written once the text is edited, instead
//               of `preset=` (the text alone says what runs; a preset may change between versions)
//   run=1       the results on screen are this scenario's: opening the link runs it again (runs
//               are deterministic), asking first when it is costly
//   v=VERSION   the core that made the link, written with `s=` or `run=1` (the parameters whose
//               numbers a later core could change); a link from another core gets a notice
//   base=PAYLOAD a pinned baseline's scenario (share.ts), written only by "Copy link with
//               baseline": opening the link runs it and pins it before the comparison is drawn
//
// No scenario parameter means the default preset. A link with `s=` and no `v=` predates this
// file: it runs by itself, as share links always did. The pure parts are here (urlState.test.ts);
// useUrlState.ts applies them to the page.

import { decodeScenario, encodeScenario, SHARE_PARAM } from './share';

export const PRESET_PARAM = 'preset';
export const RUN_PARAM = 'run';
export const VERSION_PARAM = 'v';
/** The scenario of the baseline a link carries (compare/useLinkedBaseline.ts). */
export const BASELINE_PARAM = 'base';
/** The view an embedded page shows (embed/). */
export const VIEW_PARAM = 'view';

/** What the page shows, as far as the URL records it. */
export interface PageScreen {
  text: string;
  /** Set while the text is this preset's, unedited. */
  presetId?: string;
  /** The results on screen are of this text. */
  run: boolean;
}

/** What a fragment says: the scenario (or why it cannot be opened), results, the core's version. */
export interface FragmentScreen {
  scenario: { ok: true; text: string; presetId?: string } | { ok: false; error: string };
  run: boolean;
  version: string | null;
}

/** The text of a preset by its id, and the default preset's id. */
export interface PresetLookup {
  text: (id: string) => string | undefined;
  defaultId: string;
}

function paramsOf(hash: string): URLSearchParams {
  return new URLSearchParams(hash.replace(/^#/, ''));
}

/** Reads a fragment. Never throws: a bad scenario is a message for the user. */
export function readFragment(hash: string, presets: PresetLookup): FragmentScreen {
  const p = paramsOf(hash);
  const run = p.get(RUN_PARAM) === '1';
  const version = p.get(VERSION_PARAM);
  const shared = p.get(SHARE_PARAM);
  if (shared !== null) {
    const d = decodeScenario(shared);
    return { scenario: d.ok ? { ok: true, text: d.text } : { ok: false, error: `This link's scenario could not be opened: ${d.error}.` }, run, version };
  }
  const id = p.get(PRESET_PARAM) ?? presets.defaultId;
  const text = presets.text(id);
  return { scenario: text === undefined ? { ok: false, error: `There is no preset called "${id}".` } : { ok: true, text, presetId: id }, run, version };
}

/** The baseline scenario a fragment carries: none, its text, or why it cannot be opened. */
export function readBaseline(hash: string): { ok: true; text: string } | { ok: false; error: string } | null {
  const payload = paramsOf(hash).get(BASELINE_PARAM);
  if (payload === null) return null;
  const d = decodeScenario(payload);
  return d.ok ? { ok: true, text: d.text } : { ok: false, error: `This link's baseline could not be opened: ${d.error}.` };
}

/** `hash` with the baseline's scenario `text` in it, or with none when `text` is null. */
export function withBaseline(hash: string, text: string | null): string {
  const p = paramsOf(hash);
  if (text === null) p.delete(BASELINE_PARAM);
  else p.set(BASELINE_PARAM, encodeScenario(text));
  return p.toString().replace(/%2C/g, ',');
}

/** Whether the fragment says results are on screen (`run=1`), without reading its scenario. */
export function fragmentRun(hash: string): boolean {
  return paramsOf(hash).get(RUN_PARAM) === '1';
}

/** Whether a page opened at this fragment runs its scenario by itself. */
export function runsOnOpen(hash: string): boolean {
  const p = paramsOf(hash);
  if (p.has(RUN_PARAM)) return p.get(RUN_PARAM) === '1';
  return p.has(SHARE_PARAM) && !p.has(VERSION_PARAM);
}

/** Whether the fragment already describes the page (the core's version aside). */
export function sameScreen(url: FragmentScreen, page: PageScreen): boolean {
  return url.scenario.ok && url.scenario.text === page.text && url.run === page.run;
}

/**
 * A change of screen is a new history entry when Back should undo it: a preset chosen, or a run
 * whose results appear. Typing only rewrites the current entry.
 */
export function historyMode(prev: PageScreen, next: PageScreen): 'push' | 'replace' {
  if (next.run && !prev.run) return 'push';
  if (next.presetId !== undefined && (next.presetId !== prev.presetId || next.text !== prev.text)) return 'push';
  return 'replace';
}

/**
 * The fragment `hash` (no `#` in the result) describing `page`, its other parameters kept.
 * `s=` and `preset=` take each other's place, so that a link keeps the order a teacher reads.
 * `explicit` writes the text as `s=` even for an unedited preset (Copy link: the link then runs
 * the same scenario whatever a later version does to the preset).
 */
export function screenHash(hash: string, page: PageScreen, coreVersion: string, explicit = false): string {
  const asPreset = page.presetId !== undefined && !explicit;
  const [key, value] = asPreset ? [PRESET_PARAM, page.presetId as string] : [SHARE_PARAM, encodeScenario(page.text)];
  const other = asPreset ? SHARE_PARAM : PRESET_PARAM;
  const numbers = !asPreset || page.run;
  const want: Record<string, string | null> = {
    [key]: value,
    [other]: null,
    [RUN_PARAM]: page.run ? '1' : null,
    [VERSION_PARAM]: numbers && coreVersion !== '' ? coreVersion : null,
  };
  const out = new URLSearchParams();
  let placed = false;
  for (const [k, v] of paramsOf(hash)) {
    if (k === key || k === other) {
      if (!placed) out.append(key, value);
      placed = true;
    } else if (k in want) {
      if (want[k] !== null) out.append(k, want[k] as string);
      delete want[k];
    } else out.append(k, v);
  }
  if (!placed) out.append(key, value);
  for (const [k, v] of Object.entries(want)) if (k !== key && k !== other && v !== null) out.append(k, v);
  return out.toString().replace(/%2C/g, ',');
}

/** The notice for a link made by another core, or null. */
export function versionNotice(linkVersion: string | null, coreVersion: string): string | null {
  if (linkVersion === null || coreVersion === '' || linkVersion === coreVersion) return null;
  return `This link was made with orbitcp core ${linkVersion}; this page runs core ${coreVersion}, so its numbers may differ from when the link was made.`;
}

/** Whether the result on the page is of this text (the same JSON, whatever its layout). */
export function resultIsOf(resultScenario: unknown, text: string): boolean {
  if (resultScenario === null || resultScenario === undefined) return false;
  try {
    return JSON.stringify(resultScenario) === JSON.stringify(JSON.parse(text));
  } catch {
    return false;
  }
}
