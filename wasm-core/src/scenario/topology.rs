//! The network a scenario runs on: a chain of links or a constellation path.

use super::{ConstellationTopology, LinkSpec};
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

// Read by hand (`tagged.rs`), written and described by the derives. A plain comment: a doc
// comment would become the type's description in the JSON Schema and the generated types.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Topology {
    /// Nodes 0..=N joined by N bidirectional links in a row; flows run from node 0 to node N
    /// unless they say otherwise. Several flows on one chain share its bottleneck.
    Chain(Chain),
    /// A path between two ground stations through a moving satellite constellation: links,
    /// delays and the route follow the orbits at every `step_s` (`orbit/config.rs`).
    Constellation(Box<ConstellationTopology>),
}

impl<'de> Deserialize<'de> for Topology {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Topology, D::Error> {
        let (kind, content) = super::tagged::split_tag(Value::deserialize(d)?, "kind", &["chain", "constellation"])?;
        match kind.as_str() {
            "chain" => super::tagged::variant(&content).map(Topology::Chain),
            _ => super::tagged::variant(&content).map(|c| Topology::Constellation(Box::new(c))),
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Chain {
    pub links: Vec<LinkSpec>,
    /// Where the chain's satellite hop is, for the globe only: it changes nothing in the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<ChainPlace>,
}

/// A GEO satellite and the two ground stations a chain's satellite hop joins (e.g. WINDS at
/// 143° E between two terminals in Kashima), so that a GEO preset has a place on the globe.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChainPlace {
    pub geo_longitude_deg: f64,
    /// The sending and the receiving ground station.
    pub ground: [crate::orbit::config::Place; 2],
}

impl ChainPlace {
    /// The topology that draws it: the one GEO satellite, the two stations, no ISLs.
    pub fn as_constellation(&self) -> ConstellationTopology {
        use crate::orbit::config::{ConstellationSpec, IslChoice, RouteChange};
        let [src, dst] = self.ground.clone();
        ConstellationTopology {
            constellation: ConstellationSpec { geo_longitudes_deg: vec![self.geo_longitude_deg], ..Default::default() },
            src,
            dst,
            min_elevation_deg: 0.0,
            gsl_max_range_km: None,
            earth: Default::default(),
            ground_stations: None,
            ground_stations_file: None,
            gateways: None,
            step_s: crate::orbit::config::DEFAULT_STEP_S,
            start_s: 0.0,
            isl: IslChoice::None,
            max_isl_km: None,
            seam: true,
            attachment: Default::default(),
            handover_outage_s: 0.0,
            relays: Some(Vec::new()),
            links: None,
            buffer_pkts: 1000,
            reverse_loss: false,
            on_route_change: RouteChange::Deliver,
            access: None,
        }
    }
}
