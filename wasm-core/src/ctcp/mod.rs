//! Network-coded TCP (CTCP): blocks of k packets sent systematically, then topped up with dense
//! random linear combinations over GF(256) sized by a loss estimate; the receiver acknowledges
//! every packet with the degrees of freedom it holds (docs/ctcp.md, the authors' reference
//! code aneeshd/ctcp).

pub mod cc;
pub mod receiver;
pub mod sender;

use crate::sim::rng::mix64;

/// IPv4 + UDP (28) + the reference code's 32-byte data header, less the 2-byte length field it
/// counts inside the payload: a 1445-byte payload makes a 1500-byte packet.
pub const DATA_OVERHEAD_BYTES: u32 = 55;
/// IPv4 + UDP + timestamp, ackno, blockno, dof_rec and flags.
pub const ACK_BYTES: u32 = 28 + 8 + 4 + 4 + 2 + 2;
/// With per-block feedback the ACK also names the acknowledged packet's block and its dofs.
pub const PER_BLOCK_ACK_BYTES: u32 = ACK_BYTES + 4 + 2;

/// The seed both ends derive a block's coefficients from.
pub fn block_seed(run_seed: u64, flow: u32, block: u64) -> u64 {
    mix64(run_seed ^ mix64(((flow as u64) << 48) ^ block))
}

/// The layout of a flow's data in blocks.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// Payload bytes per packet.
    pub symbol_len: u32,
    /// Packets per block.
    pub k: u32,
    /// Total bytes, or None for an unlimited flow.
    pub bytes: Option<u64>,
}

impl Layout {
    pub fn total_packets(&self) -> u64 {
        self.bytes.map_or(u64::MAX, |b| b.div_ceil(self.symbol_len as u64))
    }
    pub fn total_blocks(&self) -> u64 {
        self.bytes.map_or(u64::MAX, |_| self.total_packets().div_ceil(self.k as u64))
    }
    /// Packets in block `b`: k, except maybe the last.
    pub fn block_len(&self, b: u64) -> u32 {
        let first = crate::sim::int::saturating_mul_u32(b, self.k);
        (self.total_packets().saturating_sub(first)).min(self.k as u64) as u32
    }
    /// Stream offset and length of source packet `i` of block `b`.
    pub fn packet_range(&self, b: u64, i: u32) -> (u64, u32) {
        let offset = (b * self.k as u64 + i as u64) * self.symbol_len as u64;
        let len = match self.bytes {
            Some(total) => (total.saturating_sub(offset)).min(self.symbol_len as u64) as u32,
            None => self.symbol_len,
        };
        (offset, len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_block_and_packet_may_be_short() {
        let l = Layout { symbol_len: 1000, k: 32, bytes: Some(40_500) };
        assert_eq!(l.total_packets(), 41);
        assert_eq!(l.total_blocks(), 2);
        assert_eq!((l.block_len(0), l.block_len(1)), (32, 9));
        assert_eq!(l.packet_range(1, 8), (40_000, 500));
    }

    #[test]
    fn a_1445_byte_payload_makes_a_1500_byte_packet() {
        assert_eq!(1445 + DATA_OVERHEAD_BYTES, 1500);
    }
}
