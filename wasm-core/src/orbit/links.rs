//! Per-link delay, capacity and loss.
//!
//! Sources: docs/links-and-orbits.md §4 — FSPL (ITU-R P.525) `L = 20 log₁₀ d_km + 20 log₁₀ f_GHz + 92.45` dB;
//! `C/N₀ = EIRP + G/T − L_FS − L_other + 228.6` dBHz (228.6 = −10 log₁₀ k_B); `SNR = C/N₀ − 10 log₁₀ B`;
//! Shannon `C = B·log₂(1 + SNR)`. Delay is distance / c.
//!
//! Defaults: fixed rates as the reference tools use (no Shannon in Hypatia or StarPerf, §7.4):
//! ISL and GSL 20 Mbit/s, ISL loss 0.1 %, GSL loss 0 — the INTCP code's values (autoTest/MyParam.py:
//! downlink 20, ISL 20 Mbit/s, ISL loss 0.1 %). The link-budget defaults ([`LinkBudget::ku_user_link`])
//! are an **assumption** (Ku band 12 GHz, 250 MHz, EIRP 30 dBW, G/T 10.4 dB/K, 1 dB other losses,
//! η = 0.8): chosen so a 550-km satellite at 25° gives ≈ 9 dB SNR; they are not from a filing.

use super::math;

use serde::{Deserialize, Serialize};

/// −10·log₁₀ of Boltzmann's constant 1.380649·10⁻²³ J/K, dB.
pub const BOLTZMANN_DB: f64 = 228.599_167;

/// Free-space path loss, dB, for `d_km` at `f_ghz` (ITU-R P.525).
pub fn fspl_db(d_km: f64, f_ghz: f64) -> f64 {
    20.0 * math::log10(d_km) + 20.0 * math::log10(f_ghz) + 92.45
}

/// Shannon capacity, Mbit/s, of `bandwidth_mhz` at `snr_db`.
pub fn shannon_mbps(bandwidth_mhz: f64, snr_db: f64) -> f64 {
    bandwidth_mhz * math::log2(1.0 + math::pow(10.0, snr_db / 10.0))
}

/// A link budget: transmitter EIRP, receiver G/T, carrier, bandwidth, other losses and the
/// fraction `efficiency` of Shannon capacity a real modem reaches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkBudget {
    pub eirp_dbw: f64,
    pub g_over_t_db_k: f64,
    pub frequency_ghz: f64,
    pub bandwidth_mhz: f64,
    #[serde(default)]
    pub other_losses_db: f64,
    #[serde(default = "one")]
    pub efficiency: f64,
}

fn one() -> f64 {
    1.0
}

impl LinkBudget {
    /// An assumed Ku-band user link (see the module documentation).
    pub fn ku_user_link() -> Self {
        LinkBudget {
            eirp_dbw: 30.0,
            g_over_t_db_k: 10.4,
            frequency_ghz: 12.0,
            bandwidth_mhz: 250.0,
            other_losses_db: 1.0,
            efficiency: 0.8,
        }
    }

    /// C/N₀, dBHz, over `d_km`.
    pub fn cn0_dbhz(&self, d_km: f64) -> f64 {
        self.eirp_dbw + self.g_over_t_db_k - fspl_db(d_km, self.frequency_ghz) - self.other_losses_db + BOLTZMANN_DB
    }

    /// SNR, dB, over `d_km`.
    pub fn snr_db(&self, d_km: f64) -> f64 {
        self.cn0_dbhz(d_km) - 10.0 * math::log10(self.bandwidth_mhz * 1e6)
    }

    /// `η · B·log₂(1 + SNR)`, Mbit/s, over `d_km`.
    pub fn capacity_mbps(&self, d_km: f64) -> f64 {
        self.efficiency * shannon_mbps(self.bandwidth_mhz, self.snr_db(d_km))
    }
}

/// How a link type's capacity is found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Capacity {
    /// The same rate on every link of the type, Mbit/s.
    FixedMbps(f64),
    /// From the link budget at the link's length.
    Budget(LinkBudget),
}

