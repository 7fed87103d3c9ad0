// Pure helpers of the scenario editor: reading and writing the JSON text without losing
// anything, where the core's errors belong (formErrors.ts assigns them), and the small text
// formats of the form (comma-separated lists, sweep values). No React here, so it is unit-tested.

import type { FieldError } from '../sim/protocol';
import { jsonDepth, tooDeep } from '../scenario/jsonDepth';
import { isRawNumber, isUnsafeInteger, parseKeepingBigIntegers, rawNumber, type RawNumber } from '../scenario/rawNumber';

/** A JSON value as the editor handles it (objects are edited in place). */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json } | RawNumber;

export { isRawNumber, type RawNumber };

/** A number from its exact text, as a RawNumber when a double would round it. */
function exactNumber(text: string, n: number): number | RawNumber {
  return isUnsafeInteger(text.trim()) ? rawNumber(text.trim()) : n;
}

export type Parsed = { ok: true; value: Json } | { ok: false; error: string; offset?: number };

/** Parses scenario text, keeping integers beyond 2^53 exact (a 64-bit seed) in any browser. */
export function parseJson(text: string): Parsed {
  const deep = tooDeep(text);
  if (deep !== null) return { ok: false, error: deep, offset: jsonDepth(text).overAt };
  try {
    // Plain first: its error message gives the position of a syntax error in the text itself.
    JSON.parse(text);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { ok: false, error: message, offset: errorOffset(text, message) };
  }
  return { ok: true, value: parseKeepingBigIntegers(text) as Json };
}

/** The text the form writes: pretty JSON with a 2-space indent, where a list of plain values
 * (a sweep axis, a drop list) that fits on one line stays on one line. */
export function stringifyJson(value: Json): string {
  return pretty(value, '');
}

const LINE = 100;

function pretty(v: Json, indent: string): string {
  const inner = indent + '  ';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    if (v.every((x) => x === null || typeof x !== 'object' || isRawNumber(x))) {
      const one = `[${v.map((x) => leaf(x)).join(', ')}]`;
      if (indent.length + one.length <= LINE) return one;
    }
    return `[\n${v.map((x) => inner + pretty(x, inner)).join(',\n')}\n${indent}]`;
  }
  if (isObject(v)) {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${pretty(x, inner)}`).join(',\n')}\n${indent}}`;
  }
  return leaf(v);
}

/** A value with nothing to indent; a raw number as its digits (JSON.stringify writes the
 * browser's own raw values so, but not the stand-in of browsers without them). */
function leaf(v: Json): string {
  return isRawNumber(v) ? v.rawJSON : JSON.stringify(v);
}

/** Where a JSON.parse message says the text is wrong: V8 gives "position N" for some errors,
 * Firefox "line L column C"; otherwise a small scanner finds the first offending character. */
function errorOffset(text: string, message: string): number | undefined {
  const pos = /position (\d+)/.exec(message);
  if (pos) return Math.min(text.length, Number(pos[1]));
  const lc = /line (\d+) column (\d+)/.exec(message);
  if (lc) {
    const lines = text.split('\n').slice(0, Number(lc[1]) - 1);
    return Math.min(text.length, lines.reduce((n, l) => n + l.length + 1, 0) + Number(lc[2]) - 1);
  }
  return syntaxErrorOffset(text);
}

/** The offset of the first character that makes `text` invalid JSON (text.length when it
 * ends too early), or undefined when it is valid. */
export function syntaxErrorOffset(text: string): number | undefined {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const fail = (at: number): never => {
    throw at;
  };
  const literal = (word: string) => {
    for (let k = 0; k < word.length; k++, i++) if (text[i] !== word[k]) fail(i);
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) fail(i);
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          for (let k = 1; k <= 4; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) fail(i + k);
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? 'x')) fail(i);
      }
      i++;
    }
    if (i >= text.length) fail(i);
    i++;
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === '' || m[0] === '-') fail(i + (m?.[0].length ?? 0));
    i += (m as RegExpExecArray)[0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail(i);
        string();
        ws();
        if (text[i] !== ':') fail(i);
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail(i);
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail(i);
      }
    } else if (c === '"') string();
    else if (c === 't') literal('true');
    else if (c === 'f') literal('false');
    else if (c === 'n') literal('null');
    else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) number();
    else fail(i);
  };
  try {
    value();
    ws();
    return i < text.length ? i : undefined;
  } catch (at) {
    return Math.min(text.length, at as number);
  }
}

/** Line and column (1-based) of a character offset, for parse errors. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

// ---------- values ----------

export type JsonObject = { [k: string]: Json };

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !isRawNumber(v);
}

/** A field's text as an input shows it. */
export function formatValue(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (isRawNumber(v)) return v.rawJSON;
  return JSON.stringify(v) ?? '';
}

/**
 * What a number input writes for its text: a number when it reads as one; `undefined` when
 * empty (the caller decides between removing the field and writing null); otherwise the text
 * itself, so the core names the bad value instead of the form inventing one.
 */
export function numberFromText(text: string): number | RawNumber | string | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  // Number() also reads "0x10" and " 1_0"; JSON numbers, and "1." or ".5" while typing, only.
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return text;
  const n = Number(t);
  return Number.isFinite(n) ? exactNumber(t, n) : text;
}

