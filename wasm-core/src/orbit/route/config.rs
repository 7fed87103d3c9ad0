//! What routing needs besides the constellation and the endpoints: the ISL mode, gateways and
//! their PoP, the reach of ground links and the attachment policy, with the checks a run relies
//! on (docs/links-and-orbits.md §9, §13, §14).

use super::{Attachment, Earth, DEFAULT_MIN_ELEVATION_DEG, DEFAULT_STEP_S};
use crate::number_text::Num;
use crate::orbit::geometry::C_KM_S;
use crate::orbit::ground::GroundStation;
use crate::orbit::links::LinkModel;
use crate::orbit::OrbitError;
use serde::{Deserialize, Serialize};

/// Inter-satellite links.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum IslMode {
    /// +Grid within each Walker shell and each element-set grid. `max_length_km`: links longer
    /// than this are down (default per shell: Hypatia's 80-km-clearance chord,
    /// docs/links-and-orbits.md §8). `seam`: link plane P−1 to plane 0.
    PlusGrid { max_length_km: Option<f64>, seam: bool },
    /// Exactly these undirected links, by satellite index (Hypatia's `isls.txt`); longer than
    /// `max_length_km` (default: no limit) they are down.
    List { pairs: Vec<[u32; 2]>, max_length_km: Option<f64> },
    /// No ISLs: bent pipe, satellite → ground relay → satellite (Hypatia's
    /// "free_one_only_gs_relays").
    None,
}

/// Speed of light in fibre, km/s: 2/3 c [docs/links-and-orbits.md §14].
pub const FIBRE_KM_S: f64 = C_KM_S * 2.0 / 3.0;

/// Gateways that take traffic down from the satellites and a point of presence (PoP) that they
/// reach over terrestrial fibre: the path to `dst` goes satellite → gateway → PoP → `dst`.
#[derive(Debug, Clone, PartialEq)]
pub struct Gateways {
    pub stations: Vec<GroundStation>,
    pub pop: GroundStation,
    /// Fibre length over great-circle distance (≥ 1).
    pub route_factor: f64,
    /// Capacity of the terrestrial links, Mbit/s.
    pub rate_mbps: f64,
}

/// Everything routing needs besides the constellation and the endpoints.
#[derive(Debug, Clone, PartialEq)]
pub struct RouteConfig {
    pub min_elevation_deg: f64,
    /// Longest ground–satellite link, km (Hypatia's cone): a satellite farther away is out of
    /// reach whatever its elevation.
    pub max_range_km: Option<f64>,
    pub earth: Earth,
    pub step_s: f64,
    pub isl: IslMode,
    pub attachment: Attachment,
    /// After a handover the path is marked unusable (`in_outage`) for this long, s.
    pub handover_outage_s: f64,
    pub links: LinkModel,
    /// Ground relays for bent pipe (`IslMode::None`); ignored with ISLs and with gateways.
    pub relays: Vec<GroundStation>,
    pub gateways: Option<Gateways>,
}

impl RouteConfig {
    /// What [`Router::new`] requires of the configuration. [`ConstellationTopology::build`]
    /// checks it too, so that scenario validation refuses what a run would.
    ///
    /// [`ConstellationTopology::build`]: super::config::ConstellationTopology::build
    pub fn check(&self) -> Result<(), OrbitError> {
        let bad = |field: &str, problem: String| Err(OrbitError::Config { field: field.into(), problem });
        if !(0.0..90.0).contains(&self.min_elevation_deg) {
            return bad(
                "min_elevation_deg",
                format!("must be at least 0° and below 90° (got {})", Num(self.min_elevation_deg)),
            );
        }
        if let Some(r) = self.max_range_km {
            if !(r.is_finite() && r > 0.0) {
                return bad("gsl_max_range_km", format!("{} must be a positive number of km", Num(r)));
            }
        }
        if !(self.step_s.is_finite() && self.step_s > 0.0) {
            return bad("step_s", format!("{} must be a positive number of seconds", Num(self.step_s)));
        }
        if !(self.handover_outage_s.is_finite() && self.handover_outage_s >= 0.0) {
            return bad("handover_outage_s", format!("{} must be 0 or more seconds", Num(self.handover_outage_s)));
        }
        if let Some(s) = self.attachment.scheduler() {
            if !(s.period_s.is_finite() && s.period_s > 0.0 && s.period_s <= 86_400.0) {
                return bad(
                    "attachment.scheduler.period_s",
                    format!("{} must be above 0 and at most 86400 s", Num(s.period_s)),
                );
            }
            if !(s.offset_s.is_finite() && (0.0..s.period_s).contains(&s.offset_s)) {
                return bad(
                    "attachment.scheduler.offset_s",
                    format!("{} must be at least 0 and below the period ({} s)", Num(s.offset_s), Num(s.period_s)),
                );
            }
            if !(s.reassign_gap_ms.is_finite() && s.reassign_gap_ms >= 0.0 && s.reassign_gap_ms < s.period_s * 1e3) {
                return bad(
                    "attachment.scheduler.reassign_gap_ms",
                    format!("{} must be at least 0 and shorter than a slot", Num(s.reassign_gap_ms)),
                );
            }
        }
        if let Some(g) = &self.gateways {
            if g.stations.is_empty() {
                return bad("gateways.stations", "must name at least one gateway".into());
            }
            if !(g.route_factor.is_finite() && (1.0..=10.0).contains(&g.route_factor)) {
                return bad("gateways.route_factor", format!("{} must be between 1 and 10", Num(g.route_factor)));
            }
            if !(g.rate_mbps.is_finite() && g.rate_mbps > 0.0) {
                return bad("gateways.rate_mbps", format!("{} must be a positive rate", Num(g.rate_mbps)));
            }
        }
        if let IslMode::List { max_length_km: Some(m), .. } | IslMode::PlusGrid { max_length_km: Some(m), .. } =
            self.isl
        {
            if !(m.is_finite() && m > 0.0) {
                return bad("max_isl_km", format!("{} must be a positive number of km", Num(m)));
            }
        }
        Ok(())
    }
}

impl Default for RouteConfig {
    fn default() -> Self {
        RouteConfig {
            min_elevation_deg: DEFAULT_MIN_ELEVATION_DEG,
            max_range_km: None,
            earth: Earth::Sphere,
            step_s: DEFAULT_STEP_S,
            isl: IslMode::PlusGrid { max_length_km: None, seam: true },
            attachment: Attachment::HighestElevation,
            handover_outage_s: 0.0,
            links: LinkModel::default(),
            relays: Vec::new(),
            gateways: None,
        }
    }
}
