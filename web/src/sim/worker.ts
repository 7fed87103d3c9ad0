// The simulation worker: owns the wasm core (the first-load build, and the orbit build once a
// request needs it: ../wasm/cores.ts) and runs what the UI asks, in slices, reporting progress.
// A panic in the core traps the instance; the worker then reports `crashed` and the SimClient
// replaces it.

import { chainCore, coreFor, loadOrbitCore, type Loaded } from '../wasm/cores';
import { assertNever, type CostEstimate, type FieldError, type FromWorker, type Request, type SweepJob, type SweepPointStats, type ToWorker } from './protocol';
import { parseResult, transferables } from './results';
import { trapMessage } from './trap';
import type { ConstellationView } from './constellation';

const post = (msg: FromWorker, transfer: Transferable[] = []) => self.postMessage(msg, { transfer });

/** Events per slice: about 5-10 ms of work, so progress stays smooth. */
const SLICE_EVENTS = 50_000;
const PROGRESS_EVERY_MS = 50;

/** The runs going on in this worker, by request id, and those whose result so far the page asked
 * for (`partialWanted`), sent after their slice under way. */
const runsGoing = new Set<number>();
const partialsWanted = new Set<number>();

const ready = chainCore.then(({ core }) => post({ type: 'ready', coreVersion: core.core_version() }));

/** Set once the core has trapped: its state is then undefined (a borrow may be held, memory
 * half-written), so every later request fails as a crash and the client replaces the worker. */
let trapped: string | null = null;
/** Set by a `panic` request with `when: 'next-run'`: the next run panics inside the core. */
let panicNextRun = false;

/** An error the core returned: a plain `{path, message}` object (wasm-core/src/api.rs). */
function coreError(e: unknown): FieldError | null {
  if (typeof e !== 'object' || e === null || e instanceof Error) return null;
  const { path, message } = e as Record<string, unknown>;
  return typeof path === 'string' && typeof message === 'string' ? { path, message } : null;
}

/** `from`: the core that was called, the one to ask for a panic's message after a trap (none
 * when loading it failed). */
function describe(e: unknown, from: Loaded | undefined): { path: string; message: string; crashed: boolean } {
  const refused = coreError(e);
  if (refused && trapped === null) return { ...refused, crashed: false };
  // A Rust panic or an aborted allocation surfaces as a WebAssembly RuntimeError
  // ("unreachable"); a panic's message was captured by the panic hook.
  const error = e instanceof Error ? e.message : String(e);
  if (e instanceof WebAssembly.RuntimeError && trapped === null) {
    let panic = '';
    try {
      panic = from?.core.last_panic() ?? '';
    } catch {
      // The instance may be too broken to answer; the trap itself is the report.
    }
    trapped = trapMessage(panic, error, from?.memory.buffer.byteLength ?? 0);
  }
  if (trapped !== null) return { path: '', message: trapped, crashed: true };
  return { path: '', message: error, crashed: false };
}

// Lets requests that arrive during a long run (a validation as the user types) be answered
// between its slices. A message to itself, not setTimeout(0): browsers hold a timer set from a
// timer back by 4 ms after a few levels, which cost a long run about a tenth of its time.
const wake = new MessageChannel();
const sleepers: (() => void)[] = [];
wake.port1.onmessage = () => sleepers.shift()?.();
const yieldToEvents = () =>
  new Promise<void>((r) => {
    sleepers.push(r);
    wake.port2.postMessage(null);
  });

type Stepped = InstanceType<Loaded['core']['SteppedRun']>;

/** Advances `sim` to its end in slices, reporting progress under `id` (none without), and the
 * result so far when the page asks for it. Taking a result reads the run without changing it,
 * so the run ends the same either way (`runner/session.rs` tests it). */
async function advanceToEnd(sim: Stepped, id?: number) {
  let last = 0;
  for (let slice = 0; ; slice++) {
    if (slice === 1 && panicNextRun) {
      panicNextRun = false;
      sim.arm_panic();
    }
    const done = sim.advance(SLICE_EVENTS);
    const now = performance.now();
    if (id !== undefined && (done || now - last > PROGRESS_EVERY_MS)) {
      post({ type: 'progress', id, nowS: sim.now_s(), endS: sim.end_s() });
      last = now;
    }
    if (done) return;
    if (id !== undefined && partialsWanted.delete(id)) post({ type: 'partial', id, json: sim.result(true) });
    await yieldToEvents();
  }
}

/** The sweep whose plan was read last, kept for the next batch of its jobs. */
let lastSweep: { loaded: Loaded; scenario: string; runs: InstanceType<Loaded['core']['SweepRuns']> } | undefined;

/** Runs jobs of a sweep in order, each reported as a row when done: one request for many runs,
 * and the sweep's scenario read once for all of them. */
async function sweepRuns(loaded: Loaded, id: number, scenario: string, jobs: number[]) {
  if (lastSweep?.loaded !== loaded || lastSweep.scenario !== scenario) {
    lastSweep?.runs.free();
    // Not kept freed if the new sweep is refused.
    lastSweep = undefined;
    lastSweep = { loaded, scenario, runs: new loaded.core.SweepRuns(scenario) };
  }
  const { runs } = lastSweep;
  for (const job of jobs) {
    const sim = runs.job(job);
    try {
      await advanceToEnd(sim);
      post({ type: 'sweepRow', id, job, summary: parseResult(sim.result(false)).summary });
    } catch (e) {
      describe(e, loaded);
      throw e;
    } finally {
      if (trapped === null) sim.free();
    }
  }
  post({ type: 'sweepDone', id });
}

