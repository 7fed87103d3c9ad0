// SimClient: the UI's one handle on the simulator. It owns a small pool of workers, runs
// scenarios and sweeps on them, reports progress, cancels at once (by replacing the worker),
// and replaces a worker whose core crashed, telling the UI what happened.

import { assertNever, REPLY_TYPE, type CostEstimate, type FieldError, type FromWorker, type PartialWanted, type PcapFile, type Replies, type Request, type SweepJob, type SweepPointStats } from './protocol';
import type { RunResult, RunSummary } from './results';
import type { ConstellationView } from './constellation';
import { progressReporter, secondsLeft, timeLeftText, type Progress } from './progress';
import { parseResult } from './results';
import { PartialAsking } from './partials';

export type { Progress } from './progress';

export interface SweepRow {
  job: SweepJob;
  summary: RunSummary;
}

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
  }
}

/** The core crashed (a panic or out of memory); the worker was replaced and `onCrash` told. */
export class CrashError extends Error {}

/** The core refused a request: `problem` names the scenario field at fault ('' for none), and
 * the message reads as the CLI prints it ("path: what is wrong"). */
export class CoreError extends Error {
  constructor(readonly problem: FieldError) {
    super(problem.path ? `${problem.path}: ${problem.message}` : problem.message);
  }
}

type Pending = {
  /** The reply that settles this request (protocol.ts `REPLY_TYPE`). */
  settles: FromWorker['type'];
  resolve: (msg: FromWorker) => void;
  reject: (e: Error) => void;
  onProgress?: (nowS: number, endS: number) => void;
  /** A sweep job's summary (`sweepRuns`). */
  onRow?: (job: number, summary: RunSummary) => void;
  /** A run's result so far, as JSON text (the answer to a `partialWanted`). */
  onPartial?: (json: string) => void;
};

type Handlers = Omit<Pending, 'settles' | 'resolve' | 'reject'>;

/** A long run's result so far: its traces up to `end_s`, the time the run has reached. Its
 * summary counts the whole duration, so only the charts are drawn from it. */
export type PartialResult = RunResult;

class WorkerSlot {
  worker!: Worker;
  pending = new Map<number, Pending>();
  ready!: Promise<string>;

  constructor(private onCrash: (message: string) => void) {
    this.spawn();
  }

  spawn() {
    this.worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
    let markReady: (v: string) => void;
    this.ready = new Promise((r) => (markReady = r));
    this.worker.onmessage = (ev: MessageEvent<FromWorker>) => {
      const msg = ev.data;
      switch (msg.type) {
        case 'ready':
          markReady(msg.coreVersion);
          return;
        case 'progress':
          this.pending.get(msg.id)?.onProgress?.(msg.nowS, msg.endS);
          return;
        case 'sweepRow':
          this.pending.get(msg.id)?.onRow?.(msg.job, msg.summary);
          return;
        case 'partial':
          this.pending.get(msg.id)?.onPartial?.(msg.json);
          return;
        case 'failed':
          if (msg.crashed) {
            this.fail(new CrashError(msg.message));
            this.onCrash(msg.message);
            this.restart();
            return;
          }
          this.settle(msg.id, msg);
          return;
        case 'result':
        case 'sweepDone':
        case 'part':
        case 'simulations':
        case 'validated':
        case 'sweepJobs':
        case 'view':
        case 'estimate':
        case 'csv':
        case 'sweepStats':
        case 'pcap':
        case 'armed':
          this.settle(msg.id, msg);
          return;
        default:
          assertNever(msg);
      }
    };
    this.worker.onerror = (ev) => {
      ev.preventDefault();
      const message = `the simulation worker failed: ${ev.message || 'unknown error'}`;
      this.fail(new CrashError(message));
      this.onCrash(message);
      this.restart();
    };
  }

