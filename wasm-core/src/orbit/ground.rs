//! Ground stations by name and latitude/longitude, and a small table of major cities.
//!
//! City coordinates are city-centre values to two decimals (public gazetteer values, e.g.
//! Wikipedia/GeoNames), rounded; Beijing 39.90 N 116.41 E and New York 40.71 N 74.01 W as the
//! issue gives them.

use crate::number_text::Num;
use serde::{Deserialize, Serialize};

/// A ground station: a name and a position on the spherical Earth (°; north and east positive).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroundStation {
    pub name: String,
    pub lat_deg: f64,
    pub lon_deg: f64,
}

/// Major cities: (name, latitude °N, longitude °E).
pub const CITIES: &[(&str, f64, f64)] = &[
    ("Beijing", 39.90, 116.41),
    ("New York", 40.71, -74.01),
    ("London", 51.51, -0.13),
    ("Paris", 48.86, 2.35),
    ("Tokyo", 35.68, 139.69),
    ("Shanghai", 31.23, 121.47),
    ("Singapore", 1.35, 103.82),
    ("Sydney", -33.87, 151.21),
    ("Sao Paulo", -23.55, -46.63),
    ("Los Angeles", 34.05, -118.24),
    ("Moscow", 55.76, 37.62),
    ("Mumbai", 19.08, 72.88),
    ("Cairo", 30.04, 31.24),
    ("Johannesburg", -26.20, 28.05),
    ("Honolulu", 21.31, -157.86),
    ("Anchorage", 61.22, -149.90),
    ("Reykjavik", 64.15, -21.94),
];

/// The city named `name` (case-insensitive), if it is in [`CITIES`].
pub fn city(name: &str) -> Option<GroundStation> {
    CITIES.iter().find(|c| c.0.eq_ignore_ascii_case(name.trim())).map(|&(n, lat, lon)| GroundStation {
        name: n.to_string(),
        lat_deg: lat,
        lon_deg: lon,
    })
}

impl GroundStation {
    pub fn new(name: &str, lat_deg: f64, lon_deg: f64) -> Result<Self, super::OrbitError> {
        if !(-90.0..=90.0).contains(&lat_deg) || !(-180.0..=360.0).contains(&lon_deg) {
            return Err(super::OrbitError::Ground(format!(
                "\"{}\": latitude {} must be within ±90° and longitude {} within −180–360°",
                super::excerpt(name),
                Num(lat_deg),
                Num(lon_deg)
            )));
        }
        Ok(GroundStation { name: name.to_string(), lat_deg, lon_deg })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beijing_and_new_york_are_in_the_table() {
        assert_eq!(city("beijing").unwrap().lat_deg, 39.90);
        assert_eq!(city("New York").unwrap().lon_deg, -74.01);
        assert!(city("Atlantis").is_none());
        assert!(CITIES.len() >= 12);
    }

    #[test]
    fn out_of_range_coordinates_are_rejected() {
        assert!(GroundStation::new("x", 91.0, 0.0).is_err());
        assert!(GroundStation::new("x", 45.0, 10.0).is_ok());
    }
}
