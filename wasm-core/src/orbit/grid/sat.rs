//! One satellite as the inference reads it: mean inclination and altitude, and RAAN and argument
//! of latitude at the common time, by SGP4 (see `inference.rs` for why SGP4 and not J2 rates).

use super::super::geometry::{self, Vec3};
use super::super::math;
use super::circular::wrap360;
use std::f64::consts::TAU;

/// What the inference reads of one satellite (degrees, km).
#[derive(Debug, Clone, Copy)]
pub(super) struct Sat {
    pub(super) inc: f64,
    pub(super) alt: f64,
    pub(super) raan: f64,
    pub(super) u: f64,
}

/// Mean inclination and altitude, and RAAN and u at `t0` by SGP4; or why not.
pub(super) fn read(e: &sgp4::Elements, t0: &sgp4::chrono::NaiveDateTime) -> Result<Sat, String> {
    let constants =
        super::super::elements::sgp4_constants(e).map_err(|err| format!("SGP4 refuses its elements: {err}"))?;
    let minutes = e.datetime_to_minutes_since_epoch(t0).map_err(|err| format!("SGP4: {err}"))?;
    let p = constants
        .propagate(minutes)
        .map_err(|err| format!("SGP4 cannot propagate it to {t0}, the latest epoch: {err} (decayed?)"))?;
    let (r, v): (Vec3, Vec3) = (p.position, p.velocity);
    let h = cross(r, v);
    let finite = r.iter().chain(&v).chain([&e.inclination, &e.mean_motion]).all(|x| x.is_finite());
    if !(finite && geometry::norm(h) > 0.0) {
        return Err(format!("SGP4 gives no orbit at {t0}, the latest epoch"));
    }
    let hn = geometry::norm(h);
    let hu = [h[0] / hn, h[1] / hn, h[2] / hn];
    // Ascending node: along ẑ × h = (−h_y, h_x, 0).
    let raan = math::atan2(h[0], -h[1]);
    let (so, co) = math::sin_cos(raan);
    let node = [co, so, 0.0];
    let u = math::atan2(geometry::dot(r, cross(hu, node)), geometry::dot(r, node));
    let n_rad_s = e.mean_motion * TAU / 86_400.0;
    let a_km = math::pow(geometry::MU_KM3_S2 / (n_rad_s * n_rad_s), 1.0 / 3.0);
    Ok(Sat {
        inc: e.inclination,
        alt: a_km - geometry::EARTH_RADIUS_KM,
        raan: wrap360(raan.to_degrees()),
        u: wrap360(u.to_degrees()),
    })
}

fn cross(a: Vec3, b: Vec3) -> Vec3 {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}
