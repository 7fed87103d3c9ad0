import { describe, expect, it } from 'vitest';
import { withParams } from '../share/fragment';
import { fragmentParams, LANDING, parse, reduce, sameStep, serialize, type LessonState } from './state';

const COUNTS = [5, 6, 3];
const at = (lesson: number, step: number, revealed: number[] = [], ran: number[] = []): LessonState => ({ lesson, step, revealed, ran });

describe('reduce', () => {
  it('opens a lesson at its first step with nothing run or revealed', () => {
    expect(reduce(at(0, 3, [1], [1, 2]), { type: 'open', lesson: 2 }, COUNTS)).toEqual(at(2, 0));
  });

  it('ignores opening a lesson that does not exist', () => {
    for (const lesson of [-1, 3, 1.5, NaN]) expect(reduce(LANDING, { type: 'open', lesson }, COUNTS)).toBe(LANDING);
  });

  it('moves between steps and stops at both ends', () => {
    let s = reduce(LANDING, { type: 'open', lesson: 2 }, COUNTS);
    expect(reduce(s, { type: 'back' }, COUNTS)).toBe(s);
    s = reduce(s, { type: 'next' }, COUNTS);
    s = reduce(s, { type: 'next' }, COUNTS);
    expect(s.step).toBe(2);
    expect(reduce(s, { type: 'next' }, COUNTS)).toBe(s);
    expect(reduce(s, { type: 'back' }, COUNTS).step).toBe(1);
  });

  it('reveals an answer only once its step has run', () => {
    const s = at(1, 2);
    expect(reduce(s, { type: 'reveal', step: 2 }, COUNTS)).toBe(s);
    const ran = reduce(s, { type: 'ran', step: 2 }, COUNTS);
    expect(ran.ran).toEqual([2]);
    expect(reduce(ran, { type: 'reveal', step: 2 }, COUNTS).revealed).toEqual([2]);
  });

  it('keeps run and revealed steps sorted and without repeats', () => {
    let s = at(1, 0);
    for (const step of [4, 1, 4]) s = reduce(reduce(s, { type: 'ran', step }, COUNTS), { type: 'reveal', step }, COUNTS);
    expect(s.ran).toEqual([1, 4]);
    expect(s.revealed).toEqual([1, 4]);
  });

  it('ignores a run of a step the lesson does not have', () => {
    const s = at(2, 0);
    expect(reduce(s, { type: 'ran', step: 3 }, COUNTS)).toBe(s);
  });

  it('does nothing but open on the list of lessons, and closes to it', () => {
    expect(reduce(LANDING, { type: 'next' }, COUNTS)).toBe(LANDING);
    expect(reduce(at(1, 4, [4], [4]), { type: 'close' }, COUNTS)).toEqual(LANDING);
  });
});

describe('serialize and parse', () => {
  it('writes numbers from 1 and reads them back', () => {
    const s = at(1, 2, [0, 2], [2]);
    expect(serialize(s)).toBe('lesson=2&step=3&revealed=1,3');
    // Steps that ran are not in the link.
    expect(parse(serialize(s), COUNTS)).toEqual({ ok: true, state: at(1, 2, [0, 2]) });
  });

  it('writes nothing for the list of lessons, and reads nothing as it', () => {
    expect(serialize(LANDING)).toBe('');
    expect(parse('', COUNTS)).toEqual({ ok: true, state: LANDING });
  });

  it('reads a fragment with its # and beside other parameters', () => {
    expect(parse('#s=1abc&lesson=3&step=2', COUNTS)).toEqual({ ok: true, state: at(2, 1) });
    expect(parse(new URLSearchParams('lesson=1&revealed=5,1,5'), COUNTS)).toEqual({ ok: true, state: at(0, 0, [0, 4]) });
  });

  it('names the parameter and the accepted range for a bad lesson', () => {
    for (const bad of ['0', '4', 'two', '-1', '1.5', '', '01', '1e1']) {
      const r = parse(`lesson=${encodeURIComponent(bad)}`, COUNTS);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatch(/^lesson: ".*" is not a lesson number; there are 3 lessons, numbered 1 to 3$/);
    }
  });

  it('names the step and the lesson for a step out of range', () => {
    expect(parse('lesson=3&step=4', COUNTS)).toEqual({ ok: false, error: 'step: "4" is not a step of lesson 3, which has steps 1 to 3' });
    expect(parse('lesson=3&step=x', COUNTS).ok).toBe(false);
  });

  it('names a bad element of the revealed list', () => {
    const r = parse('lesson=3&revealed=1,,2', COUNTS);
    expect(r).toEqual({ ok: false, error: 'revealed: "" is not a step of lesson 3, which has steps 1 to 3 (write a list such as revealed=1,2)' });
    expect(parse('lesson=3&revealed=1,9', COUNTS).ok).toBe(false);
  });

  it('refuses a step or revealed list without a lesson', () => {
    expect(parse('step=2', COUNTS)).toEqual({ ok: false, error: 'step: given without a lesson (add lesson=1 to 3)' });
  });

  it('cuts a long bad value in its error', () => {
    const r = parse(`lesson=${'9'.repeat(500)}`, COUNTS);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.length).toBeLessThan(120);
  });

  it('reports that there are no lessons', () => {
    expect(parse('lesson=1', [])).toEqual({ ok: false, error: 'lesson: there are no lessons' });
  });
});

describe('the lesson in a fragment that holds other parameters', () => {
  it('sets its own parameters and keeps a shared scenario', () => {
    const hash = withParams('#s=1abc&lesson=1&step=4&revealed=2', fragmentParams(at(1, 2, [0, 2])));
    expect(hash).toBe('s=1abc&lesson=2&step=3&revealed=1,3');
    expect(parse(hash, COUNTS)).toEqual({ ok: true, state: at(1, 2, [0, 2]) });
  });

  it('removes them all for the list of lessons, and a revealed list that is empty', () => {
    expect(withParams('#preset=default&lesson=2&step=3&revealed=1', fragmentParams(LANDING))).toBe('preset=default');
    expect(withParams('#lesson=2&step=3&revealed=1', fragmentParams(at(1, 2)))).toBe('lesson=2&step=3');
  });

  it('tells a move to another step from a change on the same step', () => {
    expect(sameStep(at(1, 2), at(1, 2, [2], [2]))).toBe(true);
    expect(sameStep(at(1, 2), at(1, 3))).toBe(false);
    expect(sameStep(at(1, 2), at(0, 2))).toBe(false);
    expect(sameStep(LANDING, { ...LANDING, step: 4 })).toBe(true);
    expect(sameStep(LANDING, at(0, 0))).toBe(false);
  });
});
