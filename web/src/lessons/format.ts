// The lesson format (docs/lessons.md): the types of a lesson file in lessons/, the views a step
// can point at, and the JSON paths its scenario edits use. lessons/lesson.schema.json describes
// the same format for editors; format.test.ts holds the two together.

import type { Scenario } from '../scenario/types.gen';

/** A JSON value as a lesson file holds it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** The format version, the `version` field of every lesson file. */
export const LESSON_VERSION = 1;

/**
 * The parts of the page a step can point at: every chart of `charts/ResultCharts.tsx` and
 * `charts/SweepChart.tsx`, the summary table and the globe. `testid` is the element's
 * `data-testid` in the app, so a highlight can find it.
 */
export const VIEWS = {
  summary: { label: 'the summary table', testid: 'summary' },
  cwnd: { label: 'the congestion window chart', testid: 'chart-cwnd' },
  sequence: { label: 'the acknowledged-data chart', testid: 'chart-sequence' },
  goodput: { label: 'the goodput chart', testid: 'chart-goodput' },
  delay: { label: 'the delay chart', testid: 'chart-delay' },
  delay_cdf: { label: 'the delay CDF', testid: 'chart-cdf' },
  jitter: { label: 'the jitter chart', testid: 'chart-jitter' },
  queue: { label: 'the queue chart', testid: 'chart-queue' },
  fairness: { label: 'the fairness chart', testid: 'chart-fairness' },
  coding: { label: 'the network coding chart', testid: 'chart-coding' },
  capacity: { label: 'the bottleneck capacity chart', testid: 'chart-capacity' },
  hops: { label: 'the INTCP hop view', testid: 'chart-hops' },
  path: { label: 'the path chart', testid: 'chart-path' },
  sweep: { label: 'the sweep chart', testid: 'chart-sweep' },
  globe: { label: 'the globe', testid: 'globe' },
} as const;

export type View = keyof typeof VIEWS;

export const VIEW_NAMES = Object.keys(VIEWS) as View[];

export function isView(v: unknown): v is View {
  return typeof v === 'string' && Object.prototype.hasOwnProperty.call(VIEWS, v);
}

/**
 * Where a step's scenario comes from: a preset of scenarios/ (by file name without `.json`), the
 * previous step's scenario, or either one changed by `edits` (JSON path → new value, applied in
 * the order written; paths as in a sweep grid: `flows[0].cc`, `topology.links[1].loss.p`).
 */
export interface StepScenario {
  preset?: string;
  edits?: Record<string, JsonValue>;
}

/** A number the step's run must produce, checked by the lessons' claims test. */
export interface StepCheck {
  /** A path into the run's summary (`flows[0].goodput_mbps`, `fairness_jain`, `path.events`). */
  result: string;
  /** Expected value; a list or object counts its elements or keys. */
  approx: number;
  /** Largest accepted |value − approx|. */
  tolerance: number;
}

export interface LessonStep {
  title: string;
  /** Safe text (text.ts): paragraphs, bullet lists, *emphasis*, **strong**, `code`, ^{sup}, _{sub}. */
  text: string;
  scenario: StepScenario;
  look_at: View;
  question: string;
  answer: string;
  /** The numbers the answer states, checked against the simulator (wasm-core/tests-node/lessons.test.mjs). */
  checks?: StepCheck[];
}

export interface Lesson {
  $schema?: string;
  version: typeof LESSON_VERSION;
  /** The file name without `.json`: a stable id. */
  id: string;
  title: string;
  /** What the lesson teaches, in safe text: shown in the list of lessons. */
  summary: string;
  steps: LessonStep[];
}

/** A lesson with each step's scenario worked out (resolve.ts). */
export interface ResolvedLesson {
  lesson: Lesson;
  scenarios: Scenario[];
}

/** One problem with a lesson: the field's path (`steps[2].look_at`) and what is wrong. */
export interface LessonError {
  path: string;
  message: string;
}

export type PathToken = { kind: 'key'; key: string } | { kind: 'index'; index: number };

const PATH = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d{1,6}\])*$/;

/** The tokens of a JSON path such as `topology.links[1].loss.p`, or why it is not one. */
export function parsePath(path: string): { ok: true; tokens: PathToken[] } | { ok: false; error: string } {
  if (path.length === 0) return { ok: false, error: 'the path is empty' };
  if (path.length > 200) return { ok: false, error: 'the path is longer than 200 characters' };
  if (!PATH.test(path)) {
    return { ok: false, error: 'not a path: write field names joined by dots, with [i] for a list element (flows[0].cc, topology.links[1].loss.p)' };
  }
  const tokens: PathToken[] = [];
  for (const m of path.matchAll(/([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/g)) {
    tokens.push(m[2] !== undefined ? { kind: 'index', index: Number(m[2]) } : { kind: 'key', key: m[1] });
  }
  return { ok: true, tokens };
}

/** The path of a field inside a lesson, for errors: `steps[1].scenario.edits["flows[0].cc"]`. */
export function editPath(step: number, path: string): string {
  return `steps[${step}].scenario.edits[${JSON.stringify(path)}]`;
}
