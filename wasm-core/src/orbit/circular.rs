//! A satellite on a circular Keplerian orbit, the motion of a Walker shell's satellites
//! (docs/links-and-orbits.md §6): the orbit in ECI, rotated about z by `−ω_E·t` to ECEF. What
//! every position needs and does not change (the sines of the RAAN and the inclination) is
//! worked out once per orbit, and the Earth's rotation once per time for all satellites.

use super::geometry::{Vec3, EARTH_ROTATION_RAD_S};
use super::math;

/// A circular Keplerian orbit [docs/links-and-orbits.md §6].
#[derive(Debug, Clone, PartialEq)]
pub struct CircularOrbit {
    pub radius_km: f64,
    pub inclination_rad: f64,
    pub raan_rad: f64,
    /// Argument of latitude at t = 0.
    pub u0_rad: f64,
    /// Mean motion, rad/s.
    pub rate_rad_s: f64,
    /// sin and cos of the RAAN and of the inclination, which every position needs.
    raan_sin_cos: (f64, f64),
    inclination_sin_cos: (f64, f64),
}

impl CircularOrbit {
    pub fn new(radius_km: f64, inclination_rad: f64, raan_rad: f64, u0_rad: f64, rate_rad_s: f64) -> CircularOrbit {
        CircularOrbit {
            radius_km,
            inclination_rad,
            raan_rad,
            u0_rad,
            rate_rad_s,
            raan_sin_cos: math::sin_cos(raan_rad),
            inclination_sin_cos: math::sin_cos(inclination_rad),
        }
    }

    /// ECEF position (km) at `t_s`, where `earth` is sin and cos of the Earth's rotation since
    /// t = 0 (the same for every satellite at `t_s`: [`super::elements::Constellation::positions_into`] works
    /// it out once).
    pub(super) fn position(&self, t_s: f64, earth: (f64, f64)) -> Vec3 {
        let u = self.u0_rad + self.rate_rad_s * t_s;
        let (su, cu) = math::sin_cos(u);
        let (so, co) = self.raan_sin_cos;
        let (si, ci) = self.inclination_sin_cos;
        let x = self.radius_km * (co * cu - so * su * ci);
        let y = self.radius_km * (so * cu + co * su * ci);
        let z = self.radius_km * su * si;
        rotated_z(x, y, z, earth)
    }
}

/// sin and cos of the Earth's rotation `t_s` after t = 0.
pub(super) fn earth_rotation(t_s: f64) -> (f64, f64) {
    math::sin_cos(EARTH_ROTATION_RAD_S * t_s)
}

/// A rotation about z by `−θ` (ECI/TEME → ECEF), given sin θ and cos θ.
pub(super) fn rotated_z(x: f64, y: f64, z: f64, (s, c): (f64, f64)) -> Vec3 {
    [c * x + s * y, -s * x + c * y, z]
}
