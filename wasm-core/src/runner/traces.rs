//! A run's time series, as columns: per flow (sender, delays, goodput, coding, INTCP hops) and
//! per traced link (queue).

use crate::metrics::Trace;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Traces {
    pub flows: Vec<FlowTrace>,
    pub links: Vec<LinkTrace>,
}

/// Columns of one flow's traces. Each time series shares its own `t`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct FlowTrace {
    pub id: u32,
    pub sender: Columns,
    pub owd: Columns,
    pub goodput: Columns,
    /// One-way delays in ms at evenly spaced quantiles (for CDF charts).
    pub owd_cdf_ms: Vec<f64>,
    /// The same for delays at first arrival, before reordering (TCP and INTCP): what the INTCP
    /// paper's packet sniffers measured for INTCP.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owd_arrival_cdf_ms: Option<Vec<f64>>,
    pub jitter: Columns,
    /// Jitter of the delays at first arrival (TCP and INTCP), as the INTCP paper's sniffers saw it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jitter_arrival: Option<Columns>,
    /// CTCP: the decoder's rank of the current block over time, and decode events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coding: Option<CodingTrace>,
    /// INTCP: one entry per node of the path, producer first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hops: Option<Vec<HopTrace>>,
}

/// One INTCP node's time series.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct HopTrace {
    pub node: u32,
    pub role: HopRole,
    /// `advertised_rate_mbps` (upstream, 0 at the producer), `paced_rate_mbps` (the token
    /// bucket's rate, 0 at the consumer), `queue_pkts` (send queue), `cache_bytes`.
    pub series: Columns,
    /// Re-requests (SeqHole and, at the consumer, end-to-end timeouts) as they were sent:
    /// `node` and the node's cumulative `count`.
    pub retransmissions: Columns,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct CodingTrace {
    pub rank: Columns,
    pub decodes: Columns,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct LinkTrace {
    pub id: u32,
    pub queue: Columns,
}

/// A time column and named value columns of equal length.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Columns {
    pub t: Vec<f64>,
    #[serde(flatten)]
    pub cols: serde_json::Map<String, Value>,
}

impl Columns {
    pub(super) fn new<const N: usize>(trace: &Trace<N>, names: [&str; N]) -> Columns {
        let mut cols = serde_json::Map::new();
        for (name, c) in names.iter().zip(trace.cols.iter()) {
            cols.insert(name.to_string(), c.iter().map(|&v| json_f64(v)).collect());
        }
        Columns { t: trace.t.clone(), cols }
    }
    pub(super) fn pairs(t: Vec<f64>, name: &str, v: Vec<f64>) -> Columns {
        let mut cols = serde_json::Map::new();
        cols.insert(name.to_string(), v.into_iter().map(json_f64).collect());
        Columns { t, cols }
    }
}

/// `t` and the named columns beside it (a value that is not a number is null).
impl JsonSchema for Columns {
    fn schema_name() -> String {
        "Columns".into()
    }

    fn json_schema(gen: &mut schemars::gen::SchemaGenerator) -> schemars::schema::Schema {
        use schemars::schema::{InstanceType, Schema, SchemaObject};
        let mut s = SchemaObject { instance_type: Some(InstanceType::Object.into()), ..Default::default() };
        s.metadata().description = Some("A time column `t` and named value columns of the same length.".into());
        let obj = s.object();
        obj.properties.insert("t".into(), gen.subschema_for::<Vec<f64>>());
        obj.required.insert("t".into());
        obj.additional_properties = Some(Box::new(gen.subschema_for::<Vec<Option<f64>>>()));
        Schema::Object(s)
    }
}

fn json_f64(v: f64) -> Value {
    serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)
}

/// An INTCP node's part in a flow: the data source, a router along the path, or the requester.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HopRole {
    Producer,
    Midnode,
    Consumer,
}
