//! wasm `simd128` region kernels for GF(256): the nibble-table method with `i8x16.swizzle`.
//!
//! Sources: docs/coding.md §3 (SPLIT 8,4 tables, as in `simd_x86.rs`); the WebAssembly SIMD
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

use super::kernel::{dot_passes, portable, DotJob, Pass, DOT_DSTS};

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

// Multi-destination dot product (as `dot_avx2` in `simd_x86.rs`, with 16-byte vectors): per
// 32-byte column step each source is split into nibbles once and feeds up to four destinations
// whose accumulators stay in registers. Sources and tables are read through the pointers that
// `dot_passes` gathers per batch from bounds-checked slices; a step at `off` reads
// `off..off + 16·V` with `off + 16·V <= width`.

pub(crate) fn dot(nib: &[[u8; 32]; 256], job: DotJob) {
    dot_passes(nib, job, 16, |pass| match pass.dst.len() / pass.width {
        1 => dot_pass::<1>(pass),
        2 => dot_pass::<2>(pass),
        3 => dot_pass::<3>(pass),
        4 => dot_pass::<4>(pass),
        d => unreachable!("a pass computes 1 to {DOT_DSTS} destinations, not {d}"),
    });
}

/// `acc[d][v] ^= Σ_t c(t, d)·src_t[off + 16v ..][..16]` for `d < D`, where `tabs[t][d]` is the
/// nibble table of `c(t, d)`.
///
/// Safety: every `srcs[t]` must be valid for reads of `off + 16·V` bytes and every `tabs[t][d]`
/// for reads of 32 bytes.
#[inline]
unsafe fn dot_step<const D: usize, const V: usize>(
    srcs: &[*const u8],
    tabs: &[[*const u8; DOT_DSTS]],
    off: usize,
    acc: &mut [[v128; V]; D],
) {
    let mask = u8x16_splat(0x0f);
    for (&s, tab) in srcs.iter().zip(tabs) {
        let mut lo_nib = [u8x16_splat(0); V];
        let mut hi_nib = [u8x16_splat(0); V];
        for v in 0..V {
            // Safe by this function's contract: `off + 16·v + 16 <= off + 16·V` bytes of `s`.
            let x = unsafe { v128_load(s.add(off + 16 * v).cast()) };
            lo_nib[v] = v128_and(x, mask);
            hi_nib[v] = u8x16_shr(x, 4);
        }
        for (a, &t) in acc.iter_mut().zip(tab) {
            // Safe by this function's contract: `t` points to a 32-byte table.
            let (lo, hi) = unsafe { (v128_load(t.cast()), v128_load(t.add(16).cast())) };
            for v in 0..V {
                a[v] = v128_xor(a[v], i8x16_swizzle(lo, lo_nib[v]));
                a[v] = v128_xor(a[v], i8x16_swizzle(hi, hi_nib[v]));
            }
        }
    }
}

fn dot_pass<const D: usize>(pass: Pass) {
    let Pass { dst, width: w, srcs, tabs, first } = pass;
    assert!(w >= 16 && dst.len() == D * w && srcs.len() == tabs.len());
    let start = |dst: &[u8], at: usize| if first { u8x16_splat(0) } else { load(&dst[at..]) };
    // A ragged width ends with an overlapping vector, computed from `dst` as it was before this
    // batch and stored last (as in the single-source kernels).
    let t0 = w - 16;
    let mut tail = [[u8x16_splat(0); 1]; D];
    if !w.is_multiple_of(16) {
        for (d, a) in tail.iter_mut().enumerate() {
            a[0] = start(dst, d * w + t0);
        }
        // Safe because every source pointer is valid for `w` bytes and `t0 + 16 == w`.
        unsafe { dot_step::<D, 1>(srcs, tabs, t0, &mut tail) };
    }
    let mut off = 0;
    while off + 32 <= w {
        let mut acc = [[u8x16_splat(0); 2]; D];
        for (d, a) in acc.iter_mut().enumerate() {
            a[0] = start(dst, d * w + off);
            a[1] = start(dst, d * w + off + 16);
        }
        // Safe because `off + 32 <= w`.
        unsafe { dot_step::<D, 2>(srcs, tabs, off, &mut acc) };
        for (d, a) in acc.iter().enumerate() {
            store(&mut dst[d * w + off..], a[0]);
            store(&mut dst[d * w + off + 16..], a[1]);
        }
        off += 32;
    }
    if off + 16 <= w {
        let mut acc = [[u8x16_splat(0); 1]; D];
        for (d, a) in acc.iter_mut().enumerate() {
            a[0] = start(dst, d * w + off);
        }
        // Safe because `off + 16 <= w`.
        unsafe { dot_step::<D, 1>(srcs, tabs, off, &mut acc) };
        for (d, a) in acc.iter().enumerate() {
            store(&mut dst[d * w + off..], a[0]);
        }
        off += 16;
    }
    if off < w {
        for (d, a) in tail.iter().enumerate() {
            store(&mut dst[d * w + t0..], a[0]);
        }
    }
}
