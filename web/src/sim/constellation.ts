// The constellation view the core computes for the globe (wasm-core/src/orbit/view.rs): core
// output, so it lives with the other result types; the globe imports it from here. The types
// are generated from the Rust ones (results.gen.ts).

export type { ConstellationView, GroundView, OrbitView, SatelliteView } from './results.gen';
