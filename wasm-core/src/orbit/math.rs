//! Sine, cosine, logarithms and powers from the `libm` crate (pure Rust) instead of the
//! platform's: the native build would otherwise call the system C library, whose results differ
//! from the browser build's in the last bit, and a capacity or a distance one bit apart changes a
//! packet's transmission time. Square roots need no wrapper: IEEE 754 rounds them exactly.

pub fn sin(x: f64) -> f64 {
    libm::sin(x)
}
pub fn cos(x: f64) -> f64 {
    libm::cos(x)
}
pub fn sin_cos(x: f64) -> (f64, f64) {
    libm::sincos(x)
}
pub fn asin(x: f64) -> f64 {
    libm::asin(x)
}
pub fn acos(x: f64) -> f64 {
    libm::acos(x)
}
pub fn atan2(y: f64, x: f64) -> f64 {
    libm::atan2(y, x)
}
pub fn log10(x: f64) -> f64 {
    libm::log10(x)
}
pub fn log2(x: f64) -> f64 {
    libm::log2(x)
}
pub fn pow(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_the_platform_to_an_ulp_or_two() {
        for i in 0..1000 {
            let x = i as f64 * 0.0137 - 6.0;
            assert!((sin(x) - x.sin()).abs() <= 4.0 * f64::EPSILON);
            assert!((cos(x) - x.cos()).abs() <= 4.0 * f64::EPSILON);
            let y = 1.0 + i as f64 * 3.7;
            assert!((log10(y) - y.log10()).abs() <= 4.0 * f64::EPSILON * y.log10().abs().max(1.0));
        }
    }
}
