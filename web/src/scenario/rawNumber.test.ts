import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isRawNumber, parseKeepingBigIntegers, rawNumber } from './rawNumber';
import { getAt, setAt } from './jsonPath';
import { parseJson, stringifyJson, numberFromText, isObject } from '../editor/model';

type J = typeof JSON & { rawJSON?: unknown; isRawJSON?: unknown };
const json = JSON as J;

const SEED = '18446744073709551615';
const TEXT = `{\n  "name": "x",\n  "seed": ${SEED},\n  "flows": [{"bytes": 1000, "label": "a 9007199254740993 in a string"}],\n  "neg": -9223372036854775808,\n  "small": 9007199254740991,\n  "float": 1e300\n}`;

/** Runs the block with JSON.rawJSON and JSON.isRawJSON gone (an older browser). */
function withoutRawJson() {
  const saved = { rawJSON: json.rawJSON, isRawJSON: json.isRawJSON };
  beforeEach(() => {
    delete json.rawJSON;
    delete json.isRawJSON;
  });
  afterEach(() => {
    if (saved.rawJSON) json.rawJSON = saved.rawJSON;
    if (saved.isRawJSON) json.isRawJSON = saved.isRawJSON;
  });
}

describe('without JSON.rawJSON', () => {
  withoutRawJson();

  it('is really without it', () => {
    expect(json.rawJSON).toBeUndefined();
  });

  it('a form edit of another field keeps "seed": 18446744073709551615 exactly', () => {
    // What ScenarioEditor's `edit` does: parse the text, set a path, write the text.
    const parsed = parseJson(TEXT);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok || !isObject(parsed.value)) return;
    setAt(parsed.value, 'flows[0].bytes', 2000);
    const out = stringifyJson(parsed.value);
    expect(out).toContain(`"seed": ${SEED}`);
    expect(out).toContain('"neg": -9223372036854775808');
    expect(out).toContain('"bytes": 2000');
    // A string that only looks like a big number stays a string, and safe numbers stay numbers.
    expect(out).toContain('"label": "a 9007199254740993 in a string"');
    expect(out).toContain('"small": 9007199254740991');
    expect(out).toContain('"float": 1e+300');
  });

  it('keeps a seed typed into the form exactly', () => {
    const parsed = parseJson('{"name": "x", "seed": 1}');
    if (!parsed.ok || !isObject(parsed.value)) throw new Error('parse');
    const typed = numberFromText(SEED);
    expect(isRawNumber(typed)).toBe(true);
    setAt(parsed.value, 'seed', typed);
    expect(stringifyJson(parsed.value)).toBe(`{\n  "name": "x",\n  "seed": ${SEED}\n}`);
  });

  it('keeps big integers in a one-line list (a sweep axis of seeds)', () => {
    const parsed = parseJson(`{"sweep": {"grid": {"seed": [1, ${SEED}]}}}`);
    if (!parsed.ok) throw new Error('parse');
    expect(stringifyJson(parsed.value)).toContain(`"seed": [1, ${SEED}]`);
  });

  it('treats a raw number as a leaf: a path does not step into it', () => {
    const v = parseKeepingBigIntegers(`{"seed": ${SEED}}`) as Record<string, unknown>;
    expect(isRawNumber(v.seed)).toBe(true);
    expect(getAt(v, 'seed.rawJSON')).toBeUndefined();
    setAt(v, 'seed.x', 1);
    expect((v.seed as { rawJSON: string }).rawJSON).toBe(SEED);
  });

  it('does not mistake a string for a marked number', () => {
    const v = parseKeepingBigIntegers(`{"a": "\\u0001bigint:5", "b": ${SEED}}`) as Record<string, unknown>;
    expect(v.a).toBe('\u0001bigint:5');
    expect((v.b as { rawJSON: string }).rawJSON).toBe(SEED);
  });

  it('reports a syntax error with its position as before', () => {
    const p = parseJson(`{"seed": ${SEED},}`);
    expect(p.ok).toBe(false);
    if (!p.ok) expect(p.offset).toBe(`{"seed": ${SEED},`.length);
  });
});

describe('with JSON.rawJSON (where the browser has it)', () => {
  it('keeps the seed through a form edit too', () => {
    if (!json.rawJSON) return;
    const parsed = parseJson(TEXT);
    if (!parsed.ok || !isObject(parsed.value)) throw new Error('parse');
    setAt(parsed.value, 'name', 'y');
    expect(stringifyJson(parsed.value)).toContain(`"seed": ${SEED}`);
    expect(isRawNumber(rawNumber('1'))).toBe(true);
  });
});