  private settle(id: number, msg: FromWorker) {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (msg.type === 'failed') p.reject(new CoreError({ path: msg.path, message: msg.message }));
    else if (msg.type !== p.settles) p.reject(new Error(`the worker answered ${msg.type} where ${p.settles} was due`));
    else p.resolve(msg);
  }

  fail(e: Error) {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }

  restart() {
    this.worker.terminate();
    this.spawn();
  }

  /** A notice the worker does not answer (`partialWanted`). */
  tell(msg: PartialWanted) {
    this.worker.postMessage(msg);
  }

  request<T extends Request>(msg: T, handlers: Handlers = {}): Promise<Replies[T['type']]> {
    return new Promise((resolve, reject) => {
      const settles = REPLY_TYPE[msg.type];
      this.pending.set(msg.id, { settles, resolve: resolve as (m: FromWorker) => void, reject, ...handlers });
      this.worker.postMessage(msg);
    });
  }
}

export class SimClient {
  private slots: WorkerSlot[];
  private nextId = 1;
  /** Called when a worker crashed and was replaced. */
  onCrash: (message: string) => void = () => {};

  constructor(poolSize = SimClient.defaultPoolSize()) {
    const crash = (m: string) => this.onCrash(m);
    this.slots = Array.from({ length: Math.max(1, poolSize) }, () => new WorkerSlot(crash));
  }

  /** Workers for sweeps: the machine's cores, at most 8, at least 1. */
  static defaultPoolSize(): number {
    return Math.min(8, Math.max(1, navigator.hardwareConcurrency || 2));
  }

  get size(): number {
    return this.slots.length;
  }

  /** The core's version, once the first worker is up. */
  ready(): Promise<string> {
    return this.slots[0].ready;
  }

  private id(): number {
    return this.nextId++;
  }

  /** Every problem with a scenario, each naming its path; empty when valid. */
  async validate(scenario: string): Promise<FieldError[]> {
    const msg = await this.slots[0].request({ type: 'validate', id: this.id(), scenario });
    return msg.errors;
  }

  /** What the scenario will cost to run (events, and seconds in this browser). */
  async estimate(scenario: string): Promise<CostEstimate> {
    const msg = await this.slots[0].request({ type: 'estimate', id: this.id(), scenario });
    return msg.estimate;
  }

  /** The constellation view of a scenario (satellites, ground stations, ISL pairs), for the
   * globe. Rejects with the core's message when the scenario has none. */
  async view(scenario: string): Promise<ConstellationView> {
    const msg = await this.slots[0].request({ type: 'view', id: this.id(), scenario });
    return msg.view;
  }

  /** A sweep's rows (`sweep()`'s, in job order) as CSV: written by the core, so the bytes are
   * those `orbitcp sweep` prints for the same scenario. */
  async sweepCsv(scenario: string, rows: SweepRow[]): Promise<string> {
    const results = JSON.stringify(rows.map((r) => r.summary));
    const msg = await this.slots[0].request({ type: 'sweepCsv', id: this.id(), scenario, results });
    return msg.csv;
  }

  /** A sweep's statistics per grid point and flow for its chart and table (`sweep()`'s rows, in
   * job order): computed by the core, the numbers `orbitcp sweep --aggregate` prints. */
  async sweepStats(scenario: string, rows: SweepRow[]): Promise<SweepPointStats[]> {
    const results = JSON.stringify(rows.map((r) => r.summary));
    const msg = await this.slots[0].request({ type: 'sweepStats', id: this.id(), scenario, results });
    return msg.stats;
  }

  /** The scenario's packet capture, one pcap file per link: the files `orbitcp run --pcap`
   * writes for it. */
  async pcap(scenario: string): Promise<{ files: PcapFile[]; missed: number }> {
    const msg = await this.slots[0].request({ type: 'pcap', id: this.id(), scenario });
    return { files: msg.files, missed: msg.missed };
  }

