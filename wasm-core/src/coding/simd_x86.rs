//! x86-64 SSSE3 and AVX2 region kernels for GF(256): the "SPLIT 8,4" nibble-table method.
//!
//! Sources: docs/coding.md §3; GF-Complete's SPLIT 8,4 region multiply and ISA-L's
//! `gf_vect_mad_avx2` / `gf_Nvect_dot_prod_avx2`. For each coefficient `c` a 32-byte table holds
//! `c·n` (low nibble `n`) and `c·(n<<4)` (high nibble); `c·x = lo[x & 15] ^ hi[x >> 4]`, and
//! `PSHUFB` performs 16 (SSSE3) or 32 (AVX2, the 16-byte table broadcast to both lanes) such
//! lookups per instruction. A length that is not a whole number of vectors ends with one
//! overlapping vector (computed before the body, see "Tails" below); only buffers shorter than
//! one 16-byte vector use the portable product row.
//!
//! This is one of the two modules allowed to use `unsafe` (lib.rs denies it elsewhere; the
//! other is `simd_wasm.rs`). There are two kinds of unsafe operation
//! here, each explained where it occurs:
//! * calling a `#[target_feature]` function, which is sound only on a CPU with that feature: the
//!   `*_checked` entry points take a [`Detected`] token, which `gf256` builds only after
//!   `is_x86_feature_detected!` said yes, and assert that it names the right kernel;
//! * unaligned vector loads and stores through raw pointers, which are sound when the pointer and
//!   the following 16/32 bytes lie inside a live slice: every such pointer comes from a sub-slice
//!   whose length was checked (by `chunks_exact` or by slice indexing) to be at least the vector
//!   width, and `loadu`/`storeu` have no alignment requirement.
//!
//! The tests in `gf256.rs` run every kernel against the scalar product on all 256 coefficients,
//! every tail length 0..=129 and misaligned slices, which exercises the bounds relied on here.

#![allow(unsafe_code)]

use std::arch::x86_64::*;

use super::kernel::{dot_passes, portable, Detected, DotJob, Kernel, Pass, DOT_DSTS, MULTI_GROUP};

// ---------------------------------------------------------------------------------------------
// Checked entry points (safe to call from anywhere).

pub(crate) fn mul_add_ssse3_checked(k: Detected, tbl: &[u8; 32], row: &[u8; 256], dst: &mut [u8], src: &[u8]) {
    assert!(matches!(k.kernel(), Kernel::Ssse3 | Kernel::Avx2), "SSSE3 kernel without SSSE3 detection");
    // Safe because the token proves `is_x86_feature_detected!("ssse3")` (or "avx2", which every
    // AVX2 CPU implies: AVX2 CPUs implement all of SSE3/SSSE3/SSE4) returned true on this CPU.
    unsafe { mul_add_ssse3(tbl, row, dst, src) }
}

pub(crate) fn mul_ssse3_checked(k: Detected, tbl: &[u8; 32], row: &[u8; 256], dst: &mut [u8]) {
    assert!(matches!(k.kernel(), Kernel::Ssse3 | Kernel::Avx2), "SSSE3 kernel without SSSE3 detection");
    // Safe because the token proves SSSE3 is present (see `mul_add_ssse3_checked`).
    unsafe { mul_ssse3(tbl, row, dst) }
}

pub(crate) fn mul_add_avx2_checked(k: Detected, tbl: &[u8; 32], row: &[u8; 256], dst: &mut [u8], src: &[u8]) {
    assert!(k.kernel() == Kernel::Avx2, "AVX2 kernel without AVX2 detection");
    // Safe because the token proves `is_x86_feature_detected!("avx2")` returned true.
    unsafe { mul_add_avx2(tbl, row, dst, src) }
}

pub(crate) fn mul_avx2_checked(k: Detected, tbl: &[u8; 32], row: &[u8; 256], dst: &mut [u8]) {
    assert!(k.kernel() == Kernel::Avx2, "AVX2 kernel without AVX2 detection");
    // Safe because the token proves AVX2 is present.
    unsafe { mul_avx2(tbl, row, dst) }
}

pub(crate) fn mul_add_multi_avx2_checked(
    k: Detected,
    tbls: &[&[u8; 32]],
    rows: &[&[u8; 256]],
    dst: &mut [u8],
    srcs: &[&[u8]],
) {
    assert!(k.kernel() == Kernel::Avx2, "AVX2 kernel without AVX2 detection");
    // Safe because the token proves AVX2 is present.
    unsafe { mul_add_multi_avx2(tbls, rows, dst, srcs) }
}

