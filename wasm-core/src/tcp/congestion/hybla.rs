//! TCP Hybla: Linux `net/ipv4/tcp_hybla.c` (current, `srtt_us`-based), after C. Caini and
//! R. Firrincieli, "TCP Hybla: a TCP enhancement for heterogeneous networks", IJSCN 2004.
//! docs/congestion-control.md §4.
//!
//! Every increment is scaled by the normalised RTT `ρ = srtt / RTT₀`, so that a long-RTT flow
//! grows its *rate* like a reference flow with RTT₀: slow start adds `2^ρ − 1` per ACK (×2^ρ per
//! RTT) and congestion avoidance `ρ²/cwnd` per ACK (+ρ² per RTT).
//!
//! Two arithmetics are offered. [`Arithmetic::Kernel`] (the default) is the kernel's: ρ·8 and
//! ρ²·128 fixed point, one increment per ACK event whatever it acknowledges, increments in
//! 1/128 packet. [`Arithmetic::Ideal`] is the paper's real-valued model (increments per acked
//! packet), against which the kernel's quantisation can be compared.
//!
//! Deviation: without an srtt at `init` the kernel latches `minrtt_us = 0` and never recomputes
//! ρ again; here ρ starts at 1 (initial cwnd 1) and the first srtt seen by `cong_avoid` sets it.

use super::{AckSample, CaState, CongestionControl, Window};
use crate::sim::{SimDuration, SimTime};

const RTT0: SimDuration = SimDuration::from_millis(25); // tcp_hybla.c rtt0 = 25 ms (paper RTT₀)
const RHO_3LS_MIN: u32 = 8; // tcp_hybla.c: ρ·8 floored at 8, i.e. ρ ≥ 1
const CENTS_ONE: u32 = 128; // tcp_hybla.c snd_cwnd_cents: increments kept in 1/128 packet
const SS_EXPONENT_CAP: u32 = 16; // tcp_hybla.c: 1 << min(rho, 16U)
const HYBLA_CWND_CLAMP: u32 = 65535; // tcp_hybla.c hybla_init: snd_cwnd_clamp = 65535
/// ≈ 128·2^(i/8): the fractional part of 2^ρ in eighths of ρ (tcp_hybla.c hybla_fraction).
const FRACTIONS: [u32; 8] = [128, 139, 152, 165, 181, 197, 215, 234];
/// Float sums such as 10 × (1/10) can fall one ulp short of a whole packet; this is far below
/// any real increment (≥ 1/65535 packet per ACK at the clamp).
const IDEAL_EPSILON: f64 = 1e-9;

/// Which arithmetic the window growth uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Arithmetic {
    /// The kernel's fixed point (1/8 for ρ, 1/128 for increments, one increment per ACK).
    #[default]
    Kernel,
    /// Real-valued ρ and increments, per acknowledged packet (the paper's model).
    Ideal,
}

/// ρ in the kernel's fixed point, derived from one srtt.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Rho {
    /// ρ·8 (`rho_3ls`), at least 8.
    eighths: u32,
    /// ρ²·128 (`rho2_7ls`).
    squared_128ths: u64,
    /// ρ as a real number, for the ideal arithmetic.
    real: f64,
}

impl Rho {
    fn from_srtt(srtt: Option<SimDuration>) -> Rho {
        let Some(srtt) = srtt else {
            return Rho::from_eighths(RHO_3LS_MIN, 1.0);
        };
        // The kernel divides srtt_us (srtt·8 in µs) by rtt0 in µs.
        let srtt_us_x8 = (srtt.0 / 1_000).saturating_mul(8);
        let rtt0_us = RTT0.0 / 1_000;
        let eighths = u32::try_from(srtt_us_x8 / rtt0_us).unwrap_or(u32::MAX);
        let real = (srtt.0 as f64 / RTT0.0 as f64).max(1.0);
        Rho::from_eighths(eighths.max(RHO_3LS_MIN), real)
    }

    fn from_eighths(eighths: u32, real: f64) -> Rho {
        let squared_128ths = (eighths as u64 * eighths as u64) << 1;
        Rho { eighths, squared_128ths, real }
    }

    /// Integer part of ρ (`ca->rho`).
    fn whole(&self) -> u32 {
        self.eighths >> 3
    }
}

#[derive(Debug, Clone)]
pub struct Hybla {
    arithmetic: Arithmetic,
    rho: Rho,
    /// The lowest srtt seen; ρ is only recomputed when srtt falls below it.
    min_srtt: Option<SimDuration>,
    /// Kernel `snd_cwnd_cents`: fractional increments in 1/128 packet.
    cents: u32,
    /// Ideal arithmetic: fractional packets not yet added.
    fraction: f64,
    /// Kernel `hybla_en`: Hybla only acts in Open; elsewhere (after an RTO) it is Reno.
    enabled: bool,
}

