//! The sender's self-audit (debug builds, and when a test asks): a breach of an invariant
//! becomes the flow's error.

use super::TcpSender;
use crate::sim::{SimDuration, SimTime};
use crate::tcp::scoreboard::{RETRANSMITTED, RTO_LOST, SACKED};

impl TcpSender {
    fn violation(&mut self, msg: String) {
        if self.invariant_error.is_none() {
            self.invariant_error = Some(format!("flow {}: sender invariant broken: {msg}", self.flow));
        }
    }

    /// Checks a retransmission before it leaves.
    pub(super) fn audit_retransmission(&mut self, now: SimTime, s: u64) {
        let Some(seg) = self.sb.get(s).copied() else { return };
        if seg.flags & SACKED != 0 {
            self.violation(format!("segment {s} retransmitted after the receiver SACKed it"));
        }
        if seg.flags & RETRANSMITTED != 0 && seg.flags & RTO_LOST == 0 && !self.ns3.forcing_head {
            let min_rtt = self.rtt.min_rtt.unwrap_or(SimDuration::ZERO);
            let since = now - seg.last_sent;
            if since < min_rtt {
                self.violation(format!(
                    "segment {s} retransmitted again {:.1} ms after its last transmission, within one \
                     round trip ({:.1} ms) and without an RTO",
                    since.as_millis_f64(),
                    min_rtt.as_millis_f64()
                ));
            }
        }
    }

    /// Checks the scoreboard's counters and the window after an ACK: what this ACK sent never
    /// took the flight above cwnd (or above where the flight already was, when cwnd was just
    /// cut below it), except for the sends recovery forces.
    pub(super) fn audit_ack(&mut self, sent: bool, pipe_before: u32, forced: u32) {
        if let Err(e) = self.sb.check_counts() {
            self.violation(e.to_string());
        }
        let pipe = self.pipe();
        let limit = self.w.cwnd.max(pipe_before) + forced;
        if sent && pipe > limit {
            self.violation(format!(
                "pipe {pipe} exceeds cwnd {} (flight before sending {pipe_before}) plus {forced} forced sends",
                self.w.cwnd
            ));
        }
    }
}