pub(crate) fn dot_avx2_checked(k: Detected, tables: &[[u8; 32]; 256], job: DotJob) {
    assert!(k.kernel() == Kernel::Avx2, "AVX2 kernel without AVX2 detection");
    // Safe because the token proves AVX2 is present.
    unsafe { dot_avx2(tables, job) }
}

// ---------------------------------------------------------------------------------------------
// SSSE3: 16 bytes per lookup, 64 bytes per loop iteration.

#[target_feature(enable = "ssse3")]
fn tables_128(tbl: &[u8; 32]) -> (__m128i, __m128i) {
    // Safe because `tbl` is 32 bytes: the loads read bytes 0..16 and 16..32.
    unsafe { (_mm_loadu_si128(tbl.as_ptr().cast()), _mm_loadu_si128(tbl.as_ptr().add(16).cast())) }
}

#[target_feature(enable = "ssse3")]
#[inline]
fn mul_128(x: __m128i, lo: __m128i, hi: __m128i, mask: __m128i) -> __m128i {
    let l = _mm_shuffle_epi8(lo, _mm_and_si128(x, mask));
    let h = _mm_shuffle_epi8(hi, _mm_and_si128(_mm_srli_epi16(x, 4), mask));
    _mm_xor_si128(l, h)
}

#[target_feature(enable = "ssse3")]
#[inline]
fn load_128(s: &[u8]) -> __m128i {
    assert!(s.len() >= 16);
    // Safe because the assertion above keeps the 16-byte unaligned load inside `s`.
    unsafe { _mm_loadu_si128(s.as_ptr().cast()) }
}

#[target_feature(enable = "ssse3")]
#[inline]
fn store_128(d: &mut [u8], v: __m128i) {
    assert!(d.len() >= 16);
    // Safe because the assertion above keeps the 16-byte unaligned store inside `d`, which we
    // borrow mutably.
    unsafe { _mm_storeu_si128(d.as_mut_ptr().cast(), v) }
}

// Tails: when the length is not a multiple of the vector width, the last (overlapping) vector is
// computed from the original `dst` *before* the body runs and stored after it. The overlapped
// bytes receive the value the body already wrote, so no byte is updated twice. Only buffers
// shorter than one vector fall back to the portable kernel.

#[target_feature(enable = "ssse3")]
fn mul_add_ssse3(tbl: &[u8; 32], row: &[u8; 256], dst: &mut [u8], src: &[u8]) {
    assert_eq!(dst.len(), src.len());
    let n = dst.len();
    if n < 16 {
        return portable::mul_add(row, dst, src);
    }
    let (lo, hi) = tables_128(tbl);
    let mask = _mm_set1_epi8(0x0f);
    let t = n - 16;
    let tail = _mm_xor_si128(load_128(&dst[t..]), mul_128(load_128(&src[t..]), lo, hi, mask));
    for (d, s) in dst.chunks_exact_mut(16).zip(src.chunks_exact(16)) {
        let y = _mm_xor_si128(load_128(d), mul_128(load_128(s), lo, hi, mask));
        store_128(d, y);
    }
    if !n.is_multiple_of(16) {
        store_128(&mut dst[t..], tail);
    }
}

#[target_feature(enable = "ssse3")]
fn mul_ssse3(tbl: &[u8; 32], row: &[u8; 256], dst: &mut [u8]) {
    let n = dst.len();
    if n < 16 {
        return portable::mul(row, dst);
    }
    let (lo, hi) = tables_128(tbl);
    let mask = _mm_set1_epi8(0x0f);
    let t = n - 16;
    let tail = mul_128(load_128(&dst[t..]), lo, hi, mask);
    for d in dst.chunks_exact_mut(16) {
        let y = mul_128(load_128(d), lo, hi, mask);
        store_128(d, y);
    }
    if !n.is_multiple_of(16) {
        store_128(&mut dst[t..], tail);
    }
}

// ---------------------------------------------------------------------------------------------
// AVX2: 32 bytes per lookup; the single-source loop handles 64 bytes per iteration, the
// multi-source loop keeps 128 bytes of `dst` in four registers while it walks the sources.

#[target_feature(enable = "avx2")]
fn tables_256(tbl: &[u8; 32]) -> (__m256i, __m256i) {
    // Safe because `tbl` is 32 bytes: the loads read bytes 0..16 and 16..32.
    let (lo, hi) = unsafe { (_mm_loadu_si128(tbl.as_ptr().cast()), _mm_loadu_si128(tbl.as_ptr().add(16).cast())) };
    (_mm256_broadcastsi128_si256(lo), _mm256_broadcastsi128_si256(hi))
}

