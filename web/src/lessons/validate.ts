// Checks a lesson file's shape (docs/lessons.md §2). Everything in a lesson file is data: this
// never throws, whatever the input, and every problem names its field. Whether each step's
// preset exists and its edits fit the scenario is resolve.ts's part.

import {
  LESSON_VERSION,
  VIEW_NAMES,
  isView,
  parsePath,
  editPath,
  type JsonValue,
  type Lesson,
  type LessonError,
} from './format';

/** Bounds that keep a lesson a lesson (and a hostile file cheap to reject). */
export const LIMITS = {
  steps: 20,
  edits: 50,
  checks: 10,
  titleChars: 120,
  textChars: 4000,
  idChars: 64,
};

const LESSON_FIELDS = ['$schema', 'version', 'id', 'title', 'summary', 'steps'];
const STEP_FIELDS = ['title', 'text', 'scenario', 'look_at', 'question', 'answer', 'checks'];
const SCENARIO_FIELDS = ['preset', 'edits'];
const CHECK_FIELDS = ['result', 'approx', 'tolerance'];
const ID = /^[a-z0-9][a-z0-9-]*$/;

type Obj = { [key: string]: unknown };

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function kind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}

/** The lesson, if `value` is one, and every problem found. */
export function validateLesson(value: unknown): { lesson: Lesson | null; errors: LessonError[] } {
  const errors: LessonError[] = [];
  const err = (path: string, message: string) => errors.push({ path, message });

  if (!isObject(value)) {
    err('', `a lesson is a JSON object, not ${kind(value)}`);
    return { lesson: null, errors };
  }
  unknownFields(value, LESSON_FIELDS, '', err);
  if (value.$schema !== undefined && typeof value.$schema !== 'string') err('$schema', `must be a string, not ${kind(value.$schema)}`);
  if (value.version !== LESSON_VERSION) {
    err('version', value.version === undefined ? `is required (${LESSON_VERSION})` : `must be ${LESSON_VERSION}, not ${JSON.stringify(value.version)}`);
  }
  if (typeof value.id !== 'string') err('id', value.id === undefined ? 'is required' : `must be a string, not ${kind(value.id)}`);
  else if (!ID.test(value.id) || value.id.length > LIMITS.idChars) {
    err('id', `"${value.id.slice(0, LIMITS.idChars)}" is not an id: lower-case letters, digits and "-", at most ${LIMITS.idChars} characters`);
  }
  text(value, 'title', '', LIMITS.titleChars, err);
  text(value, 'summary', '', LIMITS.textChars, err);

  const steps = value.steps;
  if (!Array.isArray(steps)) err('steps', steps === undefined ? 'is required: a list of steps' : `must be a list of steps, not ${kind(steps)}`);
  else if (steps.length === 0) err('steps', 'a lesson has at least one step');
  else if (steps.length > LIMITS.steps) err('steps', `has ${steps.length} steps; at most ${LIMITS.steps} are allowed`);
  else steps.forEach((s, i) => step(s, i, err));

  return { lesson: errors.length === 0 ? (value as unknown as Lesson) : null, errors };
}