/** Whether two values are the same JSON (so an input's text still stands for the value). */
export function sameJson(a: unknown, b: unknown): boolean {
  const norm = (v: unknown) => (v === undefined ? null : v);
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}

/** Splits at commas outside quotes, brackets and braces. */
export function splitTopLevel(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inString = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') depth = Math.max(0, depth - 1);
    else if (c === ',' && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim());
}

/**
 * Parses "reno, cubic" or "0, 0.01, 1e-3" or "\"a,b\", [1,2]": each item is read as JSON when it
 * is JSON (numbers, quoted strings, true/false/null, lists, objects) and as a bare string
 * otherwise. An empty text is an empty list.
 */
export function parseValueList(text: string): Json[] {
  if (text.trim() === '') return [];
  return splitTopLevel(text).map((item): Json => {
    const p = parseJson(item);
    return p.ok ? p.value : item;
  });
}

/** The inverse of {@link parseValueList}: bare strings where they read back as the same string. */
export function formatValueList(values: unknown): string {
  if (!Array.isArray(values)) return formatValue(values);
  return values
    .map((v) => {
      if (typeof v === 'string') {
        const bare = v.trim() === v && v !== '' && !/[,"[\]{}]/.test(v) && !parseJson(v).ok;
        return bare ? v : JSON.stringify(v);
      }
      return isRawNumber(v) ? v.rawJSON : JSON.stringify(v);
    })
    .join(', ');
}

// ---------- flows ----------

/** The transports a flow can have (the `transport` tag of Flow in types.gen.ts). */
export type Transport = 'tcp' | 'ctcp' | 'intcp' | 'arq';

/** Fields every transport's flow has, kept when a flow switches transport. */
const SHARED_FLOW_FIELDS = ['bytes', 'start_s', 'from_node', 'to_node', 'label'] as const;

/**
 * The flow `flow` rewritten as a valid flow of transport `to`: the transport and its required
 * field first (TCP's `cc`, CTCP's `variant`), then the fields both transports share (bytes,
 * start, nodes, label) as they were. Fields of the other transport are dropped: they would be
 * unknown fields, or mean something else (an MSS or initial window has other defaults).
 * A flow already of transport `to` comes back unchanged (a copy).
 */
export function switchTransport(flow: Json | undefined, to: Transport, defaults: { cc?: string; variant?: string } = {}): JsonObject {
  const old = isObject(flow) ? flow : {};
  if (old.transport === to) return { ...old };
  const out: JsonObject =
    to === 'tcp'
      ? { transport: 'tcp', cc: defaults.cc ?? 'cubic' }
      : to === 'ctcp'
        ? { transport: 'ctcp', variant: defaults.variant ?? 'v2', coding: 'full' }
        : to === 'intcp'
          ? { transport: 'intcp', cache: true }
          : { transport: 'arq', mode: 'selective-repeat' };
  for (const k of SHARED_FLOW_FIELDS) if (k in old && old[k] !== undefined) out[k] = old[k];
  return out;
}

// ---------- errors ----------

/** An error in words, path first: "flows[0].cc: unknown value ...", "sweep point
 * flows[0].cc=\"x\": flows[0].cc: ...", "scenario: ..." for the scenario as a whole (the CLI's
 * wording). */
export function errorText(e: FieldError): string {
  const point = e.sweep_point ? `sweep point ${e.sweep_point.map(([p, v]) => `${p}=${JSON.stringify(v)}`).join(', ')}: ` : '';
  return `${point}${e.path === '' ? 'scenario' : e.path}: ${e.message}`;
}

/** Where the form shows an error: at its path; a sweep point's error at the grid axis whose
 * path holds the field it names (else at the sweep); the scenario's own at the top. */
export function errorPlace(e: FieldError, axes: readonly string[] = []): string {
  if (!e.sweep_point) return e.path;
  const axis = axes.find((a) => pathWithin(e.path, a));
  return axis === undefined ? 'sweep' : `sweep.grid."${axis}"`;
}

/** Whether `path` is `field` or lies inside it (`topology.links[1]` holds `topology.links[1].loss.p`). */
export function pathWithin(path: string, field: string): boolean {
  if (path === field) return true;
  if (!path.startsWith(field)) return false;
  const next = path[field.length];
  return next === '.' || next === '[';
}

// ---------- gallery text ----------

const ABBREVIATIONS = /(?:^|[\s(])(?:Fig|Figs|Eq|Eqs|Sec|Ref|No|vs|cf|al|e\.g|i\.e|approx|ca)$/i;

/** The first sentence of a description: up to the first ". " before a capital letter that does
 * not end an abbreviation such as "Fig." or "e.g.". */
export function firstSentence(text: string): string {
  const t = text.trim();
  const re = /([.!?])\s+(?=[A-Z0-9"'(])/g;
  for (let m = re.exec(t); m; m = re.exec(t)) {
    const before = t.slice(0, m.index);
    if (m[1] === '.' && ABBREVIATIONS.test(before)) continue;
    if (m[1] === '.' && /\d$/.test(before) && /^\.\s+\d/.test(t.slice(m.index))) continue;
    return t.slice(0, m.index + 1);
  }
  return t;
}
