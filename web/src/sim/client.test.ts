import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { batchSize, CancelledError, CoreError, CrashError, partsLabel, seconds, SimClient, startOrder, wantsSpeed } from './client';
import type { FromWorker, ToWorker } from './protocol';
import type { RunResult, RunSummary } from './results';

/** What the fake workers do with a run of simulation `part` (default: finish after a tick). */
type PartBehaviour = 'finish' | 'fail' | 'crash' | 'hang';

/** A stand-in for the simulation worker: answers as worker.ts does, after a tick, and records
 * what it was asked. */
class FakeWorker {
  static all: FakeWorker[] = [];
  static simulations = 3;
  static parts = new Map<number, PartBehaviour>();
  static sweepJobs = 40;
  static failingJob = -1;
  /** How long a run (and a flows-alone run's last part) takes. */
  static runMs = 1;
  /** When each `partialWanted` arrived. */
  static askedAt: number[] = [];
  onmessage: ((ev: { data: FromWorker }) => void) | null = null;
  onerror: ((ev: { message: string; preventDefault: () => void }) => void) | null = null;
  received: ToWorker[] = [];
  terminated = false;

  constructor() {
    FakeWorker.all.push(this);
    this.reply({ type: 'ready', coreVersion: 'fake' });
  }

  /** Runs under way by request id, with their result so far. */
  private going = new Map<number, string>();

  private reply(msg: FromWorker, ms = 1, before?: () => void) {
    setTimeout(() => {
      before?.();
      if (!this.terminated) this.onmessage?.({ data: msg });
    }, ms);
  }

  postMessage(msg: ToWorker) {
    this.received.push(msg);
    switch (msg.type) {
      case 'simulations':
        this.reply({ type: 'simulations', id: msg.id, count: FakeWorker.simulations });
        return;
      case 'run':
        this.reply({ type: 'progress', id: msg.id, nowS: 4, endS: 4 });
        this.going.set(msg.id, '{"name":"so far"}');
        this.reply({ type: 'result', id: msg.id, result: result('whole') }, FakeWorker.runMs, () => this.going.delete(msg.id));
        return;
      case 'runPart': {
        const how = FakeWorker.parts.get(msg.part) ?? 'finish';
        if (how === 'hang') return;
        if (how === 'fail') this.reply({ type: 'failed', id: msg.id, path: 'flows', message: `part ${msg.part} refused`, crashed: false });
        else if (how === 'crash') this.reply({ type: 'failed', id: msg.id, path: '', message: 'the core panicked', crashed: true });
        else {
          this.reply({ type: 'progress', id: msg.id, nowS: 4, endS: 4 });
          this.going.set(msg.id, `{"part":${msg.part},"so_far":true}`);
          // The last part runs longest.
          const ms = msg.part === FakeWorker.simulations - 1 ? FakeWorker.runMs : 1;
          this.reply({ type: 'part', id: msg.id, json: `{"part":${msg.part}}` }, ms, () => this.going.delete(msg.id));
        }
        return;
      }
      case 'partialWanted': {
        FakeWorker.askedAt.push(performance.now());
        const soFar = this.going.get(msg.id);
        if (soFar !== undefined) this.reply({ type: 'partial', id: msg.id, json: soFar });
        return;
      }
      case 'expandSweep':
        this.reply({ type: 'sweepJobs', id: msg.id, jobs: Array.from({ length: FakeWorker.sweepJobs }, (_, run) => ({ point: [], run, seed: `${run}` })) });
        return;
      case 'sweepRuns':
        for (const job of msg.jobs) {
          if (job === FakeWorker.failingJob) {
            this.reply({ type: 'failed', id: msg.id, path: 'flows', message: `job ${job} refused`, crashed: false });
            return;
          }
          this.reply({ type: 'sweepRow', id: msg.id, job, summary: result(`job ${job}`).summary as RunSummary });
        }
        this.reply({ type: 'sweepDone', id: msg.id });
        return;
      case 'estimate':
        // Not what an estimate request is due: the client must refuse it.
        this.reply({ type: 'csv', id: msg.id, csv: 'a,b' });
        return;
      case 'combine':
        this.reply({ type: 'result', id: msg.id, result: result(`[${msg.parts.join(',')}]`) });
        return;
      default:
        throw new Error(`the fake worker does not answer ${msg.type}`);
    }
  }

  terminate() {
    this.terminated = true;
  }

  /** The parts of runs this worker was asked for. */
  parts(): number[] {
    return this.received.flatMap((m) => (m.type === 'runPart' ? [m.part] : []));
  }
}

/** A result whose name says where it came from. */
function result(name: string): RunResult {
  return { summary: { name } as RunResult['summary'] };
}