  /** Runs a scenario with traces. `cancel()` stops it at once. A `flows_alone` scenario's
   * simulations (one per flow) run in parallel across the pool, as `orbitcp run --threads`
   * runs them, and the core joins their results into the bytes one run of it gives. With
   * `onPartial`, a run that goes on for more than a second also reports its result so far, asked
   * for at most twice a second and less often where it costs more (`partials.ts`), until the run
   * ends (never after its result). */
  run(
    scenario: string,
    onProgress?: (p: Progress) => void,
    onPartial?: (r: PartialResult) => void,
    /** The core's estimate of each simulation alone (`CostEstimate.run_seconds`): the costliest
     * start first, and a long one runs on the build made for speed (`wantsSpeed`). Without it
     * they start in order, on the build the scenario needs. */
    runSeconds?: readonly number[],
  ): { promise: Promise<RunResult>; cancel: () => void } {
    const report = progressReporter(onProgress);
    let cancelled = false;
    /** Set once the run has its result (or failed): a partial result late from a worker is dropped. */
    let ended = false;
    /** The workers in use: the first, or all of them once the simulations are spread. */
    let inUse = this.slots.slice(0, 1);
    const stopAll = () => {
      for (const s of inUse) {
        s.fail(new CancelledError());
        s.restart();
      }
    };
    const promise = (async () => {
      const count = this.slots.length > 1 ? await this.simulationCount(scenario) : 1;
      if (cancelled) throw new CancelledError();
      const partial = onPartial && ((r: PartialResult) => !cancelled && !ended && onPartial(r));
      if (count <= 1) return this.runWhole(scenario, report, partial, wantsSpeed(runSeconds?.reduce((a, b) => a + b, 0)));
      inUse = this.slots;
      return this.runParts(scenario, count, () => cancelled, stopAll, report, partial, startOrder(count, runSeconds), (k) =>
        wantsSpeed(runSeconds?.length === count ? runSeconds[k] : undefined),
      );
    })()
      .finally(() => {
        ended = true;
      })
      .catch((e: Error) => {
        throw cancelled ? new CancelledError() : e;
      });
    const cancel = () => {
      cancelled = true;
      stopAll();
    };
    return { promise, cancel };
  }

  /** How many simulations a run of the scenario makes; 1 when the core refuses the scenario,
   * so that the run itself reports why, as it always has. */
  private async simulationCount(scenario: string): Promise<number> {
    try {
      const msg = await this.slots[0].request({ type: 'simulations', id: this.id(), scenario });
      return msg.count;
    } catch (e) {
      if (e instanceof CoreError) return 1;
      throw e;
    }
  }

  /** The scenario as one run on the first worker. */
  private async runWhole(scenario: string, report: Report, onPartial?: (r: PartialResult) => void, speed = false): Promise<RunResult> {
    const slot = this.slots[0];
    const id = this.id();
    const asking = onPartial && new PartialAsking(() => slot.tell({ type: 'partialWanted', id }));
    try {
      const msg = await slot.request(
        { type: 'run', id, scenario, speed },
        {
          onProgress: (nowS, endS) => report(...runProgress(nowS, endS)),
          onPartial: asking && ((json) => asking.answered(() => onPartial(parseResult(json)))),
        },
      );
      return msg.result;
    } finally {
      asking?.stop();
    }
  }

