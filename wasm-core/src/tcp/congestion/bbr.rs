//! BBR v1, as in mainline Linux `net/ipv4/tcp_bbr.c` (Cardwell et al., "BBR: Congestion-Based
//! Congestion Control", ACM Queue 2016; draft-cardwell-iccrg-bbr-congestion-control-00).
//!
//! BBR does not read loss as congestion. It models the path with two numbers: the bottleneck
//! bandwidth (the largest delivery rate seen over the last ten round trips) and the round-trip
//! propagation time (the smallest RTT seen over ten seconds), paces at a gain times the
//! bandwidth, and caps the flight at a gain times their product:
//! - STARTUP: pacing and cwnd gain 2/ln 2, until the bandwidth has not grown by 25 % for three
//!   rounds;
//! - DRAIN: pacing gain ln 2/2 until the flight is down to one BDP;
//! - PROBE_BW: the gain cycles 5/4, 3/4, 1, 1, 1, 1, 1, 1 (one phase per min RTT), cwnd gain 2;
//! - PROBE_RTT: when the min RTT is ten seconds old, the flight drops to 4 packets for
//!   200 ms and a round, to measure it afresh.
//!
//! On loss it keeps packet conservation for the first round of Recovery and then restores its
//! window; a long-term ("policer") mode takes over when a fifth of the packets are lost over
//! several rounds at a steady rate.
//!
//! The stack calls `cong_control` on every ACK (Linux `bbr_main`) instead of PRR and
//! `cong_avoid`, and paces at `pacing_bps`. Not modelled: the ACK-aggregation allowance
//! (`bbr_extra_acked`: our links do not aggregate ACKs) and idle restarts (flows never idle).

use super::{CaState, CongestionControl, ControlSample, CwndEvent, Window, INFINITE_SSTHRESH};
use crate::sim::rng::Rng;
use crate::sim::{SimDuration, SimTime};

/// `bbr_high_gain`: 2/ln 2, the smallest gain that doubles the delivery rate per round.
const HIGH_GAIN: f64 = 2885.0 / 1000.0;
/// `bbr_drain_gain`: its inverse, to drain the queue STARTUP built.
const DRAIN_GAIN: f64 = 1000.0 / 2885.0;
/// `bbr_cwnd_gain` in PROBE_BW.
const CWND_GAIN: f64 = 2.0;
/// `bbr_pacing_gain`: the PROBE_BW cycle.
const PACING_GAINS: [f64; 8] = [1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
/// `bbr_cycle_rand`: the first phase is drawn from the last seven.
const CYCLE_RAND: u64 = 7;
/// `bbr_bw_rtts`: the bandwidth filter's window, in rounds (`CYCLE_LEN + 2`).
const BW_ROUNDS: u64 = 10;
/// `bbr_min_rtt_win_sec`.
const MIN_RTT_WINDOW: SimDuration = SimDuration::from_millis(10_000);
/// `bbr_probe_rtt_mode_ms`.
const PROBE_RTT_TIME: SimDuration = SimDuration::from_millis(200);
/// `bbr_cwnd_min_target`.
const CWND_MIN_TARGET: u32 = 4;
/// `bbr_full_bw_thresh` (1.25) and `bbr_full_bw_cnt`.
const FULL_BW_THRESH: f64 = 1.25;
const FULL_BW_COUNT: u32 = 3;
/// `bbr_pacing_margin_percent`: pace 1 % below the estimate.
const PACING_MARGIN: f64 = 0.99;
/// `TCP_INIT_CWND`.
const INIT_CWND: u32 = 10;
/// Long-term sampling: `bbr_lt_intvl_min_rtts`, `bbr_lt_loss_thresh` (50/256), `bbr_lt_bw_ratio`
/// (1/8), `bbr_lt_bw_diff` (4000 bytes/s) and `bbr_lt_bw_max_rtts`.
const LT_INTERVAL_MIN_ROUNDS: u32 = 4;
const LT_LOSS_THRESH: f64 = 50.0 / 256.0;
const LT_BW_RATIO: f64 = 1.0 / 8.0;
const LT_BW_DIFF_BYTES_PER_S: f64 = 4000.0;
const LT_BW_MAX_ROUNDS: u32 = 48;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Startup,
    Drain,
    ProbeBw,
    ProbeRtt,
}