beforeEach(() => {
  FakeWorker.all = [];
  FakeWorker.simulations = 3;
  FakeWorker.parts = new Map();
  FakeWorker.sweepJobs = 40;
  FakeWorker.failingJob = -1;
  FakeWorker.runMs = 1;
  FakeWorker.askedAt = [];
  vi.stubGlobal('Worker', FakeWorker);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SimClient requests', () => {
  it('refuse a reply of another type than the request is due, saying which', async () => {
    await expect(new SimClient(1).estimate('{}')).rejects.toThrow('the worker answered csv where estimate was due');
  });
});

describe('SimClient.run of flows alone', () => {
  it('spreads the simulations over the pool and has the core join them in order', async () => {
    const client = new SimClient(2);
    const progress: string[] = [];
    const r = await client.run('{}', (p) => progress.push(`${p.fraction} ${p.label}`)).promise;
    expect(r.summary.name).toBe('[{"part":0},{"part":1},{"part":2}]');
    const [a, b] = FakeWorker.all;
    expect(a.parts().length).toBeGreaterThan(0);
    expect(b.parts().length).toBeGreaterThan(0);
    expect([...a.parts(), ...b.parts()].sort()).toEqual([0, 1, 2]);
    // Progress ends whole, with every flow counted done.
    expect(progress.at(-1)).toBe('1 3 of 3 flows done');
    expect(a.received.filter((m) => m.type === 'combine')).toHaveLength(1);
  });

  it('asks for results so far while the flows run, joins them once every flow has one, and passes on none after the result', async () => {
    FakeWorker.runMs = 2000;
    const started = performance.now();
    const seen: string[] = [];
    const r = await new SimClient(2).run('{}', undefined, (p) => seen.push(p.summary.name)).promise;
    const settled = seen.length;
    await new Promise((done) => setTimeout(done, 20));
    expect(seen).toHaveLength(settled);
    // Only the last flow is still running when asked, after 1 s and then at most twice a second.
    const asked = FakeWorker.askedAt.map((t) => t - started);
    expect(asked.length).toBeGreaterThanOrEqual(1);
    expect(asked.length).toBeLessThanOrEqual(2);
    expect(asked[0]).toBeGreaterThanOrEqual(990);
    for (let i = 1; i < asked.length; i++) expect(asked[i] - asked[i - 1]).toBeGreaterThanOrEqual(490);
    // Each answer is joined with the others' last results, all three flows in order.
    expect(settled).toBe(asked.length);
    for (const name of seen) expect(name).toBe('[{"part":0},{"part":1},{"part":2,"so_far":true}]');
    expect(r.summary.name).toBe('[{"part":0},{"part":1},{"part":2}]');
  });

  it("asks for no results so far without a place to send them, and parses a whole run's", async () => {
    FakeWorker.runMs = 1200;
    await new SimClient(2).run('{}').promise;
    expect(FakeWorker.all.flatMap((w) => w.received).some((m) => m.type === 'partialWanted')).toBe(false);
    FakeWorker.simulations = 1;
    const seen: string[] = [];
    const r = await new SimClient(2).run('{}', undefined, (p) => seen.push(p.summary.name)).promise;
    expect(seen).toEqual(['so far']);
    expect(r.summary.name).toBe('whole');
  });

  it('asks a run that ends within a second for nothing', async () => {
    const seen: string[] = [];
    await new SimClient(2).run('{}', undefined, (p) => seen.push(p.summary.name)).promise;
    await new Promise((done) => setTimeout(done, 1100));
    expect(seen).toEqual([]);
    expect(FakeWorker.all.flatMap((w) => w.received).some((m) => m.type === 'partialWanted')).toBe(false);
  });

  it('starts the costliest simulation first and still joins the results in the order of the flows', async () => {
    const client = new SimClient(2);
    const r = await client.run('{}', undefined, undefined, [0.5, 20, 3]).promise;
    const [a, b] = FakeWorker.all;
    expect([a.parts()[0], b.parts()[0]]).toEqual([1, 2]);
    expect([...a.parts(), ...b.parts()].sort()).toEqual([0, 1, 2]);
    expect(r.summary.name).toBe('[{"part":0},{"part":1},{"part":2}]');
  });

  it('runs what the core expects to be long on the build made for speed, and the rest on the one the scenario needs', async () => {
    const sent = () => FakeWorker.all.flatMap((w) => w.received).flatMap((m) => (m.type === 'run' || m.type === 'runPart' ? [m] : []));
    await new SimClient(2).run('{}', undefined, undefined, [0.1, 5, 3]).promise;
    expect(Object.fromEntries(sent().map((m) => [m.type === 'runPart' ? m.part : -1, m.speed]))).toEqual({ 0: false, 1: true, 2: true });
    FakeWorker.all = [];
    FakeWorker.simulations = 1;
    await new SimClient(2).run('{}', undefined, undefined, [2.5]).promise;
    await new SimClient(2).run('{}', undefined, undefined, [1.5]).promise;
    await new SimClient(2).run('{}').promise;
    expect(sent().map((m) => m.speed)).toEqual([true, false, false]);
  });

  it('runs the scenario as one run when it is one simulation, or the pool one worker', async () => {
    FakeWorker.simulations = 1;
    expect((await new SimClient(2).run('{}').promise).summary.name).toBe('whole');
    expect(FakeWorker.all.flatMap((w) => w.parts())).toEqual([]);
    FakeWorker.all = [];
    FakeWorker.simulations = 3;
    expect((await new SimClient(1).run('{}').promise).summary.name).toBe('whole');
    expect(FakeWorker.all[0].received.map((m) => m.type)).toEqual(['run']);
  });

  it('fails with the message of a simulation that fails, and stops the others', async () => {
    FakeWorker.parts.set(1, 'fail').set(0, 'hang');
    const e = await new SimClient(2).run('{}').promise.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CoreError);
    expect((e as CoreError).problem).toEqual({ path: 'flows', message: 'part 1 refused' });
    // Both workers were replaced: the hanging one stopped.
    expect(FakeWorker.all.slice(0, 2).every((w) => w.terminated)).toBe(true);
    expect(FakeWorker.all).toHaveLength(4);
  });

  it('reports a crash in a simulation as a crash', async () => {
    FakeWorker.parts.set(2, 'crash').set(0, 'hang').set(1, 'hang');
    const client = new SimClient(3);
    const crashes: string[] = [];
    client.onCrash = (m) => crashes.push(m);
    const e = await client.run('{}').promise.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CrashError);
    expect((e as Error).message).toBe('the core panicked');
    expect(crashes).toEqual(['the core panicked']);
  });

  it('cancels every simulation at once', async () => {
    FakeWorker.parts.set(0, 'hang').set(1, 'hang');
    const client = new SimClient(2);
    const handle = client.run('{}');
    await vi.waitFor(() => expect(FakeWorker.all.flatMap((w) => w.parts())).toHaveLength(2));
    handle.cancel();
    await expect(handle.promise).rejects.toBeInstanceOf(CancelledError);
    expect(FakeWorker.all.slice(0, 2).every((w) => w.terminated)).toBe(true);
  });
});