  /** The scenario's `count` simulations queued over the pool, then joined by the core on the
   * first worker. Progress is the sum over the simulations, with each running one's time left
   * from its own pace; the first that fails stops the others at once (their workers replaced)
   * and fails the run with its own error. With `onPartial`, the simulations under way are asked
   * for their results so far together (`partials.ts`), and once every simulation has a result
   * (so far, or its last) the core joins them as it joins the final ones. */
  private async runParts(
    scenario: string,
    count: number,
    cancelled: () => boolean,
    stopAll: () => void,
    report: Report,
    onPartial?: (r: PartialResult) => void,
    order: readonly number[] = startOrder(count),
    speedOf: (part: number) => boolean = () => false,
  ): Promise<RunResult> {
    const parts: string[] = new Array<string>(count);
    const nowS = new Array<number>(count).fill(0);
    const endS = new Array<number>(count).fill(0);
    const done = new Array<boolean>(count).fill(false);
    const startedAt = new Array<number>(count).fill(NaN);
    const names = flowNames(scenario, count);
    let next = 0;
    const reportParts = () => {
      // A simulation not started yet counts with the longest known: they share the duration.
      const guess = Math.max(...endS);
      const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
      const total = sum(endS.map((e) => e || guess));
      const clock = performance.now();
      const left = names.map((_, k) => (done[k] ? 0 : secondsLeft(endS[k] > 0 ? nowS[k] / endS[k] : 0, clock - startedAt[k])));
      // Once every simulation has started, the run ends with its slowest; before that, the
      // pool's pace over the whole run says it better.
      const running = left.filter((_, k) => !done[k]);
      const overall = next >= count && running.every((l) => l !== null) ? Math.max(0, ...(running as number[])) : undefined;
      report(total > 0 ? Math.min(1, sum(nowS) / total) : 0, partsLabel(names, nowS, endS, done, left), overall);
    };
    /** The latest result of each simulation (so far, or final), for the partial results. */
    const latest: (string | undefined)[] = Array.from({ length: count }, () => undefined);
    /** Each simulation's request and worker, once started. */
    const requests: ({ id: number; slot: WorkerSlot } | undefined)[] = new Array(count).fill(undefined);
    /** The simulations asked for their result so far and not yet answered. */
    const unanswered = new Set<number>();
    // Every simulation under way is asked at once; their answers joined by the core, once every
    // simulation has a result (a later one may not have started yet), are one result so far.
    const asking =
      onPartial &&
      new PartialAsking(() => {
        requests.forEach((r, k) => {
          if (r && !done[k]) {
            unanswered.add(k);
            r.slot.tell({ type: 'partialWanted', id: r.id });
          }
        });
        return unanswered.size > 0;
      });
    const joinSoFar = async () => {
      // Not every simulation has a result yet, or all have their last, which the run joins next.
      if (latest.some((j) => j === undefined) || done.every(Boolean)) return false;
      try {
        const msg = await this.slots[0].request({ type: 'combine', id: this.id(), scenario, parts: latest as string[] });
        // The charts span the time every flow has reached: the slowest running one's.
        const reached = nowS.filter((_, k) => !done[k]);
        onPartial?.(reached.length ? { ...msg.result, summary: { ...msg.result.summary, end_s: Math.min(...reached) } } : msg.result);
      } catch {
        // A partial view that could not be joined (the run cancelled or failed) is simply not shown.
      }
      return true;
    };
    const answered = (k: number) => {
      if (asking && unanswered.delete(k) && unanswered.size === 0) void asking.answered(joinSoFar);
    };
    const take = () => (next < count ? order[next++] : null);
    try {
      await runPool(this.slots, take, cancelled, stopAll, async (slot, k) => {
        startedAt[k] = performance.now();
        const id = this.id();
        requests[k] = { id, slot };
        const msg = await slot.request(
          { type: 'runPart', id, scenario, part: k, speed: speedOf(k) },
          {
            onProgress: (now, end) => {
              nowS[k] = now;
              endS[k] = end;
              reportParts();
            },
            onPartial: (json) => {
              latest[k] = json;
              answered(k);
            },
          },
        );
        parts[k] = msg.json;
        latest[k] = msg.json;
        done[k] = true;
        nowS[k] = endS[k];
        reportParts();
        answered(k);
      });
    } finally {
      asking?.stop();
    }
    const msg = await this.slots[0].request({ type: 'combine', id: this.id(), scenario, parts });
    return msg.result;
  }

