// The embedded page (`?embed=1`): one view of a scenario's results and a Run button, for a
// teacher's slides or course page. What it shows comes from the address as the full page's
// does (share/urlState.ts), plus `view=` (in the fragment or the query): a view of
// lessons/format.ts VIEWS by its id. The snippet a teacher pastes is written here too.

import { VIEWS, isView, type View } from '../lessons/format';
import { screenHash, VIEW_PARAM } from '../share/urlState';

/** The query parameter that asks for the embedded page. */
export const EMBED_PARAM = 'embed';

/** The frame size the snippet proposes, per view: the globe wants more height than a chart. */
export const EMBED_SIZE: Record<'globe' | 'hops' | 'chart', { width: number; height: number }> = {
  globe: { width: 720, height: 640 },
  hops: { width: 900, height: 720 },
  chart: { width: 720, height: 480 },
};

export function isEmbed(search: string): boolean {
  return new URLSearchParams(search).get(EMBED_PARAM) === '1';
}

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
}

/** The `<iframe>` snippet for a scenario's view. The scenario's text is in the link (`s=`), with
 * `run=1` so the frame shows its result, and the core's version. */
export function embedCode({ pageUrl, text, scenarioName, coreVersion, view }: EmbedRequest): string {
  const url = new URL(pageUrl);
  url.search = `?${EMBED_PARAM}=1`;
  url.hash = `${screenHash('', { text, run: true }, coreVersion, true)}&${VIEW_PARAM}=${view}`;
  const size = EMBED_SIZE[view === 'globe' || view === 'hops' ? view : 'chart'];
  const title = `orbitcp: ${scenarioName || 'scenario'}, ${VIEWS[view].label}`;
  return `<iframe src="${escapeAttr(url.toString())}" width="${size.width}" height="${size.height}" title="${escapeAttr(title)}" style="border: 0" loading="lazy"></iframe>`;
}
