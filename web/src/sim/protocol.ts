// The messages between the UI thread and a simulation worker: typed unions, handled with
// exhaustive switches on both sides, and each request typed with the reply that settles it
// (`Replies`).

import type { ConstellationView } from './constellation';
import type { RunResult, RunSummary } from './results';
import type { CostEstimate, FieldError, SweepJobRef as SweepJob, SweepPointStats } from './results.gen';

/** A sweep's job and statistics, the scenario's problem and cost as the core writes them
 * (generated from the Rust types: `runner::SweepJobRef`, `runner::SweepPointStats`,
 * `scenario::FieldError`, `runner::cost::CostEstimate`). */
export type { CostEstimate, FieldError, SweepJobRef as SweepJob, SweepPointStats } from './results.gen';

/** One link's capture: `link-K-nA-nB.pcap` and its bytes, as `orbitcp run --pcap` writes them. */
export interface PcapFile {
  name: string;
  bytes: Uint8Array;
}

/** A request: the worker answers it with the reply `Replies` names, or `failed`. */
export type Request =
  /** The scenario's run, with its traces. While it runs, a `partialWanted` for its id gets the
   * result so far (`partial`), for the charts of a long run to fill in as it goes. `speed`: run
   * it on the build made for speed (the orbit module, cores.ts) even if it needs no orbit code,
   * as the page asks for a run it expects to be long. */
  | { type: 'run'; id: number; scenario: string; seed?: string; speed?: boolean }
  /** Simulation `part` of the scenario alone (`SteppedRun::part`; see `simulations`): the reply is
   * its result's JSON text (`part`), to be joined by `combine`; results so far and `speed` as
   * for `run`. */
  | { type: 'runPart'; id: number; scenario: string; seed?: string; part: number; speed?: boolean }
  /** Runs these jobs (indices in `expandSweep`'s order) of the sweep `scenario`, in order: a
   * `sweepRow` as each ends, then `sweepDone`. */
  | { type: 'sweepRuns'; id: number; scenario: string; jobs: number[] }
  /** How many simulations a run of the scenario makes: one per flow with `flows_alone`. */
  | { type: 'simulations'; id: number; scenario: string }
  /** Joins the results of the scenario's simulations (`part` replies, in order) into the
   * result of the whole run, written by the core as one run of it would be. */
  | { type: 'combine'; id: number; scenario: string; seed?: string; parts: string[] }
  | { type: 'estimate'; id: number; scenario: string }
  | { type: 'validate'; id: number; scenario: string }
  | { type: 'expandSweep'; id: number; scenario: string }
  /** What the globe draws for a constellation scenario. */
  | { type: 'view'; id: number; scenario: string }
  /** A sweep's CSV, written by the core as `orbitcp sweep` writes it: `results` is the JSON
   * array of the runs' summaries in job order. */
  | { type: 'sweepCsv'; id: number; scenario: string; results: string }
  /** A sweep's statistics per grid point and flow, computed by the core as `orbitcp sweep
   * --aggregate` computes them: `results` as `sweepCsv`'s. */
  | { type: 'sweepStats'; id: number; scenario: string; results: string }
  /** Runs the scenario again with a packet capture (docs/pcap.md): one pcap file per link. */
  | { type: 'pcap'; id: number; scenario: string }
  /** Makes the core fail, to exercise crash recovery: panic now, panic inside the next run, or
   * run out of memory. */
  | { type: 'panic'; id: number; when: 'now' | 'next-run' | 'oom' };

/** A request's run, still going, is to send its result so far (`partial`) after the slice under
 * way: the page asks when it can draw one (`partials.ts`), so that no run spends
 * its time writing results the page would drop. Nothing answers it if the run has ended. */
export type PartialWanted = { type: 'partialWanted'; id: number };

export type ToWorker = Request | PartialWanted;

export type FromWorker =
  | { type: 'ready'; coreVersion: string }
  | { type: 'progress'; id: number; nowS: number; endS: number }
  /** A run's result so far, as the core writes it at its current event (its `end_s` is where
   * the run has got to; the summary's goodputs count the whole duration, so only the traces
   * mean anything yet): the JSON text, as a `part` reply is. */
  | { type: 'partial'; id: number; json: string }
  | { type: 'result'; id: number; result: RunResult }
  /** A sweep job's summary, one of a `sweepRuns` request's. */
  | { type: 'sweepRow'; id: number; job: number; summary: RunSummary }
  | { type: 'sweepDone'; id: number }
  /** A simulation's result as the core wrote it, unparsed: `combine` reads it as text. */
  | { type: 'part'; id: number; json: string }
  | { type: 'simulations'; id: number; count: number }
  | { type: 'validated'; id: number; errors: FieldError[] }
  | { type: 'sweepJobs'; id: number; jobs: SweepJob[] }
  | { type: 'view'; id: number; view: ConstellationView }
  | { type: 'estimate'; id: number; estimate: CostEstimate }
  | { type: 'csv'; id: number; csv: string }
  | { type: 'sweepStats'; id: number; stats: SweepPointStats[] }
  /** `missed`: packets transmitted after the capture's limit, which no file holds. */
  | { type: 'pcap'; id: number; files: PcapFile[]; missed: number }
  /** The next run will panic. */
  | { type: 'armed'; id: number }
  /** The core refused (`path`: the scenario field at fault, '' for none; `message`: what is
   * wrong there, as the core's `{path, message}` errors say it), or `crashed`: the core trapped
   * (a panic) and the worker must be replaced. */
  | { type: 'failed'; id: number; path: string; message: string; crashed: boolean };

type Reply<T extends FromWorker['type']> = Extract<FromWorker, { type: T }>;

/** The reply that settles each request; progress, sweep rows and partial results come before
 * it, and any request may instead fail (`failed`). */
export interface Replies {
  run: Reply<'result'>;
  runPart: Reply<'part'>;
  sweepRuns: Reply<'sweepDone'>;
  simulations: Reply<'simulations'>;
  combine: Reply<'result'>;
  estimate: Reply<'estimate'>;
  validate: Reply<'validated'>;
  expandSweep: Reply<'sweepJobs'>;
  view: Reply<'view'>;
  sweepCsv: Reply<'csv'>;
  sweepStats: Reply<'sweepStats'>;
  pcap: Reply<'pcap'>;
  panic: Reply<'armed'>;
}

/** `Replies` at run time: the client refuses any other reply to a request, in one place. */
export const REPLY_TYPE: { [K in Request['type']]: Replies[K]['type'] } = {
  run: 'result',
  runPart: 'part',
  sweepRuns: 'sweepDone',
  simulations: 'simulations',
  combine: 'result',
  estimate: 'estimate',
  validate: 'validated',
  expandSweep: 'sweepJobs',
  view: 'view',
  sweepCsv: 'csv',
  sweepStats: 'sweepStats',
  pcap: 'pcap',
  panic: 'armed',
};

export function assertNever(x: never): never {
  throw new Error(`unhandled message: ${JSON.stringify(x)}`);
}
