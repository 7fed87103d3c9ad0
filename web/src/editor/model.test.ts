/// <reference types="node" />
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  errorPlace,
  errorText,
  firstSentence,
  formatValueList,
  lineColumn,
  numberFromText,
  parseJson,
  parseValueList,
  pathWithin,
  sameJson,
  stringifyJson,
  switchTransport,
  syntaxErrorOffset,
} from './model';
import type { FieldError } from '../sim/protocol';

const dir = new URL('../../../scenarios/', import.meta.url);
const presets = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => readFileSync(new URL(f, dir), 'utf8'));

describe('error routing', () => {
  const at = (path: string, message: string, sweep_point?: [string, unknown][]): FieldError => ({ path, message, sweep_point });

  it('words an error as the CLI does, path first', () => {
    expect(errorText(at('flows[0].cc', 'unknown value "cubc"'))).toBe('flows[0].cc: unknown value "cubc"');
    expect(errorText(at('', 'missing field `name`'))).toBe('scenario: missing field `name`');
    expect(errorText(at('flows[0].cc', 'unknown value "x"', [['flows[0].cc', 'x'], ['seed', 1]]))).toBe(
      'sweep point flows[0].cc="x", seed=1: flows[0].cc: unknown value "x"',
    );
  });

  it('places a sweep point error at the grid axis that holds its field, else at the sweep', () => {
    const point: [string, unknown][] = [['flows[0].cc', 'x']];
    expect(errorPlace(at('flows[0].cc', 'unknown value "x"', point))).toBe('sweep');
    expect(errorPlace(at('flows[0].cc', 'unknown value "x"', point), ['seed', 'flows[0].cc'])).toBe('sweep.grid."flows[0].cc"');
    expect(errorPlace(at('topology.links[1].loss.model', 'missing', [['topology.links[1].loss', {}]]), ['topology.links[1].loss'])).toBe(
      'sweep.grid."topology.links[1].loss"',
    );
    expect(errorPlace(at('sweep.grid."flows[0].cc"', 'must be a non-empty list of values'))).toBe('sweep.grid."flows[0].cc"');
  });

  it('matches a path to the fields that hold it, at element and field boundaries', () => {
    expect(pathWithin('topology.links[1].loss.p', 'topology.links[1].loss.p')).toBe(true);
    expect(pathWithin('topology.links[1].loss.p', 'topology.links[1]')).toBe(true);
    expect(pathWithin('topology.links[1].rate_schedule[0].at_s', 'topology.links[1].rate_schedule')).toBe(true);
    expect(pathWithin('topology.links[10].delay_ms', 'topology.links[1]')).toBe(false);
    expect(pathWithin('flows[0].start_s', 'flows[0].start')).toBe(false);
  });
});

describe('number inputs', () => {
  it('write numbers for numbers, nothing for empty, and the text itself otherwise', () => {
    expect(numberFromText('42')).toBe(42);
    expect(numberFromText(' 0.5 ')).toBe(0.5);
    expect(numberFromText('0.')).toBe(0);
    expect(numberFromText('.5')).toBe(0.5);
    expect(numberFromText('1e-4')).toBe(0.0001);
    expect(numberFromText('-3')).toBe(-3);
    expect(numberFromText('')).toBeUndefined();
    expect(numberFromText('  ')).toBeUndefined();
    expect(numberFromText('1e')).toBe('1e');
    expect(numberFromText('abc')).toBe('abc');
    expect(numberFromText('0x10')).toBe('0x10');
    expect(numberFromText('Infinity')).toBe('Infinity');
  });

  it('keep the typed text while it still stands for the value', () => {
    expect(sameJson(numberFromText('0.'), 0)).toBe(true);
    expect(sameJson(numberFromText('1.50'), 1.5)).toBe(true);
    expect(sameJson(numberFromText(''), null)).toBe(true);
    expect(sameJson(numberFromText(''), undefined)).toBe(true);
    expect(sameJson(numberFromText('2'), 3)).toBe(false);
  });
});

describe('value lists', () => {
  it('parse numbers, bare names, quoted strings and JSON', () => {
    expect(parseValueList('reno, cubic')).toEqual(['reno', 'cubic']);
    expect(parseValueList('0, 0.01,1e-3')).toEqual([0, 0.01, 0.001]);
    expect(parseValueList('"a,b", [1, 2], {"x": 1}, null, true')).toEqual(['a,b', [1, 2], { x: 1 }, null, true]);
    expect(parseValueList('')).toEqual([]);
    expect(parseValueList('1,,2')).toEqual([1, '', 2]);
  });

  it('format back to the same values', () => {
    for (const values of [['reno', 'cubic'], [0, 0.02, 0.2], ['1', 'a,b', ' x', ''], [[1, 2], { x: 'y' }, null, false]]) {
      expect(parseValueList(formatValueList(values))).toEqual(values);
    }
    expect(formatValueList(['reno', 'cubic'])).toBe('reno, cubic');
    expect(formatValueList(['1'])).toBe('"1"');
  });
});

