//! HighSpeed TCP: RFC 3649 (S. Floyd, "HighSpeed TCP for Large Congestion Windows", 2003) and
//! Linux `net/ipv4/tcp_highspeed.c`, which uses the RFC's Appendix B table; docs/congestion-control.md §9.
//!
//! Up to 38 packets it is Reno. Above, the additive increase a(w) and the decrease b(w) come
//! from a table of window bounds, chosen so that the steady-state window follows the response
//! function w = 0.12 / p^0.835 instead of Reno's 1.2 / √p.

use super::{AckSample, CongestionControl, LeftOver, Window};
use crate::sim::{SimDuration, SimTime};

/// One row of RFC 3649 Appendix B: for `cwnd ≤ max_cwnd` (and above the previous row's bound)
/// the window grows by `row index + 1` packets per RTT and a loss takes away
/// `decrease_x256 / 256` of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct AimdRow {
    max_cwnd: u32,
    decrease_x256: u32,
}

const fn row(max_cwnd: u32, decrease_x256: u32) -> AimdRow {
    AimdRow { max_cwnd, decrease_x256 }
}

// tcp_highspeed.c hstcp_aimd_vals = RFC 3649 Appendix B (w, b(w) × 256; a(w) = index + 1).
const AIMD_TABLE: [AimdRow; 72] = [
    row(38, 128),
    row(118, 112),
    row(221, 104),
    row(347, 98),
    row(495, 93),
    row(663, 89),
    row(851, 86),
    row(1058, 83),
    row(1284, 81),
    row(1529, 78),
    row(1793, 76),
    row(2076, 74),
    row(2378, 72),
    row(2699, 71),
    row(3039, 69),
    row(3399, 68),
    row(3778, 66),
    row(4177, 65),
    row(4596, 64),
    row(5036, 62),
    row(5497, 61),
    row(5979, 60),
    row(6483, 59),
    row(7009, 58),
    row(7558, 57),
    row(8130, 56),
    row(8726, 55),
    row(9346, 54),
    row(9991, 53),
    row(10661, 52),
    row(11358, 52),
    row(12082, 51),
    row(12834, 50),
    row(13614, 49),
    row(14424, 48),
    row(15265, 48),
    row(16137, 47),
    row(17042, 46),
    row(17981, 45),
    row(18955, 45),
    row(19965, 44),
    row(21013, 43),
    row(22101, 43),
    row(23230, 42),
    row(24402, 41),
    row(25618, 41),
    row(26881, 40),
    row(28193, 39),
    row(29557, 39),
    row(30975, 38),
    row(32450, 38),
    row(33986, 37),
    row(35586, 36),
    row(37253, 36),
    row(38992, 35),
    row(40808, 35),
    row(42707, 34),
    row(44694, 33),
    row(46776, 33),
    row(48961, 32),
    row(51258, 32),
    row(53677, 31),
    row(56230, 30),
    row(58932, 30),
    row(61799, 29),
    row(64851, 28),
    row(68113, 28),
    row(71617, 27),
    row(75401, 26),
    row(79517, 26),
    row(84035, 25),
    row(89053, 24),
];
const DECREASE_SHIFT: u32 = 8; // tcp_highspeed.c hstcp_ssthresh (md is in 1/256 units)
const MIN_SSTHRESH: u32 = 2; // tcp_highspeed.c hstcp_ssthresh floor
const CWND_CLAMP_LIMIT: u32 = 0xffff_ffff / 128; // tcp_highspeed.c hstcp_init (md arithmetic fits u32)

#[derive(Default, Debug, Clone)]
pub struct HighSpeed {
    /// Kernel `ai`: the table row for the current window, so that
    /// `AIMD_TABLE[row - 1].max_cwnd < cwnd ≤ AIMD_TABLE[row].max_cwnd`. Like the kernel it only
    /// moves in congestion avoidance, so a loss in slow start still uses the row it last had.
    row: usize,
}

impl HighSpeed {
    /// Walk the row index up or down to the window, as `hstcp_cong_avoid` does on every ACK.
    fn track_row(&mut self, cwnd: u32) {
        while self.row < AIMD_TABLE.len() - 1 && cwnd > AIMD_TABLE[self.row].max_cwnd {
            self.row += 1;
        }
        while self.row > 0 && cwnd <= AIMD_TABLE[self.row - 1].max_cwnd {
            self.row -= 1;
        }
    }

    /// a(w): packets added per RTT in the current row.
    fn increase_per_rtt(&self) -> u32 {
        self.row as u32 + 1
    }
}

