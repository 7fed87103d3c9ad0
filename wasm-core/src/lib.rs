//! orbitcp core: a deterministic discrete-event simulator of transport protocols over satellite
//! networks. No I/O, no clocks, no OS randomness: time and the seed are inputs, so native and wasm
//! builds give bit-identical results.

#![deny(unsafe_code)]

#[cfg(target_arch = "wasm32")]
pub mod api;
pub mod arq;
pub mod coding;
pub mod content;
pub mod csv;
pub mod ctcp;
pub mod delivery;
pub mod engine;
pub mod intcp;
pub mod metrics;
pub mod net;
pub mod number_text;
pub mod orbit;
pub mod rto;
pub mod rtt;
pub mod runner;
pub mod scenario;
pub mod schema;
pub mod sim;
pub mod simulation;
pub mod tcp;
