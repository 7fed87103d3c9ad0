//! A network-coded TCP flow (docs/ctcp.md): its fields, their defaults (the reference code's
//! constants) and their range checks.

use super::problems::Problems;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CtcpVariant {
    /// The reference code's per-RTT AIMD with adaptive backoff (docs/ctcp.md §6.2).
    V1,
    /// H-TCP-like increase with the same backoff (docs/ctcp.md §6.3; its parameters are assumptions).
    V2,
}

/// See [`CtcpFlow::slow_start_exit`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CtcpSlowStartExit {
    #[default]
    Vegas,
    CongestionLoss,
}

/// See [`CtcpFlow::congestion_gate`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CtcpCongestionGate {
    #[default]
    MinRtt,
    MinRttOrSrtt,
}

/// See [`CtcpFlow::feedback`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CtcpFeedback {
    #[default]
    PerBlock,
    LowestBlock,
}

/// See [`CtcpFlow::redundancy`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CtcpRedundancy {
    #[default]
    Nearest,
    Ceil,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CodingMode {
    /// Payload bytes are coded over GF(256) and decoded; the receiver checks every byte.
    Full,
    /// Coefficient vectors only, no payload: the same decisions, for big sweeps.
    RankOnly,
}

flow_with_ends! {
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CtcpFlow {
    pub variant: CtcpVariant,
    /// Bytes to transfer; null or absent sends until the end of the run.
    #[serde(default)]
    pub bytes: Option<u64>,
    #[serde(default)]
    pub start_s: f64,
    /// Payload bytes per packet (the reference code's 1445 with 1500-byte packets).
    #[serde(default = "default_ctcp_payload")]
    pub mss_bytes: u32,
    /// Source packets per block (k).
    #[serde(default = "default_block")]
    pub block_pkts: u32,
    /// Blocks that may be outstanding beyond the oldest undecoded one.
    #[serde(default = "default_max_blocks")]
    pub max_blocks: u32,
    #[serde(default = "default_coding")]
    pub coding: CodingMode,
    #[serde(default = "default_ctcp_iw")]
    pub initial_cwnd_pkts: u32,
    #[serde(default = "default_ctcp_ssthresh")]
    pub initial_ssthresh_pkts: u32,
    /// The reference code's MAX_CWND.
    #[serde(default = "default_ctcp_max_cwnd")]
    pub max_cwnd_pkts: u32,
    /// v2: seconds after a backoff before the H-TCP increase starts (H-TCP's Δ_L).
    #[serde(default = "default_delta_l")]
    pub v2_delta_l_s: f64,
    /// Multiplier on the loss estimate when sizing redundancy (the reference SLR_scaling).
    #[serde(default = "default_slr_scaling")]
    pub loss_scaling: f64,
    /// What ends slow start: `vegas` (the reference code: the first per-RTT check that
    /// estimates more than one packet queued, which a burst of slow start's own packets can do;
    /// the paper does not describe the exit but says this slow start "does not adequately fill"
    /// long-RTT paths, as it does here) or `congestion-loss` (Reno's: only a loss seen with a
    /// standing queue ends it).
    #[serde(default)]
    pub slow_start_exit: CtcpSlowStartExit,
    /// When a loss counts as congestion: `min-rtt` (the paper: RTT > RTT_min, RTT being the
    /// round's smallest sample, 2 ms of tolerance) or `min-rtt-or-srtt` (the reference code: also
    /// when the smoothed RTT is 5 ms above RTT_min, as a burst's transient queue makes it).
    #[serde(default)]
    pub congestion_gate: CtcpCongestionGate,
    /// What ACKs report: `per-block` (the dofs of the acknowledged packet's block as well, so
    /// every block is repaired as soon as its packets are accounted for) or `lowest-block` (the
    /// reference code: the lowest undecoded block only, so short blocks are repaired one after
    /// the other and the blocks behind them wait).
    #[serde(default)]
    pub feedback: CtcpFeedback,
    /// How `need/(1 − p)` packets become a whole number: `nearest` (redundancy follows the loss
    /// estimate) or `ceil` (the reference code: at least one extra packet per block at any p > 0).
    #[serde(default)]
    pub redundancy: CtcpRedundancy,
}
}

fn default_ctcp_payload() -> u32 {
    1445 // CTCP-code: MSS 1500 − 32 − 23
}
fn default_block() -> u32 {
    32 // CTCP-code BLOCK_SIZE
}
fn default_max_blocks() -> u32 {
    100 // CTCP-code NUM_BLOCKS
}
fn default_coding() -> CodingMode {
    CodingMode::Full
}
fn default_ctcp_iw() -> u32 {
    8 // CTCP-code initsegs
}
fn default_ctcp_ssthresh() -> u32 {
    850 // CTCP-code 0.85 · MAX_CWND
}
fn default_ctcp_max_cwnd() -> u32 {
    1000 // CTCP-code MAX_CWND
}
fn default_delta_l() -> f64 {
    1.0 // H-TCP Δ_L
}
fn default_slr_scaling() -> f64 {
    1.0 // CTCP-code SLR_scaling
}

impl CtcpFlow {
    pub(super) fn problems(&self, p: &mut Problems, at: &dyn Fn(&str) -> String) {
        p.mss_bytes(self.mss_bytes, || at("mss_bytes"));
        p.count_between(self.block_pkts, 1, 255, " packets", || at("block_pkts"));
        p.count_between(self.max_blocks, 1, 10_000, "", || at("max_blocks"));
        p.count_between(self.max_cwnd_pkts, 2, 100_000, "", || at("max_cwnd_pkts"));
        p.check(
            (1..=self.max_cwnd_pkts).contains(&self.initial_cwnd_pkts),
            || at("initial_cwnd_pkts"),
            || format!("must be between 1 and max_cwnd_pkts ({}) (got {})", self.max_cwnd_pkts, self.initial_cwnd_pkts),
        );
        p.check(
            self.initial_ssthresh_pkts >= 2,
            || at("initial_ssthresh_pkts"),
            || format!("must be at least 2 (got {})", self.initial_ssthresh_pkts),
        );
        p.non_negative(self.v2_delta_l_s, || at("v2_delta_l_s"));
        p.between(self.loss_scaling, 0.0, 10.0, || at("loss_scaling"));
    }
}