#[derive(Clone, Debug)]
pub struct Bbr {
    pub mode: Mode,
    mss: f64,
    /// Per-round maxima of the delivery rate (packets/s), newest last, with their round.
    bw_samples: Vec<(u64, f64)>,
    pub min_rtt: Option<SimDuration>,
    min_rtt_stamp: SimTime,
    round_count: u64,
    next_round_delivered: u64,
    round_start: bool,
    packet_conservation: bool,
    prior_cwnd: u32,
    prev_state: CaState,
    pacing_gain: f64,
    cwnd_gain: f64,
    pacing_pps: f64,
    full_bw: f64,
    full_bw_count: u32,
    pub full_bw_reached: bool,
    cycle_index: usize,
    cycle_stamp: SimTime,
    probe_rtt_done: Option<SimTime>,
    probe_rtt_round_done: bool,
    mark_app_limited: bool,
    // Long-term (policer) bandwidth.
    lt_is_sampling: bool,
    lt_rounds: u32,
    pub lt_use_bw: bool,
    lt_bw: f64,
    lt_last_delivered: u64,
    lt_last_lost: u64,
    lt_last_stamp: SimTime,
    /// Totals the model needs: segments delivered and lost on this connection.
    delivered: u64,
    lost: u64,
    /// The flow's own stream (`Stream::CongestionControl`): Linux draws from `get_random_u32`.
    rng: Rng,
    /// When the last ACK came (Linux reads `tcp_mstamp` in `bbr_undo_cwnd`).
    last_ack_at: SimTime,
}

impl Bbr {
    pub fn new(rng: Rng) -> Bbr {
        Bbr {
            mode: Mode::Startup,
            mss: 1448.0,
            bw_samples: Vec::new(),
            min_rtt: None,
            min_rtt_stamp: SimTime::ZERO,
            round_count: 0,
            next_round_delivered: 0,
            round_start: false,
            packet_conservation: false,
            prior_cwnd: 0,
            prev_state: CaState::Open,
            pacing_gain: HIGH_GAIN,
            cwnd_gain: HIGH_GAIN,
            pacing_pps: 0.0,
            full_bw: 0.0,
            full_bw_count: 0,
            full_bw_reached: false,
            cycle_index: 0,
            cycle_stamp: SimTime::ZERO,
            probe_rtt_done: None,
            probe_rtt_round_done: false,
            mark_app_limited: false,
            lt_is_sampling: false,
            lt_rounds: 0,
            lt_use_bw: false,
            lt_bw: 0.0,
            lt_last_delivered: 0,
            lt_last_lost: 0,
            lt_last_stamp: SimTime::ZERO,
            delivered: 0,
            lost: 0,
            rng,
            last_ack_at: SimTime::ZERO,
        }
    }

    fn max_bw(&self) -> f64 {
        self.bw_samples.iter().map(|&(_, b)| b).fold(0.0, f64::max)
    }

    /// The bandwidth estimate in packets per second (`bbr_bw`).
    pub fn bw(&self) -> f64 {
        if self.lt_use_bw {
            self.lt_bw
        } else {
            self.max_bw()
        }
    }

    /// `minmax_running_max` over `BW_ROUNDS` rounds.
    fn update_bw_filter(&mut self, bw: f64) {
        let round = self.round_count;
        match self.bw_samples.last_mut() {
            Some((r, b)) if *r == round => *b = b.max(bw),
            _ => self.bw_samples.push((round, bw)),
        }
        self.bw_samples.retain(|&(r, _)| r + BW_ROUNDS > round);
    }

    /// `bbr_bdp`: the window for `gain` times the estimated BDP.
    fn bdp(&self, bw: f64, gain: f64) -> u32 {
        let Some(min_rtt) = self.min_rtt else { return INIT_CWND };
        (bw * min_rtt.as_secs_f64() * gain).ceil() as u32
    }

