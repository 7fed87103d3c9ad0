//! Network coding: GF(256) arithmetic and a systematic RLNC encoder/decoder over real payload
//! bytes (or coefficients only, the "rank-only" mode), for CTCP (docs/ctcp.md, docs/coding.md).
//!
//! * [`gf256`]: the field (0x11D by default, 0x11B for the CTCP reference code), scalar
//!   multiply/inverse and the region operations `dst ^= c·src`, `dst = c·dst` on the fastest
//!   kernel available (AVX2/SSSE3 detected at run time on x86-64, `simd128` chosen at compile time
//!   on wasm, a portable table kernel everywhere).
//! * `dot.rs`: [`Field::dot_prod_rows`], the multi-destination dot product (ISA-L's
//!   `gf_4vect_dot_prod`) that solves a block at full rank.
//! * [`rlnc`]: seeded coefficient vectors, the encoder (systematic sources, then dense
//!   combinations), and the progressive Gaussian-elimination decoder with early delivery, which
//!   eliminates on the coefficients and computes each payload once, when its row is solved.
//!
//! `unsafe` is confined to the SIMD kernels (`simd_x86.rs`, `simd_wasm.rs`); everything a caller
//! sees is safe, and every kernel is tested to give the same bytes as the scalar product.

mod dot;
pub mod gf256;
mod kernel;
pub mod rlnc;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd_wasm;
#[cfg(target_arch = "x86_64")]
mod simd_x86;
// The wasm boundary proper is api.rs; these measuring exports are built only for benchmarks.
#[cfg(all(target_arch = "wasm32", feature = "wasm-bench"))]
pub mod wasm_bench;

pub use gf256::{default_field, field, Field, Kernel, Polynomial};
pub use kernel::DotJob;
pub use rlnc::{coefficients, Decoder, Encoder, Reception};
