// The embedded page (`?embed=1`): one view of a scenario's results and a Run button, for a
// teacher's slides or course page. What it shows comes from the address as the full page's
// does (share/urlState.ts), plus `view=` (in the fragment or the query): a view of
// lessons/format.ts VIEWS by its id. The snippet a teacher pastes is written here too.

import { VIEWS, isView, type View } from '../lessons/format';
import { EMBED_PARAM } from '../share/query';
import { screenHash, VIEW_PARAM } from '../share/urlState';

/** The frame sizes the snippet offers: a slide's 16:9 first (the view lays itself out to the
 * frame, so nothing is cut), then a page's 3:2. */
export const EMBED_SIZES = [
  { id: '960x540', label: '960 × 540 (16:9 slide)', width: 960, height: 540 },
  { id: '1280x720', label: '1280 × 720 (16:9 slide)', width: 1280, height: 720 },
  { id: '800x450', label: '800 × 450 (16:9, small)', width: 800, height: 450 },
  { id: '720x480', label: '720 × 480 (3:2 page)', width: 720, height: 480 },
] as const;

export type EmbedSize = (typeof EMBED_SIZES)[number];
export const DEFAULT_EMBED_SIZE: EmbedSize = EMBED_SIZES[0];

/** The view an embedded page shows: the fragment's `view=`, else the query's, else the sweep
 * chart for a scenario with a sweep and the goodput chart for any other. An unknown view is an
 * error that names it and the views there are. */
export function embedView(search: string, hash: string, hasSweep: boolean): { ok: true; view: View } | { ok: false; error: string } {
  const v = new URLSearchParams(hash.replace(/^#/, '')).get(VIEW_PARAM) ?? new URLSearchParams(search).get(VIEW_PARAM);
  if (v === null || v === '') return { ok: true, view: hasSweep ? 'sweep' : 'goodput' };
  if (isView(v)) return { ok: true, view: v };
  return { ok: false, error: `view: "${v.slice(0, 40)}" is not a view; use one of ${Object.keys(VIEWS).join(', ')}` };
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export interface EmbedRequest {
  /** The full page's address (its query and fragment are replaced). */
  pageUrl: string;
  text: string;
  scenarioName: string;
  coreVersion: string;
  view: View;
  /** The frame's size (default: a 16:9 slide's 960 × 540). */
  size?: { width: number; height: number };
}

/** The `<iframe>` snippet for a scenario's view. The scenario's text is in the link (`s=`), with
 * `run=1` so the frame shows its result, and the core's version. */
export function embedCode({ pageUrl, text, scenarioName, coreVersion, view, size = DEFAULT_EMBED_SIZE }: EmbedRequest): string {
  const url = new URL(pageUrl);
  url.search = `?${EMBED_PARAM}=1`;
  url.hash = `${screenHash('', { text, run: true }, coreVersion, true)}&${VIEW_PARAM}=${view}`;
  const title = `orbitcp: ${scenarioName || 'scenario'}, ${VIEWS[view].label}`;
  return `<iframe src="${escapeAttr(url.toString())}" width="${size.width}" height="${size.height}" title="${escapeAttr(title)}" style="border: 0" loading="lazy"></iframe>`;
}
