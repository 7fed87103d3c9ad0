//! H-TCP: Linux `net/ipv4/tcp_htcp.c`, after D. Leith and R. Shorten, "H-TCP: TCP for
//! high-speed and long-distance networks", PFLDnet 2004, and draft-leith-tcp-htcp-06.
//! docs/congestion-control.md §5.
//!
//! AIMD whose additive increase grows with the time Δ since the last congestion event,
//! `α(Δ) = 1 + 10(Δ − Δ_L) + ((Δ − Δ_L)/2)²` beyond Δ_L = 1 s, applied as `2(1 − β)·α(Δ)` so that
//! it stays Reno-friendly, and whose backoff β = RTT_min/RTT_max (clamped to [0.5, 0.8]) just
//! drains the queue it built.
//!
//! Kernel-faithful: α and β in 1/128, α's factor in integer jiffies (HZ = 1000, i.e. ms) with
//! the kernel's RTT scaling `⌊8·factor / clamp(⌊800/minRTT_ms⌋, 4, 80)⌋`, RTTs rounded up to whole
//! ms, the ±20 % throughput switch that falls back to β = 0.5, and Δ measured from the end of
//! the last congestion episode (the return to Open).
//!
//! Deviations: the kernel computes α's factor in 32 bits, which wraps for Δ beyond about 131 s;
//! here it is 64-bit and saturating. The kernel's `minB` is never read and is left out. The
//! throughput clock starts at `init` rather than at jiffy 0 (the kernel's first sample is
//! discarded either way, within three minRTTs of the start).

use super::{AckSample, CaState, CongestionControl, LeftOver, Window};
use crate::sim::{SimDuration, SimTime};

const ONE: u64 = 1 << 7; // tcp_htcp.c ALPHA_BASE: 1.0 in the << 7 fixed point
const BETA_MIN: u64 = 1 << 6; // tcp_htcp.c BETA_MIN: 0.5
const BETA_MAX: u64 = 102; // tcp_htcp.c BETA_MAX: 102/128 = 0.797 (draft: 0.8)
const DELTA_L_MS: u64 = 1000; // tcp_htcp.c: diff > HZ, draft Δ_L = 1 s
const HZ: u64 = 1000; // jiffies per second; the kernel's HZ = 1000 makes one jiffy 1 ms
const MAX_RTT_SPIKE_MS: u32 = 20; // tcp_htcp.c measure_rtt: maxRTT follows samples ≤ maxRTT + 20 ms
const MIN_RTT_FOR_ADAPTIVE_MS: u32 = 10; // tcp_htcp.c htcp_beta_update: minRTT > 10 ms
const RTT_SCALE_MIN: u64 = 4; // tcp_htcp.c: scale clamped to [1 << 2, 10 << 3], i.e. ×2 …
const RTT_SCALE_MAX: u64 = 80; // … down to ×0.1 of the unscaled factor
const MAX_RTT_FADE_PERCENT: u32 = 95; // tcp_htcp.c htcp_param_update: 95 % of the excess is kept
const BACKOFFS_BEFORE_TRACKING: u64 = 3; // tcp_htcp.c: within 3 minRTTs of a backoff, reset Bi

/// Whether the next congestion event may use the adaptive backoff (kernel `modeswitch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BackoffMode {
    /// β = 0.5; the next event with steady throughput switches to adaptive.
    Conservative,
    /// β = minRTT/maxRTT, clamped.
    Adaptive,
}

/// What a spurious congestion event would restore (kernel `undo_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct UndoState {
    last_congestion_ms: u64,
    max_rtt_ms: u32,
    old_max_bandwidth: u32,
}

#[derive(Debug, Clone)]
pub struct Htcp {
    /// Additive increase per RTT, << 7.
    alpha: u64,
    /// Multiplicative decrease factor, << 7.
    beta: u64,
    backoff_mode: BackoffMode,
    /// Packets the last ACK in Open acknowledged (kernel `pkts_acked`), 1 once used.
    last_acked: u32,
    /// Packets counted towards the next throughput sample.
    packet_count: u32,
    last_sample_ms: u64,
    /// 0 until the first sample, as in the kernel.
    min_rtt_ms: u32,
    max_rtt_ms: u32,
    /// Start of the current congestion-free period, ms.
    last_congestion_ms: u64,
    /// Set while a congestion episode is in progress.
    undo: Option<UndoState>,
    /// Smoothed and maximum throughput, packets per second (kernel `Bi`, `maxB`, `old_maxB`).
    bandwidth: u32,
    max_bandwidth: u32,
    old_max_bandwidth: u32,
}

