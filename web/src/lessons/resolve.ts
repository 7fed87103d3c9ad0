// Works out the scenario of every step of a lesson (docs/lessons.md §3): a preset of scenarios/,
// or the previous step's scenario, then the step's edits in the order written; then the sweep
// is dropped unless the step looks at the sweep chart. A path must lead
// through fields and list elements the scenario has; only its last field may be new (an
// optional field the preset leaves out, such as flows[0].rwnd_pkts), and the core's strict
// parsing rejects a name the format does not know (lessons.test.ts runs every step through it).
// Never throws: every problem names the step's field.

import type { Scenario } from '../scenario/types.gen';
import { editPath, parsePath, type JsonValue, type Lesson, type LessonError, type PathToken, type ResolvedLesson } from './format';

export interface PresetSource {
  id: string;
  scenario: Scenario;
}

type Container = { [key: string]: unknown } | unknown[];

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

function show(tokens: PathToken[]): string {
  return tokens.map((t, i) => (t.kind === 'index' ? `[${t.index}]` : i === 0 ? t.key : `.${t.key}`)).join('');
}

/** Sets `path` in `target` (changed in place) to `value`; the problem if the path does not fit. */
export function applyEdit(target: unknown, path: string, value: JsonValue): string | null {
  const parsed = parsePath(path);
  if (!parsed.ok) return parsed.error;
  const tokens = parsed.tokens;
  let node: unknown = target;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const last = i === tokens.length - 1;
    const here = show(tokens.slice(0, i)) || 'the scenario';
    if (t.kind === 'index') {
      if (!Array.isArray(node)) return `${here} is ${describe(node)}, not a list, so it has no element [${t.index}]`;
      if (t.index >= node.length) {
        return `${show(tokens.slice(0, i + 1))} does not exist: ${here} has ${node.length} element${node.length === 1 ? '' : 's'}`;
      }
      if (last) node[t.index] = clone(value);
      else node = node[t.index];
    } else {
      if (typeof node !== 'object' || node === null || Array.isArray(node)) return `${here} is ${describe(node)}, not an object, so it has no field "${t.key}"`;
      const obj = node as { [key: string]: unknown };
      if (last) obj[t.key] = clone(value);
      else {
        if (!Object.prototype.hasOwnProperty.call(obj, t.key)) return `${show(tokens.slice(0, i + 1))} does not exist in this step's scenario`;
        node = obj[t.key];
      }
    }
  }
  return null;
}

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** Every step's scenario, or the problems that stop one from being made. */
export function resolveLesson(lesson: Lesson, presets: readonly PresetSource[]): { resolved: ResolvedLesson | null; errors: LessonError[] } {
  const errors: LessonError[] = [];
  const scenarios: Scenario[] = [];
  let previous: Scenario | null = null;
  lesson.steps.forEach((step, i) => {
    let current: Container | null = null;
    const { preset, edits } = step.scenario;
    if (preset !== undefined) {
      const p = presets.find((x) => x.id === preset);
      if (!p) {
        const near = presets.filter((x) => x.id.split('-')[0] === preset.split('-')[0]).map((x) => x.id);
        errors.push({
          path: `steps[${i}].scenario.preset`,
          message: `there is no preset "${preset}" in scenarios/${near.length ? `; similar: ${near.join(', ')}` : ''}`,
        });
      } else current = clone(p.scenario) as unknown as Container;
    } else if (previous) current = clone(previous) as unknown as Container;
    if (current && edits) {
      for (const [path, value] of Object.entries(edits)) {
        const problem = applyEdit(current, path, value);
        if (problem) {
          errors.push({ path: editPath(i, path), message: problem });
          current = null;
          break;
        }
      }
    }
    // A step that cannot be made leaves the next ones without a base; only its own error is reported.
    previous = current as unknown as Scenario | null;
    if (current) {
      // A step runs one scenario, so a preset's sweep goes, unless the step is about the sweep:
      // the page runs what it is given, and a sweep of 1540 runs is not a lesson step.
      const own = clone(current) as { [key: string]: unknown };
      if (step.look_at !== 'sweep') delete own.sweep;
      scenarios.push(own as unknown as Scenario);
    }
  });
  if (errors.length > 0 || scenarios.length !== lesson.steps.length) return { resolved: null, errors };
  return { resolved: { lesson, scenarios }, errors };
}

/** Whether two JSON values are equal (a run's scenario against a step's). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  const bo = b as { [key: string]: unknown };
  return ka.every((k) => Object.prototype.hasOwnProperty.call(bo, k) && sameJson((a as { [key: string]: unknown })[k], bo[k]));
}
