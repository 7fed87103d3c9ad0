// What differs between two scenarios, in words: "cc: cubic → hybla, link 2 loss: 1 % → 2 %".
// The results pane says it when the editor no longer holds the scenario a result came from, and
// Compare names the two runs by it, so neither needs the reader to remember what was edited. The
// sweep chart names its axes and series the same way.

import { pathSegments } from './jsonPath';

/** One field that differs. `path` is the core's (`flows[0].cc`); `label` is for people. */
export interface ScenarioChange {
  path: string;
  label: string;
  from: string;
  to: string;
}

/** Fields whose change says nothing about the experiment: they are left out of the words. */
const PROSE = new Set(['name', 'description', 'label', 'paper']);

/** At most this many changes are spelled out; more read as "another scenario". */
export const SPELLED_OUT = 4;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The unit a field's name gives ("delay_ms" → "ms"), or null. */
export function unitOf(key: string): string | null {
  const units: [RegExp, string][] = [
    [/_ms$/, 'ms'],
    [/_mbps$/, 'Mbit/s'],
    [/_s$/, 's'],
    [/_pkts$/, 'packets'],
    [/_km$/, 'km'],
    [/_deg$/, '°'],
    [/bytes$/, 'bytes'],
  ];
  return units.find(([re]) => re.test(key))?.[1] ?? null;
}

/** A value as people read it: a probability (`loss.p`-like fields) in percent, a number with the
 * unit its name gives, a list or object as compact JSON, a missing field as "none". */
export function changeValue(key: string, v: unknown): string {
  if (v === undefined || v === null) return 'none';
  if (typeof v === 'number') {
    const plain = Number(v.toPrecision(6)).toString();
    if (/^(p|at_min_elevation|at_zenith|loss_p)$/.test(key) && v >= 0 && v <= 1) return `${Number((v * 100).toPrecision(4))} %`;
    const unit = unitOf(key);
    return unit === null ? plain : unit === '°' ? `${plain}°` : `${plain} ${unit}`;
  }
  if (typeof v === 'string' || typeof v === 'boolean') return String(v);
  const json = JSON.stringify(v);
  return json.length > 40 ? `${json.slice(0, 37)}…` : json;
}

/** "flows[1].cc" → "flow 2 cc" (or "cc" when the scenario has one flow), "topology.links[1].loss.p"
 * → "link 2 loss": list items counted from 1, the containers people do not name left out. */
export function changeLabel(path: (string | number)[], flowCount: number): string {
  const words: string[] = [];
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    const next = path[i + 1];
    if (seg === 'topology' || seg === 'constellation') continue;
    if (typeof next === 'number') {
      const singular = seg === 'flows' ? 'flow' : seg === 'links' ? 'link' : String(seg).replace(/s$/, '');
      if (!(seg === 'flows' && flowCount === 1)) words.push(`${singular} ${next + 1}`);
      i++;
      continue;
    }
    // The value carries the unit ("delay: 250 ms"), and a loss model's `p` is the loss itself.
    if (seg === 'p' && path[i - 1] === 'loss') continue;
    words.push(typeof seg === 'number' ? String(seg + 1) : seg.replace(UNIT_SUFFIX, '').replace(/_/g, ' '));
  }
  return words.join(' ') || 'scenario';
}

/** The unit at the end of a field's name, which its value says instead. */
const UNIT_SUFFIX = /_(ms|mbps|s|pkts|km|deg|bytes)$/;

/** A swept value in words, with its field: "link 2 delay 250 ms", "cc cubic". */
export function pointWords(path: string, value: unknown, flowCount: number): string {
  const segs = pathSegments(path);
  const key = String([...segs].reverse().find((s) => typeof s === 'string') ?? '');
  return `${changeLabel(segs, flowCount)} ${changeValue(key, value)}`;
}

/** Every field of `after` that differs from `before` (and every field only one of them has),
 * depth first in `after`'s order. Lists of numbers and strings count as one value. */
export function scenarioChanges(before: unknown, after: unknown): ScenarioChange[] {
  const flows = isRecord(after) && Array.isArray(after.flows) ? after.flows.length : 1;
  const out: ScenarioChange[] = [];
  const visit = (a: unknown, b: unknown, path: (string | number)[]) => {
    const key = String([...path].reverse().find((s) => typeof s === 'string') ?? '');
    if (path.length > 0 && typeof path[path.length - 1] === 'string' && PROSE.has(key)) return;
    if (isRecord(a) && isRecord(b)) {
      const keys = [...Object.keys(b), ...Object.keys(a).filter((k) => !(k in b))];
      for (const k of keys) visit(a[k], b[k], [...path, k]);
      return;
    }
    const structured = (v: unknown) => Array.isArray(v) && v.some((x) => typeof x === 'object' && x !== null);
    if (Array.isArray(a) && Array.isArray(b) && (structured(a) || structured(b))) {
      for (let i = 0; i < Math.max(a.length, b.length); i++) visit(a[i], b[i], [...path, i]);
      return;
    }
    if (JSON.stringify(a) === JSON.stringify(b)) return;
    const p = path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
    out.push({ path: p, label: changeLabel(path, flows), from: changeValue(key, a), to: changeValue(key, b) });
  };
  visit(before, after, []);
  return out;
}

/** The changes in one line: "cc: cubic → hybla, loss p: 1 % → 2 %"; past SPELLED_OUT of them,
 * the first ones and how many more. Empty when nothing that matters differs. */
export function describeChanges(changes: readonly ScenarioChange[]): string {
  const shown = changes.slice(0, SPELLED_OUT).map((c) => `${c.label}: ${c.from} → ${c.to}`);
  const more = changes.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more change${more === 1 ? '' : 's'}` : shown.join(', ');
}
