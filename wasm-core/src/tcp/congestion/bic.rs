//! BIC (Binary Increase Congestion control): Linux `net/ipv4/tcp_bic.c`; L. Xu, K. Harfoush,
//! I. Rhee, "Binary Increase Congestion Control for Fast, Long Distance Networks", INFOCOM
//! 2004; docs/congestion-control.md §8.
//!
//! After a loss BIC remembers the window it had (W_max) and searches for it: in big linear
//! steps while far below, halving the distance each RTT when close, barely moving around
//! W_max, then probing beyond it in a mirror image. Small windows are left to Reno.
//!
//! Deviation, on purpose: the kernel starts its ACK-ratio estimate `delayed_ack` at 2 packets
//! per ACK (2·16). Its integer update `d += acked − d/16` has every value in [16k, 16k + 15]
//! as a fixed point for k packets per ACK, so with one ACK per packet 32 only decays to 31 and
//! the kernel then grows about twice as fast as the algorithm says. This module starts at one
//! packet per ACK (16) instead, which the same update keeps at 16 for per-packet ACKs and moves
//! to 32 for delayed ACKs.

use super::{AckSample, CaState, CongestionControl, CwndEvent, LeftOver, Window};
use crate::sim::{SimDuration, SimTime};

const SEARCH_DIVISOR: u32 = 4; // tcp_bic.c BICTCP_B (go to (max + min)/B in the binary search)
const MAX_INCREMENT: u32 = 16; // tcp_bic.c max_increment (S_max, packets per RTT)
const LOW_WINDOW: u32 = 14; // tcp_bic.c low_window (Reno at or below this)
const BETA: u32 = 819; // tcp_bic.c beta (0.8 in BETA_SCALE units)
const BETA_SCALE: u32 = 1024; // tcp_bic.c BICTCP_BETA_SCALE
const SMOOTH_PART: u32 = 20; // tcp_bic.c smooth_part (≈ 1/(20/4) = 0.2 packets per RTT near W_max)
const FAST_CONVERGENCE: bool = true; // tcp_bic.c fast_convergence
const NO_LOSS_MAX_CNT: u32 = 20; // tcp_bic.c bictcp_update (≥ 5 % per RTT before any loss)
const ACK_RATIO_SHIFT: u32 = 4; // tcp_bic.c ACK_RATIO_SHIFT (delayed_ack is packets/ACK × 16)
const DELAYED_ACK_INIT: u32 = 1 << ACK_RATIO_SHIFT; // one packet per ACK; kernel uses 2 << 4, see above
const CNT_REFRESH_JIFFIES: u64 = 1000 / 32; // tcp_bic.c HZ/32 at HZ = 1000 (1 jiffy = 1 ms)
const MIN_SSTHRESH: u32 = 2; // tcp_bic.c bictcp_recalc_ssthresh floor
const NANOS_PER_JIFFY: u64 = 1_000_000; // HZ = 1000

/// Where cwnd stands relative to W_max, which decides how fast it grows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Region {
    /// At or below `LOW_WINDOW`: Reno, one packet per RTT.
    Reno,
    /// Far below W_max: `MAX_INCREMENT` packets per RTT.
    LinearBelow,
    /// Up to `MAX_INCREMENT · B` below W_max: a quarter of the gap per RTT.
    BinarySearch { step: u32 },
    /// Less than `2·B` below W_max (a step of at most one packet) or less than `B` above it:
    /// `B / SMOOTH_PART` = 0.2 packets per RTT.
    Plateau,
    /// Just above W_max: slow-start-like probing, (cwnd − W_max)/(B − 1) per RTT.
    MaxProbe { above: u32 },
    /// Far above W_max: linear again. Before any loss W_max is 0, so windows from 15 to 47
    /// packets are in `MaxProbe` (3 ACKs per packet) and larger ones here, capped at 20.
    LinearAbove,
}

impl Region {
    fn of(cwnd: u32, w_max: u32) -> Region {
        if cwnd <= LOW_WINDOW {
            Region::Reno
        } else if cwnd < w_max {
            let step = (w_max - cwnd) / SEARCH_DIVISOR;
            if step > MAX_INCREMENT {
                Region::LinearBelow
            } else if step <= 1 {
                Region::Plateau
            } else {
                Region::BinarySearch { step }
            }
        } else if cwnd < w_max.saturating_add(SEARCH_DIVISOR) {
            Region::Plateau
        } else if cwnd < w_max.saturating_add(MAX_INCREMENT * (SEARCH_DIVISOR - 1)) {
            Region::MaxProbe { above: cwnd - w_max }
        } else {
            Region::LinearAbove
        }
    }