impl CongestionControl for HighSpeed {
    fn init(&mut self, w: &mut Window, _srtt: Option<SimDuration>, _now: SimTime) {
        self.row = 0;
        w.cwnd_clamp = w.cwnd_clamp.min(CWND_CLAMP_LIMIT);
    }

    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> u32 {
        let decrease_x256 = AIMD_TABLE[self.row].decrease_x256 as u64;
        let cut = (w.cwnd as u64 * decrease_x256) >> DECREASE_SHIFT;
        (w.cwnd - cut as u32).max(MIN_SSTHRESH)
    }

    fn cong_avoid(&mut self, w: &mut Window, ack: &AckSample) {
        // The kernel drops the ACKs left over at ssthresh (no `acked` carry into CA).
        if w.avoidance_acks(ack, LeftOver::Drop).is_none() {
            return;
        }
        self.track_row(w.cwnd);
        // Per ACK, not per packet ACKed: the kernel adds a(w) to the counter once per call.
        if w.cwnd < w.cwnd_clamp {
            w.cwnd_cnt = w.cwnd_cnt.saturating_add(self.increase_per_rtt());
            if w.cwnd_cnt >= w.cwnd {
                w.cwnd_cnt -= w.cwnd;
                w.cwnd += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{assert_grows_like_reno, Driver};
    use super::*;

    /// A HighSpeed sender in congestion avoidance at `cwnd`, with its row index in place.
    fn in_avoidance_at(cwnd: u32) -> Driver<HighSpeed> {
        let mut d = Driver::new(HighSpeed::default(), cwnd, Some(2));
        d.w.cwnd_cnt = 0;
        d.cc.track_row(cwnd);
        d
    }

    #[test]
    fn highspeed_table_has_72_rows_with_rising_bounds_and_falling_decrease() {
        assert_eq!(AIMD_TABLE.len(), 72);
        for pair in AIMD_TABLE.windows(2) {
            assert!(pair[0].max_cwnd < pair[1].max_cwnd);
            assert!(pair[0].decrease_x256 >= pair[1].decrease_x256);
        }
        assert_eq!(AIMD_TABLE[0], row(38, 128));
        assert_eq!(AIMD_TABLE[71], row(89053, 24));
    }

    #[test]
    fn highspeed_at_or_below_38_packets_grows_like_reno() {
        let hs = assert_grows_like_reno(HighSpeed::default(), 10, Some(5), SimDuration::from_millis(100), 28);
        assert_eq!(hs.w.cwnd, 38);
        assert_eq!(hs.cc.increase_per_rtt(), 1);
    }

    /// The kernel subtracts ⌊cwnd·128/256⌋, so an odd window keeps the larger half: Reno's
    /// ⌊cwnd/2⌋ for even windows, one packet more for odd ones.
    #[test]
    fn highspeed_at_or_below_38_packets_halves_on_loss() {
        let mut d = in_avoidance_at(30);
        d.ack(1);
        assert_eq!(d.loss(), 15);
        let mut d = in_avoidance_at(37);
        d.ack(1);
        assert_eq!(d.loss(), 19);
    }

    /// a = 8 means one packet per cwnd/8 = 125 ACKs.
    #[test]
    fn highspeed_at_1000_packets_uses_row_7_and_adds_8_per_rtt() {
        let mut d = in_avoidance_at(1000);
        for _ in 0..124 {
            d.ack(1);
        }
        assert_eq!(d.cc.row, 7);
        assert_eq!(d.cc.increase_per_rtt(), 8);
        assert_eq!(d.w.cwnd, 1000);
        d.ack(1);
        assert_eq!(d.w.cwnd, 1001);
    }

    #[test]
    fn highspeed_at_1000_packets_cuts_to_676() {
        let mut d = in_avoidance_at(1000);
        d.ack(1);
        assert_eq!(d.w.cwnd, 1000);
        assert_eq!(d.loss(), 676);
    }

    #[test]
    fn highspeed_above_89053_packets_stays_on_the_last_row() {
        let mut d = in_avoidance_at(100_000);
        d.ack(1);
        assert_eq!(d.cc.row, 71);
        assert_eq!(d.cc.increase_per_rtt(), 72);
        // md = 24/256: 100000 − ⌊100000·24/256⌋ = 100000 − 9375.
        assert_eq!(d.loss(), 90_625);
        // a = 72: the first packet after ⌈100000/72⌉ = 1389 ACKs.
        let mut d = in_avoidance_at(100_000);
        for _ in 0..1388 {
            d.ack(1);
        }
        assert_eq!(d.w.cwnd, 100_000);
        d.ack(1);
        assert_eq!(d.w.cwnd, 100_001);
    }

    #[test]
    fn highspeed_row_index_follows_the_window_down_after_a_loss() {
        let mut d = in_avoidance_at(1000);
        d.ack(1);
        d.w.cwnd = 300;
        d.ack(1);
        assert_eq!(d.cc.row, 3);
        d.w.cwnd = 39;
        d.ack(1);
        assert_eq!(d.cc.row, 1);
        d.w.cwnd = 38;
        d.ack(1);
        assert_eq!(d.cc.row, 0);
    }

    #[test]
    fn highspeed_loss_in_slow_start_halves_because_the_row_only_moves_in_avoidance() {
        let mut d = Driver::new(HighSpeed::default(), 1, None);
        d.ack_rounds(10);
        assert_eq!(d.w.cwnd, 1024);
        assert_eq!(d.loss(), 512);
    }

    #[test]
    fn highspeed_init_clamps_cwnd_so_the_decrease_fits_in_32_bits() {
        let d = Driver::new(HighSpeed::default(), 10, None);
        assert_eq!(d.w.cwnd_clamp, 0xffff_ffff / 128);
        let mut d = in_avoidance_at(CWND_CLAMP_LIMIT);
        d.ack(1);
        assert_eq!(d.w.cwnd, CWND_CLAMP_LIMIT);
    }

    /// w = 0.12 / p^0.835, the RFC 3649 response function.
    fn response_window(p: f64) -> f64 {
        0.12 / p.powf(0.835)
    }

    /// RFC 3649 §5: the response function meets Reno at Low_Window = 38 (p = 10⁻³) and reaches
    /// High_Window = 83000 at High_P = 10⁻⁷. Tolerance 2.5 %: the RFC rounds its parameters
    /// (0.12 / 0.001^0.835 = 38.4, 0.12 / 1e-7^0.835 = 83 981).
    #[test]
    fn highspeed_response_function_passes_38_at_1e_3_and_83000_at_1e_7() {
        assert!((response_window(1e-3) / 38.0 - 1.0).abs() < 0.025);
        assert!((response_window(1e-7) / 83_000.0 - 1.0).abs() < 0.025);
        // The table's first row is Low_Window, and 83 000 falls in the row with b ≈ 0.1.
        assert_eq!(AIMD_TABLE[0].max_cwnd, 38);
        let mut hs = HighSpeed::default();
        hs.track_row(83_000);
        assert_eq!(hs.row, 70);
        assert!((AIMD_TABLE[70].decrease_x256 as f64 / 256.0 - 0.1).abs() < 0.005);
    }

    /// Each row, read as an AIMD flow with increase a and decrease b, has the loss rate
    /// p = a(2 − b) / (2 b w²); the response function at that p must give back the row's window.
    /// Tolerance 4 %: the RFC rounds a(w) to a whole packet and b(w) to 1/256 (worst row 3.1 %).
    #[test]
    fn highspeed_every_table_row_lies_on_the_response_function() {
        for (i, r) in AIMD_TABLE.iter().enumerate() {
            let w = r.max_cwnd as f64;
            let a = i as f64 + 1.0;
            let b = r.decrease_x256 as f64 / 256.0;
            let p = a * (2.0 - b) / (2.0 * b * w * w);
            let err = response_window(p) / w - 1.0;
            assert!(err.abs() < 0.04, "row {i}: w {w}, response {}", response_window(p));
        }
    }

    /// RFC 3649 §5 formulas: b(w) falls log-linearly from 0.5 at 38 to 0.1 at 83000, and
    /// a(w) = w² p(w) 2b(w)/(2 − b(w)) with p(w) = 0.078 / w^1.2. The table is their rounding:
    /// b within 1/256, a within half a packet.
    #[test]
    fn highspeed_table_is_the_rounded_rfc_formulas() {
        let (low, high) = (38f64.ln(), 83_000f64.ln());
        for (i, r) in AIMD_TABLE.iter().enumerate() {
            let w = r.max_cwnd as f64;
            let b = (0.1 - 0.5) * (w.ln() - low) / (high - low) + 0.5;
            assert!((r.decrease_x256 as f64 / 256.0 - b).abs() < 1.0 / 256.0, "row {i}");
            let a = w * w * (0.078 / w.powf(1.2)) * 2.0 * b / (2.0 - b);
            assert!((a - (i as f64 + 1.0)).abs() < 0.5, "row {i}: a(w) = {a}");
        }
    }
}
