// SimClient: the UI's one handle on the simulator. It owns a small pool of workers, runs
// scenarios and sweeps on them, reports progress, cancels at once (by replacing the worker),
// and replaces a worker whose core crashed, telling the UI what happened.

import { assertNever, type FromWorker, type SweepJob, type ToWorker } from './protocol';
import type { RunResult, RunSummary } from './results';
import type { ConstellationView } from '../globe/view';

export interface Progress {
  /** 0..1 */
  fraction: number;
  label: string;
}

export interface SweepRow {
  job: SweepJob;
  summary: RunSummary;
}

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
  }
}

type Pending = {
  resolve: (msg: FromWorker) => void;
  reject: (e: Error) => void;
  onProgress?: (nowS: number, endS: number) => void;
};

class WorkerSlot {
  worker!: Worker;
  pending = new Map<number, Pending>();
  ready!: Promise<string>;
  busy = false;

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
        case 'failed':
          if (msg.crashed) {
            this.fail(new Error(msg.message));
            this.onCrash(msg.message);
            this.restart();
            return;
          }
          this.settle(msg.id, msg);
          return;
        case 'result':
        case 'summary':
        case 'validated':
        case 'sweepJobs':
        case 'view':
          this.settle(msg.id, msg);
          return;
        default:
          assertNever(msg);
      }
    };
    this.worker.onerror = (ev) => {
      ev.preventDefault();
      const message = `the simulation worker failed: ${ev.message || 'unknown error'}`;
      this.fail(new Error(message));
      this.onCrash(message);
      this.restart();
    };
  }

  private settle(id: number, msg: FromWorker) {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (msg.type === 'failed') p.reject(new Error(msg.message));
    else p.resolve(msg);
  }

  fail(e: Error) {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }

  restart() {
    this.worker.terminate();
    this.busy = false;
    this.spawn();
  }

  request(msg: ToWorker, onProgress?: Pending['onProgress']): Promise<FromWorker> {
    return new Promise((resolve, reject) => {
      this.pending.set(msg.id, { resolve, reject, onProgress });
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
  async validate(scenario: string): Promise<string[]> {
    const msg = await this.slots[0].request({ type: 'validate', id: this.id(), scenario });
    return msg.type === 'validated' ? msg.errors : [];
  }

  /** The constellation view of a scenario (satellites, ground stations, ISL pairs), for the
   * globe. Rejects with the core's message when the scenario has none. */
  async view(scenario: string): Promise<ConstellationView> {
    const msg = await this.slots[0].request({ type: 'view', id: this.id(), scenario });
    if (msg.type !== 'view') throw new Error(`unexpected reply ${msg.type}`);
    return msg.view;
  }

  /** Runs a scenario with traces. `cancel()` stops it at once. */
  run(scenario: string, onProgress?: (p: Progress) => void): { promise: Promise<RunResult>; cancel: () => void } {
    const slot = this.slots[0];
    let cancelled = false;
    const promise = slot
      .request({ type: 'run', id: this.id(), scenario, withTraces: true }, (nowS, endS) =>
        onProgress?.({ fraction: endS > 0 ? Math.min(1, nowS / endS) : 0, label: `${nowS.toFixed(1)} of ${endS} s simulated` }),
      )
      .then((msg) => {
        if (msg.type !== 'result') throw new Error(`unexpected reply ${msg.type}`);
        return msg.result;
      })
      .catch((e: Error) => {
        throw cancelled ? new CancelledError() : e;
      });
    const cancel = () => {
      cancelled = true;
      slot.fail(new CancelledError());
      slot.restart();
    };
    return { promise, cancel };
  }

  /** Runs every point and run of the scenario's sweep across the pool; rows come back in job
   * order, whatever the scheduling. */
  sweep(scenario: string, onProgress?: (p: Progress) => void): { promise: Promise<SweepRow[]>; cancel: () => void } {
    let cancelled = false;
    const promise = (async () => {
      const expand = await this.slots[0].request({ type: 'expandSweep', id: this.id(), scenario });
      if (expand.type !== 'sweepJobs') throw new Error(`unexpected reply ${expand.type}`);
      const jobs = expand.jobs;
      const rows: SweepRow[] = new Array(jobs.length);
      let next = 0;
      let done = 0;
      onProgress?.({ fraction: 0, label: `0 of ${jobs.length} runs` });
      const work = async (slot: WorkerSlot) => {
        while (!cancelled && next < jobs.length) {
          const i = next++;
          const job = jobs[i];
          const msg = await slot.request({
            type: 'run',
            id: this.id(),
            scenario: JSON.stringify(job.scenario),
            seed: job.seed,
            withTraces: false,
          });
          if (msg.type !== 'summary') throw new Error(`unexpected reply ${msg.type}`);
          rows[i] = { job, summary: msg.summary };
          done++;
          onProgress?.({ fraction: done / jobs.length, label: `${done} of ${jobs.length} runs` });
        }
      };
      try {
        await Promise.all(this.slots.map(work));
      } catch (e) {
        throw cancelled ? new CancelledError() : e;
      }
      if (cancelled) throw new CancelledError();
      return rows;
    })();
    const cancel = () => {
      cancelled = true;
      for (const s of this.slots) {
        s.fail(new CancelledError());
        s.restart();
      }
    };
    return { promise, cancel };
  }

  /** Makes a worker's core panic (the crash-recovery path, for users and tests). */
  async crash(): Promise<void> {
    await this.slots[0].ready;
    await this.slots[0].request({ type: 'panic', id: this.id() }).catch(() => undefined);
  }

  dispose() {
    for (const s of this.slots) s.worker.terminate();
  }
}