    /// ACKs per one-packet increase, for one packet per ACK (kernel `cnt` before ACK scaling).
    fn acks_per_packet(self, cwnd: u32) -> u64 {
        let cwnd = cwnd as u64;
        match self {
            Region::Reno => cwnd,
            Region::LinearBelow | Region::LinearAbove => cwnd / MAX_INCREMENT as u64,
            Region::BinarySearch { step } => cwnd / step as u64,
            Region::Plateau => cwnd * SMOOTH_PART as u64 / SEARCH_DIVISOR as u64,
            Region::MaxProbe { above } => cwnd * (SEARCH_DIVISOR as u64 - 1) / above as u64,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Bic {
    /// Kernel `cnt`: ACKs per one-packet increase, scaled by the ACK ratio.
    acks_per_packet: u32,
    /// Kernel `last_max_cwnd` (W_max); 0 until the first loss and again after an RTO.
    last_max_cwnd: u32,
    /// The cwnd and jiffy `acks_per_packet` was computed for (kernel `last_cwnd`, `last_time`);
    /// `None` after a reset.
    computed_for: Option<(u32, u64)>,
    /// Kernel `delayed_ack`: packets per ACK × 16, a 1/16 moving average.
    delayed_ack: u32,
}

impl Default for Bic {
    fn default() -> Self {
        Bic { acks_per_packet: 0, last_max_cwnd: 0, computed_for: None, delayed_ack: DELAYED_ACK_INIT }
    }
}

fn jiffies(now: SimTime) -> u64 {
    now.0 / NANOS_PER_JIFFY
}

impl Bic {
    fn reset(&mut self) {
        *self = Bic::default();
    }

    /// Kernel `bictcp_update`: recompute `cnt` when cwnd changed or every HZ/32.
    fn update(&mut self, cwnd: u32, now: SimTime) {
        let now_jiffies = jiffies(now);
        if let Some((last_cwnd, last_jiffies)) = self.computed_for {
            if last_cwnd == cwnd && now_jiffies.saturating_sub(last_jiffies) <= CNT_REFRESH_JIFFIES {
                return;
            }
        }
        self.computed_for = Some((cwnd, now_jiffies));

        let region = Region::of(cwnd, self.last_max_cwnd);
        let mut cnt = region.acks_per_packet(cwnd);
        if self.last_max_cwnd == 0 {
            cnt = cnt.min(NO_LOSS_MAX_CNT as u64);
        }
        cnt = (cnt << ACK_RATIO_SHIFT) / self.delayed_ack.max(1) as u64;
        self.acks_per_packet = cnt.clamp(1, u32::MAX as u64) as u32;
    }
}

impl CongestionControl for Bic {
    fn init(&mut self, _w: &mut Window, _srtt: Option<SimDuration>, _now: SimTime) {
        // tcp_bic.c initial_ssthresh = 0: the stack's ssthresh is left alone.
        self.reset();
    }

    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> u32 {
        let cwnd = w.cwnd;
        self.last_max_cwnd = if FAST_CONVERGENCE && cwnd < self.last_max_cwnd {
            // Give up some bandwidth to a newcomer: remember less than we had.
            ((cwnd as u64 * (BETA_SCALE + BETA) as u64) / (2 * BETA_SCALE) as u64) as u32
        } else {
            cwnd
        };
        let target =
            if cwnd <= LOW_WINDOW { cwnd >> 1 } else { ((cwnd as u64 * BETA as u64) / BETA_SCALE as u64) as u32 };
        target.max(MIN_SSTHRESH)
    }

    fn cong_avoid(&mut self, w: &mut Window, ack: &AckSample) {
        let Some(acked) = w.avoidance_acks(ack, LeftOver::Carry) else { return };
        self.update(w.cwnd, ack.now);
        w.cong_avoid_ai(self.acks_per_packet, acked);
    }

    fn pkts_acked(&mut self, _w: &mut Window, ack: &AckSample, state: CaState) {
        if state == CaState::Open {
            self.delayed_ack =
                self.delayed_ack.saturating_sub(self.delayed_ack >> ACK_RATIO_SHIFT).saturating_add(ack.acked);
        }
    }

    fn set_state(&mut self, _w: &mut Window, new: CaState, _now: SimTime) {
        if new == CaState::Loss {
            self.reset();
        }
    }

    fn cwnd_event(&mut self, _w: &mut Window, ev: CwndEvent, _now: SimTime) {
        // The kernel calls ssthresh() before entering Loss, so an RTO always ends with the
        // state reset. Resetting again on the RTO event gives that result whichever order the
        // stack uses for set_state(Loss) and ssthresh().
        if ev == CwndEvent::Loss {
            self.reset();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{assert_grows_like_reno, Driver};
    use super::*;

    /// BIC in congestion avoidance at `cwnd` after a loss at `w_max`.
    fn after_loss_at(w_max: u32, cwnd: u32) -> Driver<Bic> {
        let mut d = Driver::new(Bic::default(), w_max, Some(2));
        d.loss();
        assert_eq!(d.cc.last_max_cwnd, w_max);
        d.w.cwnd = cwnd;
        d.w.cwnd_cnt = 0;
        d
    }

    /// cwnd growth over one round of single-packet ACKs.
    fn growth_in_one_rtt(d: &mut Driver<Bic>) -> u32 {
        let before = d.w.cwnd;
        d.ack_round();
        d.w.cwnd - before
    }

    #[test]
    fn bic_below_14_packets_is_reno() {
        let bic = assert_grows_like_reno(Bic::default(), 2, Some(6), SimDuration::from_millis(100), 10);
        assert_eq!(bic.w.cwnd, 14);
    }

    #[test]
    fn bic_halves_at_or_below_14_packets() {
        let mut d = Driver::new(Bic::default(), 14, Some(2));
        assert_eq!(d.loss(), 7);
        let mut d = Driver::new(Bic::default(), 3, Some(2));
        assert_eq!(d.loss(), 2);
    }

    /// β = 819/1024 ≈ 0.7998, so ⌊cwnd·819/1024⌋ equals ⌊0.8·cwnd⌋ except where 0.8·cwnd is
    /// (nearly) whole: at 1000 the kernel keeps 799.
    #[test]
    fn bic_above_14_packets_keeps_four_fifths() {
        let mut d = Driver::new(Bic::default(), 101, Some(2));
        assert_eq!(d.loss(), 80);
        let mut d = Driver::new(Bic::default(), 15, Some(2));
        assert_eq!(d.loss(), 11);
        let mut d = Driver::new(Bic::default(), 1000, Some(2));
        assert_eq!(d.loss(), 799);
    }

    #[test]
    fn bic_grows_16_packets_per_rtt_while_the_gap_exceeds_64() {
        // cnt = ⌊cwnd/16⌋ is re-derived after each increase, and by Hermite's identity
        // Σ_{i<16} ⌊(c + i)/16⌋ = c: sixteen increases take exactly the c ACKs of a round.
        // A round starting more than 80 below W_max stays above a gap of 64 throughout (its
        // last ACKs, at gaps 65 to 67, have step ⌊gap/4⌋ = 16: the same cnt).
        let mut d = after_loss_at(2000, 1600);
        let mut rounds = 0;
        while d.cc.last_max_cwnd - d.w.cwnd > 64 + MAX_INCREMENT {
            assert_eq!(growth_in_one_rtt(&mut d), 16, "at cwnd {}", d.w.cwnd);
            rounds += 1;
        }
        assert_eq!(rounds, 20);
    }

    /// The step is ⌊gap/4⌋ and the kernel re-derives it each time cwnd moves, so within one
    /// RTT the gap closes continuously at a quarter of itself per RTT: between
    /// (1 − e^(−1/4)) ≈ 22 % of (gap − 3) (the floor costs up to 3/4 packet of step), less one
    /// for counting whole packets, and 25 % of the gap.
    #[test]
    fn bic_closes_about_a_quarter_of_the_gap_per_rtt_between_8_and_64() {
        let mut d = after_loss_at(1000, 936);
        let mut gap = 64;
        let mut rounds = 0;
        while gap / SEARCH_DIVISOR > 1 {
            let grown = growth_in_one_rtt(&mut d);
            let fraction = 1.0 - (-0.25f64).exp();
            let lower = (gap - 3) as f64 * fraction - 1.0;
            assert!(grown as f64 >= lower && grown <= gap / 4, "gap {gap}: grew {grown}");
            gap = d.cc.last_max_cwnd - d.w.cwnd;
            rounds += 1;
        }
        assert_eq!(rounds, 10);
        // The search hands over to the plateau (⌊gap/4⌋ ≤ 1), short of W_max.
        assert_eq!(gap, 7);
        assert_eq!(Region::of(d.w.cwnd, 1000), Region::Plateau);
    }

    #[test]
    fn bic_plateaus_at_one_fifth_packet_per_rtt_within_4_of_w_max() {
        let mut d = after_loss_at(1000, 996);
        d.ack_rounds(10);
        // cnt = 996·20/4 = 4980 ACKs per packet; ten rounds are 9960 ACKs.
        assert_eq!(d.w.cwnd, 998);
        // Past W_max the plateau continues until cwnd ≥ W_max + 4.
        let mut d = after_loss_at(1000, 1000);
        d.ack_rounds(10);
        assert_eq!(d.w.cwnd, 1002);
    }

    #[test]
    fn bic_probes_slowly_then_linearly_above_w_max() {
        // MaxProbe: 3·cwnd/(cwnd − W_max) ACKs per packet, (cwnd − W_max)/3 packets per RTT.
        // 30 above W_max: 10 per RTT at first, 11 as the distance grows within the RTT.
        let mut d = after_loss_at(1000, 1030);
        assert_eq!(growth_in_one_rtt(&mut d), 11);
        let mut d = after_loss_at(1000, 1100);
        assert_eq!(growth_in_one_rtt(&mut d), 16);
    }

    #[test]
    fn bic_never_adds_more_than_16_packets_per_rtt() {
        // From 800 after a loss at 1000: linear, search, plateau, max probing, linear again.
        let mut d = after_loss_at(1000, 800);
        let mut largest = 0;
        for _ in 0..120 {
            largest = largest.max(growth_in_one_rtt(&mut d));
        }
        assert_eq!(largest, MAX_INCREMENT);
        assert!(d.w.cwnd > 1000 + 48 * 2, "it went through max probing to linear growth");
    }

    #[test]
    fn bic_fast_convergence_remembers_nine_tenths_of_a_smaller_window() {
        let mut d = Driver::new(Bic::default(), 1000, Some(2));
        d.loss();
        assert_eq!(d.w.cwnd, 799);
        d.loss();
        // 799 · (1024 + 819) / 2048 = 719.02 ≈ 0.9 · 799.
        assert_eq!(d.cc.last_max_cwnd, 719);
        assert_eq!(d.w.cwnd, 799 * 819 / 1024);
    }

    #[test]
    fn bic_rto_forgets_w_max() {
        let mut d = Driver::new(Bic::default(), 1000, Some(2));
        d.loss();
        assert_eq!(d.rto(), 639);
        assert_eq!(d.cc.last_max_cwnd, 0);
        d.open();
        // Without W_max the window grows at ≥ 5 % per RTT (cnt ≤ 20): 20 ACKs per packet.
        d.w = Window::new(400, Some(2), 1000);
        for _ in 0..19 {
            d.ack(1);
        }
        assert_eq!(d.w.cwnd, 400);
        d.ack(1);
        assert_eq!(d.w.cwnd, 401);
    }

    #[test]
    fn bic_before_any_loss_grows_at_least_5_percent_per_rtt() {
        let mut d = Driver::new(Bic::default(), 400, Some(2));
        assert_eq!(growth_in_one_rtt(&mut d), 20);
    }

    #[test]
    fn bic_ack_ratio_stays_16_for_per_packet_acks_and_tracks_delayed_acks() {
        let mut d = Driver::new(Bic::default(), 100, Some(2));
        d.ack_rounds(3);
        assert_eq!(d.cc.delayed_ack, 16);
        for _ in 0..200 {
            d.ack(2);
        }
        assert_eq!(d.cc.delayed_ack, 32);
        // The kernel's start value of 2·16 would stay at 31 under per-packet ACKs.
        d.cc.delayed_ack = 32;
        for _ in 0..200 {
            d.ack(1);
        }
        assert_eq!(d.cc.delayed_ack, 31);
    }

    /// Kept from the kernel: `cnt` is divided by the ACK ratio although `cong_avoid_ai` already
    /// counts packets rather than ACKs, so two packets per ACK double the growth per RTT.
    #[test]
    fn bic_ack_ratio_of_two_halves_the_packets_per_increase() {
        let mut d = after_loss_at(2000, 1600);
        d.cc.delayed_ack = 32;
        for _ in 0..50 {
            d.ack(2);
        }
        assert_eq!(d.cc.delayed_ack, 32);
        assert_eq!(d.cc.acks_per_packet, 1600 / 16 / 2);
        assert_eq!(d.w.cwnd, 1602);
    }

    #[test]
    fn bic_ack_ratio_is_only_measured_in_open() {
        let mut d = Driver::new(Bic::default(), 100, Some(2));
        d.state = CaState::Disorder;
        for _ in 0..200 {
            d.ack(3);
        }
        assert_eq!(d.cc.delayed_ack, 16);
    }

    #[test]
    fn bic_recomputes_its_step_every_31_ms_even_at_a_constant_window() {
        let mut d = after_loss_at(1000, 800);
        d.ack(1);
        let first = d.cc.computed_for;
        d.cc.last_max_cwnd = 840; // gap 40 now: binary search, not linear
        d.advance(SimDuration::from_millis(31));
        d.ack(1);
        assert_eq!(d.cc.computed_for, first, "within HZ/32 the cached step stays");
        d.advance(SimDuration::from_millis(1));
        d.ack(1);
        assert_eq!(d.cc.acks_per_packet, 800 / 10);
    }

    #[test]
    fn bic_does_not_grow_when_application_limited() {
        let mut d = after_loss_at(1000, 800);
        d.cwnd_limited = false;
        d.ack_round();
        assert_eq!(d.w.cwnd, 800);
    }

    #[test]
    fn bic_slow_start_doubles_per_rtt() {
        let mut d = Driver::new(Bic::default(), 1, None);
        d.ack_rounds(6);
        assert_eq!(d.w.cwnd, 64);
    }
}
