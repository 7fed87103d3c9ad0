//! The bytes a flow carries, generated from the seed, and their digests.
//!
//! Byte `i` of flow content is byte `i % 8` of word `i / 8`, where word `j` is a multiplicative
//! hash of `(key, j)`. A sender digests the bytes it puts into a segment; the receiver digests the
//! bytes it expects at the stream offset where it delivers that segment, and the two must match.
//! This catches any reassembly error (a gap, an overlap, a segment delivered at the wrong offset,
//! another flow's bytes) without carrying payload bytes through the simulator.
//!
//! The bytes of a range are a function of the flow's key, the range's offset and its length, so
//! the digest is a hash of those three: two ranges have the same digest exactly when they hold
//! the same bytes at the same offset (but for a chance of 2^-64). It costs the same for any length.
//! It used to sum the range's words, each tagged with its position, which gave the same answer
//! to every check at the cost of a pass over the words per segment: a seventh of a TCP sweep's
//! time in a browser, where wasm has no 64-bit vector multiply. Where a run does hold real bytes
//! (CTCP's decoded payloads), they are compared with the content byte for byte (`matches_bytes`).

use crate::sim::rng::mix64;

#[derive(Clone, Copy, Debug)]
pub struct Content {
    key: u64,
}

const WORD_MUL: u64 = 0x9E37_79B9_7F4A_7C15; // 2^64 / golden ratio: an odd, well-mixing multiplier

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

    /// Digest of the bytes `[offset, offset + len)`: a hash of the flow's key, the offset and the
    /// length, which fix those bytes (see the module's comment). For a fixed key and length it
    /// is a bijection of the offset, so two segments of one flow and one length never share one.
    #[inline]
    pub fn digest(&self, offset: u64, len: u32) -> u64 {
        mix64(mix64(self.key ^ offset).wrapping_add(len as u64))
    }

    /// Whether `bytes` are the content at `[offset, offset + bytes.len())`, word by word: where a
    /// receiver holds the bytes themselves (CTCP's decoded payloads), the check must read them.
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn a_segment_at_another_offset_or_of_another_length_has_another_digest(
            offset in 0u64..1 << 40,
            shift in 1u64..1 << 20,
            len in 1u32..65_536,
            other_len in 1u32..65_536,
        ) {
            let c = Content::new(9, 2);
            prop_assert_ne!(c.digest(offset, len), c.digest(offset + shift, len));
            prop_assert_ne!(c.digest(offset + shift, len), c.digest(offset, len));
            prop_assume!(other_len != len);
            prop_assert_ne!(c.digest(offset, len), c.digest(offset, other_len));
        }

        #[test]
        fn another_flows_bytes_at_the_same_range_have_another_digest(flow in 1u32..1000, offset in 0u64..1 << 40, len in 1u32..65_536) {
            prop_assert_ne!(Content::new(7, 0).digest(offset, len), Content::new(7, flow).digest(offset, len));
            prop_assert_ne!(Content::new(7, 0).digest(offset, len), Content::new(8, 0).digest(offset, len));
        }
    }

    #[test]
    fn the_same_range_of_the_same_content_has_the_same_digest_wherever_it_is_computed() {
        let (a, b) = (Content::new(6, 3), Content::new(6, 3));
        for (offset, len) in [(0, 0), (0, 1448), (4093, 700), (u64::MAX - 10, 10)] {
            assert_eq!(a.digest(offset, len), b.digest(offset, len));
        }
        let (x, y) = (Content::named(6, "video"), Content::named(6, "video"));
        assert_eq!(x.digest(1448, 1448), y.digest(1448, 1448));
        assert_ne!(x.digest(1448, 1448), Content::named(6, "audio").digest(1448, 1448));
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
    fn flows_carry_different_content() {
        let (a, b) = (Content::new(1, 0), Content::new(1, 1));
        assert_ne!(a.digest(0, 1448), b.digest(0, 1448));
        let (mut x, mut y) = (vec![0u8; 64], vec![0u8; 64]);
        a.fill(0, &mut x);
        b.fill(0, &mut y);
        assert_ne!(x, y);
    }
}