impl Default for Hybla {
    fn default() -> Self {
        Hybla::new(Arithmetic::Kernel)
    }
}

impl Hybla {
    pub fn new(arithmetic: Arithmetic) -> Hybla {
        Hybla { arithmetic, rho: Rho::from_srtt(None), min_srtt: None, cents: 0, fraction: 0.0, enabled: true }
    }

    /// ρ as the module currently uses it (real-valued in the ideal arithmetic, ρ·8/8 in the
    /// kernel's).
    pub fn rho(&self) -> f64 {
        match self.arithmetic {
            Arithmetic::Kernel => self.rho.eighths as f64 / 8.0,
            Arithmetic::Ideal => self.rho.real,
        }
    }

    fn kernel_increase(&mut self, w: &mut Window) {
        let odd_eighths = (self.rho.eighths - (self.rho.whole() << 3)) as usize;
        let slow_start = w.in_slow_start();
        let increment: u64 = if slow_start {
            let power = 1u64 << self.rho.whole().min(SS_EXPONENT_CAP);
            power * FRACTIONS[odd_eighths.min(FRACTIONS.len() - 1)] as u64 - CENTS_ONE as u64
        } else {
            let inc = self.rho.squared_128ths / w.cwnd.max(1) as u64;
            if inc < CENTS_ONE as u64 {
                // Counts ACKs without a whole-packet increase, for the Reno-like fallback.
                w.cwnd_cnt = w.cwnd_cnt.saturating_add(1);
            }
            inc
        };
        let whole = u32::try_from(increment >> 7).unwrap_or(u32::MAX);
        let odd = (increment % CENTS_ONE as u64) as u32;
        w.cwnd = w.cwnd.saturating_add(whole);
        self.cents += odd;
        while self.cents >= CENTS_ONE {
            w.cwnd = w.cwnd.saturating_add(1);
            self.cents -= CENTS_ONE;
            w.cwnd_cnt = 0;
        }
        // Above cwnd = 128·ρ² the CA increment rounds to zero; fall back to +1 per cwnd ACKs.
        if increment == 0 && w.cwnd_cnt >= w.cwnd {
            w.cwnd = w.cwnd.saturating_add(1);
            w.cwnd_cnt = 0;
        }
        if slow_start {
            w.cwnd = w.cwnd.min(w.ssthresh);
        }
    }

    fn ideal_increase(&mut self, w: &mut Window, acked: u32) {
        let rho = self.rho.real;
        let slow_start = w.in_slow_start();
        let increment = if slow_start {
            (rho.exp2() - 1.0) * acked as f64
        } else {
            rho * rho * acked as f64 / w.cwnd.max(1) as f64
        }
        .min(u32::MAX as f64); // 2^ρ overflows to infinity for ρ above ~1000
        self.fraction += increment;
        let whole = (self.fraction + IDEAL_EPSILON).floor();
        if whole >= 1.0 {
            self.fraction = (self.fraction - whole).max(0.0);
            let whole = if whole >= u32::MAX as f64 { u32::MAX } else { whole as u32 };
            w.cwnd = w.cwnd.saturating_add(whole);
        }
        if slow_start && w.cwnd >= w.ssthresh {
            w.cwnd = w.ssthresh;
            self.fraction = 0.0;
        }
    }
}

impl CongestionControl for Hybla {
    fn init(&mut self, w: &mut Window, srtt: Option<SimDuration>, _now: SimTime) {
        *self = Hybla::new(self.arithmetic);
        w.cwnd_clamp = w.cwnd_clamp.min(HYBLA_CWND_CLAMP);
        self.rho = Rho::from_srtt(srtt);
        self.min_srtt = srtt;
        // The kernel overrides the stack's initial window with ⌊ρ⌋ in both arithmetics.
        w.cwnd = self.rho.whole().clamp(1, w.cwnd_clamp.max(1));
    }

    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> u32 {
        w.reno_ssthresh()
    }

    fn set_state(&mut self, _w: &mut Window, new: CaState, _now: SimTime) {
        self.enabled = new == CaState::Open;
    }

