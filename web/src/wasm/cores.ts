// The worker's two builds of the core (scripts/build-wasm.sh): `pkg`, without the orbit code,
// loads at start and runs every chain scenario; `pkg-orbit`, a superset with SGP4 and routing,
// loads the first time a request needs it (a constellation scenario, the globe's view of any
// scenario, or an export: pcap files, a sweep's CSV; and a sweep's runs, or a run the page
// expects to be long, as it is built for speed). Keeping the orbit code out of the first load is
// what gets it under its budget (BENCHMARKS.md, the browser lab). A chain scenario's run runs on
// `pkg` unless the request asks for speed, and a sweep's on `pkg-orbit`, so which scenarios a
// worker saw before never decides which build answers (both give the CLI's bytes:
// wasm-core/tests-node/determinism.test.mjs).

import * as chain from './pkg/orbitcp_core.js';
import chainUrl from './pkg/orbitcp_core_bg.wasm?url';
import orbitUrl from './pkg-orbit/orbitcp_core_orbit_bg.wasm?url';

type Glue<M> = Omit<M, 'default' | 'initSync'>;
/** What the worker calls on a core; the orbit build has all of it too. */
export type Core = Glue<typeof chain>;
/** The orbit build's exports: the first-load core's and the globe's. */
export type OrbitCore = Glue<typeof import('./pkg-orbit/orbitcp_core_orbit.js')>;

/** A core with its memory (for the out-of-memory report after a trap). */
export interface Loaded<C extends Core = Core> {
  core: C;
  memory: WebAssembly.Memory;
}

async function instantiate<C extends Core>(
  glue: C & { default: (init: { module_or_path: string }) => Promise<{ memory: WebAssembly.Memory }> },
  url: string,
): Promise<Loaded<C>> {
  const wasm = await glue.default({ module_or_path: url });
  glue.install_panic_hook();
  return { core: glue, memory: wasm.memory };
}

/** The first-load core, instantiated once. */
export const chainCore: Promise<Loaded> = instantiate(chain, chainUrl);

let orbitCore: Promise<Loaded<OrbitCore>> | undefined;

/** The core with the orbit code, fetched and instantiated on first use. */
export function loadOrbitCore(): Promise<Loaded<OrbitCore>> {
  orbitCore ??= import('./pkg-orbit/orbitcp_core_orbit.js').then((glue) => instantiate(glue, orbitUrl));
  return orbitCore;
}

/** The core for a scenario: the first-load one unless the scenario needs the orbit code, which
 * the first-load core itself decides (`needs_orbit_code`: a constellation, or a sweep to one). */
export async function coreFor(scenario: string): Promise<Loaded> {
  const first = await chainCore;
  return first.core.needs_orbit_code(scenario) ? loadOrbitCore() : first;
}
