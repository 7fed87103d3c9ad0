// The page's state machine, as a pure reducer: the scenario text and what the core said about
// it (errors, cost estimate), the run or sweep in progress and how the last one ended, the
// messages for the user, and the constellation the globe shows. useSimulation.ts drives it from
// the SimClient; App.tsx only lays it out. Being pure, every transition is unit-tested
// (simulation.test.ts) without a worker.
//
// A run or sweep is a job with a number; events of any other job (the progress of a cancelled
// run arriving late) are ignored, so a stale callback can never overwrite a newer run.

import { wallSeconds } from './estimate';
import type { Progress, SweepRow } from './sim/client';
import type { CostEstimate, FieldError, SweepPointStats } from './sim/protocol';
import type { RunResult } from './sim/results';
import type { ConstellationView } from './sim/constellation';
import type { Scenario } from './scenario/types.gen';

/** A shared link or lesson step whose estimated cost is above this many seconds in the browser
 * is not run unasked: the page shows the estimate and asks. */
export const COST_PROMPT_S = 20;

/** The globe's time span when no run says it and the scenario has no duration. */
export const DEFAULT_GLOBE_SPAN_S = 600;

export type JobKind = 'run' | 'sweep';

/** Who asked for a scenario to run by itself once it is valid: a shared link the page was
 * opened with, a lesson step's "Run this step", or a preset's card on the landing. Either way a
 * costly run is put to the user. */
/** Who asked for a run that starts once the text is valid (and the run before it has ended):
 * a shared link, a lesson step, a preset's card, or a form slider moved (editor/slider.tsx). */
export type AutoRunSource = 'link' | 'lesson' | 'preset' | 'slider';

/** A run the page did not start because of its estimated cost, until the user decides. */
export interface CostPrompt {
  estimate: CostEstimate;
  source: AutoRunSource;
}

/** Where the run machinery is. */
export type Phase =
  | { kind: 'idle' }
  /** `partial`: a long run's result so far, for its charts (its summary counts the whole
   * duration, so it is not shown). */
  | { kind: 'running'; what: JobKind; job: number; progress: Progress; partial?: RunResult }
  | { kind: 'done'; what: JobKind }
  | { kind: 'cancelled'; what: JobKind }
  | { kind: 'failed'; what: JobKind }
  /** The core crashed (a panic, out of memory) and its worker was replaced; `job` is the job
   * it ended, if one was running. */
  | { kind: 'crashed'; what?: JobKind; job?: number };

export interface GlobeView {
  view: ConstellationView;
  /** The time span the globe plays when no run says it. */
  spanS: number;
}

export interface SimState {
  text: string;
  /** The preset the text is, until the user edits it. */
  presetId: string | undefined;
  errors: FieldError[];
  /** The core has validated the current text (errors and estimate are its). */
  validated: boolean;
  estimate: CostEstimate | null;
  coreVersion: string;
  /** The simulator's workers (estimate.ts shares a scenario's runs among them). */
  workers: number;
  phase: Phase;
  /** The last finished job's output: a run's result or a sweep's rows, never both. */
  result: RunResult | null;
  sweepRows: SweepRow[] | null;
  /** The core's statistics of `sweepRows` per grid point and flow (set with them). */
  sweepStats: SweepPointStats[] | null;
  /** The scenario the result or rows came from (the text may have changed since). */
  resultScenario: Scenario | null;
  /** Something the user should read: a failure, a crash, a link that could not be opened. */
  notice: string | null;
  /** The outcome of the last action, for the status line. */
  status: string;
  /** A shared link or lesson step too expensive to run unasked, until the user decides. */
  costPrompt: CostPrompt | null;
  /** The text runs once it is known to be valid (a shared link, a lesson step), and who asked. */
  autoRun: AutoRunSource | null;
  view: GlobeView | null;
  /** The last job number handed out. */
  lastJob: number;
}