    fn cong_avoid(&mut self, w: &mut Window, ack: &AckSample) {
        if let Some(srtt) = ack.srtt {
            if self.min_srtt.is_none_or(|min| srtt < min) {
                self.rho = Rho::from_srtt(Some(srtt));
                self.min_srtt = Some(srtt);
            }
        }
        if !ack.cwnd_limited {
            return;
        }
        if !self.enabled {
            w.reno_cong_avoid(ack.acked);
            return;
        }
        match self.arithmetic {
            Arithmetic::Kernel => self.kernel_increase(w),
            Arithmetic::Ideal => self.ideal_increase(w, ack.acked),
        }
        w.cwnd = w.cwnd.clamp(1, w.cwnd_clamp.max(1));
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{assert_grows_like_reno, Driver};
    use super::*;

    fn ms(v: u64) -> SimDuration {
        SimDuration::from_millis(v)
    }

    #[test]
    fn init_sets_cwnd_to_the_integer_part_of_rho() {
        let d = Driver::with_rtt(Hybla::default(), 10, None, ms(600));
        assert_eq!(d.w.cwnd, 24);
        let d = Driver::with_rtt(Hybla::default(), 10, None, ms(25));
        assert_eq!(d.w.cwnd, 1);
        // 110 ms is ρ = 4.4: the window takes the integer part.
        let d = Driver::with_rtt(Hybla::default(), 10, None, ms(110));
        assert_eq!(d.w.cwnd, 4);
        assert_eq!(d.w.cwnd_clamp, 65535);
    }

    #[test]
    fn init_without_srtt_starts_at_rho_one_and_learns_rho_from_the_first_srtt() {
        let mut d = Driver::with_rtt(Hybla::default(), 10, None, ms(100));
        let now = d.now;
        d.cc.init(&mut d.w, None, now);
        assert_eq!(d.w.cwnd, 1);
        assert_eq!(d.cc.rho(), 1.0);
        d.ack(1);
        assert_eq!(d.cc.rho(), 4.0, "the first srtt (100 ms) sets ρ");
        assert_eq!(d.w.cwnd, 16, "and that ACK already grows by 2^4 − 1");
    }

    #[test]
    fn rho_is_floored_at_one_for_rtts_below_rtt0() {
        let d = Driver::with_rtt(Hybla::default(), 10, None, ms(10));
        assert_eq!(d.cc.rho(), 1.0);
        let d = Driver::with_rtt(Hybla::new(Arithmetic::Ideal), 10, None, ms(10));
        assert_eq!(d.cc.rho(), 1.0);
        assert_eq!(d.w.cwnd, 1);
    }

    #[test]
    fn rho_four_slow_start_adds_fifteen_per_ack_and_multiplies_by_sixteen_per_rtt() {
        let mut d = Driver::with_rtt(Hybla::default(), 10, None, ms(100));
        assert_eq!(d.w.cwnd, 4);
        d.ack(1);
        assert_eq!(d.w.cwnd, 19);
        let mut d = Driver::with_rtt(Hybla::default(), 10, None, ms(100));
        d.ack_round();
        assert_eq!(d.w.cwnd, 64);
        d.ack_round();
        assert_eq!(d.w.cwnd, 1024);
    }

    #[test]
    fn fractional_rho_uses_the_two_to_the_eighths_table_in_slow_start() {
        // 110 ms ⇒ ρ·8 = 35 ⇒ ρ = 4 + 3/8; increment = 16·165 − 128 = 2512/128 = 19 + 80/128.
        let mut d = Driver::with_rtt(Hybla::default(), 10, None, ms(110));
        d.w.cwnd = 10;
        d.ack(1);
        assert_eq!(d.w.cwnd, 29);
        d.ack(1);
        assert_eq!(d.w.cwnd, 49, "two carries of 80/128 make one packet");
    }

    #[test]
    fn slow_start_is_clamped_at_ssthresh() {
        let mut d = Driver::with_rtt(Hybla::default(), 10, Some(30), ms(100));
        d.w.cwnd = 20;
        d.ack(1);
        assert_eq!(d.w.cwnd, 30);
    }

    #[test]
    fn rho_four_congestion_avoidance_adds_sixteen_per_rtt() {
        // Kernel: +⌊2048/cwnd⌋/128 per ACK: at cwnd 1024 that is 2/128, one packet per 64 ACKs.
        let mut d = Driver::with_rtt(Hybla::default(), 10, Some(100), ms(100));
        d.w.cwnd = 1024;
        for _ in 0..63 {
            d.ack(1);
        }
        assert_eq!(d.w.cwnd, 1024);
        d.ack(1);
        assert_eq!(d.w.cwnd, 1025);
        // Kernel, one RTT at cwnd 300: ⌊2048/c⌋ = 6 for the whole round (c ≤ 341), so the round
        // adds ⌊300·6/128⌋ = 14, not 16: the floor drops 0.83 of 6.83 per ACK.
        let mut d = Driver::with_rtt(Hybla::default(), 10, Some(100), ms(100));
        d.w.cwnd = 300;
        d.ack_round();
        assert_eq!(d.w.cwnd, 314);
        // Ideal: +16/cwnd per ACK. Σ 16/c over 1000 ACKs while c climbs 1000 → 1016 is 15.9,
        // so the window lands on 1015, not 1016.
        let mut d = Driver::with_rtt(Hybla::new(Arithmetic::Ideal), 10, Some(100), ms(100));
        d.w.cwnd = 1000;
        d.ack_round();
        assert_eq!(d.w.cwnd, 1015);
        d.ack_round();
        assert_eq!(d.w.cwnd, 1031, "the carried fraction completes the 16 of the first round");
    }

    #[test]
    fn kernel_quantisation_needs_128_acks_per_packet_at_rho_one_and_cwnd_100() {
        let mut d = Driver::with_rtt(Hybla::default(), 10, Some(50), ms(25));
        d.w.cwnd = 100;
        for _ in 0..127 {
            d.ack(1);
        }
        assert_eq!(d.w.cwnd, 100);
        d.ack(1);
        assert_eq!(d.w.cwnd, 101);
    }

    #[test]
    fn kernel_falls_back_to_one_packet_per_cwnd_acks_above_128_rho_squared() {
        let mut d = Driver::with_rtt(Hybla::default(), 10, Some(50), ms(25));
        // ⌊128/200⌋ = 0: each ACK only counts, and the cwnd-th ACK adds one packet, as Reno.
        d.w.cwnd = 200;
        for _ in 0..199 {
            d.ack(1);
        }
        assert_eq!(d.w.cwnd, 200);
        d.ack(1);
        assert_eq!(d.w.cwnd, 201);
        assert_eq!(d.w.cwnd_cnt, 0);
    }

    #[test]
    fn hybla_with_rtt0_equals_reno() {
        // Ideal arithmetic, ρ = 1: slow start and congestion avoidance match Reno ACK for ACK.
        let hybla = assert_grows_like_reno(Hybla::new(Arithmetic::Ideal), 1, Some(40), ms(25), 30);
        assert!(hybla.w.cwnd > 50, "the comparison reached congestion avoidance");
        // The kernel arithmetic matches Reno in slow start (2·128 − 128 = one packet per ACK).
        assert_grows_like_reno(Hybla::default(), 1, None, ms(25), 8);
    }

    #[test]
    fn ideal_cwnd_over_rtt_is_independent_of_rtt_in_congestion_avoidance() {
        // Same rate cwnd/RTT = 40 000 pkt/s at the start; after 6 s (60 and 10 rounds) the
        // rates agree to 1 %: the residue is each flow's in-round growth (Σ ρ²/c < ρ² per round),
        // which is relatively larger for the larger ρ (0.6 % here).
        let mut short = Driver::with_rtt(Hybla::new(Arithmetic::Ideal), 10, Some(2), ms(100));
        let mut long = Driver::with_rtt(Hybla::new(Arithmetic::Ideal), 10, Some(2), ms(600));
        short.w.cwnd = 4_000;
        long.w.cwnd = 24_000;
        short.ack_rounds(60);
        long.ack_rounds(10);
        let short_rate = short.w.cwnd as f64 / 0.1;
        let long_rate = long.w.cwnd as f64 / 0.6;
        assert!(short_rate > 45_000.0, "both grew: {short_rate}");
        assert!((short_rate - long_rate).abs() / short_rate < 0.01, "{short_rate} vs {long_rate}");
    }

    #[test]
    fn rho_only_decreases_when_srtt_falls_below_its_minimum() {
        let mut d = Driver::with_rtt(Hybla::default(), 10, None, ms(100));
        d.rtt = ms(200);
        d.ack(1);
        assert_eq!(d.cc.rho(), 4.0, "a larger srtt leaves ρ alone");
        d.rtt = ms(50);
        d.ack(1);
        assert_eq!(d.cc.rho(), 2.0);
    }

    #[test]
    fn outside_open_it_grows_like_reno() {
        let mut d = Driver::with_rtt(Hybla::default(), 10, None, ms(100));
        d.w.cwnd = 40;
        assert_eq!(d.rto(), 20);
        assert_eq!(d.w.cwnd, 1);
        d.ack(1);
        assert_eq!(d.w.cwnd, 2, "Reno slow start in Loss, not +15");
        d.open();
        d.ack(1);
        assert_eq!(d.w.cwnd, 17);
    }

    #[test]
    fn loss_halves_like_reno() {
        let mut d = Driver::with_rtt(Hybla::default(), 10, None, ms(100));
        d.w.cwnd = 81;
        assert_eq!(d.loss(), 40);
    }

    #[test]
    fn cwnd_never_exceeds_the_clamp_even_with_huge_rho() {
        let mut d = Driver::with_rtt(Hybla::default(), 10, None, ms(60_000));
        assert_eq!(d.w.cwnd, 2400, "ρ = 2400");
        d.ack(1);
        assert_eq!(d.w.cwnd, 65535, "2^16·128 − 128 per ACK, clamped");
        let mut d = Driver::with_rtt(Hybla::new(Arithmetic::Ideal), 10, None, ms(60_000));
        d.w.cwnd = 3;
        d.ack(1);
        assert_eq!(d.w.cwnd, 65535);
    }
}