impl Default for Htcp {
    fn default() -> Self {
        Htcp {
            alpha: ONE,
            beta: BETA_MIN,
            backoff_mode: BackoffMode::Conservative,
            last_acked: 1,
            packet_count: 0,
            last_sample_ms: 0,
            min_rtt_ms: 0,
            max_rtt_ms: 0,
            last_congestion_ms: 0,
            undo: None,
            bandwidth: 0,
            max_bandwidth: 0,
            old_max_bandwidth: 0,
        }
    }
}

fn jiffies(t: SimTime) -> u64 {
    t.0 / 1_000_000
}

/// Kernel `usecs_to_jiffies` at HZ = 1000: whole ms, rounded up.
fn rtt_jiffies(d: SimDuration) -> u32 {
    u32::try_from(d.0.div_ceil(1_000_000)).unwrap_or(u32::MAX)
}

/// The kernel's integer α(Δ): 1 up to Δ_L, then `1 + ⌊(10·d + ⌊d/2⌋²/HZ)/HZ⌋` with d = Δ − Δ_L
/// in ms.
fn alpha_factor(since_congestion_ms: u64) -> u64 {
    if since_congestion_ms <= DELTA_L_MS {
        return 1;
    }
    let d = since_congestion_ms - DELTA_L_MS;
    let half = d / 2;
    let quadratic = half.saturating_mul(half) / HZ;
    1 + d.saturating_mul(10).saturating_add(quadratic) / HZ
}

/// The kernel's RTT scaling: `factor · clamp(minRTT/100 ms, 0.1, 2)` in its integer form, never 0.
fn rtt_scaled(factor: u64, min_rtt_ms: u32) -> u64 {
    if min_rtt_ms == 0 {
        return factor;
    }
    let scale = ((HZ << 3) / (10 * min_rtt_ms as u64)).clamp(RTT_SCALE_MIN, RTT_SCALE_MAX);
    (factor.saturating_mul(8) / scale).max(1)
}

/// β = minRTT/maxRTT in 1/128, clamped to [0.5, 0.797].
fn adaptive_beta(min_rtt_ms: u32, max_rtt_ms: u32) -> u64 {
    ((u64::from(min_rtt_ms) << 7) / u64::from(max_rtt_ms.max(1))).clamp(BETA_MIN, BETA_MAX)
}

impl Htcp {
    /// α as a real number (packets per RTT).
    pub fn alpha(&self) -> f64 {
        self.alpha as f64 / ONE as f64
    }

    /// β as a real number.
    pub fn beta(&self) -> f64 {
        self.beta as f64 / ONE as f64
    }

    fn since_congestion_ms(&self, now_ms: u64) -> u64 {
        now_ms.saturating_sub(self.last_congestion_ms)
    }

    fn update_alpha(&mut self, now_ms: u64) {
        let factor = alpha_factor(self.since_congestion_ms(now_ms));
        let factor = rtt_scaled(factor, self.min_rtt_ms);
        self.alpha = (2 * factor).saturating_mul(ONE - self.beta);
        if self.alpha == 0 {
            self.alpha = ONE;
        }
    }

    fn update_beta(&mut self) {
        let max_b = u64::from(self.max_bandwidth);
        let old_max_b = u64::from(self.old_max_bandwidth);
        self.old_max_bandwidth = self.max_bandwidth;
        // Throughput moved by more than ±20 %: the path changed, back off conservatively.
        if !(4 * old_max_b <= 5 * max_b && 5 * max_b <= 6 * old_max_b) {
            self.beta = BETA_MIN;
            self.backoff_mode = BackoffMode::Conservative;
            return;
        }
        match self.backoff_mode {
            BackoffMode::Adaptive if self.min_rtt_ms > MIN_RTT_FOR_ADAPTIVE_MS && self.max_rtt_ms > 0 => {
                self.beta = adaptive_beta(self.min_rtt_ms, self.max_rtt_ms);
            }
            _ => {
                self.beta = BETA_MIN;
                self.backoff_mode = BackoffMode::Adaptive;
            }
        }
    }