  /** Runs every point and run of the scenario's sweep across the pool; rows come back in job
   * order, whatever the scheduling. Each worker is handed a batch of jobs at a time (the sweep's
   * text and their indices, never a copy of each job's scenario), large at first and smaller
   * towards the end (`batchSize`): one round trip per batch instead of one per run, and no
   * worker left idle while another finishes a long batch. The first job that fails stops the
   * sweep: the others are cancelled at once (their workers replaced), and the error says which
   * job it was. */
  sweep(scenario: string, onProgress?: (p: Progress) => void): { promise: Promise<SweepRow[]>; cancel: () => void } {
    const report = progressReporter(onProgress);
    let cancelled = false;
    const stopAll = () => {
      for (const s of this.slots) {
        s.fail(new CancelledError());
        s.restart();
      }
    };
    const promise = (async () => {
      const expand = await this.slots[0].request({ type: 'expandSweep', id: this.id(), scenario });
      const jobs = expand.jobs;
      const rows: SweepRow[] = new Array(jobs.length);
      let next = 0;
      let done = 0;
      report(0, `0 of ${jobs.length} runs`);
      /** A batch of jobs, and how many of them have reported their row. */
      type Batch = { jobs: number[]; received: number };
      const take = (): Batch | null => {
        if (next >= jobs.length) return null;
        const batch = Array.from({ length: batchSize(jobs.length - next, this.slots.length) }, (_, k) => next + k);
        next += batch.length;
        return { jobs: batch, received: 0 };
      };
      const onRowOf = (batch: Batch) => (i: number, summary: RunSummary) => {
        rows[i] = { job: jobs[i], summary };
        batch.received++;
        done++;
        report(done / jobs.length, `${done} of ${jobs.length} runs`);
      };
      // The worker runs its batch in order: the job that failed is the first not reported.
      const failure = (e: Error, batch: Batch) => {
        const i = batch.jobs[Math.min(batch.received, batch.jobs.length - 1)];
        return sweepJobError(e, i, jobs.length, jobs[i]);
      };
      await runPool(
        this.slots,
        take,
        () => cancelled,
        stopAll,
        async (slot, batch) => {
          await slot.request({ type: 'sweepRuns', id: this.id(), scenario, jobs: batch.jobs }, { onRow: onRowOf(batch) });
        },
        failure,
      );
      return rows;
    })();
    const cancel = () => {
      cancelled = true;
      stopAll();
    };
    return { promise, cancel };
  }

  /** Makes a worker's core fail, for users and tests of the crash-recovery path: a panic now,
   * a panic inside the next run, or running out of memory. */
  async crash(when: 'now' | 'next-run' | 'oom' = 'now'): Promise<void> {
    await this.slots[0].ready;
    await this.slots[0].request({ type: 'panic', id: this.id(), when }).catch(() => undefined);
  }

  dispose() {
    for (const s of this.slots) s.worker.terminate();
  }
}

type Report = ReturnType<typeof progressReporter>;

/** The pool's loop, for a run's simulations and a sweep's batches alike: each worker takes the
 * next task (`take`: null once none is left) and runs it, until none is left or `cancelled`.
 * The first task that fails stops the others at once (`stopAll` replaces their workers) and
 * fails the whole with its own error (as `failure` words it), not with the cancellations it
 * caused. */
async function runPool<T>(
  slots: WorkerSlot[],
  take: () => T | null,
  cancelled: () => boolean,
  stopAll: () => void,
  run: (slot: WorkerSlot, task: T) => Promise<void>,
  failure: (e: Error, task: T) => Error = (e) => e,
): Promise<void> {
  let failed = false;
  const work = async (slot: WorkerSlot) => {
    for (let task = take(); task !== null && !cancelled() && !failed; task = take()) {
      try {
        await run(slot, task);
      } catch (e) {
        if (cancelled() || failed || e instanceof CancelledError) throw e;
        failed = true;
        stopAll();
        throw failure(e as Error, task);
      }
    }
  };
  const outcomes = await Promise.allSettled(slots.map(work));
  if (cancelled()) throw new CancelledError();
  const first = outcomes.find((o) => o.status === 'rejected' && !(o.reason instanceof CancelledError));
  if (first?.status === 'rejected') throw first.reason as Error;
}

