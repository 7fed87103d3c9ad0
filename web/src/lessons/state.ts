// Where a learner is in the lessons: which lesson, which step, which steps have run and which
// answers are revealed. Plain data and pure functions, so the page can keep it wherever it likes
// and put it in the URL fragment: `#lesson=2&step=3&revealed=1,3` (numbers count from 1, as
// the panel shows them). Steps that have run are not in the URL: a link opens with the answers
// it names revealed, and the others wait for a run.

export interface LessonState {
  /** Index into the list of lessons; null shows the list. */
  lesson: number | null;
  /** Index of the current step of `lesson`. */
  step: number;
  /** Steps (indices) whose answer is shown. */
  revealed: readonly number[];
  /** Steps (indices) that have run since the lesson was opened. */
  ran: readonly number[];
}

export const LANDING: LessonState = { lesson: null, step: 0, revealed: [], ran: [] };

export type LessonAction =
  | { type: 'open'; lesson: number }
  | { type: 'close' }
  | { type: 'next' }
  | { type: 'back' }
  | { type: 'ran'; step: number }
  | { type: 'reveal'; step: number };

/** The fragment parameters of a lesson state. */
export const PARAMS = { lesson: 'lesson', step: 'step', revealed: 'revealed' } as const;

function withItem(xs: readonly number[], x: number): number[] {
  return xs.includes(x) ? [...xs] : [...xs, x].sort((a, b) => a - b);
}

/**
 * The state after `action`, given how many steps each lesson has. Actions that make no sense
 * where the learner is (Next on the last step, revealing a step that has not run) leave the
 * state as it is.
 */
export function reduce(state: LessonState, action: LessonAction, stepCounts: readonly number[]): LessonState {
  switch (action.type) {
    case 'open':
      if (!Number.isInteger(action.lesson) || action.lesson < 0 || action.lesson >= stepCounts.length) return state;
      return { lesson: action.lesson, step: 0, revealed: [], ran: [] };
    case 'close':
      return LANDING;
  }
  if (state.lesson === null) return state;
  const steps = stepCounts[state.lesson] ?? 0;
  switch (action.type) {
    case 'next':
      return state.step + 1 < steps ? { ...state, step: state.step + 1 } : state;
    case 'back':
      return state.step > 0 ? { ...state, step: state.step - 1 } : state;
    case 'ran':
      return action.step >= 0 && action.step < steps ? { ...state, ran: withItem(state.ran, action.step) } : state;
    case 'reveal':
      return state.ran.includes(action.step) ? { ...state, revealed: withItem(state.revealed, action.step) } : state;
  }
}

/** The fragment parameters for `state` (empty for the list of lessons). */
export function serialize(state: LessonState): string {
  if (state.lesson === null) return '';
  const p = new URLSearchParams();
  p.set(PARAMS.lesson, String(state.lesson + 1));
  p.set(PARAMS.step, String(state.step + 1));
  if (state.revealed.length > 0) p.set(PARAMS.revealed, state.revealed.map((s) => s + 1).join(','));
  // URLSearchParams writes the list's commas as %2C; they are safe in a fragment.
  return p.toString().replace(/%2C/g, ',');
}

/** The lesson parameters of the fragment for `state`, every one of PARAMS: null for those it
 * has none of (share/fragment.ts `withParams` removes them and keeps the fragment's others). */
export function fragmentParams(state: LessonState): Record<string, string | null> {
  const own = new URLSearchParams(serialize(state));
  return Object.fromEntries(Object.values(PARAMS).map((k) => [k, own.get(k)]));
}

/** Whether two states show the same step (or both the list): a move the browser's Back undoes. */
export function sameStep(a: LessonState, b: LessonState): boolean {
  return a.lesson === b.lesson && (a.lesson === null || a.step === b.step);
}

export type ParseResult = { ok: true; state: LessonState } | { ok: false; error: string };

const WHOLE = /^[1-9][0-9]{0,5}$/;

/**
 * The lesson state in fragment parameters (a `URLSearchParams` or the fragment's text, with or
 * without its `#`), given how many steps each lesson has. Other parameters (such as a shared
 * scenario's `s`) are ignored. No `lesson` parameter is the list of lessons; a bad value is an
 * error that names the parameter. Never throws.
 */
export function parse(params: URLSearchParams | string, stepCounts: readonly number[]): ParseResult {
  const p = typeof params === 'string' ? new URLSearchParams(params.replace(/^#/, '')) : params;
  const fail = (error: string): ParseResult => ({ ok: false, error });
  const lessonText = p.get(PARAMS.lesson);
  if (lessonText === null) {
    for (const k of [PARAMS.step, PARAMS.revealed]) if (p.has(k)) return fail(`${k}: given without a lesson (add lesson=1 to ${stepCounts.length})`);
    return { ok: true, state: LANDING };
  }
  const count = stepCounts.length;
  if (count === 0) return fail('lesson: there are no lessons');
  if (!WHOLE.test(lessonText) || Number(lessonText) > count) {
    return fail(`lesson: "${clip(lessonText)}" is not a lesson number; there ${count === 1 ? 'is 1 lesson' : `are ${count} lessons`}, numbered 1 to ${count}`);
  }
  const lesson = Number(lessonText) - 1;
  const steps = stepCounts[lesson];

  const stepText = p.get(PARAMS.step);
  let step = 0;
  if (stepText !== null) {
    if (!WHOLE.test(stepText) || Number(stepText) > steps) {
      return fail(`step: "${clip(stepText)}" is not a step of lesson ${lesson + 1}, which has steps 1 to ${steps}`);
    }
    step = Number(stepText) - 1;
  }

  const revealedText = p.get(PARAMS.revealed);
  const revealed: number[] = [];
  if (revealedText !== null && revealedText !== '') {
    for (const part of revealedText.split(',')) {
      if (!WHOLE.test(part) || Number(part) > steps) {
        return fail(`revealed: "${clip(part)}" is not a step of lesson ${lesson + 1}, which has steps 1 to ${steps} (write a list such as revealed=1,2)`);
      }
      if (!revealed.includes(Number(part) - 1)) revealed.push(Number(part) - 1);
    }
  }
  revealed.sort((a, b) => a - b);
  return { ok: true, state: { lesson, step, revealed, ran: [] } };
}

/** A value quoted in an error, cut so that a long one cannot flood the page. */
function clip(s: string): string {
  return s.length > 24 ? `${s.slice(0, 24)}…` : s;
}
