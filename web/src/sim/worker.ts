// The simulation worker: owns one instance of the wasm core and runs what the UI asks, in
// slices, reporting progress. A panic in the core traps the instance; the worker then reports
// `crashed` and the SimClient replaces it.

import init, {
  SteppedRun,
  constellation_view,
  core_version,
  debug_panic,
  install_panic_hook,
  last_panic,
  sweep_jobs,
  validate_scenario,
} from '../wasm/pkg/orbitcp_core.js';
import wasmUrl from '../wasm/pkg/orbitcp_core_bg.wasm?url';
import { assertNever, type FromWorker, type SweepJob, type ToWorker } from './protocol';
import { parseResult, transferables } from './results';
import type { ConstellationView } from '../globe/view';

const post = (msg: FromWorker, transfer: Transferable[] = []) => self.postMessage(msg, { transfer });

/** Events per slice: about 5-10 ms of work, so progress stays smooth. */
const SLICE_EVENTS = 50_000;
const PROGRESS_EVERY_MS = 50;

const ready = init({ module_or_path: wasmUrl }).then(() => {
  install_panic_hook();
  post({ type: 'ready', coreVersion: core_version() });
});

function describe(e: unknown): { message: string; crashed: boolean } {
  // A Rust panic surfaces as a WebAssembly RuntimeError ("unreachable"); its message was
  // captured by the panic hook.
  const crashed = e instanceof WebAssembly.RuntimeError;
  const panic = crashed ? last_panic() : '';
  const message = panic ? `the simulator panicked: ${panic}` : e instanceof Error ? e.message : String(e);
  return { message, crashed };
}

const yieldToEvents = () => new Promise<void>((r) => setTimeout(r, 0));

async function run(id: number, scenario: string, seed: string | undefined, withTraces: boolean) {
  const sim = new SteppedRun(scenario, seed);
  try {
    let last = 0;
    for (;;) {
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
  } finally {
    sim.free();
  }
}

async function handle(msg: ToWorker) {
  await ready;
  try {
    switch (msg.type) {
      case 'run':
        await run(msg.id, msg.scenario, msg.seed, msg.withTraces);
        break;
      case 'validate':
        try {
          validate_scenario(msg.scenario);
          post({ type: 'validated', id: msg.id, errors: [] });
        } catch (e) {
          const { message, crashed } = describe(e);
          if (crashed) throw e;
          post({ type: 'validated', id: msg.id, errors: message.split('\n') });
        }
        break;
      case 'expandSweep': {
        const jobs = JSON.parse(sweep_jobs(msg.scenario)) as SweepJob[];
        post({ type: 'sweepJobs', id: msg.id, jobs });
        break;
      }
      case 'view':
        post({ type: 'view', id: msg.id, view: JSON.parse(constellation_view(msg.scenario)) as ConstellationView });
        break;
      case 'panic':
        debug_panic();
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
