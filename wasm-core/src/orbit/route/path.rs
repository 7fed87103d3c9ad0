//! What a step's path is made of: nodes, hops, the events of a step, the step itself.

use serde::Serialize;

/// A node of the path: a satellite (index into `Constellation::sats`) or a ground station
/// (0 = source, 1 = destination, then the relays in `RouteConfig::relays` order, or the gateways
/// in their order followed by the PoP).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Node {
    Sat(u32),
    Ground(u32),
}

/// One hop of a path at one step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hop {
    pub from: Node,
    pub to: Node,
    pub distance_km: f64,
    /// distance / c (over the air) or distance / (2/3 c) (terrestrial fibre), s.
    pub delay_s: f64,
    pub capacity_mbps: f64,
    /// Packet loss probability.
    pub loss: f64,
    /// Elevation of the satellite seen from the ground end, ° (ground–satellite links only).
    pub elevation_deg: Option<f64>,
}

/// Which end of the path a handover is at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum End {
    Src,
    Dst,
}

/// Why an end's serving satellite changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum HandoverCause {
    /// The attachment rule chose another satellite at this step (no scheduler).
    Step,
    /// The scheduler reassigned the terminal at a slot boundary.
    SlotBoundary,
    /// The terminal's satellite left its reach inside a slot and was replaced at once.
    LostMidSlot,
}

/// What changed at a step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum EventKind {
    /// An endpoint's serving satellite changed (`None`: no satellite visible). The new ground
    /// link carries nothing for `outage_s`.
    Handover { end: End, from: Option<u32>, to: Option<u32>, cause: HandoverCause, outage_s: f64 },
    /// The node list changed without a handover (or the path appeared or vanished).
    RouteChange,
}

/// The path at one time step. `hops` is empty when there is no path.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PathStep {
    pub t_s: f64,
    pub hops: Vec<Hop>,
    /// Sum of hop delays, s (infinite without a path).
    pub owd_s: f64,
    /// Smallest hop capacity, Mbit/s (0 without a path).
    pub bottleneck_mbps: f64,
    /// Within a handover's outage.
    pub in_outage: bool,
    /// A scheduler slot boundary fell in (previous step, this step].
    pub slot_boundary: bool,
    pub events: Vec<EventKind>,
}

impl PathStep {
    /// The node list: source, satellites and relays, destination.
    pub fn nodes(&self) -> Vec<Node> {
        let mut v: Vec<Node> = self.hops.iter().map(|h| h.from).collect();
        v.extend(self.hops.last().map(|h| h.to));
        v
    }
}
