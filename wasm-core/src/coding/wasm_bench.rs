//! wasm exports for measuring and checking the GF(256) kernels in a JavaScript engine
//! (`scripts/bench-gf-wasm.mjs`). The core has no clocks: each export does a fixed amount of work
//! and returns a checksum (so the work cannot be optimised away); the caller times the call.

use wasm_bindgen::prelude::*;

use super::gf256::{default_field, Kernel};
use super::kernel::DotJob;
use super::rlnc::{Decoder, Encoder};

/// Deterministic filler bytes (xorshift64).
fn fill(buf: &mut [u8], mut s: u64) {
    for b in buf {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        *b = s as u8;
    }
}

fn checksum(buf: &[u8]) -> u32 {
    buf.iter().fold(0u32, |h, &b| h.rotate_left(5) ^ b as u32)
}

/// The kernel the region operations use in this build: "simd128" or "portable".
#[wasm_bindgen]
pub fn gf_kernel() -> String {
    Kernel::best().name().to_string()
}

/// `iters` region multiply-adds `dst ^= c·src` over `bytes`-byte buffers (c cycles through
/// 2..=255); returns a checksum of `dst`.
#[wasm_bindgen]
pub fn gf_region_work(bytes: usize, iters: u32) -> u32 {
    let f = default_field();
    let mut src = vec![0u8; bytes];
    let mut dst = vec![0u8; bytes];
    fill(&mut src, 1);
    fill(&mut dst, 2);
    for i in 0..iters {
        f.mul_add_region(&mut dst, &src, 2 + (i % 254) as u8);
    }
    checksum(&dst)
}

/// Compares the best kernel with the portable one for every coefficient and every length
/// 0..=`max_len` (region multiply-add, in-place multiply, the fused multi-source form, and the
/// multi-destination dot product);
/// returns the number of mismatching results (0 when the SIMD kernel is correct).
#[wasm_bindgen]
pub fn gf_region_self_check(max_len: usize) -> u32 {
    let f = default_field();
    let best = Kernel::best();
    let mut src = vec![0u8; max_len];
    let mut dst0 = vec![0u8; max_len];
    fill(&mut src, 3);
    fill(&mut dst0, 4);
    let mut bad = 0;
    for len in 0..=max_len {
        for c in 0..=255u8 {
            let (mut a, mut b) = (dst0[..len].to_vec(), dst0[..len].to_vec());
            f.mul_add_region_with(best, &mut a, &src[..len], c);
            f.mul_add_region_with(Kernel::Portable, &mut b, &src[..len], c);
            bad += (a != b) as u32;
            f.mul_region_with(best, &mut a, c);
            f.mul_region_with(Kernel::Portable, &mut b, c);
            bad += (a != b) as u32;
            let srcs: [&[u8]; 3] = [&src[..len], &dst0[..len], &src[..len]];
            let cs = [c, c ^ 0x5a, 3];
            f.mul_add_multi_with(best, &mut a, &srcs, &cs);
            f.mul_add_multi_with(Kernel::Portable, &mut b, &srcs, &cs);
            bad += (a != b) as u32;
        }
        // The multi-destination dot product: 1 to 6 destinations from 3 rows of src and dst0.
        let mat: Vec<u8> = (0..18).map(|i| (i as u8).wrapping_mul(37) ^ len as u8).collect();
        let both = [&src[..], &dst0[..]].concat();
        for d in 1..=6 {
            let (mut a, mut b) = (vec![0u8; d * len], vec![0u8; d * len]);
            let rows = [0, 1, 0];
            let stride = max_len.max(1);
            let coeffs = &mat[..3 * d];
            f.dot_prod_rows_with(best, DotJob { dst: &mut a, width: len, src: &both, stride, rows: &rows, coeffs });
            f.dot_prod_rows_with(
                Kernel::Portable,
                DotJob { dst: &mut b, width: len, src: &both, stride, rows: &rows, coeffs },
            );
            bad += (a != b) as u32;
        }
    }
    bad
}

/// Encodes `iters` dense coded packets of a k-symbol block of `symbol_len` bytes; returns a
/// checksum. Source bytes processed = iters·k·symbol_len.
#[wasm_bindgen]
pub fn rlnc_encode_work(k: usize, symbol_len: usize, iters: u32) -> u32 {
    let mut enc = Encoder::new(default_field(), k, symbol_len);
    let mut data = vec![0u8; symbol_len];
    for i in 0..k {
        fill(&mut data, i as u64 + 10);
        enc.set_source(i, &data);
    }
    let (mut c, mut out) = (vec![0u8; k], vec![0u8; symbol_len]);
    let mut h = 0;
    for s in 0..iters {
        enc.encode_seeded(7, s, &mut c, &mut out);
        h ^= checksum(&out);
    }
    h
}

/// Decodes `iters` blocks, each from dense coded packets only (the worst case: k² row
/// operations); returns a checksum. Block bytes decoded = iters·k·symbol_len.
#[wasm_bindgen]
pub fn rlnc_decode_work(k: usize, symbol_len: usize, iters: u32) -> u32 {
    let mut enc = Encoder::new(default_field(), k, symbol_len);
    let mut data = vec![0u8; symbol_len];
    for i in 0..k {
        fill(&mut data, i as u64 + 10);
        enc.set_source(i, &data);
    }
    // Pre-encode k + 4 packets so that the timed part is decoding only.
    let n = k + 4;
    let mut coeffs = vec![0u8; n * k];
    let mut payloads = vec![0u8; n * symbol_len];
    for s in 0..n {
        enc.encode_seeded(
            7,
            s as u32,
            &mut coeffs[s * k..(s + 1) * k],
            &mut payloads[s * symbol_len..(s + 1) * symbol_len],
        );
    }
    let mut dec = Decoder::new(default_field(), k, symbol_len);
    let mut h = 0;
    for _ in 0..iters {
        dec.reset();
        for s in 0..n {
            if dec.is_complete() {
                break;
            }
            dec.add(&coeffs[s * k..(s + 1) * k], &payloads[s * symbol_len..(s + 1) * symbol_len]);
        }
        h ^= dec.symbol(k - 1).map_or(0, checksum);
    }
    h
}
