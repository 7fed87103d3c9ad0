//! One link of a chain: rate, delay, buffer, loss, a rate schedule and outages.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

// One enum for the format and the simulation: the link that runs the loss model owns it.
pub use crate::net::loss::LossSpec;

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    /// Rate in Mbit/s (both directions unless `reverse_rate_mbps` is set).
    pub rate_mbps: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reverse_rate_mbps: Option<f64>,
    /// One-way propagation delay in ms.
    pub delay_ms: f64,
    /// Drop-tail buffer in packets waiting for the transmitter. Default: unlimited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer_pkts: Option<u32>,
    /// Drop-tail buffer in bytes (instead of packets).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer_bytes: Option<u64>,
    /// Extra delay per packet, uniform in [0, jitter_ms].
    #[serde(default)]
    pub jitter_ms: f64,
    /// Whether jitter may reorder packets (default: no).
    #[serde(default)]
    pub jitter_reorder: bool,
    /// Loss in the data direction (node i to i+1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loss: Option<LossSpec>,
    /// Where loss acts: `channel` (default; a lost packet has used its transmission time) or
    /// `ingress` (dropped before the queue, as the CTCP paper's dummynet router does).
    #[serde(default)]
    pub loss_at: LossAtSpec,
    /// Loss in the ACK direction (node i+1 to i). Default: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reverse_loss: Option<LossSpec>,
    /// Bandwidth over time, replacing `rate_mbps` in the data direction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_schedule: Option<RateScheduleSpec>,
    /// Periods during which every packet on the link (both directions) is lost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outages: Option<OutagesSpec>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LossAtSpec {
    #[default]
    Channel,
    Ingress,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged, deny_unknown_fields)]
pub enum RateScheduleSpec {
    Steps(Vec<RateStep>),
    Square { square: SquareWave },
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RateStep {
    pub at_s: f64,
    pub rate_mbps: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SquareWave {
    pub low_mbps: f64,
    pub high_mbps: f64,
    /// Full period: `low` for the first half, `high` for the second.
    pub period_s: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum OutagesSpec {
    List(Vec<Outage>),
    Periodic(PeriodicOutage),
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Outage {
    pub start_s: f64,
    pub duration_s: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PeriodicOutage {
    pub every_s: f64,
    pub duration_s: f64,
    /// Start of the first outage; default `every_s`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_s: Option<f64>,
}
