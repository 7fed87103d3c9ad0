//! Earth geometry: ECEF/geodetic conversion, elevation, slant range, coverage, circular-orbit
//! kinematics.
//!
//! Sources: docs/links-and-orbits.md §3 (elevation `sin ε = (v·u)/|v|`, slant range
//! `d(ε) = √((R+h)² − (R cos ε)²) − R sin ε`, coverage half-angle `θ(ε) = arccos(R cos ε/(R+h)) − ε`)
//! and docs/links-and-orbits.md §6 (period `T = 2π√(a³/μ)`). The Earth is a **sphere** of radius
//! [`EARTH_RADIUS_KM`] (WGS72 equatorial radius, as Hypatia uses), so geodetic latitude equals
//! geocentric latitude here; the error against WGS-84 is below 0.2° of latitude and ~20 km of
//! ground distance, small next to a 900-km coverage radius.

use super::math;

/// A point or vector in Earth-centred Earth-fixed coordinates, km.
pub type Vec3 = [f64; 3];

/// Earth radius, km: WGS72 equatorial radius, as Hypatia uses [docs/links-and-orbits.md §3].
pub const EARTH_RADIUS_KM: f64 = 6378.135;
/// Earth's gravitational parameter μ, km³/s² [docs/links-and-orbits.md §6].
pub const MU_KM3_S2: f64 = 398_600.441_8;
/// Earth's rotation rate ω_E, rad/s [docs/links-and-orbits.md §6].
pub const EARTH_ROTATION_RAD_S: f64 = 7.292_115_9e-5;
/// Speed of light in vacuum, km/s (SI definition).
pub const C_KM_S: f64 = 299_792.458;
/// Lowest perigee altitude of a satellite's orbit, km: the Kármán line. Below it an orbit decays
/// within hours (satellites re-enter from perigees of 120–150 km), and SGP4 stops propagating
/// once the perigee is under the surface.
pub const MIN_PERIGEE_ALTITUDE_KM: f64 = 100.0;
/// GEO altitude above the equator, km [docs/links-and-orbits.md §6].
pub const GEO_ALTITUDE_KM: f64 = 35_786.0;

