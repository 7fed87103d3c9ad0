//! wasm `simd128` region kernels for GF(256): the nibble-table method with `i8x16.swizzle`.
//!
//! Sources: protocols.md §5.3 (SPLIT 8,4 tables, as in `simd_x86.rs`); the WebAssembly SIMD
//! proposal (`i8x16.swizzle` returns 0 for lane indices ≥ 16, which never happens here because
//! indices are masked to a nibble). Compiled only with `-C target-feature=+simd128`: a wasm module
//! cannot detect features at run time (an engine without SIMD refuses the whole module), so the
//! choice is made at build time and the portable kernel is used otherwise.
//!
//! `unsafe` here is limited to unaligned 16-byte loads and stores through raw pointers. Each is
//! sound because the pointer comes from a sub-slice checked to hold at least 16 bytes, and
//! `v128_load`/`v128_store` have no alignment requirement on wasm. The kernel tests in `gf256.rs`
//! run on wasm too (and `scripts/bench-gf-wasm.mjs` checks this kernel against the portable one in
//! Node through `gf_region_self_check`).

#![allow(unsafe_code)]

use core::arch::wasm32::*;

use super::gf256::portable;

#[inline]
fn load(s: &[u8]) -> v128 {
    assert!(s.len() >= 16);
    // Safe because the assertion keeps the 16-byte unaligned load inside `s`.
    unsafe { v128_load(s.as_ptr().cast()) }
}

#[inline]
fn store(d: &mut [u8], v: v128) {
    assert!(d.len() >= 16);
    // Safe because the assertion keeps the 16-byte unaligned store inside `d`, borrowed mutably.
    unsafe { v128_store(d.as_mut_ptr().cast(), v) }
}

#[inline]
fn tables(tbl: &[u8; 32]) -> (v128, v128) {
    (load(&tbl[..16]), load(&tbl[16..]))
}

#[inline]
fn mul_v(x: v128, lo: v128, hi: v128, mask: v128) -> v128 {
    let l = i8x16_swizzle(lo, v128_and(x, mask));
    let h = i8x16_swizzle(hi, u8x16_shr(x, 4));
    v128_xor(l, h)
}

// Tails: as in `simd_x86.rs`, the last (overlapping) vector is computed from the original `dst`
// before the body runs and stored after it, so no byte is updated twice; only buffers shorter
// than 16 bytes use the portable kernel.

pub(crate) fn mul_add(tbl: &[u8; 32], row: &[u8; 256], dst: &mut [u8], src: &[u8]) {
    assert_eq!(dst.len(), src.len());
    let n = dst.len();
    if n < 16 {
        return portable::mul_add(row, dst, src);
    }
    let (lo, hi) = tables(tbl);
    let mask = u8x16_splat(0x0f);
    let t = n - 16;
    let tail = v128_xor(load(&dst[t..]), mul_v(load(&src[t..]), lo, hi, mask));
    let body = n / 32 * 32;
    let (dst_v, rest_d) = dst.split_at_mut(body);
    let (src_v, rest_s) = src.split_at(body);
    for (d, s) in dst_v.chunks_exact_mut(32).zip(src_v.chunks_exact(32)) {
        let y0 = v128_xor(load(&d[..16]), mul_v(load(&s[..16]), lo, hi, mask));
        let y1 = v128_xor(load(&d[16..]), mul_v(load(&s[16..]), lo, hi, mask));
        store(&mut d[..16], y0);
        store(&mut d[16..], y1);
    }
    if rest_d.len() >= 16 {
        let y = v128_xor(load(rest_d), mul_v(load(rest_s), lo, hi, mask));
        store(rest_d, y);
    }
    if !n.is_multiple_of(16) {
        store(&mut dst[t..], tail);
    }
}

pub(crate) fn mul(tbl: &[u8; 32], row: &[u8; 256], dst: &mut [u8]) {
    let n = dst.len();
    if n < 16 {
        return portable::mul(row, dst);
    }
    let (lo, hi) = tables(tbl);
    let mask = u8x16_splat(0x0f);
    let t = n - 16;
    let tail = mul_v(load(&dst[t..]), lo, hi, mask);
    for d in dst.chunks_exact_mut(16) {
        let y = mul_v(load(d), lo, hi, mask);
        store(d, y);
    }
    if !n.is_multiple_of(16) {
        store(&mut dst[t..], tail);
    }
}

pub(crate) fn mul_add_multi(tbls: &[&[u8; 32]], rows: &[&[u8; 256]], dst: &mut [u8], srcs: &[&[u8]]) {
    assert_eq!(tbls.len(), srcs.len());
    assert_eq!(rows.len(), srcs.len());
    for s in srcs {
        assert_eq!(s.len(), dst.len());
    }
    let len = dst.len();
    if len < 16 {
        for (s, r) in srcs.iter().zip(rows) {
            portable::mul_add(r, dst, s);
        }
        return;
    }
    let mask = u8x16_splat(0x0f);
    let t = len - 16;
    let mut tail = load(&dst[t..]);
    for (s, tb) in srcs.iter().zip(tbls) {
        let (lo, hi) = tables(tb);
        tail = v128_xor(tail, mul_v(load(&s[t..]), lo, hi, mask));
    }
    let body = len / 64 * 64;
    let mut off = 0;
    while off < body {
        let d = &mut dst[off..off + 64];
        let mut a0 = load(&d[..16]);
        let mut a1 = load(&d[16..32]);
        let mut a2 = load(&d[32..48]);
        let mut a3 = load(&d[48..]);
        for (s, t) in srcs.iter().zip(tbls) {
            let (lo, hi) = tables(t);
            let s = &s[off..off + 64];
            a0 = v128_xor(a0, mul_v(load(&s[..16]), lo, hi, mask));
            a1 = v128_xor(a1, mul_v(load(&s[16..32]), lo, hi, mask));
            a2 = v128_xor(a2, mul_v(load(&s[32..48]), lo, hi, mask));
            a3 = v128_xor(a3, mul_v(load(&s[48..]), lo, hi, mask));
        }
        store(&mut d[..16], a0);
        store(&mut d[16..32], a1);
        store(&mut d[32..48], a2);
        store(&mut d[48..], a3);
        off += 64;
    }
    while off + 16 <= len {
        let d = &mut dst[off..off + 16];
        let mut a = load(d);
        for (s, t) in srcs.iter().zip(tbls) {
            let (lo, hi) = tables(t);
            a = v128_xor(a, mul_v(load(&s[off..off + 16]), lo, hi, mask));
        }
        store(d, a);
        off += 16;
    }
    if !len.is_multiple_of(16) {
        store(&mut dst[t..], tail);
    }
}