    /// `bbr_quantization_budget`: room for the pacing quanta (Linux budgets three TSO bursts of
    /// at least two segments), an even window, and two more when probing.
    fn quantization_budget(&self, cwnd: u32) -> u32 {
        let tso_segs = if self.pacing_pps * self.mss * 8.0 < 1.2e6 { 1 } else { 2 };
        let mut cwnd = cwnd + 3 * tso_segs;
        cwnd = (cwnd + 1) & !1;
        if self.mode == Mode::ProbeBw && self.cycle_index == 0 {
            cwnd += 2;
        }
        cwnd
    }

    fn inflight(&self, bw: f64, gain: f64) -> u32 {
        self.quantization_budget(self.bdp(bw, gain))
    }

    fn random_below(&mut self, n: u64) -> u64 {
        self.rng.next_u64() % n
    }

    fn reset_probe_bw_mode(&mut self, now: SimTime) {
        self.mode = Mode::ProbeBw;
        self.cycle_index = (PACING_GAINS.len() as u64 - 1 - self.random_below(CYCLE_RAND)) as usize;
        self.advance_cycle_phase(now);
    }

    fn reset_mode(&mut self, now: SimTime) {
        if self.full_bw_reached {
            self.reset_probe_bw_mode(now);
        } else {
            self.mode = Mode::Startup;
        }
    }

    fn advance_cycle_phase(&mut self, now: SimTime) {
        self.cycle_index = (self.cycle_index + 1) % PACING_GAINS.len();
        self.cycle_stamp = now;
    }

    fn is_next_cycle_phase(&self, now: SimTime, c: &ControlSample) -> bool {
        let full_length = self.min_rtt.is_some_and(|m| now - self.cycle_stamp > m);
        if self.pacing_gain == 1.0 {
            return full_length;
        }
        let inflight = c.rate.prior_in_flight;
        let bw = self.max_bw();
        if self.pacing_gain > 1.0 {
            return full_length && (c.rate.losses > 0 || inflight >= self.inflight(bw, self.pacing_gain));
        }
        full_length || inflight <= self.inflight(bw, 1.0)
    }

    fn save_cwnd(&mut self, w: &Window) {
        if !matches!(self.prev_state, CaState::Recovery | CaState::Loss) && self.mode != Mode::ProbeRtt {
            self.prior_cwnd = w.cwnd;
        } else {
            self.prior_cwnd = self.prior_cwnd.max(w.cwnd);
        }
    }

    fn reset_lt_interval(&mut self, now: SimTime) {
        self.lt_last_stamp = now;
        self.lt_last_delivered = self.delivered;
        self.lt_last_lost = self.lost;
        self.lt_rounds = 0;
    }

    fn reset_lt(&mut self, now: SimTime) {
        self.lt_bw = 0.0;
        self.lt_use_bw = false;
        self.lt_is_sampling = false;
        self.reset_lt_interval(now);
    }

    /// `bbr_lt_bw_interval_done`.
    fn lt_interval_done(&mut self, now: SimTime, bw: f64) {
        if self.lt_bw > 0.0 {
            let diff = (bw - self.lt_bw).abs();
            if diff <= LT_BW_RATIO * self.lt_bw || diff * self.mss <= LT_BW_DIFF_BYTES_PER_S {
                self.lt_bw = (bw + self.lt_bw) / 2.0;
                self.lt_use_bw = true;
                self.pacing_gain = 1.0;
                self.lt_rounds = 0;
                return;
            }
        }
        self.lt_bw = bw;
        self.reset_lt_interval(now);
    }

