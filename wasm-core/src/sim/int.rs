//! Integer arithmetic whose wasm32 code matters on hot paths.
//!
//! On wasm32 a 64-bit multiply with an overflow check (`saturating_mul`, `checked_mul`) is a call
//! into compiler-rt for a 128-bit product (`__multi3`): in a profile of the Fig. 2 TCP sweep in the
//! browser's core, such calls from the TCP sender were 2.4 % of the run (BENCHMARKS.md, "Issue
//! 28's figures on the machine of 2026-12-07, evening").

/// `a.saturating_mul(b)`. A u64 below 2^32 times a u32 is below 2^64, so that case, the only one
/// the simulator meets (segment and block numbers times a size in bytes), is a plain multiply.
#[inline]
pub fn saturating_mul_u32(a: u64, b: u32) -> u64 {
    if a >> 32 == 0 {
        a * b as u64
    } else {
        a.saturating_mul(b as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn saturating_mul_u32_is_std_saturating_mul_at_the_edges() {
        let edges = [0, 1, 2, 0xFFFF_FFFF, 1 << 32, (1 << 32) + 1, u64::MAX / 2, u64::MAX - 1, u64::MAX];
        for a in edges {
            for b in [0, 1, 2, 1460, 0xFFFF_FFFE, u32::MAX] {
                assert_eq!(saturating_mul_u32(a, b), a.saturating_mul(b as u64), "{a} × {b}");
            }
        }
    }

    proptest! {
        #[test]
        fn saturating_mul_u32_is_std_saturating_mul(a: u64, b: u32, small: u32) {
            prop_assert_eq!(saturating_mul_u32(a, b), a.saturating_mul(b as u64));
            prop_assert_eq!(saturating_mul_u32(small as u64, b), (small as u64).saturating_mul(b as u64));
        }
    }
}
