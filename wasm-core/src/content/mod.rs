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

mod words;
#[cfg(target_arch = "x86_64")]
mod words_x86;

use words::{tagged, tagged_word_sum, word};

/// Wrapping integer sums are exact, so the wider vector builds of the loop give the same digest.
fn tagged_word_sum_dispatch(key: u64, first: u64, end: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if let Some(sum) = words_x86::tagged_word_sum_wide_checked(key, first, end) {
        return sum;
    }
    tagged_word_sum(key, first, end)
}

/// Below this length a digest costs less than looking it up.
const MEMO_MIN_LEN: u32 = 256;

/// The last digests computed on this thread, so that the receiver's check of a segment finds the
/// digest the sender computed when it sent it (each was half the cost of a TCP transfer's events).
/// A digest is a pure function of `(key, offset, len)`, so a hit returns exactly what computing it
/// would: the receiver's check is unchanged.
mod memo {
    use std::cell::RefCell;

    /// A power of two above the segments in flight of one flow (the window is ~2000 segments at
    /// most in the presets); consecutive segments of one flow land in distinct slots.
    const SLOTS: usize = 4096;

    #[derive(Clone, Copy, Default)]
    struct Slot {
        key: u64,
        offset: u64,
        /// `len + 1`, so that the empty slot (0) matches no lookup.
        len_plus_one: u64,
        digest: u64,
    }

    thread_local! {
        static SLOTS_OF_THREAD: RefCell<Vec<Slot>> = const { RefCell::new(Vec::new()) };
    }