export type SimAction =
  | { type: 'edited'; text: string }
  | { type: 'picked'; text: string; presetId: string }
  /** A scenario put in the editor from elsewhere (a lesson step), not a preset. */
  | { type: 'loaded'; text: string }
  /** Run the editor's text as soon as it is valid, as a shared link does (cost prompt included). */
  | { type: 'run-when-valid'; source: AutoRunSource }
  | { type: 'validated'; text: string; errors: FieldError[]; estimate: CostEstimate | null }
  /** The validation request itself failed (the worker, not the scenario). */
  /** The core refused to validate or estimate; `path` is the field it names ('' for none). */
  | { type: 'validation-failed'; text: string; path?: string; message: string }
  /** An export could not be made: `what` names it ("The sweep's CSV", "The packet capture"). */
  | { type: 'export-failed'; what: string; message: string }
  /** The simulator is up, with `workers` workers to share runs among. */
  | { type: 'ready'; coreVersion: string; workers: number }
  | { type: 'started'; what: JobKind; job: number }
  | { type: 'progress'; job: number; progress: Progress }
  | { type: 'partial'; job: number; result: RunResult }
  | { type: 'run-finished'; job: number; result: RunResult; scenario: Scenario | null }
  | { type: 'sweep-finished'; job: number; rows: SweepRow[]; stats: SweepPointStats[]; scenario: Scenario | null; workers: number }
  /** A job ended without output: cancelled, ended by a crash (already told by `crashed`), or an
   * error with its message. */
  | { type: 'job-failed'; job: number; reason: 'cancelled' | 'crash' | 'error'; message: string }
  /** The client replaced a crashed worker (during a job or not). */
  | { type: 'crashed'; message: string }
  | { type: 'auto-run-decided'; prompt: CostEstimate | null }
  | { type: 'cost-prompt-closed' }
  | { type: 'view-loaded'; view: GlobeView | null }
  | { type: 'view-failed'; message: string }
  | { type: 'notice-dismissed' }
  | { type: 'status'; status: string };

export interface InitialScenario {
  text: string;
  presetId?: string;
  notice?: string;
  /** Opened from a shared link: run it once it is valid. */
  fromUrl: boolean;
}

export function initialSimState(init: InitialScenario): SimState {
  return {
    text: init.text,
    presetId: init.presetId,
    errors: [],
    validated: false,
    estimate: null,
    coreVersion: '',
    workers: 1,
    phase: { kind: 'idle' },
    result: null,
    sweepRows: null,
    sweepStats: null,
    resultScenario: null,
    notice: init.notice ?? null,
    status: '',
    costPrompt: null,
    autoRun: init.fromUrl ? 'link' : null,
    view: null,
    lastJob: 0,
  };
}

const PROGRESS_START: Record<JobKind, Progress> = {
  run: { fraction: 0, label: 'starting' },
  sweep: { fraction: 0, label: 'expanding the sweep' },
};

/** The job in progress with this number, if it is the one running. */
function current(s: SimState, job: number): Extract<Phase, { kind: 'running' }> | null {
  return s.phase.kind === 'running' && s.phase.job === job ? s.phase : null;
}

/** The kind of job `job`, while it is running or just ended by a crash; null for any other. */
function jobKind(s: SimState, job: number): JobKind | null {
  const p = s.phase;
  if (p.kind === 'running' && p.job === job) return p.what;
  if (p.kind === 'crashed' && p.job === job && p.what) return p.what;
  return null;
}

/** A pending run the user asked for (a lesson step, a preset's card) was for the text as it
 * was: a new text calls it off. A shared link's stays: the page was opened to run it. */
function calledOff(autoRun: AutoRunSource | null): AutoRunSource | null {
  return autoRun === 'link' ? autoRun : null;
}

/** Another preset or a lesson step replacing the text takes the last result and the globe with
 * it: the page never shows one scenario's run beside another (an edit keeps them, marked out of
 * date). The same text keeps everything, and a run in progress ends as usual. */
function replacedBy(s: SimState, text: string): Partial<SimState> {
  if (text === s.text) return {};
  const phase: Phase = s.phase.kind === 'running' ? s.phase : { kind: 'idle' };
  return { result: null, sweepRows: null, sweepStats: null, resultScenario: null, view: null, phase };
}