#[target_feature(enable = "avx2")]
#[inline]
fn mul_256(x: __m256i, lo: __m256i, hi: __m256i, mask: __m256i) -> __m256i {
    let l = _mm256_shuffle_epi8(lo, _mm256_and_si256(x, mask));
    let h = _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(x, 4), mask));
    _mm256_xor_si256(l, h)
}

#[target_feature(enable = "avx2")]
#[inline]
fn load(s: &[u8]) -> __m256i {
    assert!(s.len() >= 32);
    // Safe because the assertion above keeps the 32-byte unaligned load inside `s`.
    unsafe { _mm256_loadu_si256(s.as_ptr().cast()) }
}

#[target_feature(enable = "avx2")]
#[inline]
fn store(d: &mut [u8], v: __m256i) {
    assert!(d.len() >= 32);
    // Safe because the assertion above keeps the 32-byte unaligned store inside `d`, which we
    // borrow mutably (no other reference can observe the write).
    unsafe { _mm256_storeu_si256(d.as_mut_ptr().cast(), v) }
}

#[target_feature(enable = "avx2")]
fn mul_add_avx2(tbl: &[u8; 32], row: &[u8; 256], dst: &mut [u8], src: &[u8]) {
    assert_eq!(dst.len(), src.len());
    let n = dst.len();
    if n < 32 {
        // AVX2 implies SSSE3: one 16-byte vector (plus an overlapping tail) or the portable kernel.
        return mul_add_ssse3(tbl, row, dst, src);
    }
    let (lo, hi) = tables_256(tbl);
    let mask = _mm256_set1_epi8(0x0f);
    let t = n - 32;
    let tail = _mm256_xor_si256(load(&dst[t..]), mul_256(load(&src[t..]), lo, hi, mask));
    let body = n / 64 * 64;
    let (dst_v, rest_d) = dst.split_at_mut(body);
    let (src_v, rest_s) = src.split_at(body);
    for (d, s) in dst_v.chunks_exact_mut(64).zip(src_v.chunks_exact(64)) {
        // `chunks_exact(64)` lets the compiler drop the length assertions in `load`/`store`.
        let x0 = load(&s[..32]);
        let x1 = load(&s[32..]);
        let y0 = _mm256_xor_si256(load(&d[..32]), mul_256(x0, lo, hi, mask));
        let y1 = _mm256_xor_si256(load(&d[32..]), mul_256(x1, lo, hi, mask));
        store(&mut d[..32], y0);
        store(&mut d[32..], y1);
    }
    if rest_d.len() >= 32 {
        let y = _mm256_xor_si256(load(rest_d), mul_256(load(rest_s), lo, hi, mask));
        store(rest_d, y);
    }
    if !n.is_multiple_of(32) {
        store(&mut dst[t..], tail);
    }
}

#[target_feature(enable = "avx2")]
fn mul_avx2(tbl: &[u8; 32], row: &[u8; 256], dst: &mut [u8]) {
    let n = dst.len();
    if n < 32 {
        return mul_ssse3(tbl, row, dst);
    }
    let (lo, hi) = tables_256(tbl);
    let mask = _mm256_set1_epi8(0x0f);
    let t = n - 32;
    let tail = mul_256(load(&dst[t..]), lo, hi, mask);
    for d in dst.chunks_exact_mut(32) {
        let y = mul_256(load(d), lo, hi, mask);
        store(d, y);
    }
    if !n.is_multiple_of(32) {
        store(&mut dst[t..], tail);
    }
}