    /// Kernel `htcp_param_update`, run at each congestion event.
    fn update_parameters(&mut self, now_ms: u64) {
        self.update_beta();
        self.update_alpha(now_ms);
        // Slowly forget maxRTT, to follow routing changes.
        if self.min_rtt_ms > 0 && self.max_rtt_ms > self.min_rtt_ms {
            let excess = (self.max_rtt_ms - self.min_rtt_ms) as u64;
            self.max_rtt_ms = self.min_rtt_ms + (excess * MAX_RTT_FADE_PERCENT as u64 / 100) as u32;
        }
    }

    fn measure_rtt(&mut self, rtt_ms: u32, state: CaState) {
        if self.min_rtt_ms == 0 || self.min_rtt_ms > rtt_ms {
            self.min_rtt_ms = rtt_ms;
        }
        if state == CaState::Open {
            self.max_rtt_ms = self.max_rtt_ms.max(self.min_rtt_ms);
            if self.max_rtt_ms < rtt_ms && rtt_ms <= self.max_rtt_ms + MAX_RTT_SPIKE_MS {
                self.max_rtt_ms = rtt_ms;
            }
        }
    }

    fn measure_throughput(&mut self, w: &Window, acked: u32, state: CaState, now_ms: u64) {
        if !matches!(state, CaState::Open | CaState::Disorder) {
            self.packet_count = 0;
            self.last_sample_ms = now_ms;
            return;
        }
        self.packet_count = self.packet_count.saturating_add(acked);
        let whole_alpha = u32::try_from(self.alpha >> 7).unwrap_or(u32::MAX).max(1);
        // The kernel's u32 `cwnd − α` wraps when α exceeds cwnd, which never fires.
        let window_done = w.cwnd.checked_sub(whole_alpha).is_some_and(|t| self.packet_count >= t);
        let elapsed = now_ms.saturating_sub(self.last_sample_ms);
        if !window_done || self.min_rtt_ms == 0 || elapsed < u64::from(self.min_rtt_ms) {
            return;
        }
        let current = u32::try_from(u64::from(self.packet_count) * HZ / elapsed.max(1)).unwrap_or(u32::MAX);
        let min_rtts_since_backoff = self.since_congestion_ms(now_ms) / u64::from(self.min_rtt_ms);
        if min_rtts_since_backoff <= BACKOFFS_BEFORE_TRACKING {
            self.bandwidth = current;
            self.max_bandwidth = current;
        } else {
            self.bandwidth = ((3 * u64::from(self.bandwidth) + u64::from(current)) / 4) as u32;
            self.max_bandwidth = self.max_bandwidth.max(self.bandwidth);
        }
        self.packet_count = 0;
        self.last_sample_ms = now_ms;
    }
}

impl CongestionControl for Htcp {
    fn init(&mut self, _w: &mut Window, _srtt: Option<SimDuration>, now: SimTime) {
        *self = Htcp { last_congestion_ms: jiffies(now), last_sample_ms: jiffies(now), ..Htcp::default() };
    }

    fn ssthresh(&mut self, w: &Window, now: SimTime) -> u32 {
        self.update_parameters(jiffies(now));
        let reduced = (u64::from(w.cwnd) * self.beta) >> 7;
        (reduced as u32).max(2)
    }

    fn cong_avoid(&mut self, w: &mut Window, ack: &AckSample) {
        // The kernel drops the ACKs left over at ssthresh (no `acked` carry into CA).
        if w.avoidance_acks(ack, LeftOver::Drop).is_none() {
            return;
        }
        if (u64::from(w.cwnd_cnt).saturating_mul(self.alpha) >> 7) >= u64::from(w.cwnd) {
            if w.cwnd < w.cwnd_clamp {
                w.cwnd += 1;
            }
            w.cwnd_cnt = 0;
            self.update_alpha(jiffies(ack.now));
        } else {
            w.cwnd_cnt = w.cwnd_cnt.saturating_add(self.last_acked);
        }
        self.last_acked = 1;
    }

    fn pkts_acked(&mut self, w: &mut Window, ack: &AckSample, state: CaState) {
        if state == CaState::Open {
            self.last_acked = ack.acked;
        }
        if let Some(rtt) = ack.rtt.filter(|r| r.0 > 0) {
            self.measure_rtt(rtt_jiffies(rtt), state);
        }
        self.measure_throughput(w, ack.acked, state, jiffies(ack.now));
    }

    fn set_state(&mut self, _w: &mut Window, new: CaState, now: SimTime) {
        match new {
            CaState::Open => {
                if self.undo.take().is_some() {
                    self.last_congestion_ms = jiffies(now);
                }
            }
            CaState::Recovery | CaState::Loss => {
                self.undo = Some(UndoState {
                    last_congestion_ms: self.last_congestion_ms,
                    max_rtt_ms: self.max_rtt_ms,
                    old_max_bandwidth: self.old_max_bandwidth,
                });
                self.last_congestion_ms = jiffies(now);
            }
            CaState::Disorder => {}
        }
    }

