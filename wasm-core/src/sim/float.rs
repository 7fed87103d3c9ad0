//! `f64::round`, `max` and `min` as plain comparisons and arithmetic, for the hot paths, so
//! that wasm runs them as instructions. Rust's `round` rounds halves away from zero and its
//! `max`/`min` ignore a NaN operand (IEEE 754-2008's maxNum and minNum); wasm's `f64.nearest`
//! rounds halves to even and its `f64.max`/`f64.min` return NaN, so in a wasm build the std
//! functions are calls into libm (`round`, `fmax`, `fmin`: 3 % of an INTCP run in Node,
//! BENCHMARKS.md, "INTCP's per-event cost, wasm"). The functions here give the std answer bit
//! for bit, `round` for every input and `max`/`min` under the condition their docs state,
//! which each call site shows holds; the tests below compare them with std.

/// `x.round()`: the nearest integer, halves away from zero, bit for bit (the sign of a zero
/// result included) for every `x` but NaN, which gives a NaN.
///
/// `x - x.trunc()` is exact (it only drops the integer bits of `x`), so testing it against ±0.5
/// finds the halves exactly, where `(x + 0.5).trunc()` would round 0.49999999999999994 up. A
/// `t ± 1.0` is exact too: a fraction other than 0 means |x| < 2^52, so |t| + 1 ≤ 2^52.
#[inline(always)]
pub fn round(x: f64) -> f64 {
    let t = x.trunc();
    let frac = x - t;
    if frac >= 0.5 {
        t + 1.0
    } else if frac <= -0.5 {
        t - 1.0
    } else {
        t
    }
}

/// `a.max(b)` when `a` is not NaN and `a`, `b` are not zeros of opposite signs (for that pair
/// std leaves the answer to the platform). `b` may be NaN: the answer is then `a`, as std's.
/// A constant that is neither NaN nor zero, as `a`, meets the condition for every `b`.
#[inline(always)]
pub fn max(a: f64, b: f64) -> f64 {
    debug_assert!(!a.is_nan() && !opposite_zeros(a, b), "float::max({a}, {b})");
    if a < b {
        b
    } else {
        a
    }
}

/// `a.min(b)` when `a` is not NaN and `a`, `b` are not zeros of opposite signs. `b` may be NaN:
/// the answer is then `a`, as std's.
#[inline(always)]
pub fn min(a: f64, b: f64) -> f64 {
    debug_assert!(!a.is_nan() && !opposite_zeros(a, b), "float::min({a}, {b})");
    if b < a {
        b
    } else {
        a
    }
}

fn opposite_zeros(a: f64, b: f64) -> bool {
    a == 0.0 && b == 0.0 && a.is_sign_negative() != b.is_sign_negative()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Zeros, halves on both sides, the ends of the exact range, subnormals, the extremes.
    const EDGES: [f64; 30] = [
        0.0,
        -0.0,
        0.5,
        -0.5,
        1.5,
        -1.5,
        2.5,
        -2.5,
        0.49999999999999994,
        -0.49999999999999994,
        0.5000000000000001,
        1.0,
        -1.0,
        0.7,
        -0.7,
        4503599627370495.5, // 2^52 - 0.5: the largest half
        -4503599627370495.5,
        4503599627370496.0, // 2^52: from here every f64 is an integer
        9007199254740993.0, // 2^53 + 1 as written, 2^53 as stored
        1e300,
        -1e300,
        f64::MAX,
        f64::MIN,
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
        5e-324, // the smallest subnormal
        -5e-324,
        2.2250738585072e-308, // a subnormal
        f64::INFINITY,
        f64::NEG_INFINITY,
    ];

    fn same(a: f64, b: f64) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }

    #[test]
    fn round_matches_std_on_zeros_halves_subnormals_and_extremes() {
        for x in EDGES.into_iter().chain([f64::NAN]) {
            assert!(same(round(x), x.round()), "round({x:e}) = {:e}, std {:e}", round(x), x.round());
        }
    }

    #[test]
    fn max_and_min_match_std_on_the_edges_whatever_the_second_operand() {
        for a in EDGES {
            for b in EDGES.into_iter().chain([f64::NAN]) {
                if opposite_zeros(a, b) {
                    continue;
                }
                assert!(same(max(a, b), a.max(b)), "max({a:e}, {b:e})");
                assert!(same(min(a, b), a.min(b)), "min({a:e}, {b:e})");
            }
        }
    }

    proptest! {
        #[test]
        fn round_matches_std_on_any_bits(bits in any::<u64>()) {
            let x = f64::from_bits(bits);
            prop_assert!(same(round(x), x.round()), "round({x:e})");
        }

        #[test]
        fn round_matches_std_near_halves(n in -(1i64 << 53)..(1i64 << 53), ulps in -2i64..=2) {
            let half = n as f64 + 0.5;
            let x = f64::from_bits((half.to_bits() as i64 + ulps) as u64);
            prop_assert!(same(round(x), x.round()), "round({x:e})");
        }

        #[test]
        fn max_and_min_match_std_on_any_bits(a in any::<u64>(), b in any::<u64>()) {
            let (a, b) = (f64::from_bits(a), f64::from_bits(b));
            prop_assume!(!a.is_nan() && !opposite_zeros(a, b));
            prop_assert!(same(max(a, b), a.max(b)), "max({a:e}, {b:e})");
            prop_assert!(same(min(a, b), a.min(b)), "min({a:e}, {b:e})");
        }
    }
}
