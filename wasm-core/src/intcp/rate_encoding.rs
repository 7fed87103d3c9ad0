//! The rate an INTEREST carries on the wire: an int16 in units of 0.01 Mbit/s
//! (docs/intcp-protocol.md §2.2, §5.6).

/// Wire units per Mbit/s (0.01 Mbit/s steps, §5.6, §14).
const UNITS_PER_MBPS: f64 = 100.0;

/// `mbps` as the wire carries it: truncated to 0.01 Mbit/s, at most `i16::MAX` units (the field
/// is a signed 16-bit integer in the authors' code, §2.2).
#[inline]
pub fn encode_rate(mbps: f64) -> u16 {
    (mbps * UNITS_PER_MBPS).clamp(0.0, i16::MAX as f64) as u16
}

/// The rate, in Mbit/s, of a wire value.
#[inline]
pub fn decode_rate(wire: u16) -> f64 {
    wire as f64 / UNITS_PER_MBPS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rate_is_carried_in_hundredths_of_a_mbit_and_capped_at_the_int16_maximum() {
        assert_eq!(decode_rate(encode_rate(12.345)), 12.34);
        assert_eq!(encode_rate(1000.0), i16::MAX as u16);
        assert_eq!(encode_rate(-1.0), 0);
    }
}