    fn undo_cwnd(&mut self, w: &Window) -> u32 {
        if let Some(undo) = self.undo.take() {
            self.last_congestion_ms = undo.last_congestion_ms;
            self.max_rtt_ms = undo.max_rtt_ms;
            self.old_max_bandwidth = undo.old_max_bandwidth;
        }
        w.cwnd.max(w.prior_cwnd)
    }
}

#[cfg(test)]
mod tests {
    use super::super::reno::Reno;
    use super::super::testing::Driver;
    use super::*;

    fn ms(v: u64) -> SimDuration {
        SimDuration::from_millis(v)
    }

    #[test]
    fn alpha_factor_is_one_up_to_one_second() {
        assert_eq!(alpha_factor(0), 1);
        assert_eq!(alpha_factor(1000), 1);
        assert_eq!(alpha_factor(1001), 1);
    }

    #[test]
    fn alpha_factor_is_eleven_at_two_seconds_and_twenty_two_at_three() {
        // Ideal α(2 s) = 1 + 10 + 0.25 = 11.25: the kernel's integer division keeps 11.
        assert_eq!(alpha_factor(2000), 11);
        // α(3 s) = 1 + 20 + 1 = 22 exactly.
        assert_eq!(alpha_factor(3000), 22);
    }

    #[test]
    fn rtt_scaling_doubles_at_600_ms_halves_at_50_ms_and_is_neutral_at_100_ms() {
        assert_eq!(rtt_scaled(11, 600), 22);
        assert_eq!(rtt_scaled(11, 200), 22, "the ×2 cap starts at 200 ms");
        assert_eq!(rtt_scaled(22, 50), 11);
        assert_eq!(rtt_scaled(11, 50), 5, "⌊11·8/16⌋");
        assert_eq!(rtt_scaled(11, 100), 11);
        assert_eq!(rtt_scaled(1, 1), 1, "×0.1 of 1 is floored at 1");
        assert_eq!(rtt_scaled(100, 5), 10, "×0.1 floor for very short RTTs");
    }

    #[test]
    fn beta_is_min_over_max_rtt_clamped_to_half_and_0_8() {
        // 500/550 = 0.909 → 102/128.
        assert_eq!(adaptive_beta(500, 550), BETA_MAX);
        // 100/300 = 0.33 → 0.5.
        assert_eq!(adaptive_beta(100, 300), BETA_MIN);
        assert_eq!(adaptive_beta(300, 400), 96, "0.75 inside the range");
    }

    #[test]
    fn within_one_second_of_congestion_it_grows_like_reno() {
        // α = 2·1·(1 − 0.5) = 1. The kernel tests cwnd_cnt·α before counting the ACK, so each
        // increment takes cwnd + 1 ACKs against Reno's cwnd: at most one packet behind Reno
        // over these 9 RTTs.
        let mut htcp = Driver::new(Htcp::default(), 20, Some(10));
        let mut reno = Driver::new(Reno, 20, Some(10));
        for _ in 0..9 {
            htcp.ack_round();
            reno.ack_round();
            assert_eq!(htcp.cc.alpha(), 1.0);
            assert!(reno.w.cwnd - htcp.w.cwnd <= 1, "{} vs {}", htcp.w.cwnd, reno.w.cwnd);
        }
        assert_eq!(reno.w.cwnd, 29);
    }

    #[test]
    fn alpha_after_two_seconds_is_eleven_and_scaled_by_rtt() {
        for (rtt, expected) in [(100, 11.0), (600, 22.0), (50, 5.0)] {
            let mut d = Driver::with_rtt(Htcp::default(), 100, Some(50), ms(rtt));
            d.ack(1);
            d.loss();
            // Two seconds after the end of recovery, the next increment recomputes α.
            d.advance(ms(2000));
            d.w.cwnd_cnt = d.w.cwnd;
            d.ack(1);
            assert_eq!(d.cc.alpha(), expected, "RTT {rtt} ms");
        }
    }