async function run(loaded: Loaded, id: number, scenario: string, seed: string | undefined, part: number | undefined) {
  const { core } = loaded;
  const sim = part !== undefined ? core.SteppedRun.part(scenario, seed, part) : new core.SteppedRun(scenario, seed);
  runsGoing.add(id);
  try {
    await advanceToEnd(sim, id);
    if (part !== undefined) {
      // Passed on as text: the client only hands it back to `combine`.
      post({ type: 'part', id, json: sim.result(true) });
      return;
    }
    const result = parseResult(sim.result(true));
    post({ type: 'result', id, result }, transferables(result));
  } catch (e) {
    describe(e, loaded);
    throw e;
  } finally {
    runsGoing.delete(id);
    partialsWanted.delete(id);
    // After a trap the object may still be borrowed, and free() would throw over the real
    // error; the worker is discarded anyway.
    if (trapped === null) sim.free();
  }
}

/** The core that answers `msg`: the orbit build for the globe's view, for joining a run's parts
 * (`combine`), for a sweep's statistics and for the exports (pcap files, a sweep's CSV), whatever the scenario, since the
 * first-load build has none of them (reading results back is the result types' deserializers);
 * and for a sweep's runs and a run the page expects to be long (`speed`), since it is built for
 * speed where the first-load build is built for size (a chain run of TCP or CTCP takes 1.5-1.7
 * times as long on the latter), and such work is long enough that fetching it once costs
 * little in comparison. Both give the CLI's bytes. */
async function coreOf(msg: Request): Promise<Loaded> {
  if (msg.type === 'view' || msg.type === 'pcap' || msg.type === 'sweepCsv' || msg.type === 'sweepStats' || msg.type === 'sweepRuns' || msg.type === 'combine') return loadOrbitCore();
  if ((msg.type === 'run' || msg.type === 'runPart') && msg.speed) return loadOrbitCore();
  if (msg.type === 'panic') return chainCore;
  return coreFor(msg.scenario);
}

async function handle(msg: ToWorker) {
  if (msg.type === 'partialWanted') {
    // A run that has ended has sent its result: the request is dropped.
    if (runsGoing.has(msg.id)) partialsWanted.add(msg.id);
    return;
  }
  await ready;
  let loaded: Loaded | undefined;
  try {
    if (trapped !== null) throw new Error(trapped);
    loaded = await coreOf(msg);
    const { core } = loaded;
    switch (msg.type) {
      case 'run':
        await run(loaded, msg.id, msg.scenario, msg.seed, undefined);
        break;
      case 'runPart':
        await run(loaded, msg.id, msg.scenario, msg.seed, msg.part);
        break;
      case 'sweepRuns':
        await sweepRuns(loaded, msg.id, msg.scenario, msg.jobs);
        break;
      case 'simulations': {
        const count = core.simulation_count(msg.scenario);
        // This worker joins the parts (`combine`, the orbit build's): fetched while they run.
        if (count > 1) void loadOrbitCore();
        post({ type: 'simulations', id: msg.id, count });
        break;
      }
      case 'combine': {
        // The parts are the core's JSON texts: joined into an array without parsing them here.
        const { core: orbit } = await loadOrbitCore();
        const result = parseResult(orbit.combine_results(msg.scenario, msg.seed, `[${msg.parts.join(',')}]`));
        post({ type: 'result', id: msg.id, result }, transferables(result));
        break;
      }
      case 'validate':
        post({ type: 'validated', id: msg.id, errors: JSON.parse(core.validate_scenario(msg.scenario)) as FieldError[] });
        break;
      case 'expandSweep': {
        const jobs = JSON.parse(core.sweep_jobs(msg.scenario)) as SweepJob[];
        post({ type: 'sweepJobs', id: msg.id, jobs });
        break;
      }
      case 'estimate':
        post({ type: 'estimate', id: msg.id, estimate: JSON.parse(core.estimate_cost(msg.scenario)) as CostEstimate });
        break;
      case 'view': {
        const { core: orbit } = await loadOrbitCore();
        post({ type: 'view', id: msg.id, view: JSON.parse(orbit.constellation_view(msg.scenario)) as ConstellationView });
        break;
      }
      case 'sweepCsv': {
        const { core: orbit } = await loadOrbitCore();
        post({ type: 'csv', id: msg.id, csv: orbit.sweep_csv(msg.scenario, msg.results, false) });
        break;
      }
      case 'sweepStats': {
        const { core: orbit } = await loadOrbitCore();
        post({ type: 'sweepStats', id: msg.id, stats: JSON.parse(orbit.sweep_stats(msg.scenario, msg.results)) as SweepPointStats[] });
        break;
      }
      case 'pcap': {
        const { core: orbit } = await loadOrbitCore();
        const cap = new orbit.PcapFiles(msg.scenario, undefined, undefined);
        try {
          const files = Array.from({ length: cap.count() }, (_, i) => ({ name: cap.name(i), bytes: cap.bytes(i) }));
          post({ type: 'pcap', id: msg.id, files, missed: cap.missed() }, files.map((f) => f.bytes.buffer));
        } finally {
          cap.free();
        }
        break;
      }
      case 'panic':
        if (msg.when === 'now') core.debug_panic();
        else if (msg.when === 'next-run') {
          panicNextRun = true;
          post({ type: 'armed', id: msg.id });
        } else core.debug_exhaust_memory();
        break;
      default:
        assertNever(msg);
    }
  } catch (e) {
    post({ type: 'failed', id: msg.id, ...describe(e, loaded) });
  }
}

self.onmessage = (ev: MessageEvent<ToWorker>) => {
  void handle(ev.data);
};