describe('SimClient.sweep', () => {
  it('hands the workers batches of jobs and returns every row in job order', async () => {
    const rows = await new SimClient(2).sweep('{}').promise;
    expect(rows.map((r) => `${r.job.run} ${r.summary.name}`)).toEqual(Array.from({ length: 40 }, (_, i) => `${i} job ${i}`));
    const batches = FakeWorker.all.flatMap((w) => w.received.flatMap((m) => (m.type === 'sweepRuns' ? [m.jobs.length] : [])));
    expect(batches.length).toBeLessThan(40);
    expect(FakeWorker.all.every((w) => w.received.some((m) => m.type === 'sweepRuns'))).toBe(true);
  });

  it('names the job that failed within its batch', async () => {
    FakeWorker.failingJob = 2;
    const e = await new SimClient(1).sweep('{}').promise.catch((x: unknown) => x);
    expect((e as Error).message).toMatch(/^Sweep stopped: run 3 of 40 \(run 2\) failed: flows: job 2 refused\./);
  });
});

describe('wantsSpeed', () => {
  it('takes the build made for speed only for a run estimated over 2 s', () => {
    expect([wantsSpeed(undefined), wantsSpeed(0.4), wantsSpeed(2), wantsSpeed(2.01), wantsSpeed(30)]).toEqual([false, false, false, true, true]);
  });
});

describe('startOrder', () => {
  it('puts the costliest first, ties in index order, and keeps index order without an estimate for each', () => {
    expect(startOrder(5, [0.1, 0.7, 0.1, 2.0, 23])).toEqual([4, 3, 1, 0, 2]);
    expect(startOrder(3)).toEqual([0, 1, 2]);
    expect(startOrder(3, [1, 2])).toEqual([0, 1, 2]);
  });
});

describe('batchSize', () => {
  it('shrinks towards one job as the sweep ends', () => {
    expect(batchSize(1540, 2)).toBe(97);
    expect(batchSize(100, 2)).toBe(7);
    expect(batchSize(3, 2)).toBe(1);
    expect(batchSize(1, 8)).toBe(1);
  });
});

describe('progress words', () => {
  it('writes simulated seconds without float noise', () => {
    expect(seconds(120.00000000000001)).toBe('120');
    expect(seconds(0.1 + 0.2)).toBe('0.3');
    expect(seconds(86400)).toBe('86400');
  });

  it('names the flows still running and counts those done', () => {
    const names = ['TCP Reno', 'INTCP', 'CTCP v2'];
    expect(partsLabel(names, [600, 120.4, 0], [600, 600, 0], [true, false, false])).toBe('1 of 3 flows done; INTCP at 120 of 600 s');
    expect(partsLabel(names, [600, 600, 600], [600, 600, 600], [true, true, true])).toBe('3 of 3 flows done');
    // With each running flow's time left, from its own pace.
    expect(partsLabel(names, [600, 120.4, 0], [600, 600, 0], [true, false, false], [0, 95, null])).toBe(
      '1 of 3 flows done; INTCP at 120 of 600 s (about 1 min 35 s left)',
    );
  });
});