    #[test]
    fn growth_accelerates_with_time_since_congestion() {
        let mut d = Driver::new(Htcp::default(), 100, Some(50));
        d.ack_rounds(10);
        let first_second = d.w.cwnd;
        d.ack_rounds(20);
        let before_third = d.w.cwnd;
        d.ack_rounds(10);
        let third_second = d.w.cwnd - before_third;
        assert!(first_second - 100 <= 10, "≈ 1 packet per RTT in the first second");
        assert!(third_second > 100, "α ≈ 11–22 during the third second: {third_second}");
    }

    #[test]
    fn first_congestion_event_uses_beta_one_half() {
        // minRTT 500 ms, maxRTT 550 ms would give the adaptive 0.8, but the first event is 0.5.
        let mut d = Driver::with_rtt(Htcp::default(), 100, Some(50), ms(500));
        d.ack_round();
        for rtt in [520, 540, 550] {
            d.rtt = ms(rtt);
            d.ack_round();
        }
        assert_eq!(d.cc.max_rtt_ms, 550);
        let cwnd = d.w.cwnd;
        assert_eq!(d.loss(), cwnd / 2);
    }

    /// Congestion-avoidance rounds at a fixed window and RTT (a saturated path: the window
    /// regrows to the same size after each backoff), then a loss; returns the new ssthresh.
    fn steady_cycle(d: &mut Driver<Htcp>, rounds: u32) -> u32 {
        for _ in 0..rounds {
            d.w.cwnd = 100;
            d.ack_round();
        }
        d.w.cwnd = 100;
        d.loss()
    }

    #[test]
    fn with_steady_throughput_the_third_event_backs_off_by_min_over_max_rtt() {
        let mut d = Driver::with_rtt(Htcp::default(), 100, Some(50), ms(500));
        d.ack_round();
        for rtt in [520, 540, 550] {
            d.rtt = ms(rtt);
            d.ack_round();
        }
        assert_eq!(steady_cycle(&mut d, 10), 50, "first event: no previous throughput");
        assert_eq!(steady_cycle(&mut d, 10), 50, "second: throughput steady, switch armed");
        assert_eq!(steady_cycle(&mut d, 10), 100 * 102 / 128, "third: 500/550 clamped to 0.8");
        assert_eq!(d.cc.beta(), 102.0 / 128.0);
    }

    #[test]
    fn adaptive_backoff_is_floored_at_one_half() {
        let mut d = Driver::with_rtt(Htcp::default(), 100, Some(50), ms(100));
        d.ack_round();
        for rtt in (120..=300).step_by(20) {
            d.rtt = ms(rtt);
            d.ack_round();
        }
        for _ in 0..2 {
            steady_cycle(&mut d, 10);
        }
        assert_eq!(steady_cycle(&mut d, 10), 50, "100/300 = 0.33 clamped to 0.5");
    }

    #[test]
    fn a_throughput_change_beyond_twenty_percent_resets_to_one_half() {
        let mut d = Driver::with_rtt(Htcp::default(), 100, Some(50), ms(500));
        d.ack_round();
        for rtt in [520, 540, 550] {
            d.rtt = ms(rtt);
            d.ack_round();
        }
        steady_cycle(&mut d, 10);
        steady_cycle(&mut d, 10);
        // The window now runs at 60 instead of 100: throughput fell 40 %.
        for _ in 0..10 {
            d.w.cwnd = 60;
            d.ack_round();
        }
        d.w.cwnd = 60;
        assert_eq!(d.loss(), 30);
        assert_eq!(d.cc.backoff_mode, BackoffMode::Conservative);
    }

    #[test]
    fn slow_start_doubles_per_rtt() {
        let mut d = Driver::new(Htcp::default(), 1, None);
        d.ack_rounds(6);
        assert_eq!(d.w.cwnd, 64);
    }

    #[test]
    fn undo_restores_the_congestion_clock() {
        let mut d = Driver::new(Htcp::default(), 100, Some(50));
        d.advance(ms(5000));
        let before = d.cc.last_congestion_ms;
        let now = d.now;
        d.cc.set_state(&mut d.w, CaState::Recovery, now);
        d.w.prior_cwnd = 100;
        d.w.cwnd = 50;
        assert_eq!(d.cc.undo_cwnd(&d.w), 100);
        assert_eq!(d.cc.last_congestion_ms, before);
        d.cc.set_state(&mut d.w, CaState::Open, now);
        assert_eq!(d.cc.last_congestion_ms, before, "an undone episode does not restart Δ");
    }

    #[test]
    fn ssthresh_is_at_least_two() {
        let mut d = Driver::new(Htcp::default(), 3, None);
        assert_eq!(d.loss(), 2);
    }
}
