//! A TCP flow: its fields, the profiles' defaults (`linux`, `ns3`) and its range checks.

use super::problems::Problems;
use super::yes;
use crate::number_text::Num;
use crate::rto::RtoFlavor;
use crate::tcp::congestion::CcKind;
use crate::tcp::sender::{LossDetection, Recovery};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

flow_with_ends! {
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TcpFlow {
    pub cc: CcKind,
    /// Bytes to transfer; null or absent sends until the end of the run.
    #[serde(default)]
    pub bytes: Option<u64>,
    #[serde(default)]
    pub start_s: f64,
    #[serde(default = "default_mss")]
    pub mss_bytes: u32,
    #[serde(default = "default_iw")]
    pub initial_cwnd_pkts: u32,
    /// Default: infinite, as in Linux.
    #[serde(default)]
    pub initial_ssthresh_pkts: Option<u32>,
    #[serde(default = "yes")]
    pub sack: bool,
    /// CUBIC's HyStart slow-start exit (Linux 2.6.29 and later); `false` models older kernels.
    /// Other algorithms ignore it, so that one flow description can serve a sweep over `cc`.
    #[serde(default = "yes")]
    pub hystart: bool,
    /// One ACK per two segments (or per `delack_ms`) instead of one per segment. Default: off
    /// (`linux`), on (`ns3`).
    #[serde(default)]
    pub delayed_ack: Option<bool>,
    /// The delayed-ACK timer in ms. Default: 40 (`linux`, `TCP_DELACK_MIN`), 200 (`ns3`).
    #[serde(default)]
    pub delack_ms: Option<f64>,
    /// How the RTO is formed. Default: `linux` (`linux`), `rfc6298` (`ns3`).
    #[serde(default)]
    pub rto_flavor: Option<RtoFlavor>,
    /// Minimum RTO in ms. Default: 200 (Linux) or 1000 (RFC 6298) by `rto_flavor`.
    #[serde(default)]
    pub rto_min_ms: Option<f64>,
    /// A fixed receiver window in packets (turns autotuning off).
    #[serde(default)]
    pub rwnd_pkts: Option<u32>,
    /// Whose defaults the flow takes for what it does not set: `linux` (a current Linux host)
    /// or `ns3` (ns-3's `TcpSocketBase`); see scenarios/README.md, "TCP profiles".
    #[serde(default)]
    pub profile: TcpProfile,
    /// How cwnd is reduced in Recovery: `prr` (RFC 6937, the default of both profiles) or
    /// `rfc6675` (cwnd = ssthresh at once).
    #[serde(default)]
    pub recovery: Option<Recovery>,
    /// How losses are found: `rack` (RACK-TLP, RFC 8985; Linux's default) or `dupack` (three
    /// SACKed segments above a hole, RFC 6675; ns-3's default).
    #[serde(default)]
    pub loss_detection: Option<LossDetection>,
    /// Linux receive-buffer autotuning (tcp_rmem 4096/131072/6291456): the window starts at
    /// 64 KB and follows twice what arrives per RTT up to 3 MB. Default: on (`linux`, unless
    /// `rwnd_pkts` is set), off (`ns3`: the window never limits).
    #[serde(default)]
    pub rcv_autotune: Option<bool>,
    /// F-RTO (RFC 5682, SACK-enhanced, as Linux with `tcp_frto = 2`): after a timeout the
    /// sender sends new data before retransmitting more, and undoes the timeout when
    /// never-retransmitted data is acknowledged. Default: on (`linux`), off (`ns3`).
    #[serde(default)]
    pub frto: Option<bool>,
    /// Undo of spurious window reductions by timestamps (Eifel, RFC 3522) and D-SACK
    /// (RFC 3708), as Linux's `tcp_try_undo_*`. Default: on (`linux`), off (`ns3`).
    #[serde(default)]
    pub undo: Option<bool>,
}
}

fn default_mss() -> u32 {
    1448
}
fn default_iw() -> u32 {
    10
}
/// Whose defaults a TCP flow takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TcpProfile {
    #[default]
    Linux,
    Ns3,
}

