//! The content digest's word sum (`words::tagged_word_sum`) compiled for AVX-512 (a 64-bit vector
//! multiply) or AVX2 (four 64-bit lanes, where SSE2 has two). Integer arithmetic only, so every
//! build equals the portable sum exactly.
//!
//! One of the three modules allowed `unsafe` (lib.rs denies it elsewhere; the others are
//! `coding`'s SIMD kernels): calling a `#[target_feature]` function, sound only on a CPU with
//! that feature, right after `is_x86_feature_detected!` said yes.

#![allow(unsafe_code)]

use super::words::tagged_word_sum;

/// The word sum on the widest vectors this CPU has, or None on a CPU with neither AVX-512 nor AVX2.
pub(super) fn tagged_word_sum_wide_checked(key: u64, first: u64, end: u64) -> Option<u64> {
    if std::is_x86_feature_detected!("avx512dq") && std::is_x86_feature_detected!("avx512vl") {
        // Safe because AVX-512 F (implied by DQ), DQ and VL were just detected on this CPU.
        return Some(unsafe { tagged_word_sum_avx512(key, first, end) });
    }
    if std::is_x86_feature_detected!("avx2") {
        // Safe because `is_x86_feature_detected!("avx2")` just returned true on this CPU.
        return Some(unsafe { tagged_word_sum_avx2(key, first, end) });
    }
    None
}

#[target_feature(enable = "avx512f,avx512dq,avx512vl")]
fn tagged_word_sum_avx512(key: u64, first: u64, end: u64) -> u64 {
    tagged_word_sum(key, first, end)
}

#[target_feature(enable = "avx2")]
fn tagged_word_sum_avx2(key: u64, first: u64, end: u64) -> u64 {
    tagged_word_sum(key, first, end)
}
