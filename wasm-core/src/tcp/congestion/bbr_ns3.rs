//! BBR as ns-3 writes it: `TcpBbr` of ns-3.44 (`src/internet/model/tcp-bbr.cc`), the congestion
//! control of a `bbr` flow in the `ns3` profile (docs/tcp.md, "The ns3 profile and ns-3
//! itself"). Linux's BBR v1 is `bbr.rs`; the two share the model (a windowed maximum of the
//! delivery rate over ten rounds, a ten-second minimum RTT, STARTUP, DRAIN, PROBE_BW's gain cycle
//! and PROBE_RTT) and differ where ns-3 chose otherwise:
//!
//! - **Bytes and bits per second**, in ns-3's integer types: cwnd is `uint32_t` bytes (so
//!   `cwnd + acked` wraps at 4 GiB), the bandwidth is a `DataRate` of whole bits per second, and
//!   `InFlight` truncates `gain · BDP + 3 segments` (two more in PROBE_BW's first phase) to bytes.
//! - **The bandwidth filter** is `WindowedFilter`'s three samples (Kathleen Nichols' algorithm),
//!   seeded with the initial window over the handshake RTT as its "zero" value; a rate is taken
//!   from every sample with a valid interval, rounds are counted only on those.
//! - **The minimum RTT** follows `m_lastRtt`, the last RTT sample the socket took, on every ACK.
//! - **Recovery** (`CongestionStateSet(CA_RECOVERY)`): cwnd = in flight + what the ACK delivered,
//!   packet conservation until the next round; in Recovery every ACK takes `m_bytesLoss` off
//!   cwnd, and the socket's `m_bytesLoss` is the change in the bytes marked lost, either way, so
//!   a lost segment's cumulative ACK counts as a loss again. Leaving Recovery, cwnd is restored
//!   (`CA_EVENT_COMPLETE_CWR`) and then set to ssthresh by the socket; ssthresh is what DRAIN
//!   began with (`CheckDrain`) and is infinite before it.
//! - **A timeout**: the socket sets cwnd to one segment before `CongestionStateSet(CA_LOSS)`
//!   saves it, and nothing restores it on leaving Loss: cwnd grows back by what each ACK delivers.
//! - **ACK aggregation** (`UpdateAckAggregation`) is on, with ns-3's epoch in whole seconds and
//!   its reset threshold of 4096 bytes (`AckEpochAckedResetThresh`).
//! - No long-term (policer) mode, no quantization budget beyond the three segments; the first
//!   PROBE_BW phase is drawn from six, not seven (`m_uv->GetValue(0, 6)`).
//!
//! Constants are `TcpBbr`'s attribute defaults in ns-3.44 (`--PrintAttributes=ns3::TcpBbr`).

use super::bbr::Mode;
use super::{CaState, CongestionControl, ControlSample, CwndEvent, Window};
use crate::sim::rng::Rng;
use crate::sim::{SimDuration, SimTime};