    /// `bbr_lt_bw_sampling`: is the path policing us to a fixed rate?
    fn lt_sampling(&mut self, now: SimTime, losses: u32, app_limited: bool) {
        if self.lt_use_bw {
            if self.mode == Mode::ProbeBw && self.round_start {
                self.lt_rounds += 1;
                if self.lt_rounds >= LT_BW_MAX_ROUNDS {
                    self.reset_lt(now);
                    self.reset_probe_bw_mode(now);
                }
            }
            return;
        }
        if !self.lt_is_sampling {
            if losses == 0 {
                return;
            }
            self.reset_lt_interval(now);
            self.lt_is_sampling = true;
        }
        if app_limited {
            self.reset_lt(now);
            return;
        }
        if self.round_start {
            self.lt_rounds += 1;
        }
        if self.lt_rounds < LT_INTERVAL_MIN_ROUNDS {
            return;
        }
        if self.lt_rounds > 4 * LT_INTERVAL_MIN_ROUNDS {
            self.reset_lt(now);
            return;
        }
        if losses == 0 {
            return;
        }
        let lost = self.lost - self.lt_last_lost;
        let delivered = self.delivered - self.lt_last_delivered;
        if delivered == 0 || (lost as f64) < LT_LOSS_THRESH * delivered as f64 {
            return;
        }
        let t = now - self.lt_last_stamp;
        if t < SimDuration::from_millis(1) {
            return;
        }
        self.lt_interval_done(now, delivered as f64 / t.as_secs_f64());
    }

    /// `bbr_update_model` and `bbr_main`.
    fn on_ack(&mut self, w: &mut Window, c: &ControlSample) {
        let now = c.ack.now;
        self.delivered += c.rate.acked_sacked as u64;
        self.lost += c.rate.losses as u64;
        self.mark_app_limited = false;

        // bbr_update_bw: round counting, long-term sampling, the max filter.
        self.round_start = false;
        let valid = c.rate.delivered.is_some();
        if valid {
            if c.rate.prior_delivered >= self.next_round_delivered {
                self.next_round_delivered = self.delivered;
                self.round_count += 1;
                self.round_start = true;
                self.packet_conservation = false;
            }
            self.lt_sampling(now, c.rate.losses, c.rate.is_app_limited);
            if let Some(bw) = c.rate.rate_pps() {
                if !c.rate.is_app_limited || bw >= self.max_bw() {
                    self.update_bw_filter(bw);
                }
            }
        }

        // bbr_update_cycle_phase.
        if self.mode == Mode::ProbeBw && self.is_next_cycle_phase(now, c) {
            self.advance_cycle_phase(now);
        }

        // bbr_check_full_bw_reached.
        if !self.full_bw_reached && self.round_start && !c.rate.is_app_limited {
            let max = self.max_bw();
            if max >= self.full_bw * FULL_BW_THRESH {
                self.full_bw = max;
                self.full_bw_count = 0;
            } else {
                self.full_bw_count += 1;
                self.full_bw_reached = self.full_bw_count >= FULL_BW_COUNT;
            }
        }

        // bbr_check_drain.
        if self.mode == Mode::Startup && self.full_bw_reached {
            self.mode = Mode::Drain;
            w.ssthresh = self.inflight(self.max_bw(), 1.0);
        }
        if self.mode == Mode::Drain && c.in_flight <= self.inflight(self.max_bw(), 1.0) {
            self.reset_probe_bw_mode(now);
        }

        // bbr_update_min_rtt, from the ACK's Karn-valid RTT sample (Linux `rs->rtt_us` is the
        // `ca_rtt_us` of `tcp_clean_rtx_queue`): a retransmission's quick ACK is the original's.
        let expired = now > self.min_rtt_stamp + MIN_RTT_WINDOW;
        if let Some(rtt) = c.ack.rtt {
            if self.min_rtt.is_none_or(|m| rtt < m) || expired {
                self.min_rtt = Some(rtt);
                self.min_rtt_stamp = now;
            }
        }
        if expired && self.mode != Mode::ProbeRtt {
            self.mode = Mode::ProbeRtt;
            self.save_cwnd(w);
            self.probe_rtt_done = None;
        }
        if self.mode == Mode::ProbeRtt {
            self.mark_app_limited = true;
            match self.probe_rtt_done {
                None if c.in_flight <= CWND_MIN_TARGET => {
                    self.probe_rtt_done = Some(now + PROBE_RTT_TIME);
                    self.probe_rtt_round_done = false;
                    self.next_round_delivered = self.delivered;
                }
                Some(done) => {
                    if self.round_start {
                        self.probe_rtt_round_done = true;
                    }
                    if self.probe_rtt_round_done && now > done {
                        self.min_rtt_stamp = now;
                        w.cwnd = w.cwnd.max(self.prior_cwnd);
                        self.reset_mode(now);
                    }
                }
                None => {}
            }
        }

        // bbr_update_gains.
        (self.pacing_gain, self.cwnd_gain) = match self.mode {
            Mode::Startup => (HIGH_GAIN, HIGH_GAIN),
            Mode::Drain => (DRAIN_GAIN, HIGH_GAIN),
            Mode::ProbeBw => (if self.lt_use_bw { 1.0 } else { PACING_GAINS[self.cycle_index] }, CWND_GAIN),
            Mode::ProbeRtt => (1.0, 1.0),
        };

        // bbr_set_pacing_rate: never below what STARTUP already paced at.
        let bw = self.bw();
        let rate = bw * self.pacing_gain * PACING_MARGIN;
        if rate > 0.0 && (self.full_bw_reached || rate > self.pacing_pps) {
            self.pacing_pps = rate;
        }

        self.set_cwnd(w, c, bw);
    }