#[target_feature(enable = "avx2")]
fn mul_add_multi_avx2(tbls: &[&[u8; 32]], rows: &[&[u8; 256]], dst: &mut [u8], srcs: &[&[u8]]) {
    assert_eq!(tbls.len(), srcs.len());
    assert_eq!(rows.len(), srcs.len());
    for s in srcs {
        assert_eq!(s.len(), dst.len());
    }
    let len = dst.len();
    if len < 32 {
        for ((s, t), r) in srcs.iter().zip(tbls).zip(rows) {
            mul_add_ssse3(t, r, dst, s);
        }
        return;
    }
    if srcs.len() > MULTI_GROUP {
        // Longer source lists are split; the caller in gf256 never passes more.
        let (a, b) = srcs.split_at(MULTI_GROUP);
        let (ta, tb) = tbls.split_at(MULTI_GROUP);
        let (ra, rb) = rows.split_at(MULTI_GROUP);
        mul_add_multi_avx2(ta, ra, dst, a);
        return mul_add_multi_avx2(tb, rb, dst, b);
    }
    let mask = _mm256_set1_epi8(0x0f);
    // Broadcast tables once per call (at most MULTI_GROUP sources, so this stays small).
    let mut lo = [_mm256_setzero_si256(); MULTI_GROUP];
    let mut hi = [_mm256_setzero_si256(); MULTI_GROUP];
    let m = srcs.len();
    for (i, t) in tbls.iter().enumerate() {
        (lo[i], hi[i]) = tables_256(t);
    }
    let (lo, hi) = (&lo[..m], &hi[..m]);
    let t = len - 32;
    let mut tail = load(&dst[t..]);
    for (i, s) in srcs.iter().enumerate() {
        tail = _mm256_xor_si256(tail, mul_256(load(&s[t..]), lo[i], hi[i], mask));
    }
    let body = len / 128 * 128;
    let mut off = 0;
    while off < body {
        let d = &mut dst[off..off + 128];
        let mut a0 = load(&d[..32]);
        let mut a1 = load(&d[32..64]);
        let mut a2 = load(&d[64..96]);
        let mut a3 = load(&d[96..]);
        for (i, s) in srcs.iter().enumerate() {
            let (l, h) = (lo[i], hi[i]);
            let s = &s[off..off + 128];
            a0 = _mm256_xor_si256(a0, mul_256(load(&s[..32]), l, h, mask));
            a1 = _mm256_xor_si256(a1, mul_256(load(&s[32..64]), l, h, mask));
            a2 = _mm256_xor_si256(a2, mul_256(load(&s[64..96]), l, h, mask));
            a3 = _mm256_xor_si256(a3, mul_256(load(&s[96..]), l, h, mask));
        }
        store(&mut d[..32], a0);
        store(&mut d[32..64], a1);
        store(&mut d[64..96], a2);
        store(&mut d[96..], a3);
        off += 128;
    }
    while off + 32 <= len {
        let d = &mut dst[off..off + 32];
        let mut a = load(d);
        for (i, s) in srcs.iter().enumerate() {
            a = _mm256_xor_si256(a, mul_256(load(&s[off..off + 32]), lo[i], hi[i], mask));
        }
        store(d, a);
        off += 32;
    }
    if !len.is_multiple_of(32) {
        store(&mut dst[t..], tail);
    }
}

// ---------------------------------------------------------------------------------------------
// AVX2 multi-destination dot product (ISA-L's gf_4vect_dot_prod_avx2): for each 64-byte column
// step, walk the sources once; split each source's two vectors into nibbles once, and add their
// products to up to four destinations whose accumulators stay in registers.
//
// The inner loop reads sources and tables through the raw pointers that `kernel::dot_passes`
// gathers per batch of sources (so that it carries no bounds checks and no coefficient
// arithmetic: about 56 instructions for eight 32-byte products), each from a slice that was
// bounds-checked when it was taken. Column offsets stay below `width`: a step at `off` reads
// `off..off + 32·V` with `off + 32·V <= width`.

#[target_feature(enable = "avx2")]
fn dot_avx2(tables: &[[u8; 32]; 256], job: DotJob) {
    // The closure has this function's target features, so it may call the AVX2 passes.
    dot_passes(tables, job, 32, |pass| match pass.dst.len() / pass.width {
        1 => dot_pass_avx2::<1>(pass),
        2 => dot_pass_avx2::<2>(pass),
        3 => dot_pass_avx2::<3>(pass),
        4 => dot_pass_avx2::<4>(pass),
        d => unreachable!("a pass computes 1 to {DOT_DSTS} destinations, not {d}"),
    });
}