/// A TCP flow's settings once its profile's defaults are applied.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TcpSettings {
    pub delayed_ack: bool,
    pub delack_ms: f64,
    pub rto_flavor: RtoFlavor,
    pub rto_min_ms: f64,
    pub recovery: Recovery,
    pub loss_detection: LossDetection,
    pub rcv_autotune: bool,
    /// ns-3 grows the window once per ACK, not per segment acknowledged.
    pub per_ack_growth: bool,
    pub frto: bool,
    pub undo: bool,
    /// ns-3.44's loss recovery and timers (`TcpSocketBase`) instead of Linux's: the `ns3`
    /// profile with DupThresh loss detection.
    pub ns3_rules: bool,
}

impl TcpFlow {
    /// The flow's settings: what it sets, else its profile's defaults.
    pub fn settings(&self) -> TcpSettings {
        let ns3 = self.profile == TcpProfile::Ns3;
        let rto_flavor = self.rto_flavor.unwrap_or(if ns3 { RtoFlavor::Rfc6298 } else { RtoFlavor::Linux });
        let loss_detection =
            self.loss_detection.unwrap_or(if ns3 { LossDetection::Dupack } else { LossDetection::Rack });
        TcpSettings {
            delayed_ack: self.delayed_ack.unwrap_or(ns3),
            // Linux TCP_DELACK_MIN; ns-3 DelAckTimeout.
            delack_ms: self.delack_ms.unwrap_or(if ns3 { 200.0 } else { 40.0 }),
            rto_flavor,
            // Linux TCP_RTO_MIN; RFC 6298 §2.4 (ns-3 MinRto).
            rto_min_ms: self.rto_min_ms.unwrap_or(match rto_flavor {
                RtoFlavor::Linux => 200.0,
                RtoFlavor::Rfc6298 => 1000.0,
            }),
            recovery: self.recovery.unwrap_or(Recovery::Prr),
            loss_detection,
            rcv_autotune: self.rcv_autotune.unwrap_or(!ns3 && self.rwnd_pkts.is_none()),
            per_ack_growth: ns3,
            // Linux: `tcp_frto = 2` and undo always on; ns-3 has neither.
            frto: self.frto.unwrap_or(!ns3),
            undo: self.undo.unwrap_or(!ns3),
            // ns-3.44 has no RACK-TLP: a flow that asks for it recovers as Linux does.
            ns3_rules: ns3 && loss_detection == LossDetection::Dupack,
        }
    }
}

impl TcpFlow {
    pub(super) fn problems(&self, p: &mut Problems, at: &dyn Fn(&str) -> String) {
        p.mss_bytes(self.mss_bytes, || at("mss_bytes"));
        p.count_between(self.initial_cwnd_pkts, 1, 100_000, "", || at("initial_cwnd_pkts"));
        if let Some(s) = self.initial_ssthresh_pkts {
            p.check(s >= 2, || at("initial_ssthresh_pkts"), || format!("must be at least 2 (got {s})"));
        }
        if let Some(d) = self.delack_ms {
            p.check(
                d.is_finite() && d > 0.0 && d <= 500.0,
                || at("delack_ms"),
                || format!("must be more than 0 and at most 500 ms (RFC 1122) (got {})", Num(d)),
            );
        }
        p.check(
            !(self.rcv_autotune == Some(true) && self.rwnd_pkts.is_some()),
            || at("rcv_autotune"),
            || "cannot be true with a fixed rwnd_pkts: autotuning sets the window itself".into(),
        );
        p.check(
            self.loss_detection != Some(LossDetection::Rack) || self.sack,
            || at("loss_detection"),
            || "\"rack\" needs SACK (sack: true): without it only duplicate ACKs tell of a loss".into(),
        );
        if let Some(m) = self.rto_min_ms {
            p.check(
                m.is_finite() && (1.0..=60_000.0).contains(&m),
                || at("rto_min_ms"),
                || format!("must be between 1 and 60000 ms (got {})", Num(m)),
            );
        }
        if let Some(r) = self.rwnd_pkts {
            p.check(r >= 1, || at("rwnd_pkts"), || "must be at least 1".into());
        }
    }
}
