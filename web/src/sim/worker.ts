// The simulation worker: owns one instance of the wasm core and runs what the UI asks, in
// slices, reporting progress. A panic in the core traps the instance; the worker then reports
// `crashed` and the SimClient replaces it.

import init, {
  PcapFiles,
  SteppedRun,
  constellation_view,
  core_version,
  debug_exhaust_memory,
  debug_panic,
  estimate_cost,
  install_panic_hook,
  last_panic,
  sweep_csv,
  sweep_jobs,
  validate_scenario,
} from '../wasm/pkg/orbitcp_core.js';
import wasmUrl from '../wasm/pkg/orbitcp_core_bg.wasm?url';
import { assertNever, type CostEstimate, type FieldError, type FromWorker, type SweepJob, type ToWorker } from './protocol';
import { parseResult, transferables } from './results';
import { trapMessage } from './trap';
import type { ConstellationView } from './constellation';

const post = (msg: FromWorker, transfer: Transferable[] = []) => self.postMessage(msg, { transfer });

/** Events per slice: about 5-10 ms of work, so progress stays smooth. */
const SLICE_EVENTS = 50_000;
const PROGRESS_EVERY_MS = 50;

let memory: WebAssembly.Memory | undefined;
const ready = init({ module_or_path: wasmUrl }).then((wasm) => {
  memory = wasm.memory;
  install_panic_hook();
  post({ type: 'ready', coreVersion: core_version() });
});

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

function describe(e: unknown): { path: string; message: string; crashed: boolean } {
  const refused = coreError(e);
  if (refused && trapped === null) return { ...refused, crashed: false };
  // A Rust panic or an aborted allocation surfaces as a WebAssembly RuntimeError
  // ("unreachable"); a panic's message was captured by the panic hook.
  const error = e instanceof Error ? e.message : String(e);
  if (e instanceof WebAssembly.RuntimeError && trapped === null) {
    let panic = '';
    try {
      panic = last_panic();
    } catch {
      // The instance may be too broken to answer; the trap itself is the report.
    }
    trapped = trapMessage(panic, error, memory?.buffer.byteLength ?? 0);
  }
  if (trapped !== null) return { path: '', message: trapped, crashed: true };
  return { path: '', message: error, crashed: false };
}

const yieldToEvents = () => new Promise<void>((r) => setTimeout(r, 0));

async function run(id: number, scenario: string, seed: string | undefined, job: number | undefined, withTraces: boolean) {
  const sim = job === undefined ? new SteppedRun(scenario, seed) : SteppedRun.sweep_job(scenario, job);
  try {
    let last = 0;
    for (let slice = 0; ; slice++) {
      if (slice === 1 && panicNextRun) {
        panicNextRun = false;
        sim.arm_panic();
      }
      const done = sim.advance(SLICE_EVENTS);
      const now = performance.now();
      if (done || now - last > PROGRESS_EVERY_MS) {
        post({ type: 'progress', id, nowS: sim.now_s(), endS: sim.end_s() });
        last = now;
      }
      if (done) break;
      await yieldToEvents();
    }
    const result = parseResult(sim.result(withTraces));
    if (withTraces) post({ type: 'result', id, result }, transferables(result));
    else post({ type: 'summary', id, summary: result.summary });
  } catch (e) {
    describe(e);
    throw e;
  } finally {
    // After a trap the object may still be borrowed, and free() would throw over the real
    // error; the worker is discarded anyway.
    if (trapped === null) sim.free();
  }
}

async function handle(msg: ToWorker) {
  await ready;
  try {
    if (trapped !== null) throw new Error(trapped);
    switch (msg.type) {
      case 'run':
        await run(msg.id, msg.scenario, msg.seed, msg.job, msg.withTraces);
        break;
      case 'validate':
        post({ type: 'validated', id: msg.id, errors: JSON.parse(validate_scenario(msg.scenario)) as FieldError[] });
        break;
      case 'expandSweep': {
        const jobs = JSON.parse(sweep_jobs(msg.scenario)) as SweepJob[];
        post({ type: 'sweepJobs', id: msg.id, jobs });
        break;
      }
      case 'estimate':
        post({ type: 'estimate', id: msg.id, estimate: JSON.parse(estimate_cost(msg.scenario)) as CostEstimate });
        break;
      case 'view':
        post({ type: 'view', id: msg.id, view: JSON.parse(constellation_view(msg.scenario)) as ConstellationView });
        break;
      case 'sweepCsv':
        post({ type: 'csv', id: msg.id, csv: sweep_csv(msg.scenario, msg.results, false) });
        break;
      case 'pcap': {
        const cap = new PcapFiles(msg.scenario, undefined, undefined);
        try {
          const files = Array.from({ length: cap.count() }, (_, i) => ({ name: cap.name(i), bytes: cap.bytes(i) }));
          post({ type: 'pcap', id: msg.id, files, missed: cap.missed() }, files.map((f) => f.bytes.buffer));
        } finally {
          cap.free();
        }
        break;
      }
      case 'panic':
        if (msg.when === 'now') debug_panic();
        else if (msg.when === 'next-run') {
          panicNextRun = true;
          post({ type: 'armed', id: msg.id });
        } else debug_exhaust_memory();
        break;
      default:
        assertNever(msg);
    }
  } catch (e) {
    post({ type: 'failed', id: msg.id, ...describe(e) });
  }
}

self.onmessage = (ev: MessageEvent<ToWorker>) => {
  void handle(ev.data);
};