/// `acc[d][v] ^= Σ_t c(t, d)·src_t[off + 32v ..][..32]` for `d < D`, where `tabs[t][d]` is the
/// nibble table of `c(t, d)`.
///
/// Safety: every `srcs[t]` must be valid for reads of `off + 32·V` bytes and every `tabs[t][d]`
/// for reads of 32 bytes.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn dot_step_256<const D: usize, const V: usize>(
    srcs: &[*const u8],
    tabs: &[[*const u8; DOT_DSTS]],
    off: usize,
    acc: &mut [[__m256i; V]; D],
) {
    let mask = _mm256_set1_epi8(0x0f);
    for (&s, tab) in srcs.iter().zip(tabs) {
        let mut lo_nib = [_mm256_setzero_si256(); V];
        let mut hi_nib = [_mm256_setzero_si256(); V];
        for v in 0..V {
            // Safe by this function's contract: `off + 32·v + 32 <= off + 32·V` bytes of `s`.
            let x = unsafe { _mm256_loadu_si256(s.add(off + 32 * v).cast()) };
            lo_nib[v] = _mm256_and_si256(x, mask);
            hi_nib[v] = _mm256_and_si256(_mm256_srli_epi16(x, 4), mask);
        }
        for (a, &t) in acc.iter_mut().zip(tab) {
            // Safe by this function's contract: `t` points to a 32-byte table.
            let (lo, hi) = unsafe {
                (
                    _mm256_broadcastsi128_si256(_mm_loadu_si128(t.cast())),
                    _mm256_broadcastsi128_si256(_mm_loadu_si128(t.add(16).cast())),
                )
            };
            for v in 0..V {
                a[v] = _mm256_xor_si256(a[v], _mm256_shuffle_epi8(lo, lo_nib[v]));
                a[v] = _mm256_xor_si256(a[v], _mm256_shuffle_epi8(hi, hi_nib[v]));
            }
        }
    }
}

#[target_feature(enable = "avx2")]
fn dot_pass_avx2<const D: usize>(pass: Pass) {
    let Pass { dst, width: w, srcs, tabs, first } = pass;
    assert!(w >= 32 && dst.len() == D * w && srcs.len() == tabs.len());
    let start = |dst: &[u8], at: usize| if first { _mm256_setzero_si256() } else { load(&dst[at..]) };
    // A width that is not a multiple of 32 ends with an overlapping vector, computed from `dst`
    // as it was before this batch and stored last (as in the single-source kernels).
    let t0 = w - 32;
    let mut tail = [[_mm256_setzero_si256(); 1]; D];
    if !w.is_multiple_of(32) {
        for (d, a) in tail.iter_mut().enumerate() {
            a[0] = start(dst, d * w + t0);
        }
        // Safe because every source pointer is valid for `w` bytes and `t0 + 32 == w`.
        unsafe { dot_step_256::<D, 1>(srcs, tabs, t0, &mut tail) };
    }
    let mut off = 0;
    while off + 64 <= w {
        let mut acc = [[_mm256_setzero_si256(); 2]; D];
        for (d, a) in acc.iter_mut().enumerate() {
            a[0] = start(dst, d * w + off);
            a[1] = start(dst, d * w + off + 32);
        }
        // Safe because `off + 64 <= w`.
        unsafe { dot_step_256::<D, 2>(srcs, tabs, off, &mut acc) };
        for (d, a) in acc.iter().enumerate() {
            store(&mut dst[d * w + off..], a[0]);
            store(&mut dst[d * w + off + 32..], a[1]);
        }
        off += 64;
    }
    if off + 32 <= w {
        let mut acc = [[_mm256_setzero_si256(); 1]; D];
        for (d, a) in acc.iter_mut().enumerate() {
            a[0] = start(dst, d * w + off);
        }
        // Safe because `off + 32 <= w`.
        unsafe { dot_step_256::<D, 1>(srcs, tabs, off, &mut acc) };
        for (d, a) in acc.iter().enumerate() {
            store(&mut dst[d * w + off..], a[0]);
        }
        off += 32;
    }
    if off < w {
        for (d, a) in tail.iter().enumerate() {
            store(&mut dst[d * w + t0..], a[0]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::gf256::{default_field, Kernel};

    #[test]
    fn vector_kernels_leave_bytes_past_the_slice_untouched() {
        // The unsafe stores must stay inside `dst`: surround a slice with guard bytes.
        let f = default_field();
        for k in Kernel::available() {
            for len in [0usize, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 200] {
                let mut buf = vec![0xAAu8; len + 64];
                let src = vec![0x5Bu8; len];
                f.mul_add_region_with(k, &mut buf[32..32 + len], &src, 0x37);
                f.mul_region_with(k, &mut buf[32..32 + len], 0x11);
                let srcs: [&[u8]; 3] = [&src, &src, &src];
                f.mul_add_multi_with(k, &mut buf[32..32 + len], &srcs, &[3, 4, 5]);
                assert!(buf[..32].iter().all(|&b| b == 0xAA), "{k:?} len {len}: wrote before");
                assert!(buf[32 + len..].iter().all(|&b| b == 0xAA), "{k:?} len {len}: wrote after");
            }
        }
    }
}