    /// `bbr_set_cwnd` with `bbr_set_cwnd_to_recover_or_restore`.
    fn set_cwnd(&mut self, w: &mut Window, c: &ControlSample, bw: f64) {
        let acked = c.rate.acked_sacked;
        let mut cwnd = w.cwnd;
        if acked > 0 {
            if c.rate.losses > 0 {
                cwnd = cwnd.saturating_sub(c.rate.losses).max(1);
            }
            let state = c.state;
            let in_recovery = |s: CaState| matches!(s, CaState::Recovery | CaState::Loss);
            if state == CaState::Recovery && self.prev_state != CaState::Recovery {
                // The first round of Recovery: packet conservation.
                self.packet_conservation = true;
                self.next_round_delivered = self.delivered;
                cwnd = c.in_flight + acked;
            } else if in_recovery(self.prev_state) && !in_recovery(state) {
                cwnd = cwnd.max(self.prior_cwnd);
                self.packet_conservation = false;
            }
            self.prev_state = state;
            if self.packet_conservation {
                cwnd = cwnd.max(c.in_flight + acked);
            } else {
                let target = self.quantization_budget(self.bdp(bw, self.cwnd_gain));
                if self.full_bw_reached {
                    cwnd = (cwnd + acked).min(target);
                } else if cwnd < target || self.delivered < INIT_CWND as u64 {
                    cwnd += acked;
                }
                cwnd = cwnd.max(CWND_MIN_TARGET);
            }
        }
        w.cwnd = cwnd.min(w.cwnd_clamp);
        if self.mode == Mode::ProbeRtt {
            w.cwnd = w.cwnd.min(CWND_MIN_TARGET);
        }
    }
}

impl CongestionControl for Bbr {
    fn init(&mut self, w: &mut Window, srtt: Option<SimDuration>, now: SimTime) {
        self.mss = w.mss as f64;
        w.ssthresh = INFINITE_SSTHRESH;
        self.min_rtt = srtt;
        self.min_rtt_stamp = now;
        self.prior_cwnd = 0;
        self.cycle_stamp = now;
        self.lt_last_stamp = now;
        // bbr_init_pacing_rate_from_rtt: the initial window over the handshake RTT, at high gain.
        let rtt = srtt.map_or(1.0, |s| s.as_secs_f64().max(1e-6));
        self.pacing_pps = HIGH_GAIN * w.cwnd as f64 / rtt;
    }

    /// BBR does not reduce on loss: it remembers the window to restore after recovery.
    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> u32 {
        self.save_cwnd(w);
        w.ssthresh
    }