/** A run the core expects to take longer than this in a browser runs on the build made for speed
 * (`speed` in protocol.ts): on the first-load build, made for size, a chain run of TCP or CTCP
 * takes 1.5-1.7 times as long, and fetching the other once costs a fraction of a second. */
const SPEED_BUILD_AFTER_S = 2;

/** Whether a run estimated at `seconds` (none: no estimate) goes on the build made for speed. */
export function wantsSpeed(seconds: number | undefined): boolean {
  return seconds !== undefined && seconds > SPEED_BUILD_AFTER_S;
}

/** The order in which to start a run's `count` simulations: the costliest first by `runSeconds`
 * (ties in index order), so that the longest does not wait for shorter ones to free a worker;
 * index order without an estimate for each. */
export function startOrder(count: number, runSeconds?: readonly number[]): number[] {
  const order = Array.from({ length: count }, (_, k) => k);
  if (runSeconds?.length !== count) return order;
  return order.sort((a, b) => runSeconds[b] - runSeconds[a] || a - b);
}

/** Simulated seconds as people write them: 120, not 120.00000000000001. */
export function seconds(x: number): string {
  return Number(x.toPrecision(9)).toString();
}

function runProgress(nowS: number, endS: number): [fraction: number, label: string] {
  return [endS > 0 ? Math.min(1, nowS / endS) : 0, `${nowS.toFixed(1)} of ${seconds(endS)} s simulated`];
}

/** What a run of simulations that go on side by side (a scenario's flows run alone) says: how many
 * are done, and where each running one is, by its flow's name, with its time left when known. */
export function partsLabel(
  names: readonly string[],
  nowS: readonly number[],
  endS: readonly number[],
  done: readonly boolean[],
  leftS: readonly (number | null)[] = [],
): string {
  const finished = done.filter(Boolean).length;
  const running = names
    .map((name, k) => ({ name, k }))
    .filter(({ k }) => !done[k] && nowS[k] > 0)
    .map(({ name, k }) => {
      const left = leftS[k];
      return `${name} at ${nowS[k].toFixed(0)} of ${seconds(endS[k])} s${left == null ? '' : ` (${timeLeftText(left)})`}`;
    });
  return [`${finished} of ${names.length} flows done`, ...running].join('; ');
}

/** The names of a scenario's flows (their labels, else "flow N"), if it has `count` of them. */
function flowNames(scenario: string, count: number): string[] {
  let flows: unknown;
  try {
    flows = (JSON.parse(scenario) as { flows?: unknown }).flows;
  } catch {
    flows = undefined;
  }
  const list = Array.isArray(flows) && flows.length === count ? (flows as { label?: unknown; cc?: unknown; transport?: unknown }[]) : [];
  return Array.from({ length: count }, (_, k) => {
    const f = list[k];
    return typeof f?.label === 'string' && f.label ? f.label : typeof f?.cc === 'string' ? `flow ${k + 1} (${f.cc})` : `flow ${k + 1}`;
  });
}

/** Jobs to hand a worker when `left` remain for `workers`: an eighth of each worker's share,
 * so batches shrink as the sweep ends and the workers finish together (guided scheduling). */
export function batchSize(left: number, workers: number): number {
  return Math.max(1, Math.min(left, Math.ceil(left / (8 * workers))));
}

/** A sweep job's failure, saying which job it was; a crash stays a crash. */
function sweepJobError(e: Error, index: number, total: number, job: SweepJob): Error {
  const at = job.point.map(([p, v]) => `${p} = ${JSON.stringify(v)}`).join(', ');
  const message = `Sweep stopped: run ${index + 1} of ${total} (${at}${job.point.length ? ', ' : ''}run ${job.run}) failed: ${e.message}. The other runs were cancelled.`;
  return e instanceof CrashError ? new CrashError(message) : new Error(message);
}