/// How a link type's packet loss probability is found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Loss {
    /// The same probability on every link of the type.
    Fixed(f64),
    /// Ground–satellite links: linear in elevation from `at_min_elevation` (at the mask) to
    /// `at_zenith` (90°); ISLs use `at_zenith`. An assumed shape, not from a source.
    Elevation { at_min_elevation: f64, at_zenith: f64 },
}

/// Capacity and loss of one link type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkType {
    pub capacity: Capacity,
    pub loss: Loss,
}

/// The two link types.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkModel {
    /// Ground–satellite links.
    pub gsl: LinkType,
    /// Inter-satellite links.
    pub isl: LinkType,
}

impl Default for LinkModel {
    /// The INTCP code's fixed rates and losses (module documentation).
    fn default() -> Self {
        LinkModel {
            gsl: LinkType { capacity: Capacity::FixedMbps(20.0), loss: Loss::Fixed(0.0) },
            isl: LinkType { capacity: Capacity::FixedMbps(20.0), loss: Loss::Fixed(0.001) },
        }
    }
}

impl LinkType {
    pub fn capacity_mbps(&self, d_km: f64) -> f64 {
        match &self.capacity {
            Capacity::FixedMbps(r) => *r,
            Capacity::Budget(b) => b.capacity_mbps(d_km),
        }
    }

    /// Loss at `elev_deg` (None for an ISL) with elevation mask `min_elev_deg`.
    pub fn loss(&self, elev_deg: Option<f64>, min_elev_deg: f64) -> f64 {
        match (&self.loss, elev_deg) {
            (Loss::Fixed(p), _) => *p,
            (Loss::Elevation { at_zenith, .. }, None) => *at_zenith,
            (Loss::Elevation { at_min_elevation, at_zenith }, Some(e)) => {
                let span = (90.0 - min_elev_deg).max(1e-9);
                let f = ((e - min_elev_deg) / span).clamp(0.0, 1.0);
                at_min_elevation + (at_zenith - at_min_elevation) * f
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fspl_matches_the_12_ghz_examples() {
        // docs/links-and-orbits.md §4: 550 km 168.8 dB; 1123 km 175.0; 2127 km 180.6; 35 786 km 205.1.
        for (d, l) in [(550.0, 168.8), (1123.0, 175.0), (2127.0, 180.6), (35_786.0, 205.1)] {
            assert!((fspl_db(d, 12.0) - l).abs() < 0.05, "{d} km: {}", fspl_db(d, 12.0));
        }
    }

    #[test]
    fn shannon_matches_the_250_mhz_examples() {
        // docs/links-and-orbits.md §4: SNR 0/5/10/15/20 dB ⇒ 250/514/865/1257/1665 Mbit/s.
        for (snr, c) in [(0.0, 250.0), (5.0, 514.0), (10.0, 865.0), (15.0, 1257.0), (20.0, 1665.0)] {
            assert!((shannon_mbps(250.0, snr) - c).abs() < 1.0, "{snr} dB: {}", shannon_mbps(250.0, snr));
        }
    }

    #[test]
    fn the_budget_loses_capacity_with_distance() {
        let b = LinkBudget::ku_user_link();
        assert!((b.snr_db(1123.4) - 9.0).abs() < 0.5, "{}", b.snr_db(1123.4));
        assert!(b.capacity_mbps(550.0) > b.capacity_mbps(1123.4));
        // 20·log₁₀(2) ≈ 6.02 dB per doubling of distance.
        assert!((b.snr_db(1000.0) - b.snr_db(2000.0) - 6.0206).abs() < 1e-3);
    }

    #[test]
    fn elevation_loss_interpolates_between_mask_and_zenith() {
        let t = LinkType {
            capacity: Capacity::FixedMbps(1.0),
            loss: Loss::Elevation { at_min_elevation: 0.02, at_zenith: 0.0 },
        };
        assert!((t.loss(Some(25.0), 25.0) - 0.02).abs() < 1e-12);
        assert!(t.loss(Some(90.0), 25.0).abs() < 1e-12);
        assert!((t.loss(Some(57.5), 25.0) - 0.01).abs() < 1e-12);
    }
}
