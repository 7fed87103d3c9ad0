//! ARQ: the three textbook automatic-repeat-request protocols over a fixed window of whole
//! packets, without congestion control (docs/arq.md). They are what a student meets before TCP,
//! and over a satellite hop they show why the window, not the link, sets the rate: a
//! stop-and-wait sender moves one packet per round trip, so over a GEO hop (≈ 560 ms) it gets
//! about 20 kbit/s from a link of any speed.
//!
//! Sources: the protocols as Tanenbaum and Wetherall, "Computer Networks" (5th ed., §3.3-§3.4),
//! and Kurose and Ross, "Computer Networking: A Top-Down Approach" (§3.4), describe them; the
//! retransmission timeout is RFC 6298's (`crate::rto`), or a fixed one.
//!
//! Constants:
//! - Header: IPv4 20 + UDP 8 + orbitcp's ARQ header 12 (type, flags, flow id, packet number,
//!   timestamp) = 40 bytes, on data packets and ACKs alike.
//! - The window is counted in packets; stop-and-wait's is 1.

pub mod receiver;
pub mod sender;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Bytes of headers on every ARQ packet (IPv4 20 + UDP 8 + ARQ 12).
pub const ARQ_HEADER_BYTES: u32 = 40;

/// Which of the three protocols a flow runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ArqMode {
    /// One packet at a time: the next waits for the ACK of the last.
    StopAndWait,
    /// A window of packets; the receiver takes only the next in order and ACKs cumulatively, so
    /// a loss makes the sender send the whole window again when its timer expires.
    GoBackN,
    /// A window of packets; the receiver keeps those that arrive out of order and ACKs each one,
    /// so the sender resends only the packets whose own timer expires.
    SelectiveRepeat,
}

impl ArqMode {
    /// The name results give the flow (its `cc`).
    pub fn name(self) -> &'static str {
        match self {
            ArqMode::StopAndWait => "stop-and-wait",
            ArqMode::GoBackN => "go-back-n",
            ArqMode::SelectiveRepeat => "selective-repeat",
        }
    }
}

/// Where packet `n` of a flow of `mss`-byte packets starts, and how long it is (the last may be
/// shorter), for a flow of `bytes` bytes (None: unlimited).
pub fn packet_range(n: u64, mss: u32, bytes: Option<u64>) -> (u64, u32) {
    let start = n * mss as u64;
    let len = match bytes {
        Some(total) => total.saturating_sub(start).min(mss as u64) as u32,
        None => mss,
    };
    (start, len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_packet_carries_what_is_left() {
        assert_eq!(packet_range(0, 1000, Some(2500)), (0, 1000));
        assert_eq!(packet_range(2, 1000, Some(2500)), (2000, 500));
        assert_eq!(packet_range(3, 1000, Some(2500)), (3000, 0));
        assert_eq!(packet_range(7, 1000, None), (7000, 1000));
    }
}
