//! The bytes a flow carries, generated from the seed, and their digests.
//!
//! Byte `i` of flow content is byte `i % 8` of word `i / 8`, where word `j` is a multiplicative
//! hash of `(key, j)`. A sender digests the bytes it puts into a segment; the receiver digests the
//! bytes it expects at the stream offset where it delivers that segment, and the two must match.
//! This catches any reassembly error (a gap, an overlap, a segment delivered at the wrong offset)
//! without carrying payload bytes through the simulator.

use crate::sim::rng::mix64;

#[derive(Clone, Copy, Debug)]
pub struct Content {
    key: u64,
}

const WORD_MUL: u64 = 0x9E37_79B9_7F4A_7C15; // 2^64 / golden ratio: an odd, well-mixing multiplier
const POSITION_STEP: u64 = 0xD6E8_FEB8_6659_FD93; // odd: word j is tagged with j·STEP before summing

/// Tags a (masked) word with its position, so that a word moved elsewhere changes the digest.
#[inline]
fn tagged(j: u64, w: u64) -> u64 {
    w ^ j.wrapping_mul(POSITION_STEP)
}

impl Content {
    pub fn new(seed: u64, flow: u32) -> Content {
        Content { key: mix64(seed ^ mix64(0xC0DE_0000 | flow as u64)) }
    }

    /// The content of an INTCP name (multicast): the same bytes for every flow that names it.
    pub fn named(seed: u64, name: &str) -> Content {
        // FNV-1a: a fixed, platform-independent hash of the name.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in name.bytes() {
            h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
        Content { key: mix64(seed ^ mix64(0x4E41_4D45_0000_0000 ^ h)) }
    }

    #[inline]
    fn word(&self, j: u64) -> u64 {
        let x = (self.key ^ j).wrapping_mul(WORD_MUL);
        x ^ (x >> 29)
    }

    /// Byte at stream offset `i`.
    pub fn byte(&self, i: u64) -> u8 {
        (self.word(i / 8) >> ((i % 8) * 8)) as u8
    }

    /// Fills `buf` with the bytes at offsets `[offset, offset + buf.len())`.
    pub fn fill(&self, offset: u64, buf: &mut [u8]) {
        for (k, b) in buf.iter_mut().enumerate() {
            *b = self.byte(offset + k as u64);
        }
    }

    /// Digest of the bytes `[offset, offset + len)`: a sum of the (masked) words, each tagged
    /// with its position, that cover the range, so equal digests mean equal bytes at equal offsets with
    /// overwhelming probability. The sum has no dependency between words but the add, so the
    /// CPU pipelines it: this runs once per segment on each side, in the hot path.
    pub fn digest(&self, offset: u64, len: u32) -> u64 {
        let end = offset + len as u64;
        let first = offset / 8;
        let last = end.div_ceil(8); // one past the last word
        let mut h = mix64(offset ^ ((len as u64) << 40));
        if len == 0 {
            return h;
        }
        let masked = |j: u64, w: u64| -> u64 {
            let lo = (j * 8).max(offset) - j * 8;
            let hi = (j * 8 + 8).min(end) - j * 8;
            let w = w >> (lo * 8);
            if (hi - lo) == 8 {
                w
            } else {
                w & ((1u64 << ((hi - lo) * 8)) - 1)
            }
        };
        h = h.wrapping_add(tagged(first, masked(first, self.word(first))));
        if last - first >= 2 {
            let mut sum = 0u64;
            let mut tag = (first + 1).wrapping_mul(POSITION_STEP);
            for j in first + 1..last - 1 {
                sum = sum.wrapping_add(self.word(j) ^ tag);
                tag = tag.wrapping_add(POSITION_STEP);
            }
            h = h.wrapping_add(sum);
            let l = last - 1;
            h = h.wrapping_add(tagged(l, masked(l, self.word(l))));
        }
        h
    }

    /// Digest of arbitrary bytes placed at `offset`, computed the same way as [`Content::digest`]
    /// (for checking real payloads against the generated stream).
    pub fn digest_of_bytes(offset: u64, bytes: &[u8]) -> u64 {
        let end = offset + bytes.len() as u64;
        let mut h = mix64(offset ^ ((bytes.len() as u64) << 40));
        if bytes.is_empty() {
            return h;
        }
        let mut j = offset / 8;
        while j * 8 < end {
            let lo = (j * 8).max(offset);
            let hi = (j * 8 + 8).min(end);
            let mut w = 0u64;
            for i in lo..hi {
                w |= (bytes[(i - offset) as usize] as u64) << ((i - lo) * 8);
            }
            h = h.wrapping_add(tagged(j, w));
            j += 1;
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn digest_equals_digest_of_the_generated_bytes(offset in 0u64..100_000, len in 0u32..3000) {
            let c = Content::new(9, 2);
            let mut buf = vec![0u8; len as usize];
            c.fill(offset, &mut buf);
            prop_assert_eq!(c.digest(offset, len), Content::digest_of_bytes(offset, &buf));
        }

        #[test]
        fn a_segment_at_the_wrong_offset_has_a_different_digest(offset in 0u64..100_000, shift in 1u64..2000) {
            let c = Content::new(9, 2);
            let mut buf = vec![0u8; 1448];
            c.fill(offset + shift, &mut buf);
            prop_assert_ne!(c.digest(offset, 1448), Content::digest_of_bytes(offset, &buf));
        }
    }

    #[test]
    fn an_empty_range_digests_the_same_at_any_alignment() {
        let c = Content::new(4, 1);
        for offset in [0, 3, 8, 13] {
            assert_eq!(c.digest(offset, 0), Content::digest_of_bytes(offset, &[]));
        }
    }

    #[test]
    fn a_single_flipped_byte_changes_the_digest() {
        let c = Content::new(1, 0);
        let mut buf = vec![0u8; 1448];
        c.fill(4096, &mut buf);
        buf[777] ^= 0x10;
        assert_ne!(c.digest(4096, 1448), Content::digest_of_bytes(4096, &buf));
    }

    #[test]
    fn flows_carry_different_content() {
        let (a, b) = (Content::new(1, 0), Content::new(1, 1));
        assert_ne!(a.digest(0, 1448), b.digest(0, 1448));
    }
}