    pub(super) fn digest(key: u64, offset: u64, len: u32, compute: impl FnOnce() -> u64) -> u64 {
        let i = ((offset >> 3) ^ key) as usize & (SLOTS - 1);
        let len_plus_one = len as u64 + 1;
        let found = SLOTS_OF_THREAD.with_borrow(|slots| {
            slots
                .get(i)
                .filter(|s| s.key == key && s.offset == offset && s.len_plus_one == len_plus_one)
                .map(|s| s.digest)
        });
        if let Some(d) = found {
            return d;
        }
        let digest = compute();
        SLOTS_OF_THREAD.with_borrow_mut(|slots| {
            if slots.is_empty() {
                slots.resize(SLOTS, Slot::default());
            }
            slots[i] = Slot { key, offset, len_plus_one, digest };
        });
        digest
    }
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
        word(self.key, j)
    }

    /// Byte at stream offset `i`.
    pub fn byte(&self, i: u64) -> u8 {
        (self.word(i / 8) >> ((i % 8) * 8)) as u8
    }

    /// Fills `buf` with the bytes at offsets `[offset, offset + buf.len())`.
    pub fn fill(&self, offset: u64, buf: &mut [u8]) {
        // Whole words are written 8 bytes at a time: byte by byte, each word was hashed 8 times.
        let head = (offset.next_multiple_of(8) - offset).min(buf.len() as u64) as usize;
        let (head_bytes, rest) = buf.split_at_mut(head);
        for (k, b) in head_bytes.iter_mut().enumerate() {
            *b = self.byte(offset + k as u64);
        }
        let mut j = (offset + head as u64) / 8;
        let mut words = rest.chunks_exact_mut(8);
        for chunk in &mut words {
            chunk.copy_from_slice(&self.word(j).to_le_bytes());
            j += 1;
        }
        for (k, b) in words.into_remainder().iter_mut().enumerate() {
            *b = self.byte(j * 8 + k as u64);
        }
    }

    /// Digest of the bytes `[offset, offset + len)`: a sum of the (masked) words, each tagged
    /// with its position, that cover the range, so equal digests mean equal bytes at equal offsets with
    /// overwhelming probability. The sum has no dependency between words but the add, so the
    /// CPU pipelines it: this runs once per segment on each side, in the hot path (the receiver's
    /// call usually finds the sender's result in the memo).
    pub fn digest(&self, offset: u64, len: u32) -> u64 {
        if len < MEMO_MIN_LEN {
            return self.digest_uncached(offset, len);
        }
        memo::digest(self.key, offset, len, || self.digest_uncached(offset, len))
    }

    fn digest_uncached(&self, offset: u64, len: u32) -> u64 {
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
            h = h.wrapping_add(tagged_word_sum_dispatch(self.key, first + 1, last - 1));
            let l = last - 1;
            h = h.wrapping_add(tagged(l, masked(l, self.word(l))));
        }
        h
    }

    /// Whether `bytes` are the content at `[offset, offset + bytes.len())`. Where a receiver holds
    /// the bytes themselves (CTCP's decoded payloads) this compares them word by word: exact, and
    /// cheaper than digesting both sides.
    pub fn matches_bytes(&self, offset: u64, bytes: &[u8]) -> bool {
        let head = (offset.next_multiple_of(8) - offset).min(bytes.len() as u64) as usize;
        let (head_bytes, rest) = bytes.split_at(head);
        let mut j = (offset + head as u64) / 8;
        let mut words = rest.chunks_exact(8);
        let mut diff = 0u64;
        for chunk in &mut words {
            diff |= u64::from_le_bytes(chunk.try_into().expect("8 bytes")) ^ self.word(j);
            j += 1;
        }
        diff == 0
            && head_bytes.iter().enumerate().all(|(k, &b)| b == self.byte(offset + k as u64))
            && words.remainder().iter().enumerate().all(|(k, &b)| b == self.byte(j * 8 + k as u64))
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
            let at = (lo - offset) as usize;
            let w = if hi - lo == 8 {
                u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
            } else {
                let mut w = 0u64;
                for i in lo..hi {
                    w |= (bytes[(i - offset) as usize] as u64) << ((i - lo) * 8);
                }
                w
            };
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
    fn filling_by_words_gives_the_bytes_one_by_one() {
        let c = Content::new(3, 1);
        for (offset, len) in [(0, 0), (5, 2), (3, 13), (8, 16), (1445, 1445), (7, 1)] {
            let mut buf = vec![0u8; len];
            c.fill(offset, &mut buf);
            let want: Vec<u8> = (0..len as u64).map(|k| c.byte(offset + k)).collect();
            assert_eq!(buf, want, "offset {offset}, len {len}");
        }
    }

    #[test]
    fn the_content_matches_its_own_bytes_and_no_others() {
        let c = Content::new(5, 2);
        for (offset, len) in [(0, 0), (3, 1), (3, 13), (16, 1445), (1445, 1445), (7, 9)] {
            let mut buf = vec![0u8; len];
            c.fill(offset, &mut buf);
            assert!(c.matches_bytes(offset, &buf), "offset {offset}, len {len}");
            for k in 0..len {
                buf[k] ^= 1;
                assert!(!c.matches_bytes(offset, &buf), "offset {offset}, byte {k} flipped");
                buf[k] ^= 1;
            }
            if len > 0 {
                assert!(!c.matches_bytes(offset + 1, &buf));
            }
        }
    }

    #[test]
    fn a_remembered_digest_equals_the_computed_one() {
        let c = Content::new(6, 3);
        for (offset, len) in [(0, 1448), (1448, 1448), (0, 1448), (4093, 700), (4093, 700)] {
            assert_eq!(c.digest(offset, len), c.digest_uncached(offset, len));
        }
        // Another flow's content at the same range is not the first flow's remembered digest.
        let other = Content::new(6, 4);
        assert_eq!(other.digest(0, 1448), other.digest_uncached(0, 1448));
        assert_ne!(other.digest(0, 1448), c.digest(0, 1448));
    }

    #[test]
    fn the_word_sum_is_the_same_on_every_path() {
        let c = Content::new(2, 0);
        for (first, end) in [(0, 0), (0, 1), (3, 184), (1000, 1181), (7, 8)] {
            let mut want = 0u64;
            for j in first..end {
                want = want.wrapping_add(tagged(j, c.word(j)));
            }
            assert_eq!(tagged_word_sum(c.key, first, end), want);
            assert_eq!(tagged_word_sum_dispatch(c.key, first, end), want);
        }
    }

    #[test]
    fn flows_carry_different_content() {
        let (a, b) = (Content::new(1, 0), Content::new(1, 1));
        assert_ne!(a.digest(0, 1448), b.digest(0, 1448));
    }
}
