//! Angles in degrees on the circle: wrapping, and k-fold circular means (Mardia & Jupp,
//! "Directional Statistics", 2000, ch. 2), with which `lattice` fits the plane and slot lattices.

use super::super::math;

pub(super) fn wrap360(x: f64) -> f64 {
    let w = x.rem_euclid(360.0);
    if w >= 360.0 {
        0.0
    } else {
        w
    }
}

/// `x` moved by a multiple of `period` into `[−period/2, period/2)`.
pub(super) fn wrap_half(x: f64, period: f64) -> f64 {
    (x + period / 2.0).rem_euclid(period) - period / 2.0
}

/// Σ exp(i·k·x) over angles `x` in degrees.
pub(super) fn phasor(xs: impl Iterator<Item = f64>, k: f64) -> (f64, f64) {
    xs.fold((0.0, 0.0), |(c, s), x| {
        let (sn, cs) = math::sin_cos((k * x).to_radians());
        (c + cs, s + sn)
    })
}

/// The angle (degrees, in `[0, 360/k)`) of a k-fold phasor.
pub(super) fn phase_of((c, s): (f64, f64), k: f64) -> f64 {
    wrap360(math::atan2(s, c).to_degrees()) / k
}

pub(super) fn length((c, s): (f64, f64)) -> f64 {
    (c * c + s * s).sqrt()
}
