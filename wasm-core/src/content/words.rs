//! The words of flow content and their position-tagged sum, the bulk of a digest: apart from
//! `content`'s digests, so that `words_x86` compiles this same loop for wider vectors.

const WORD_MUL: u64 = 0x9E37_79B9_7F4A_7C15; // 2^64 / golden ratio: an odd, well-mixing multiplier
const POSITION_STEP: u64 = 0xD6E8_FEB8_6659_FD93; // odd: word j is tagged with j·STEP before summing

/// Tags a (masked) word with its position, so that a word moved elsewhere changes the digest.
#[inline]
pub(crate) fn tagged(j: u64, w: u64) -> u64 {
    w ^ j.wrapping_mul(POSITION_STEP)
}

#[inline(always)]
pub(crate) fn word(key: u64, j: u64) -> u64 {
    let x = (key ^ j).wrapping_mul(WORD_MUL);
    x ^ (x >> 29)
}

/// The sum of words `[first, end)`, each tagged with its position: the bulk of a digest. Always
/// inlined, so that the copies in `words_x86` are this very loop compiled for AVX2 and AVX-512.
#[inline(always)]
pub(crate) fn tagged_word_sum(key: u64, first: u64, end: u64) -> u64 {
    let mut sum = 0u64;
    let mut tag = first.wrapping_mul(POSITION_STEP);
    for j in first..end {
        sum = sum.wrapping_add(word(key, j) ^ tag);
        tag = tag.wrapping_add(POSITION_STEP);
    }
    sum
}