describe('JSON text', () => {
  it('writes 2-space JSON that reads back the same, with short lists on one line', () => {
    for (const text of presets) {
      const p = parseJson(text);
      expect(p.ok).toBe(true);
      if (!p.ok) continue;
      const out = stringifyJson(p.value);
      expect(JSON.parse(out)).toEqual(JSON.parse(text));
      expect(out).toMatch(/^\{\n {2}"version": 1,\n/);
    }
    expect(stringifyJson({ a: [1, 2], b: { c: [] }, d: [{ e: 1 }] })).toBe(
      '{\n  "a": [1, 2],\n  "b": {\n    "c": []\n  },\n  "d": [\n    {\n      "e": 1\n    }\n  ]\n}',
    );
  });

  it('says where a syntax error is', () => {
    const text = '{\n  "a": 1,\n  "b": }';
    const p = parseJson(text);
    expect(p.ok).toBe(false);
    if (!p.ok) {
      expect(p.offset).toBeDefined();
      expect(lineColumn(text, p.offset ?? 0).line).toBe(3);
    }
  });
});

describe('gallery lines', () => {
  it('takes the first sentence, not stopping at abbreviations', () => {
    expect(firstSentence('Reproduces the TCP side of Fig. 2 of the CTCP paper (x). Testbed as its Fig. 1: a.')).toBe(
      'Reproduces the TCP side of Fig. 2 of the CTCP paper (x).',
    );
    expect(firstSentence('See eqs. (5)-(9) here. Next.')).toBe('See eqs. (5)-(9) here.');
    expect(firstSentence('One sentence only')).toBe('One sentence only');
  });

  it('gives every preset a short line', () => {
    for (const text of presets) {
      const line = firstSentence((JSON.parse(text) as { description?: string }).description ?? '');
      expect(line.length).toBeGreaterThan(20);
      expect(line.length).toBeLessThan(400);
      expect(line.endsWith('.')).toBe(true);
    }
  });
});

describe('syntax error offsets', () => {
  it('point at the first bad character', () => {
    expect(syntaxErrorOffset('{"a": 1}')).toBeUndefined();
    expect(syntaxErrorOffset(' [1, -2.5e3, "x\\n", true, null, {}] ')).toBeUndefined();
    expect(syntaxErrorOffset('{"a": }')).toBe(6);
    expect(syntaxErrorOffset('{"a": 1,}')).toBe(8);
    expect(syntaxErrorOffset('{"a": 1')).toBe(7);
    expect(syntaxErrorOffset('{"a": tru}')).toBe(9);
    expect(syntaxErrorOffset('{"a": 01}')).toBe(7);
    expect(syntaxErrorOffset('{} x')).toBe(3);
    expect(syntaxErrorOffset('')).toBe(0);
    for (const text of presets) expect(syntaxErrorOffset(text)).toBeUndefined();
  });
});

describe('switching a flow between transports', () => {
  it('keeps bytes, start, nodes and label and drops the fields of the other transport', () => {
    const tcp = { transport: 'tcp', cc: 'hybla', bytes: 5_000_000, start_s: 2, mss_bytes: 1448, sack: false, initial_ssthresh_pkts: null, label: 'a', to_node: 2 };
    const ctcp = switchTransport(tcp, 'ctcp');
    expect(ctcp).toEqual({ transport: 'ctcp', variant: 'v2', coding: 'full', bytes: 5_000_000, start_s: 2, to_node: 2, label: 'a' });
    expect(Object.keys(ctcp).slice(0, 2)).toEqual(['transport', 'variant']);
    const back = switchTransport({ ...ctcp, block_pkts: 16, max_blocks: 4, v2_delta_l_s: 0.5 }, 'tcp', { cc: 'reno' });
    expect(back).toEqual({ transport: 'tcp', cc: 'reno', bytes: 5_000_000, start_s: 2, to_node: 2, label: 'a' });
  });

  it('switches to INTCP with caches on, keeping what the transports share', () => {
    const tcp = { transport: 'tcp', cc: 'reno', bytes: 1000, start_s: 1, sack: false, label: 'x' };
    expect(switchTransport(tcp, 'intcp')).toEqual({ transport: 'intcp', cache: true, bytes: 1000, start_s: 1, label: 'x' });
  });

  it('keeps an unlimited transfer as null, and leaves a flow of the same transport as it is', () => {
    expect(switchTransport({ transport: 'tcp', cc: 'cubic', bytes: null }, 'ctcp', { variant: 'v1' })).toEqual({ transport: 'ctcp', variant: 'v1', coding: 'full', bytes: null });
    const same = { transport: 'ctcp', variant: 'v1', block_pkts: 8 };
    expect(switchTransport(same, 'ctcp')).toEqual(same);
    expect(switchTransport(undefined, 'tcp')).toEqual({ transport: 'tcp', cc: 'cubic' });
  });

  it('rewrites every preset flow to the other transport with only known fields', () => {
    for (const text of presets) {
      const flows = (JSON.parse(text) as { flows: Record<string, unknown>[] }).flows;
      for (const f of flows) {
        const other = switchTransport(f as never, f.transport === 'tcp' ? 'ctcp' : 'tcp');
        expect(other.transport).not.toBe(f.transport);
        expect(Object.keys(other).every((k) => ['transport', 'cc', 'variant', 'coding', 'bytes', 'start_s', 'from_node', 'to_node', 'label'].includes(k))).toBe(true);
      }
    }
  });
});
