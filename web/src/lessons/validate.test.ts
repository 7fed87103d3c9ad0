import { describe, expect, it } from 'vitest';
import { LIMITS, validateLesson } from './validate';

const step = (over: Record<string, unknown> = {}) => ({
  title: 'A step',
  text: 'Some *text*.',
  scenario: { preset: 'default' },
  look_at: 'goodput',
  question: 'What?',
  answer: 'That.',
  ...over,
});
const lesson = (over: Record<string, unknown> = {}) => ({ version: 1, id: 'a-lesson', title: 'A lesson', summary: 'About it.', steps: [step()], ...over });
const paths = (v: unknown) => validateLesson(v).errors.map((e) => e.path);

describe('validateLesson', () => {
  it('accepts a minimal lesson and returns it', () => {
    const l = lesson({ $schema: './lesson.schema.json', steps: [step(), step({ scenario: { edits: { 'flows[0].cc': 'reno' } }, checks: [{ result: 'flows[0].goodput_mbps', approx: 1, tolerance: 0.1 }] })] });
    expect(validateLesson(l)).toEqual({ lesson: l, errors: [] });
  });

  it('never throws, and says what a non-object is', () => {
    for (const v of [null, undefined, 3, 'x', [], true, () => 1, Symbol('s')]) {
      const r = validateLesson(v);
      expect(r.lesson).toBeNull();
      expect(r.errors).toHaveLength(1);
      expect(r.errors[0].path).toBe('');
      expect(r.errors[0].message).toMatch(/^a lesson is a JSON object, not /);
    }
  });

  it('names every missing field', () => {
    expect(paths({})).toEqual(['version', 'id', 'title', 'summary', 'steps']);
    expect(paths(lesson({ steps: [{}] }))).toEqual([
      'steps[0].title',
      'steps[0].text',
      'steps[0].question',
      'steps[0].answer',
      'steps[0].look_at',
      'steps[0].scenario',
    ]);
  });

  it('names unknown fields at every level', () => {
    const r = validateLesson(lesson({ extra: 1, steps: [step({ hint: 'x', scenario: { preset: 'default', seed: 2 }, checks: [{ result: 'a', approx: 1, tolerance: 0, note: '' }] })] }));
    expect(r.errors.map((e) => e.path)).toEqual(['extra', 'steps[0].hint', 'steps[0].scenario.seed', 'steps[0].checks[0].note']);
    expect(r.errors[0].message).toBe('unknown field; expected one of $schema, version, id, title, summary, steps');
  });

  it('checks the version, the id and the text fields', () => {
    const r = validateLesson(lesson({ version: 2, id: 'Bad Id', title: '   ', summary: 7 }));
    expect(r.errors).toEqual([
      { path: 'version', message: 'must be 1, not 2' },
      { path: 'id', message: '"Bad Id" is not an id: lower-case letters, digits and "-", at most 64 characters' },
      { path: 'title', message: 'is empty' },
      { path: 'summary', message: 'must be text, not a number' },
    ]);
    expect(validateLesson(lesson({ title: 'x'.repeat(LIMITS.titleChars + 1) })).errors[0].message).toBe(`is ${LIMITS.titleChars + 1} characters long; at most ${LIMITS.titleChars} are allowed`);
  });

  it('names an unknown view and lists the known ones', () => {
    const r = validateLesson(lesson({ steps: [step({ look_at: 'radar' })] }));
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].path).toBe('steps[0].look_at');
    expect(r.errors[0].message).toMatch(/^unknown view "radar"; expected one of summary, cwnd, sequence, goodput, .*globe$/);
  });

  it('needs a preset on the first step, and a preset or edits on every step', () => {
    expect(validateLesson(lesson({ steps: [step({ scenario: { edits: {} } })] })).errors).toEqual([
      { path: 'steps[0].scenario.preset', message: 'the first step needs a preset: there is no previous step to edit' },
    ]);
    expect(paths(lesson({ steps: [step(), step({ scenario: {} })] }))).toEqual(['steps[1].scenario']);
    expect(paths(lesson({ steps: [step({ scenario: 'default' })] }))).toEqual(['steps[0].scenario']);
  });

  it('names a bad edit path by the path itself', () => {
    const r = validateLesson(lesson({ steps: [step({ scenario: { preset: 'default', edits: { 'flows[0].cc': 'reno', 'flows[x]': 1, 'a..b': 2, '': 3 } } })] }));
    expect(r.errors.map((e) => e.path)).toEqual(['steps[0].scenario.edits["flows[x]"]', 'steps[0].scenario.edits["a..b"]', 'steps[0].scenario.edits[""]']);
    expect(r.errors[2].message).toBe('the path is empty');
  });

  it('refuses edits that are not plain JSON values', () => {
    const r = validateLesson(lesson({ steps: [step({ scenario: { preset: 'default', edits: { duration_s: NaN, seed: [1, () => 2] } } })] }));
    expect(r.errors.map((e) => [e.path, e.message])).toEqual([
      ['steps[0].scenario.edits["duration_s"]', 'the value is not plain JSON'],
      ['steps[0].scenario.edits["seed"]', 'the value is not plain JSON'],
    ]);
  });

  it('checks every field of a check', () => {
    const r = validateLesson(lesson({ steps: [step({ checks: [{ result: 'x[', approx: Infinity, tolerance: -1 }, 5] })] }));
    expect(r.errors.map((e) => e.path)).toEqual(['steps[0].checks[0].result', 'steps[0].checks[0].approx', 'steps[0].checks[0].tolerance', 'steps[0].checks[1]']);
  });

  it('bounds the number of steps and edits', () => {
    expect(validateLesson(lesson({ steps: [] })).errors).toEqual([{ path: 'steps', message: 'a lesson has at least one step' }]);
    expect(validateLesson(lesson({ steps: Array.from({ length: LIMITS.steps + 1 }, () => step()) })).errors).toEqual([
      { path: 'steps', message: `has ${LIMITS.steps + 1} steps; at most ${LIMITS.steps} are allowed` },
    ]);
    const edits = Object.fromEntries(Array.from({ length: LIMITS.edits + 1 }, (_, i) => [`f${i}`, i]));
    expect(paths(lesson({ steps: [step({ scenario: { preset: 'default', edits } })] }))).toEqual(['steps[0].scenario.edits']);
  });

  it('survives hostile shapes without throwing', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    for (const v of [
      lesson({ steps: [step({ scenario: { preset: 'default', edits: { a: cyclic } } })] }),
      lesson({ steps: [step({ scenario: { preset: 'default', edits: { a: deep } } })] }),
      lesson({ steps: 'many' }),
      lesson({ steps: [null, 1, 'x'] }),
      Object.create(null),
    ]) {
      expect(() => validateLesson(v)).not.toThrow();
      expect(validateLesson(v).errors.length).toBeGreaterThan(0);
    }
  });
});