function step(s: unknown, i: number, err: (path: string, message: string) => void) {
  const at = `steps[${i}]`;
  if (!isObject(s)) {
    err(at, `a step is an object, not ${kind(s)}`);
    return;
  }
  unknownFields(s, STEP_FIELDS, at, err);
  text(s, 'title', at, LIMITS.titleChars, err);
  text(s, 'text', at, LIMITS.textChars, err);
  text(s, 'question', at, LIMITS.textChars, err);
  text(s, 'answer', at, LIMITS.textChars, err);
  if (s.look_at === undefined) err(`${at}.look_at`, `is required: one of ${VIEW_NAMES.join(', ')}`);
  else if (!isView(s.look_at)) err(`${at}.look_at`, `unknown view ${JSON.stringify(s.look_at)}; expected one of ${VIEW_NAMES.join(', ')}`);

  const sc = s.scenario;
  if (!isObject(sc)) err(`${at}.scenario`, sc === undefined ? 'is required: {"preset": ...}, {"edits": {...}} or both' : `must be an object, not ${kind(sc)}`);
  else {
    unknownFields(sc, SCENARIO_FIELDS, `${at}.scenario`, err);
    if (sc.preset === undefined && sc.edits === undefined) err(`${at}.scenario`, 'give a preset, edits to the previous step\'s scenario, or both');
    if (sc.preset !== undefined && (typeof sc.preset !== 'string' || sc.preset.length === 0)) err(`${at}.scenario.preset`, `must be a preset's name, not ${kind(sc.preset)}`);
    if (i === 0 && sc.preset === undefined) err(`${at}.scenario.preset`, 'the first step needs a preset: there is no previous step to edit');
    if (sc.edits !== undefined) {
      if (!isObject(sc.edits)) err(`${at}.scenario.edits`, `must be an object of path → value, not ${kind(sc.edits)}`);
      else {
        const paths = Object.keys(sc.edits);
        if (paths.length > LIMITS.edits) err(`${at}.scenario.edits`, `has ${paths.length} edits; at most ${LIMITS.edits} are allowed`);
        for (const p of paths.slice(0, LIMITS.edits)) {
          const parsed = parsePath(p);
          if (!parsed.ok) err(editPath(i, p), parsed.error);
          else if (!isJson(sc.edits[p])) err(editPath(i, p), 'the value is not plain JSON');
        }
      }
    }
  }

  if (s.checks !== undefined) {
    if (!Array.isArray(s.checks)) err(`${at}.checks`, `must be a list, not ${kind(s.checks)}`);
    else if (s.checks.length > LIMITS.checks) err(`${at}.checks`, `has ${s.checks.length} checks; at most ${LIMITS.checks} are allowed`);
    else
      s.checks.forEach((c, j) => {
        const cat = `${at}.checks[${j}]`;
        if (!isObject(c)) return err(cat, `a check is an object, not ${kind(c)}`);
        unknownFields(c, CHECK_FIELDS, cat, err);
        if (typeof c.result !== 'string') err(`${cat}.result`, 'is required: a path into the run\'s summary, such as flows[0].goodput_mbps');
        else {
          const parsed = parsePath(c.result);
          if (!parsed.ok) err(`${cat}.result`, parsed.error);
        }
        if (typeof c.approx !== 'number' || !Number.isFinite(c.approx)) err(`${cat}.approx`, 'is required: a finite number');
        if (typeof c.tolerance !== 'number' || !(c.tolerance >= 0) || !Number.isFinite(c.tolerance)) err(`${cat}.tolerance`, 'is required: a finite number, 0 or more');
      });
  }
}

function text(o: Obj, field: string, at: string, max: number, err: (path: string, message: string) => void) {
  const path = at ? `${at}.${field}` : field;
  const v = o[field];
  if (v === undefined) err(path, 'is required');
  else if (typeof v !== 'string') err(path, `must be text, not ${kind(v)}`);
  else if (v.trim().length === 0) err(path, 'is empty');
  else if (v.length > max) err(path, `is ${v.length} characters long; at most ${max} are allowed`);
}

function unknownFields(o: Obj, known: string[], at: string, err: (path: string, message: string) => void) {
  for (const k of Object.keys(o)) {
    if (!known.includes(k)) err(at ? `${at}.${k}` : k, `unknown field; expected one of ${known.join(', ')}`);
  }
}

/** Whether `v` is what JSON.parse could have produced (no functions, undefined or NaN). */
function isJson(v: unknown, depth = 0): v is JsonValue {
  if (depth > 64) return false;
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every((x) => isJson(x, depth + 1));
  if (isObject(v)) return Object.values(v).every((x) => isJson(x, depth + 1));
  return false;
}
