import { describe, expect, it } from 'vitest';
import type { Scenario } from '../scenario/types.gen';
import type { Lesson } from './format';
import { applyEdit, resolveLesson, sameJson } from './resolve';

const base = (): Scenario => ({
  version: 1,
  name: 'base',
  duration_s: 10,
  topology: { kind: 'chain', links: [{ rate_mbps: 10, delay_ms: 5, loss: { model: 'bernoulli', p: 0.01 } }] },
  flows: [{ transport: 'tcp', cc: 'cubic', bytes: null }],
});
const PRESETS = [{ id: 'base', scenario: base() }, { id: 'base-lossy', scenario: base() }];
const lesson = (scenarios: Lesson['steps'][number]['scenario'][]): Lesson => ({
  version: 1,
  id: 'l',
  title: 'L',
  summary: 'S',
  steps: scenarios.map((scenario) => ({ title: 't', text: 't', scenario, look_at: 'goodput', question: 'q', answer: 'a' })),
});

describe('applyEdit', () => {
  it('replaces a value at a path through fields and list elements', () => {
    const s = base();
    expect(applyEdit(s, 'topology.links[0].loss.p', 0.04)).toBeNull();
    expect(applyEdit(s, 'flows[0]', { transport: 'tcp', cc: 'reno', bytes: 5 })).toBeNull();
    expect(s.topology.kind === 'chain' && s.topology.links[0].loss).toEqual({ model: 'bernoulli', p: 0.04 });
    expect(s.flows[0]).toEqual({ transport: 'tcp', cc: 'reno', bytes: 5 });
  });

  it('adds a field the object does not have yet (an optional field left out)', () => {
    const s = base();
    expect(applyEdit(s, 'flows[0].rwnd_pkts', 45)).toBeNull();
    expect(s.flows[0]).toMatchObject({ rwnd_pkts: 45 });
  });

  it('refuses a path through something the scenario does not have', () => {
    expect(applyEdit(base(), 'flows[1].cc', 'reno')).toBe('flows[1] does not exist: flows has 1 element');
    expect(applyEdit(base(), 'flows[1]', {})).toBe('flows[1] does not exist: flows has 1 element');
    expect(applyEdit(base(), 'sweep.runs', 3)).toBe('sweep does not exist in this step\'s scenario');
    expect(applyEdit(base(), 'duration_s.value', 3)).toBe('duration_s is a number, not an object, so it has no field "value"');
    expect(applyEdit(base(), 'topology[0]', 3)).toBe('topology is an object, not a list, so it has no element [0]');
    expect(applyEdit(base(), 'flows.cc', 3)).toBe('flows is a list, not an object, so it has no field "cc"');
  });

  it('copies the value, so later edits cannot change an earlier step', () => {
    const v = { model: 'none' as const };
    const s = base();
    applyEdit(s, 'topology.links[0].loss', v);
    (v as { model: string }).model = 'changed';
    expect(s.topology.kind === 'chain' && s.topology.links[0].loss).toEqual({ model: 'none' });
  });
});

describe('resolveLesson', () => {
  it('builds each step from a preset or the previous step, edits applied in order', () => {
    const { resolved, errors } = resolveLesson(
      lesson([{ preset: 'base', edits: { 'flows[0].cc': 'reno' } }, { edits: { duration_s: 20 } }, { edits: {} }, { preset: 'base' }]),
      PRESETS,
    );
    expect(errors).toEqual([]);
    const s = resolved!.scenarios;
    expect(s.map((x) => [x.flows[0].transport === 'tcp' && x.flows[0].cc, x.duration_s])).toEqual([
      ['reno', 10],
      ['reno', 20],
      ['reno', 20],
      ['cubic', 10],
    ]);
    // Each step has its own copy.
    expect(s[1]).not.toBe(s[2]);
    expect(PRESETS[0].scenario.flows[0]).toMatchObject({ cc: 'cubic' });
  });

  it('drops a preset\'s sweep unless the step looks at the sweep chart, and keeps it for the next step', () => {
    const swept = { ...base(), sweep: { grid: { 'flows[0].cc': ['reno', 'cubic'] } } } as Scenario;
    const l = lesson([{ preset: 'swept' }, { edits: { 'sweep.runs': 3 } }]);
    l.steps[1].look_at = 'sweep';
    const { resolved, errors } = resolveLesson(l, [...PRESETS, { id: 'swept', scenario: swept }]);
    expect(errors).toEqual([]);
    expect(resolved!.scenarios[0].sweep).toBeUndefined();
    expect(resolved!.scenarios[1].sweep).toEqual({ grid: { 'flows[0].cc': ['reno', 'cubic'] }, runs: 3 });
  });

  it('names an unknown preset and suggests similar ones', () => {
    expect(resolveLesson(lesson([{ preset: 'base-x' }]), PRESETS).errors).toEqual([
      { path: 'steps[0].scenario.preset', message: 'there is no preset "base-x" in scenarios/; similar: base, base-lossy' },
    ]);
  });

  it('names the step and the edit that does not fit, and does not pile up errors after it', () => {
    const r = resolveLesson(lesson([{ preset: 'base' }, { edits: { 'flows[0].cc': 'reno', 'flows[2].cc': 'bbr' } }, { edits: { duration_s: 5 } }]), PRESETS);
    expect(r.resolved).toBeNull();
    expect(r.errors).toEqual([{ path: 'steps[1].scenario.edits["flows[2].cc"]', message: 'flows[2] does not exist: flows has 1 element' }]);
  });
});

describe('sameJson', () => {
  it('compares values, not key order or identity', () => {
    expect(sameJson({ a: [1, { b: null }], c: 'x' }, { c: 'x', a: [1, { b: null }] })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson({ 0: 1 }, [1])).toBe(false);
    expect(sameJson(null, {})).toBe(false);
  });
});
