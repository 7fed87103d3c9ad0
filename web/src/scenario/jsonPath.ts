// Paths into a scenario's JSON as the core writes them (`topology.links[1].loss.p`,
// `flows[0].cc`): the one reader and writer of the web app, used by the form (which edits the
// parsed text in place) and the sweep chart (which puts a grid point's values into the base
// scenario). The core has its own (`scenario::set_path`), which refuses a path that does not
// exist; this one creates the objects and lists on the way, since the form writes fields the
// text does not have yet.

/** One step of a path: a field name or a list index. */
export type PathSegment = string | number;

import { isRawNumber } from './rawNumber';

type Container = Record<string, unknown> | unknown[];

/** An object or a list that a path can step into. An exact big integer (rawNumber.ts) is an
 * object too, but a frozen leaf. */
function isContainer(v: unknown): v is Container {
  return typeof v === 'object' && v !== null && !isRawNumber(v);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return isContainer(v) && !Array.isArray(v);
}

/** "topology.links[1].loss.p" → ["topology", "links", 1, "loss", "p"]; a part that is not
 * `name[i]…` stays one field name as written. */
export function pathSegments(path: string): PathSegment[] {
  const out: PathSegment[] = [];
  for (const part of path.split('.')) {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) {
      out.push(part);
      continue;
    }
    if (m[1]) out.push(m[1]);
    for (const idx of m[2].matchAll(/\[(\d+)\]/g)) out.push(Number(idx[1]));
  }
  return out;
}

function child(cur: unknown, s: PathSegment): unknown {
  if (typeof s === 'number') return Array.isArray(cur) ? cur[s] : undefined;
  return isRecord(cur) ? cur[s] : undefined;
}

function walk(root: unknown, segs: readonly PathSegment[]): unknown {
  let cur: unknown = root;
  for (const s of segs) {
    cur = child(cur, s);
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** The value at a path, or undefined where any step is missing or of the wrong kind. */
export function getAt(root: unknown, path: string): unknown {
  return walk(root, pathSegments(path));
}

/**
 * Sets the value at a path in place; `undefined` removes a field. Missing steps are created (a
 * list before an index, an object before a name); removing creates nothing. The write stops
 * at a step that exists but is of the wrong kind (a number where the path needs an object, a
 * name into a list) and at an index more than one past the end of a list: the form writes what
 * it shows, and the core names any other path in its errors.
 */
export function setAt(root: object, path: string, value: unknown): void {
  const segs = pathSegments(path);
  if (segs.length === 0) return;
  if (value === undefined) {
    const last = segs[segs.length - 1];
    const parent = walk(root, segs.slice(0, -1));
    if (typeof last === 'string' && isRecord(parent)) delete parent[last];
    return;
  }
  let cur: unknown = root;
  for (let i = 0; i < segs.length - 1; i++) {
    const s = segs[i];
    const next = child(cur, s);
    if (isContainer(next)) {
      cur = next;
      continue;
    }
    if (next !== undefined && next !== null) return;
    const created: Container = typeof segs[i + 1] === 'number' ? [] : {};
    if (!put(cur, s, created)) return;
    cur = created;
  }
  put(cur, segs[segs.length - 1], value);
}

/** Writes one step; false when `cur` cannot hold it. */
function put(cur: unknown, s: PathSegment, value: unknown): boolean {
  if (typeof s === 'number') {
    if (!Array.isArray(cur) || s > cur.length) return false;
    cur[s] = value;
    return true;
  }
  if (!isRecord(cur)) return false;
  cur[s] = value;
  return true;
}