export function simReducer(s: SimState, a: SimAction): SimState {
  switch (a.type) {
    case 'edited': {
      // The same text (an edit undone) needs no new validation; it is no longer the preset all the same.
      // A lesson step's pending run was for the step's text: an edit calls it off.
      const autoRun = calledOff(s.autoRun);
      return a.text === s.text ? { ...s, presetId: undefined, autoRun } : { ...s, text: a.text, presetId: undefined, validated: false, autoRun };
    }
    case 'picked':
      return { ...s, ...replacedBy(s, a.text), text: a.text, presetId: a.presetId, validated: a.text === s.text && s.validated, notice: null, autoRun: calledOff(s.autoRun) };
    case 'loaded':
      // The same text keeps its validation, so a step run twice starts at once.
      return { ...s, ...replacedBy(s, a.text), text: a.text, presetId: undefined, validated: a.text === s.text && s.validated, notice: null, autoRun: calledOff(s.autoRun) };
    case 'run-when-valid':
      return { ...s, autoRun: a.source, costPrompt: null };
    case 'validated':
      // An answer for a text that has changed since is stale: the next one is on its way.
      if (a.text !== s.text) return s;
      return { ...s, errors: a.errors, estimate: a.errors.length === 0 ? a.estimate : null, validated: true };
    case 'validation-failed':
      if (a.text !== s.text) return s;
      return { ...s, errors: [{ path: a.path ?? '', message: a.message }], validated: false };
    case 'export-failed':
      return { ...s, notice: `${a.what} could not be written: ${a.message}` };
    case 'ready':
      return { ...s, coreVersion: a.coreVersion, workers: a.workers };
    case 'started':
      if (s.phase.kind === 'running') return s;
      return { ...s, phase: { kind: 'running', what: a.what, job: a.job, progress: PROGRESS_START[a.what] }, lastJob: Math.max(s.lastJob, a.job), notice: null, status: '' };
    case 'progress': {
      const p = current(s, a.job);
      return p ? { ...s, phase: { ...p, progress: a.progress } } : s;
    }
    case 'partial': {
      const p = current(s, a.job);
      return p ? { ...s, phase: { ...p, partial: a.result } } : s;
    }
    case 'run-finished':
      // A crash elsewhere (the crash-test button) does not end the job: its result counts.
      if (!jobKind(s, a.job)) return s;
      return {
        ...s,
        phase: { kind: 'done', what: 'run' },
        result: a.result,
        sweepRows: null,
        sweepStats: null,
        resultScenario: a.scenario,
        status: `Run finished: ${a.result.summary.flows.length} flow(s), ${a.result.summary.events.toLocaleString('en')} events.`,
      };
    case 'sweep-finished':
      if (!jobKind(s, a.job)) return s;
      return {
        ...s,
        phase: { kind: 'done', what: 'sweep' },
        sweepRows: a.rows,
        sweepStats: a.stats,
        resultScenario: a.scenario,
        status: `Sweep finished: ${a.rows.length} runs on ${a.workers} workers.`,
      };
    case 'job-failed': {
      const what = jobKind(s, a.job);
      if (!what) return s;
      const label = what === 'sweep' ? 'Sweep' : 'Run';
      if (a.reason === 'cancelled') return { ...s, phase: { kind: 'cancelled', what }, status: `${label} cancelled.` };
      if (a.reason === 'crash') {
        // The client reports the crash (`crashed`) before the job's own rejection arrives, so a
        // run's crash has its notice already; a sweep's rejection names the job that crashed.
        const notice = what === 'sweep' ? `The simulator crashed and was restarted. ${a.message}` : s.notice;
        return { ...s, phase: { kind: 'crashed', what, job: a.job }, notice };
      }
      return { ...s, phase: { kind: 'failed', what }, notice: a.message };
    }
    case 'crashed': {
      const p = s.phase;
      const phase: Phase = p.kind === 'running' ? { kind: 'crashed', what: p.what, job: p.job } : { kind: 'crashed' };
      return { ...s, phase, notice: `The simulator crashed and was restarted: ${a.message}` };
    }
    case 'auto-run-decided':
      return { ...s, autoRun: null, costPrompt: a.prompt && s.autoRun ? { estimate: a.prompt, source: s.autoRun } : null };
    case 'cost-prompt-closed':
      return { ...s, costPrompt: null };
    case 'view-loaded':
      return { ...s, view: a.view };
    case 'view-failed':
      return { ...s, view: null, notice: `The globe cannot show this constellation: ${a.message}` };
    case 'notice-dismissed':
      return { ...s, notice: null };
    case 'status':
      return { ...s, status: a.status };
  }
}

/** What the page shows that follows from the state. */
export function derive(s: SimState) {
  const valid = s.validated && s.errors.length === 0;
  return {
    valid,
    running: s.phase.kind === 'running',
    /** Whether a shared link's or lesson step's scenario should start now (or be put to the user). */
    autoRunDue: s.autoRun !== null && valid && s.coreVersion !== '' && s.estimate !== null,
    /** The globe's time span: the run's end, else the scenario's duration. */
    globeSpanS: s.result && s.result.summary.end_s > 0 ? s.result.summary.end_s : (s.view?.spanS ?? DEFAULT_GLOBE_SPAN_S),
  };
}

/** What the results' `data-run-state` says (tests wait on it): a job running, a job's output on
 * screen, or neither (nothing run yet, or the last job ended without output). */
export function runStateAttribute(phase: Phase): 'idle' | 'running' | 'done' {
  return phase.kind === 'running' || phase.kind === 'done' ? phase.kind : 'idle';
}

/** Whether a shared link's or lesson step's scenario is too expensive to start unasked. */
export function needsCostPrompt(estimate: CostEstimate, workers: number): boolean {
  return wallSeconds(estimate, workers) > COST_PROMPT_S;
}
