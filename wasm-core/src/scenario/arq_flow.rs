//! An ARQ flow (docs/arq.md): stop-and-wait, go-back-N or selective repeat over a fixed window,
//! with its fields, their defaults and their range checks.

use super::problems::Problems;
use crate::arq::ArqMode;
use crate::number_text::Num;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Largest window, packets: the sender and the selective-repeat receiver keep one entry per
/// packet of it.
pub const MAX_ARQ_WINDOW_PKTS: u32 = 100_000;
/// Window of go-back-N and selective repeat when the scenario gives none, packets.
pub const DEFAULT_ARQ_WINDOW_PKTS: u32 = 16;

flow_with_ends! {
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArqFlow {
    pub mode: ArqMode,
    /// Bytes to transfer; null or absent sends until the end of the run.
    #[serde(default)]
    pub bytes: Option<u64>,
    #[serde(default)]
    pub start_s: f64,
    /// Payload bytes per packet (1460: a 1500-byte packet with the 40 bytes of headers).
    #[serde(default = "default_arq_payload")]
    pub mss_bytes: u32,
    /// Packets the sender may have unacknowledged. Stop-and-wait's is 1; go-back-N and selective
    /// repeat default to 16.
    #[serde(default)]
    pub window_pkts: Option<u32>,
    /// A fixed retransmission timeout in ms, as the textbooks draw it. Absent or null: RFC 6298's,
    /// from the RTT the sender measures (1 s before the first sample and at least 1 s, doubled on
    /// each timeout, at most 60 s).
    #[serde(default)]
    pub timeout_ms: Option<f64>,
}
}

fn default_arq_payload() -> u32 {
    1460 // 1500 − IPv4 20 − UDP 8 − ARQ 12
}

impl ArqFlow {
    /// The window in force: the scenario's, or the mode's default.
    pub fn window(&self) -> u32 {
        match (self.mode, self.window_pkts) {
            (_, Some(w)) => w,
            (ArqMode::StopAndWait, None) => 1,
            (_, None) => DEFAULT_ARQ_WINDOW_PKTS,
        }
    }

    pub(super) fn problems(&self, p: &mut Problems, at: &dyn Fn(&str) -> String) {
        p.mss_bytes(self.mss_bytes, || at("mss_bytes"));
        if let Some(w) = self.window_pkts {
            if self.mode == ArqMode::StopAndWait {
                p.check(
                    w == 1,
                    || at("window_pkts"),
                    || format!("stop-and-wait sends one packet at a time: must be 1 or left out (got {w})"),
                );
            } else {
                p.count_between(w, 1, MAX_ARQ_WINDOW_PKTS, "", || at("window_pkts"));
            }
        }
        if let Some(t) = self.timeout_ms {
            p.check(
                t.is_finite() && (1.0..=600_000.0).contains(&t),
                || at("timeout_ms"),
                || format!("must be between 1 and 600000 ms, or null for RFC 6298's (got {})", Num(t)),
            );
        }
    }
}