pub fn dot(a: Vec3, b: Vec3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub fn sub(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub fn norm(a: Vec3) -> f64 {
    dot(a, a).sqrt()
}

/// Straight-line distance between two points, km.
pub fn distance_km(a: Vec3, b: Vec3) -> f64 {
    norm(sub(a, b))
}

/// ECEF position of a point at latitude/longitude (degrees, north and east positive) and altitude
/// (km) over the spherical Earth.
pub fn geodetic_to_ecef(lat_deg: f64, lon_deg: f64, alt_km: f64) -> Vec3 {
    let (lat, lon) = (lat_deg.to_radians(), lon_deg.to_radians());
    let r = EARTH_RADIUS_KM + alt_km;
    [r * math::cos(lat) * math::cos(lon), r * math::cos(lat) * math::sin(lon), r * math::sin(lat)]
}

/// WGS72 flattening, 1/298.26 (the ellipsoid of SGP4's WGS72 constants and of Hypatia's ground
/// stations) [docs/links-and-orbits.md §13].
pub const WGS72_FLATTENING: f64 = 1.0 / 298.26;

/// ECEF position (km) of a point at geodetic latitude/longitude (°) and height `alt_km` above the
/// WGS72 ellipsoid (equatorial radius [`EARTH_RADIUS_KM`]), and the ellipsoid's outward normal
/// there (a unit vector: the local vertical that elevation is measured from).
pub fn wgs72_to_ecef(lat_deg: f64, lon_deg: f64, alt_km: f64) -> (Vec3, Vec3) {
    let (lat, lon) = (lat_deg.to_radians(), lon_deg.to_radians());
    let (slat, clat) = math::sin_cos(lat);
    let (slon, clon) = math::sin_cos(lon);
    let e2 = WGS72_FLATTENING * (2.0 - WGS72_FLATTENING);
    let n = EARTH_RADIUS_KM / (1.0 - e2 * slat * slat).sqrt();
    let p = [(n + alt_km) * clat * clon, (n + alt_km) * clat * slon, (n * (1.0 - e2) + alt_km) * slat];
    (p, [clat * clon, clat * slon, slat])
}

/// Latitude (°), longitude (° in (−180, 180]) and altitude (km) of an ECEF point over the
/// spherical Earth.
pub fn ecef_to_geodetic(p: Vec3) -> (f64, f64, f64) {
    let r = norm(p);
    let lat = math::asin(p[2] / r).to_degrees();
    let lon = math::atan2(p[1], p[0]).to_degrees();
    (lat, lon, r - EARTH_RADIUS_KM)
}

/// Elevation (°) of `sat` seen from `ground`: `sin ε = (v·u)/|v|` with `v = S − G`, `u = G/|G|`.
pub fn elevation_deg(ground: Vec3, sat: Vec3) -> f64 {
    let v = sub(sat, ground);
    let (nv, ng) = (norm(v), norm(ground));
    if nv == 0.0 || ng == 0.0 {
        return 90.0;
    }
    math::asin((dot(v, ground) / (nv * ng)).clamp(-1.0, 1.0)).to_degrees()
}

/// Slant range (km) to a satellite at altitude `h_km` seen at elevation `elev_deg`.
pub fn slant_range_km(h_km: f64, elev_deg: f64) -> f64 {
    let r = EARTH_RADIUS_KM;
    let e = elev_deg.to_radians();
    {
        let (a, b) = (r + h_km, r * math::cos(e));
        (a * a - b * b).sqrt() - r * math::sin(e)
    }
}

/// Earth-central half-angle (rad) of the coverage of a satellite at `h_km` for elevation mask
/// `elev_deg`; the ground coverage radius is `R·θ`.
pub fn coverage_half_angle_rad(h_km: f64, elev_deg: f64) -> f64 {
    let e = elev_deg.to_radians();
    math::acos(EARTH_RADIUS_KM * math::cos(e) / (EARTH_RADIUS_KM + h_km)) - e
}

/// Keplerian period (s) of a circular orbit at altitude `h_km`.
pub fn period_s(h_km: f64) -> f64 {
    let a = EARTH_RADIUS_KM + h_km;
    2.0 * std::f64::consts::PI * (a * a * a / MU_KM3_S2).sqrt()
}

/// Longest chord between two satellites at altitude `h_km` that stays `clearance_km` above the
/// surface: `2·√((R+h)² − (R+clearance)²)` (Hypatia's rule with 80 km) [docs/links-and-orbits.md §8].
pub fn max_isl_length_km(h_km: f64, clearance_km: f64) -> f64 {
    let r = EARTH_RADIUS_KM;
    {
        let (a, b) = (r + h_km, r + clearance_km);
        2.0 * (a * a - b * b).max(0.0).sqrt()
    }
}

/// Hypatia's clearance above the surface for an ISL, km [docs/links-and-orbits.md §8].
pub const ISL_CLEARANCE_KM: f64 = 80.0;

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn slant_range_and_coverage_match_the_reference_table() {
        // docs/links-and-orbits.md §3: (h, ε, slant km, coverage radius km, one-way delay ms).
        let table = [
            (550.0, 25.0, 1123.4, 940.7, 3.75),
            (550.0, 40.0, 812.1, 573.5, 2.71),
            (550.0, 0.0, 2705.3, 2558.6, 9.02),
            (1150.0, 25.0, 2127.1, 1651.7, 7.10),
            (1150.0, 40.0, 1627.4, 1061.1, 5.43),
            (630.0, 30.0, 1124.1, 888.9, 3.75),
            (1015.0, 10.0, 2791.7, 2430.3, 9.31),
        ];
        for (h, e, d, cov, owd) in table {
            assert!(close(slant_range_km(h, e), d, 0.1), "slant {h} {e}: {}", slant_range_km(h, e));
            let c = EARTH_RADIUS_KM * coverage_half_angle_rad(h, e);
            assert!(close(c, cov, 0.1), "coverage {h} {e}: {c}");
            assert!(close(d / C_KM_S * 1e3, owd, 0.01));
        }
    }

    #[test]
    fn elevation_of_a_satellite_at_the_slant_range_matches_the_mask() {
        // Put a satellite at 550 km, offset by the coverage half-angle for 25°: it sits at 25°.
        let theta = coverage_half_angle_rad(550.0, 25.0).to_degrees();
        let g = geodetic_to_ecef(0.0, 0.0, 0.0);
        let s = geodetic_to_ecef(0.0, theta, 550.0);
        assert!(close(elevation_deg(g, s), 25.0, 1e-9));
        assert!(close(distance_km(g, s), slant_range_km(550.0, 25.0), 1e-6));
        assert!(close(elevation_deg(g, geodetic_to_ecef(0.0, 0.0, 550.0)), 90.0, 1e-9));
    }

    #[test]
    fn geodetic_round_trips_through_ecef() {
        let (lat, lon, alt) = ecef_to_geodetic(geodetic_to_ecef(39.90, 116.41, 12.0));
        assert!(close(lat, 39.90, 1e-9) && close(lon, 116.41, 1e-9) && close(alt, 12.0, 1e-9));
    }

    #[test]
    fn the_wgs72_ellipsoid_is_flattened_at_the_poles_and_round_at_the_equator() {
        let (eq, up_eq) = wgs72_to_ecef(0.0, 90.0, 0.0);
        assert!(close(norm(eq), EARTH_RADIUS_KM, 1e-9) && close(up_eq[1], 1.0, 1e-12));
        // Polar radius b = a(1 − f) = 6356.751 km.
        let (pole, _) = wgs72_to_ecef(90.0, 0.0, 0.0);
        assert!(close(pole[2], EARTH_RADIUS_KM * (1.0 - WGS72_FLATTENING), 1e-6), "{pole:?}");
        // At 45° the geodetic normal is tilted from the radius by about 0.19° (the geodetic
        // latitude exceeds the geocentric one), and a point 1 km up moves along the normal.
        let (p, up) = wgs72_to_ecef(45.0, 10.0, 0.0);
        let tilt = math::acos(dot(p, up) / norm(p)).to_degrees();
        assert!(close(tilt, 0.192, 0.002), "{tilt}");
        let (q, _) = wgs72_to_ecef(45.0, 10.0, 1.0);
        assert!(close(distance_km(p, q), 1.0, 1e-9));
    }

    #[test]
    fn periods_match_the_keplerian_values() {
        // docs/links-and-orbits.md §6: 550 km 95.65 min, 1150 km 108.34 min, GEO 1436.1 min.
        assert!(close(period_s(550.0) / 60.0, 95.65, 0.02));
        assert!(close(period_s(1150.0) / 60.0, 108.34, 0.02));
        assert!(close(period_s(GEO_ALTITUDE_KM) / 60.0, 1436.1, 0.1));
    }

    #[test]
    fn max_isl_length_follows_the_80_km_rule() {
        assert!(close(max_isl_length_km(550.0, ISL_CLEARANCE_KM), 5016.6, 0.1));
    }
}