    fn cong_avoid(&mut self, _w: &mut Window, _ack: &super::AckSample) {}

    fn set_state(&mut self, _w: &mut Window, new: CaState, now: SimTime) {
        if new == CaState::Loss {
            self.prev_state = CaState::Loss;
            self.full_bw = 0.0;
            self.round_start = true;
            self.lt_sampling(now, 1, false);
        }
    }

    fn cwnd_event(&mut self, _w: &mut Window, _ev: CwndEvent, _now: SimTime) {}

    /// `bbr_undo_cwnd`: a spurious slow-down restarts full-pipe detection and long-term
    /// sampling; the window stays what BBR set (it restores its own on leaving Loss/Recovery).
    fn undo_cwnd(&mut self, w: &Window) -> u32 {
        self.full_bw = 0.0;
        self.full_bw_count = 0;
        let now = self.last_ack_at;
        self.reset_lt(now);
        w.cwnd
    }

    fn pacing_bps(&self) -> Option<f64> {
        Some(self.pacing_pps * self.mss * 8.0 * 1.0)
    }

    fn cong_control(&mut self, w: &mut Window, c: &ControlSample) -> bool {
        self.last_ack_at = c.ack.now;
        self.on_ack(w, c);
        true
    }

    fn wants_app_limited(&self) -> bool {
        self.mark_app_limited
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::congestion::testing::ack_of;
    use crate::tcp::rate::RateSample;

    const RTT: SimDuration = SimDuration::from_millis(100);

    /// Feeds BBR one round trip at a time on a path of `bw_pps` packets per second and RTT
    /// 100 ms: each ACK delivers one packet, the flight is what the window allows.
    struct Path {
        bbr: Bbr,
        w: Window,
        now: SimTime,
        delivered: u64,
        bw_pps: f64,
        /// Packets in flight, queue included.
        flight: f64,
        /// Every pacing gain seen, in percent, after each ACK in PROBE_BW.
        gains: std::collections::BTreeSet<u32>,
    }

    impl Path {
        fn new(bw_pps: f64) -> Path {
            let mut bbr = Bbr::new(Rng::new(1, crate::sim::rng::Stream::CongestionControl { flow: 0 }));
            let mut w = Window::new(10, None, 1000);
            bbr.init(&mut w, Some(RTT), SimTime::ZERO);
            Path { bbr, w, now: SimTime::ZERO, delivered: 0, bw_pps, flight: 10.0, gains: Default::default() }
        }

        /// One round: the sender puts out what cwnd and the pacing rate allow in a round trip;
        /// the link delivers at most its rate, and what exceeds the BDP waits in its queue.
        fn round(&mut self, losses_per_round: u32) {
            let bdp = self.bw_pps * RTT.as_secs_f64();
            // What is sent beyond what the link delivers stays in flight (in its queue).
            let send_pps = self.bbr.pacing_bps().unwrap() / (self.w.mss as f64 * 8.0);
            let deliver_pps = (self.flight / RTT.as_secs_f64()).min(self.bw_pps);
            self.flight = (self.flight + (send_pps - deliver_pps) * RTT.as_secs_f64()).clamp(1.0, self.w.cwnd as f64);
            let flight = self.flight.min(bdp * 3.0) as u32;
            let rate = (flight as f64 / RTT.as_secs_f64()).min(self.bw_pps);
            let queue_delay = SimDuration::from_secs_f64(((flight as f64 - bdp).max(0.0)) / self.bw_pps);
            let rtt = RTT + queue_delay;
            let acks = flight.max(1);
            for i in 0..acks {
                self.now += SimDuration::from_secs_f64(rtt.as_secs_f64() / acks as f64);
                let prior_delivered = self.delivered;
                self.delivered += 1;
                let c = ControlSample {
                    ack: ack_of(self.now, 1, 1000, rtt, flight),
                    rate: RateSample {
                        delivered: Some(flight as u64),
                        interval: SimDuration::from_secs_f64(flight as f64 / rate),
                        prior_delivered: prior_delivered.saturating_sub(flight as u64 - 1),
                        is_app_limited: false,
                        rtt: Some(rtt),
                        acked_sacked: 1,
                        losses: u32::from(i < losses_per_round),
                        prior_in_flight: flight,
                    },
                    state: CaState::Open,
                    in_flight: flight,
                    latest_rtt: Some(rtt),
                    min_rtt: Some(RTT),
                };
                self.bbr.cong_control(&mut self.w, &c);
                if self.bbr.mode == Mode::ProbeBw {
                    self.gains.insert((self.bbr.pacing_gain * 100.0).round() as u32);
                }
            }
        }
    }

    #[test]
    fn startup_finds_the_bottleneck_and_drains_to_probe_bw() {
        // 1000 packets/s, RTT 100 ms: a BDP of 100 packets.
        let mut p = Path::new(1000.0);
        for _ in 0..30 {
            p.round(0);
        }
        assert!(p.bbr.full_bw_reached, "STARTUP ends once the bandwidth stops growing");
        assert_eq!(p.bbr.mode, Mode::ProbeBw);
        let bw = p.bbr.bw();
        assert!((bw - 1000.0).abs() < 50.0, "bandwidth estimate {bw}");
        // cwnd gain 2 over a BDP of 100, plus the quantization budget.
        assert!((190..=215).contains(&p.w.cwnd), "cwnd {}", p.w.cwnd);
    }

    #[test]
    fn random_loss_does_not_cut_the_window() {
        let mut p = Path::new(1000.0);
        for _ in 0..30 {
            p.round(0);
        }
        let before = p.w.cwnd;
        // 1 % loss: one packet per round.
        for _ in 0..30 {
            p.round(1);
        }
        assert!(p.w.cwnd + 10 >= before, "cwnd {} fell from {before} under 1 % loss", p.w.cwnd);
        assert!(!p.bbr.lt_use_bw, "1 % loss is not a policer");
    }

    #[test]
    fn pacing_gain_cycles_through_probe_bw() {
        let mut p = Path::new(1000.0);
        for _ in 0..60 {
            p.round(0);
        }
        assert_eq!(p.gains.iter().copied().collect::<Vec<_>>(), vec![75, 100, 125]);
    }

    #[test]
    fn probe_rtt_drops_the_window_to_four_packets_after_ten_seconds() {
        let mut p = Path::new(1000.0);
        let mut saw_probe_rtt = false;
        // The min RTT is never beaten once a queue forms, so after 10 s BBR probes.
        for _ in 0..150 {
            p.round(0);
            if p.bbr.mode == Mode::ProbeRtt {
                saw_probe_rtt = true;
                assert!(p.w.cwnd <= CWND_MIN_TARGET);
            }
        }
        assert!(saw_probe_rtt);
        assert_ne!(p.bbr.mode, Mode::ProbeRtt, "it leaves PROBE_RTT after 200 ms and a round");
    }

    #[test]
    fn the_first_round_of_recovery_conserves_packets_then_the_window_is_restored() {
        let mut p = Path::new(1000.0);
        for _ in 0..30 {
            p.round(0);
        }
        let before = p.w.cwnd;
        p.bbr.ssthresh(&p.w, p.now);
        let mk = |state, in_flight, losses| ControlSample {
            ack: ack_of(p.now, 1, 1000, RTT, in_flight),
            rate: RateSample { acked_sacked: 1, losses, prior_in_flight: in_flight, ..RateSample::default() },
            state,
            in_flight,
            latest_rtt: Some(RTT),
            min_rtt: Some(RTT),
        };
        p.bbr.cong_control(&mut p.w, &mk(CaState::Recovery, 50, 20));
        assert_eq!(p.w.cwnd, 51, "packet conservation: in flight plus what was delivered");
        p.bbr.cong_control(&mut p.w, &mk(CaState::Open, 50, 0));
        // Restored, then held to the target window (2 BDP plus the quantization budget).
        assert!(p.w.cwnd + 4 >= before, "restored {} (was {before})", p.w.cwnd);
    }
}