const HIGH_GAIN: f64 = 2.89; // TcpBbr::HighGain
const PACING_GAIN_CYCLE: [f64; 8] = [5.0 / 4.0, 3.0 / 4.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
const BW_WINDOW_ROUNDS: u32 = 10; // TcpBbr::BwWindowLength
const MIN_RTT_WINDOW: SimDuration = SimDuration::from_millis(10_000); // TcpBbr::RttWindowLength
const PROBE_RTT_DURATION: SimDuration = SimDuration::from_millis(200); // TcpBbr::ProbeRttDuration
const EXTRA_ACKED_WINDOW_ROUNDS: u32 = 5; // TcpBbr::ExtraAckedRttWindowLength
const ACK_EPOCH_RESET_BYTES: u32 = 4096; // TcpBbr::AckEpochAckedResetThresh
const EXTRA_ACKED_GAIN: u32 = 1; // m_extraAckedGain
const PACING_MARGIN: f64 = 0.01; // m_pacingMargin
const MAX_PACING_BPS: u64 = 4_000_000_000; // TcpSocketState::MaxPacingRate
const MIN_PIPE_SEGMENTS: u32 = 4; // m_minPipeCwnd, in segments
const INITIAL_CWND: u32 = 10; // TcpSocket::InitialCwnd
const FULL_BW_THRESH: f64 = 1.25;
const FULL_BW_ROUNDS: u32 = 3;
/// `TcpSocket::InitialSlowStartThreshold`: ssthresh before DRAIN sets it, in bytes.
const INITIAL_SSTHRESH: u32 = u32::MAX;

/// `WindowedFilter<DataRate, MaxFilter<DataRate>, uint32_t, uint32_t>`: the best three
/// (rate, round) samples of the last `BW_WINDOW_ROUNDS` rounds.
#[derive(Clone, Copy, Debug, PartialEq)]
struct MaxRateFilter {
    zero: u64,
    samples: [(u64, u32); 3],
}

impl MaxRateFilter {
    fn new(zero: u64) -> MaxRateFilter {
        MaxRateFilter { zero, samples: [(zero, 0); 3] }
    }

    fn best(&self) -> u64 {
        self.samples[0].0
    }

    /// `MaxFilter`: never true against a zero rate.
    fn at_least(a: u64, b: u64) -> bool {
        a != 0 && b != 0 && a >= b
    }

    fn update(&mut self, rate: u64, round: u32) {
        let s = &mut self.samples;
        let since = |t: u32| round.wrapping_sub(t);
        if s[0].0 == self.zero || Self::at_least(rate, s[0].0) || since(s[2].1) > BW_WINDOW_ROUNDS {
            *s = [(rate, round); 3];
            return;
        }
        if Self::at_least(rate, s[1].0) {
            s[1] = (rate, round);
            s[2] = s[1];
        } else if Self::at_least(rate, s[2].0) {
            s[2] = (rate, round);
        }
        if since(s[0].1) > BW_WINDOW_ROUNDS {
            s[0] = s[1];
            s[1] = s[2];
            s[2] = (rate, round);
            if since(s[0].1) > BW_WINDOW_ROUNDS {
                s[0] = s[1];
                s[1] = s[2];
            }
            return;
        }
        if s[1].0 == s[0].0 && since(s[1].1) > BW_WINDOW_ROUNDS >> 2 {
            s[1] = (rate, round);
            s[2] = s[1];
            return;
        }
        if s[2].0 == s[1].0 && since(s[2].1) > BW_WINDOW_ROUNDS >> 1 {
            s[2] = (rate, round);
        }
    }
}

#[derive(Clone, Debug)]
pub struct BbrNs3 {
    pub mode: Mode,
    mss: u32,
    /// `m_cWnd` in bytes as this module last left it, and the segments it showed the sender: the
    /// sender sets cwnd itself on a timeout and on leaving Recovery.
    cwnd: u32,
    shown_cwnd: u32,
    /// `m_ssThresh` in bytes.
    ssthresh: u32,
    /// The socket's congestion state as this module last heard it (`m_congState` is still the old
    /// one while `CongestionStateSet` runs).
    ca_state: CaState,
    max_bw: MaxRateFilter,
    pacing_gain: f64,
    cwnd_gain: f64,
    /// `m_pacingRate`, bits per second.
    pacing_bps: u64,
    has_seen_rtt: bool,
    pipe_filled: bool,
    full_bw: u64,
    full_bw_count: u32,
    round_count: u32,
    round_start: bool,
    next_round_delivered: u32,
    /// `m_delivered`: bytes delivered on the connection.
    delivered: u64,
    packet_conservation: bool,
    prior_cwnd: u32,
    idle_restart: bool,
    min_rtt: Option<SimDuration>,
    min_rtt_stamp: SimTime,
    min_rtt_expired: bool,
    probe_rtt_done: Option<SimTime>,
    probe_rtt_round_done: bool,
    cycle_index: usize,
    cycle_stamp: SimTime,
    extra_acked: [u32; 2],
    extra_acked_rounds: u32,
    extra_acked_index: usize,
    ack_epoch_start: SimTime,
    ack_epoch_acked: u32,
    /// The flow's own stream (`Stream::CongestionControl`), where ns-3 draws from its stream 4.
    rng: Rng,
}

impl BbrNs3 {
    pub fn new(rng: Rng) -> BbrNs3 {
        BbrNs3 {
            mode: Mode::Startup,
            mss: 1448,
            cwnd: 0,
            shown_cwnd: 0,
            ssthresh: INITIAL_SSTHRESH,
            ca_state: CaState::Open,
            max_bw: MaxRateFilter::new(0),
            pacing_gain: HIGH_GAIN,
            cwnd_gain: HIGH_GAIN,
            pacing_bps: 0,
            has_seen_rtt: false,
            pipe_filled: false,
            full_bw: 0,
            full_bw_count: 0,
            round_count: 0,
            round_start: false,
            next_round_delivered: 0,
            delivered: 0,
            packet_conservation: false,
            prior_cwnd: 0,
            idle_restart: false,
            min_rtt: None,
            min_rtt_stamp: SimTime::ZERO,
            min_rtt_expired: false,
            probe_rtt_done: None,
            probe_rtt_round_done: false,
            cycle_index: 0,
            cycle_stamp: SimTime::ZERO,
            extra_acked: [0; 2],
            extra_acked_rounds: 0,
            extra_acked_index: 0,
            ack_epoch_start: SimTime::ZERO,
            ack_epoch_acked: 0,
            rng,
        }
    }

    /// Takes up a cwnd the sender set since this module last did: one segment after a timeout,
    /// ssthresh on leaving Recovery (in bytes, as ns-3 keeps it).
    fn load(&mut self, w: &Window) {
        if w.cwnd != self.shown_cwnd {
            self.cwnd =
                if w.cwnd == self.ssthresh_segments() { self.ssthresh } else { w.cwnd.saturating_mul(self.mss) };
        }
    }

    fn show(&mut self, w: &mut Window) {
        w.cwnd = (self.cwnd / self.mss).max(1);
        w.ssthresh = self.ssthresh_segments();
        self.shown_cwnd = w.cwnd;
    }

    fn ssthresh_segments(&self) -> u32 {
        self.ssthresh / self.mss
    }

    fn min_pipe_cwnd(&self) -> u32 {
        MIN_PIPE_SEGMENTS * self.mss
    }

    /// `InitPacingRate`: the window over the minimum RTT (in whole milliseconds, at least one),
    /// which also becomes the bandwidth filter's zero value.
    fn init_pacing_rate(&mut self, min_rtt: Option<SimDuration>) {
        let rtt_ms = match min_rtt {
            Some(m) => {
                self.has_seen_rtt = true;
                (m.0 / 1_000_000).max(1)
            }
            None => 1,
        };
        let nominal = (self.cwnd as f64 * 8.0 / (rtt_ms as f64 / 1000.0)) as u64;
        self.pacing_bps = (self.pacing_gain * nominal as f64) as u64;
        self.max_bw = MaxRateFilter::new(nominal);
    }

    /// `InFlight(gain)`: bytes.
    fn in_flight(&self, gain: f64) -> u32 {
        let Some(min_rtt) = self.min_rtt else { return INITIAL_CWND * self.mss };
        let quanta = 3.0 * self.mss as f64;
        let bdp = self.max_bw.best() as f64 * min_rtt.as_secs_f64() / 8.0;
        let extra = if self.mode == Mode::ProbeBw && self.cycle_index == 0 { 2.0 * self.mss as f64 } else { 0.0 };
        (gain * bdp + quanta + extra) as u32
    }

    fn advance_cycle_phase(&mut self, now: SimTime) {
        self.cycle_stamp = now;
        self.cycle_index = (self.cycle_index + 1) % PACING_GAIN_CYCLE.len();
        self.pacing_gain = PACING_GAIN_CYCLE[self.cycle_index];
    }

    fn enter_probe_bw(&mut self, now: SimTime) {
        self.mode = Mode::ProbeBw;
        self.pacing_gain = 1.0;
        self.cwnd_gain = 2.0;
        // `m_uv->GetValue(0, 6)` truncated: 0 to 5.
        let draw = (self.rng.uniform() * 6.0) as usize;
        self.cycle_index = PACING_GAIN_CYCLE.len() - 1 - draw;
        self.advance_cycle_phase(now);
    }

    fn enter_startup(&mut self) {
        self.mode = Mode::Startup;
        self.pacing_gain = HIGH_GAIN;
        self.cwnd_gain = HIGH_GAIN;
    }

    /// `SaveCwnd`, with the cwnd ns-3 has at that moment.
    fn save_cwnd(&mut self, cwnd: u32) {
        if self.ca_state != CaState::Recovery && self.mode != Mode::ProbeRtt {
            self.prior_cwnd = cwnd;
        } else {
            self.prior_cwnd = self.prior_cwnd.max(cwnd);
        }
    }

    fn restore_cwnd(&mut self) {
        self.cwnd = self.cwnd.max(self.prior_cwnd);
    }

    /// `UpdateBottleneckBandwidth` with `UpdateRound`.
    fn update_bandwidth(&mut self, c: &ControlSample, rate: Option<u64>) {
        let Some(rate) = rate else { return };
        let prior_delivered = c.rate.prior_delivered * self.mss as u64;
        if prior_delivered >= self.next_round_delivered as u64 {
            self.next_round_delivered = self.delivered as u32;
            self.round_count = self.round_count.wrapping_add(1);
            self.round_start = true;
            self.packet_conservation = false;
        } else {
            self.round_start = false;
        }
        if rate >= self.max_bw.best() || !c.rate.is_app_limited {
            self.max_bw.update(rate, self.round_count);
        }
    }

    /// `UpdateAckAggregation`, in ns-3's integer types (the epoch is whole seconds).
    fn update_ack_aggregation(&mut self, now: SimTime, acked_bytes: u32, timed: bool) {
        if acked_bytes == 0 || !timed {
            return;
        }
        if self.round_start {
            self.extra_acked_rounds = (self.extra_acked_rounds + 1).min(31);
            if self.extra_acked_rounds >= EXTRA_ACKED_WINDOW_ROUNDS {
                self.extra_acked_rounds = 0;
                self.extra_acked_index ^= 1;
                self.extra_acked[self.extra_acked_index] = 0;
            }
        }
        let epoch_seconds = (now.as_secs_f64() - self.ack_epoch_start.as_secs_f64()) as u32;
        let mut expected = (self.max_bw.best().wrapping_mul(epoch_seconds as u64) / 8) as u32;
        if self.ack_epoch_acked <= expected || self.ack_epoch_acked.wrapping_add(acked_bytes) >= ACK_EPOCH_RESET_BYTES {
            self.ack_epoch_acked = 0;
            self.ack_epoch_start = now;
            expected = 0;
        }
        self.ack_epoch_acked = self.ack_epoch_acked.wrapping_add(acked_bytes);
        let extra = self.ack_epoch_acked.wrapping_sub(expected).min(self.cwnd);
        let slot = &mut self.extra_acked[self.extra_acked_index];
        *slot = (*slot).max(extra);
    }

    fn ack_aggregation_cwnd(&self) -> u32 {
        if EXTRA_ACKED_GAIN == 0 || !self.pipe_filled {
            return 0;
        }
        let max_aggregate = (self.max_bw.best() / 80) as u32;
        (EXTRA_ACKED_GAIN * self.extra_acked[0].max(self.extra_acked[1])).min(max_aggregate)
    }

    /// `IsNextCyclePhase`.
    fn is_next_cycle_phase(&self, now: SimTime, c: &ControlSample, bytes_lost: u32) -> bool {
        let full_length = self.min_rtt.is_some_and(|m| now - self.cycle_stamp > m);
        let prior_in_flight = c.rate.prior_in_flight.saturating_mul(self.mss);
        if self.pacing_gain == 1.0 {
            full_length
        } else if self.pacing_gain > 1.0 {
            full_length && (bytes_lost > 0 || prior_in_flight >= self.in_flight(self.pacing_gain))
        } else {
            full_length || prior_in_flight <= self.in_flight(1.0)
        }
    }

    /// `CheckFullPipe`.
    fn check_full_pipe(&mut self, app_limited: bool) {
        if self.pipe_filled || !self.round_start || app_limited {
            return;
        }
        if self.max_bw.best() as f64 >= self.full_bw as f64 * FULL_BW_THRESH {
            self.full_bw = self.max_bw.best();
            self.full_bw_count = 0;
            return;
        }
        self.full_bw_count += 1;
        if self.full_bw_count >= FULL_BW_ROUNDS {
            self.pipe_filled = true;
        }
    }

    /// `CheckDrain`.
    fn check_drain(&mut self, now: SimTime, bytes_in_flight: u32) {
        if self.mode == Mode::Startup && self.pipe_filled {
            self.mode = Mode::Drain;
            self.pacing_gain = 1.0 / HIGH_GAIN;
            self.cwnd_gain = HIGH_GAIN;
            self.ssthresh = self.in_flight(1.0);
        }
        if self.mode == Mode::Drain && bytes_in_flight <= self.in_flight(1.0) {
            self.enter_probe_bw(now);
        }
    }

    /// `UpdateRTprop`, from the socket's last RTT sample.
    fn update_min_rtt(&mut self, now: SimTime, last_rtt: Option<SimDuration>) {
        self.min_rtt_expired = now > self.min_rtt_stamp + MIN_RTT_WINDOW;
        if let Some(rtt) = last_rtt {
            if self.min_rtt.is_none_or(|m| rtt <= m) || self.min_rtt_expired {
                self.min_rtt = Some(rtt);
                self.min_rtt_stamp = now;
            }
        }
    }

    /// `CheckProbeRTT` with `HandleProbeRTT`.
    fn check_probe_rtt(&mut self, now: SimTime, bytes_in_flight: u32, delivered_nonzero: bool) {
        if self.mode != Mode::ProbeRtt && self.min_rtt_expired && !self.idle_restart {
            self.mode = Mode::ProbeRtt;
            self.pacing_gain = 1.0;
            self.cwnd_gain = 1.0;
            self.save_cwnd(self.cwnd);
            self.probe_rtt_done = None;
        }
        if self.mode == Mode::ProbeRtt {
            match self.probe_rtt_done {
                None if bytes_in_flight <= self.min_pipe_cwnd() => {
                    self.probe_rtt_done = Some(now + PROBE_RTT_DURATION);
                    self.probe_rtt_round_done = false;
                    self.next_round_delivered = self.delivered as u32;
                }
                Some(done) => {
                    if self.round_start {
                        self.probe_rtt_round_done = true;
                    }
                    if self.probe_rtt_round_done && now > done {
                        self.min_rtt_stamp = now;
                        self.restore_cwnd();
                        if self.pipe_filled {
                            self.enter_probe_bw(now);
                        } else {
                            self.enter_startup();
                        }
                    }
                }
                None => {}
            }
        }
        if delivered_nonzero {
            self.idle_restart = false;
        }
    }

    /// `SetPacingRate(m_pacingGain)`: never below what STARTUP paced at.
    fn set_pacing_rate(&mut self, min_rtt: Option<SimDuration>) {
        let rate = (self.pacing_gain * self.max_bw.best() as f64) as u64;
        let rate = ((rate as f64 * (1.0 - PACING_MARGIN)) as u64).min(MAX_PACING_BPS);
        if !self.has_seen_rtt && min_rtt.is_some() {
            self.init_pacing_rate(min_rtt);
        }
        if self.pipe_filled || rate > self.pacing_bps {
            self.pacing_bps = rate;
        }
    }

    /// `SetCwnd` with `ModulateCwndForRecovery` and `ModulateCwndForProbeRTT`.
    fn set_cwnd(&mut self, c: &ControlSample, bytes_in_flight: u32, bytes_lost: u32) {
        let acked = c.rate.acked_sacked.saturating_mul(self.mss);
        if acked > 0
            && !(c.state == CaState::Recovery && self.modulate_for_recovery(bytes_in_flight, acked, bytes_lost))
        {
            let target = self.in_flight(self.cwnd_gain).wrapping_add(self.ack_aggregation_cwnd());
            if self.pipe_filled {
                self.cwnd = self.cwnd.wrapping_add(acked).min(target);
            } else if self.cwnd < target || self.delivered < (INITIAL_CWND * self.mss) as u64 {
                self.cwnd = self.cwnd.wrapping_add(acked);
            }
            self.cwnd = self.cwnd.max(self.min_pipe_cwnd());
        }
        if self.mode == Mode::ProbeRtt {
            self.cwnd = self.cwnd.min(self.min_pipe_cwnd());
        }
    }

    fn modulate_for_recovery(&mut self, bytes_in_flight: u32, acked: u32, bytes_lost: u32) -> bool {
        if bytes_lost > 0 {
            self.cwnd = (self.cwnd as i32).wrapping_sub(bytes_lost as i32).max(self.mss as i32) as u32;
        }
        if self.packet_conservation {
            self.cwnd = self.cwnd.max(bytes_in_flight.wrapping_add(acked));
            return true;
        }
        false
    }
}

impl CongestionControl for BbrNs3 {
    /// `CongestionStateSet(CA_OPEN)` once the handshake is done: the RTT it measured is the first
    /// minimum, and the initial window over it the first pacing rate and bandwidth estimate.
    fn init(&mut self, w: &mut Window, srtt: Option<SimDuration>, now: SimTime) {
        self.mss = w.mss;
        self.cwnd = w.cwnd.saturating_mul(self.mss);
        self.min_rtt = srtt;
        self.min_rtt_stamp = now;
        self.prior_cwnd = self.cwnd;
        self.ssthresh = INITIAL_SSTHRESH;
        self.enter_startup();
        self.init_pacing_rate(srtt);
        self.ack_epoch_start = now;
        self.show(w);
    }

    /// `GetSsThresh`: BBR keeps ssthresh and remembers the window.
    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> u32 {
        self.load(w);
        self.save_cwnd(self.cwnd);
        self.ssthresh_segments()
    }

    fn cong_avoid(&mut self, _w: &mut Window, _ack: &super::AckSample) {}

    fn set_state(&mut self, w: &mut Window, new: CaState, _now: SimTime) {
        self.load(w);
        match new {
            CaState::Loss => {
                // ns-3's `ReTxTimeout` has already set cwnd to one segment.
                self.save_cwnd(self.mss);
                self.round_start = true;
            }
            CaState::Recovery => self.save_cwnd(self.cwnd),
            _ => {}
        }
        self.ca_state = new;
    }

    /// The rest of `CongestionStateSet(CA_RECOVERY)`: in flight plus what the ACK delivered,
    /// at least a segment, and packet conservation until the next round.
    fn ns3_enter_recovery(&mut self, w: &mut Window, in_flight: u32, delivered: u32) {
        self.load(w);
        self.cwnd = in_flight.saturating_mul(self.mss).wrapping_add(delivered.saturating_mul(self.mss).max(self.mss));
        self.packet_conservation = true;
        self.show(w);
    }

    fn cwnd_event(&mut self, w: &mut Window, ev: CwndEvent, _now: SimTime) {
        self.load(w);
        if ev == CwndEvent::CompleteCwr {
            self.packet_conservation = false;
            self.restore_cwnd();
            self.show(w);
        }
    }

    fn undo_cwnd(&mut self, w: &Window) -> u32 {
        w.cwnd
    }

    fn pacing_bps(&self) -> Option<f64> {
        Some(self.pacing_bps as f64)
    }

    /// `CongControl`: `UpdateModelAndState`, then `UpdateControlParameters`.
    fn cong_control(&mut self, w: &mut Window, c: &ControlSample) -> bool {
        self.load(w);
        let now = c.ack.now;
        let acked = c.rate.acked_sacked.saturating_mul(self.mss);
        self.delivered += acked as u64;
        let bytes_in_flight = c.in_flight.saturating_mul(self.mss);
        let bytes_lost = c.rate.losses.saturating_mul(self.mss);
        // ns-3's sample has timing (`m_delivered` ≥ 0) unless nothing was delivered with a send
        // time to measure from; its rate only when the interval is at least the minimum RTT.
        let timed = c.rate.delivered.is_some();
        let rate = c
            .rate
            .delivered
            .filter(|_| c.rate.interval.0 > 0)
            .map(|d| (d as f64 * self.mss as f64 * 8.0 / c.rate.interval.as_secs_f64()) as u64);
        self.update_bandwidth(c, rate);
        self.update_ack_aggregation(now, acked, timed);
        if self.mode == Mode::ProbeBw && self.is_next_cycle_phase(now, c, bytes_lost) {
            self.advance_cycle_phase(now);
        }
        self.check_full_pipe(c.rate.is_app_limited);
        self.check_drain(now, bytes_in_flight);
        self.update_min_rtt(now, c.latest_rtt);
        self.check_probe_rtt(now, bytes_in_flight, c.rate.delivered != Some(0));
        self.set_pacing_rate(c.min_rtt);
        self.set_cwnd(c, bytes_in_flight, bytes_lost);
        self.show(w);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::Stream;
    use crate::tcp::congestion::testing::ack_of;
    use crate::tcp::rate::RateSample;

    const MSS: u32 = 1448;
    const RTT: SimDuration = SimDuration::from_millis(800);

    fn bbr(seed: u64) -> (BbrNs3, Window) {
        let mut b = BbrNs3::new(Rng::new(seed, Stream::CongestionControl { flow: 0 }));
        let mut w = Window::new(10, None, MSS);
        b.init(&mut w, Some(RTT), SimTime::ZERO);
        (b, w)
    }

    fn sample(now_s: f64, state: CaState, acked: u32, losses: u32, in_flight: u32) -> ControlSample {
        ControlSample {
            ack: ack_of(SimTime::from_secs_f64(now_s), acked, MSS, RTT, in_flight),
            rate: RateSample {
                acked_sacked: acked,
                losses,
                prior_in_flight: in_flight + acked,
                ..RateSample::default()
            },
            state,
            in_flight,
            latest_rtt: Some(RTT),
            min_rtt: Some(RTT),
        }
    }

    #[test]
    fn the_first_pacing_rate_is_the_initial_window_over_the_handshake_rtt_at_high_gain() {
        // ns-3.44's trace of the dumbbell at RTT 800 ms: 418 472 bit/s until the first samples.
        let (b, _) = bbr(1);
        assert_eq!(b.pacing_bps().unwrap() as u64, 418_472);
        assert_eq!(b.max_bw.best(), 144_800);
    }

    #[test]
    fn the_bandwidth_filter_takes_any_first_sample_and_then_keeps_the_best_of_ten_rounds() {
        let mut f = MaxRateFilter::new(144_800);
        // The zero value gives way to a first sample even below it, as `Update` resets on it.
        f.update(14_456, 0);
        assert_eq!(f.best(), 14_456);
        f.update(500_000, 1);
        f.update(300_000, 4);
        f.update(200_000, 9);
        assert_eq!(f.best(), 500_000, "within ten rounds");
        f.update(250_000, 12);
        assert_eq!(f.best(), 300_000, "the round-1 sample is out of the window, the next best stays");
        f.update(100_000, 30);
        assert_eq!(f.best(), 100_000, "a window without samples forgets them all");
    }

    #[test]
    fn entering_recovery_sets_the_flight_plus_what_the_ack_delivered_then_conserves_packets() {
        // Run 5 of the cross-check at 2.93 s (ns-3's trace): 20 in flight once the head is
        // marked lost and one segment SACKed, so cwnd 21; the ACK's loss takes one off, and
        // packet conservation brings it to the flight after the retransmission (21) plus one.
        let (mut b, mut w) = bbr(1);
        w.cwnd = 38;
        b.cwnd = 38 * MSS;
        b.shown_cwnd = 38;
        b.ssthresh(&w, SimTime::ZERO);
        b.set_state(&mut w, CaState::Recovery, SimTime::ZERO);
        b.ns3_enter_recovery(&mut w, 20, 1);
        assert_eq!(w.cwnd, 21);
        b.cong_control(&mut w, &sample(2.93, CaState::Recovery, 1, 1, 21));
        assert_eq!(w.cwnd, 22);
        assert_eq!(b.prior_cwnd, 38 * MSS, "the window before Recovery is kept to restore");
    }

    #[test]
    fn leaving_recovery_the_socket_sets_ssthresh_in_bytes_after_the_restore() {
        let (mut b, mut w) = bbr(1);
        b.pipe_filled = true;
        b.mode = Mode::ProbeBw;
        b.cycle_index = 3;
        b.max_bw = MaxRateFilter::new(600_000);
        b.ssthresh = 41 * MSS + 1100;
        b.prior_cwnd = 88 * MSS;
        b.min_rtt_stamp = SimTime::from_secs_f64(14.0);
        w.ssthresh = b.ssthresh_segments();
        b.cwnd_event(&mut w, CwndEvent::CompleteCwr, SimTime::ZERO);
        assert_eq!(w.cwnd, 88, "restored first (`RestoreCwnd`)");
        // …then `ProcessAck` sets cwnd to ssthresh, which this module takes up in bytes.
        w.cwnd = w.ssthresh;
        b.cong_control(&mut w, &sample(14.29, CaState::Open, 1, 0, 40));
        assert_eq!(b.cwnd, 42 * MSS + 1100, "ssthresh plus the segment the ACK delivered");
    }

    #[test]
    fn an_infinite_ssthresh_wraps_the_window_once_the_pipe_is_full() {
        // Recovery ending in STARTUP sets cwnd to ns-3's initial ssthresh (UINT32_MAX bytes);
        // once the pipe is full, `cwnd + acked` wraps in 32 bits and the target's minimum wins.
        let (mut b, mut w) = bbr(1);
        b.delivered = 100 * MSS as u64;
        w.cwnd = w.ssthresh;
        b.cong_control(&mut w, &sample(5.0, CaState::Open, 1, 0, 30));
        assert_eq!(b.cwnd, u32::MAX, "not yet full: the window stays unlimited");
        b.pipe_filled = true;
        b.cong_control(&mut w, &sample(5.1, CaState::Open, 2, 0, 30));
        assert_eq!(b.cwnd, 4 * MSS, "2 · 1448 − 1 bytes after the wrap, raised to the minimum pipe");
    }

    #[test]
    fn a_timeout_saves_the_one_segment_the_socket_has_set() {
        let (mut b, mut w) = bbr(1);
        w.cwnd = 300;
        b.ssthresh(&w, SimTime::ZERO);
        assert_eq!(b.prior_cwnd, 300 * MSS);
        b.set_state(&mut w, CaState::Loss, SimTime::ZERO);
        assert_eq!(b.prior_cwnd, MSS, "`CongestionStateSet(CA_LOSS)` saves cwnd after the reset");
        assert!(b.round_start);
    }

    #[test]
    fn the_first_probe_bw_phase_is_drawn_from_six_and_from_the_flows_seed() {
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..200 {
            let (mut b, _) = bbr(seed);
            b.enter_probe_bw(SimTime::ZERO);
            seen.insert(b.cycle_index);
        }
        assert_eq!(seen.into_iter().collect::<Vec<_>>(), vec![0, 3, 4, 5, 6, 7]);
    }

    #[test]
    fn ack_aggregation_adds_what_arrived_beyond_the_rate_capped_at_a_tenth_of_a_second() {
        let (mut b, _) = bbr(1);
        b.pipe_filled = true;
        b.max_bw = MaxRateFilter::new(80_000);
        // A second after the epoch began 10 000 bytes were expected and none came: a new epoch.
        b.update_ack_aggregation(SimTime::from_secs_f64(1.0), 2 * MSS, true);
        assert_eq!(b.extra_acked[0], 2 * MSS);
        // Within the epoch's first whole second nothing is expected, so each ACK's bytes are
        // extra, until 4096 bytes (`AckEpochAckedResetThresh`) restart the epoch.
        b.update_ack_aggregation(SimTime::from_secs_f64(1.1), MSS, true);
        assert_eq!(b.ack_epoch_acked, MSS, "2896 + 1448 ≥ 4096: a new epoch");
        b.update_ack_aggregation(SimTime::from_secs_f64(1.2), MSS, true);
        assert_eq!(b.ack_epoch_acked, 2 * MSS);
        assert_eq!(b.extra_acked[0], 2 * MSS);
        assert_eq!(b.ack_aggregation_cwnd(), 1000, "at most 80 kbit/s for 0.1 s");
    }
}
