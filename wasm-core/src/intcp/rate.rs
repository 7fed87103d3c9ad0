//! Hop-by-hop rate control (docs/intcp-protocol.md §5): the requester of each hop measures it and
//! computes the rate it advertises on its INTERESTs; the responder paces DATA at that rate with
//! a token bucket (`token_bucket.rs`), and the rate travels as `rate_encoding.rs` writes it.
//!
//! Followed from the code [L] as docs/intcp-protocol.md directs: the hop RTT split into two
//! one-way delays (§5.1), the RTT-based (Vegas-like) congestion signal (§5.4), the cwnd → rate
//! conversion over the *minimum* hop RTT and the backpressure term with the code's sign (§5.6).
//! The paper's behaviour where it differs from the code (§13): a 5 s minimum-RTT window (code
//! 10 s), slow start that doubles cwnd per hop RTT (code: Hybla-like), additive increase of one
//! packet per cwnd of data (code: +1 per cwnd/10), decrease to k·BDP with k = 0.8. Rate probing,
//! the receive-rate span and slow start's limit are orbitcp's (docs/intcp-caching.md, "Rate
//! control").
//!
//! Mixed hops (§5.9): a hop's requester runs either INTCP's window (`IntcpWindow`) or TCP's
//! Reno (`reno_hop.rs`); `HopControl` records which. Both are advertised as a rate, so the hop's
//! responder paces either with the same token bucket, and at a midnode the backpressure term
//! caps either (the part the receive window plays in split TCP).

use super::reno_hop::{hop_rto, RenoHop};
use super::{BYTES_PER_S_PER_MBPS, CWND_MIN, SENDRATE_MAX_MBPS, SENDRATE_MIN_MBPS};
use crate::rtt::{SmoothedRtt, RFC6298_GAIN};
use crate::sim::{float, SimDuration, SimTime};
use std::collections::VecDeque;

/// The controller a hop's requester runs (the scenario's `hop_cc`, §5.9).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HopController {
    /// INTCP's delay- and buffer-based rate control (§5.4–§5.6).
    #[default]
    Intcp,
    /// A TCP-Reno-style window advertised as a rate (a terrestrial hop in a mixed path).
    Reno,
}

/// A receive-rate window that spans this many hop RTTs without DATA is an idle gap, not a rate
/// (docs/intcp-caching.md, "Rate control").
pub const IDLE_RTTS: u64 = 4;
/// The receive rate is measured over the last hop RTT, but over at most this many minimum hop
/// RTTs (docs/intcp-caching.md, "Rate control").
const MAX_RATE_SPAN_MIN_RTTS: u64 = 2;
/// Slow start grows the window only while its rate is below this multiple of the rate DATA
/// arrived at over the last hop RTT (docs/intcp-caching.md, "Rate control").
pub const MAX_RATE_OVER_RECEIVED: f64 = 2.0;

/// Rate probing's jump: a fresh receive-rate measurement this many times above both the window's
/// rate and the previous measurement means the link got faster (it drained its queue at a rate
/// the hop had never been paced at), and the window jumps to that rate at once
/// (docs/intcp-caching.md, "Rate control").
pub const RATE_JUMP_RATIO: f64 = 1.1;

/// Rate probing: this many probe rounds in a row above the last congestion window without a
/// queue mean the link has room the gentle probe would need many round trips to find, and the
/// window doubles per hop RTT again (slow start without its threshold) until a queue shows
/// (docs/intcp-caching.md, "Rate control").
pub const CLEAN_PROBE_ROUNDS_TO_SEARCH: u32 = 2;

/// A sample joins the minimum-RTT list once 1/this of an SRTT has passed since the newest
/// (half an SRTT, [L], §5.2).
const MIN_RTT_SAMPLE_SPACING_DIVISOR: u64 = 2;
/// Congestion avoidance is frozen for this many hop RTTs after a decrease ([L]: 2·hopSRTT,
/// §5.5; with rate probing, minimum hop RTTs).
const DECREASE_HOLD_OFF_RTTS: u64 = 2;
/// The hop is application-limited while it receives below this share of cwnd's rate ([L], §5.5).
const APP_LIMITED_RATE_SHARE: f64 = 0.5;
/// An application-limited hop shrinks cwnd after this many tenths of a cwnd of data ([L]: half
/// a cwnd, written as 5/10, §5.5)...
const APP_LIMITED_TENTHS_OF_CWND: f64 = 5.0;
/// ...by this many packets ([L], §5.5).
const APP_LIMITED_DECREASE_PKTS: f64 = 0.1;
/// A rate-refresh (empty) INTEREST is due once none went upstream for this share of the hop
/// SRTT ([L], §5.6).
const RATE_REFRESH_SRTTS: f64 = 0.9;
/// The smallest RTT, in seconds, a rate is computed over: a guard against dividing by zero
/// before the first minimum-RTT sample.
const MIN_RATE_RTT_S: f64 = 1e-6;

/// The smallest smoothed RTT INTCP keeps, a hop's or end to end (§7.3: `max(srtt, 1)`).
pub const SRTT_FLOOR: SimDuration = SimDuration::from_millis(1);

/// The hop CC's parameters (scenario fields of an INTCP flow), the same on every hop.
#[derive(Clone, Debug)]
pub struct CcParams {
    pub mss: u32,
    /// Slow-start exit threshold, packets (`SSTHRESH_INIT` = 100, §5.5).
    pub ssthresh_pkts: f64,
    /// Queue threshold M in bytes for the congestion signal (`QueueingThreshold` = 3000, §5.4).
    pub queue_threshold_bytes: f64,
    /// k in cwnd := k·BDP on congestion ([P] eq. 8 and [L]: 0.8; [I]: 0.9).
    pub decrease_factor: f64,
    /// Window of the minimum hop RTT ([P]: 5 s; [L]: 10 s).
    pub min_rtt_window: SimDuration,
    /// Target send-buffer length BL_tar, bytes (`SNDQ_MAX`: [I] 7·MSS, [L] 5·MSS).
    pub target_buffer_bytes: f64,
    pub min_rate_mbps: f64,
    pub max_rate_mbps: f64,
    /// Congestion-avoidance increase in packets per cwnd of data (paper: 1; [L]: 10, i.e. +1
    /// per cwnd/10).
    pub ca_increase_pkts: f64,
    /// Rate probing: the fraction of cwnd added per cwnd of data without a congestion signal
    /// (0: additive increase only).
    pub probe_gain: f64,
}

impl CcParams {
    /// The defaults of §14's orbitcp column.
    pub fn defaults(mss: u32) -> CcParams {
        CcParams {
            mss,
            ssthresh_pkts: 100.0,
            queue_threshold_bytes: 3000.0,
            decrease_factor: 0.8,
            min_rtt_window: SimDuration::from_millis(5000),
            target_buffer_bytes: 7.0 * mss as f64,
            min_rate_mbps: SENDRATE_MIN_MBPS,
            max_rate_mbps: SENDRATE_MAX_MBPS,
            ca_increase_pkts: 1.0,
            probe_gain: 1.0,
        }
    }
}

/// What a hop's requester controls its window with.
pub enum HopControl {
    /// INTCP's window (§5.2, §5.4–§5.6, with rate probing).
    Intcp(IntcpWindow),
    /// TCP's Reno (§5.9), boxed: its module state is four times the size of INTCP's window.
    Reno(Box<RenoHop>),
}

/// The requester side of one hop: what it measures of the hop, and the window it controls.
pub struct HopRateControl {
    p: CcParams,
    /// The smoothed hop RTT (`crate::rtt`, α = 1/8, at least 1 ms as in the authors' code).
    rtt: SmoothedRtt,
    /// Receive rate over the last hop RTT, Mbit/s (§5.3).
    pub thrp_mbps: f64,
    recvd_bytes: f64,
    last_thrp_update: SimTime,
    /// The measurement before the newest, while the newest is still to be acted on (rate
    /// probing's jump).
    fresh_thrp_after: Option<f64>,
    /// When this node last sent an INTEREST upstream (rate-refresh rule, §5.6).
    pub last_send_int: SimTime,
    pub control: HopControl,
}

/// INTCP's window of one hop (§5.2, §5.4, §5.5).
pub struct IntcpWindow {
    /// The (time, srtt) samples in the window that can still be its minimum (§5.2): a sample
    /// followed by one no larger never is, so these are in time order with rising srtt, the
    /// oldest is the minimum, and the newest sample is always the last.
    hrtt: VecDeque<(SimTime, SimDuration)>,
    /// The minimum of those samples; zero before the first.
    pub min_hrtt: SimDuration,
    /// Slow start re-entered by rate probing (no ssthresh: it ends at the first queue).
    pub resumed_slow_start: bool,
    /// Probe rounds in a row above `w_max` without a congestion signal.
    clean_probe_rounds: u32,
    pub cwnd: f64,
    pub slow_start: bool,
    cc_data_len: f64,
    last_decr: Option<SimTime>,
    /// Rate probing: the window at the last congestion signal (k·w_max is where cwnd went).
    pub w_max: f64,
}

impl HopRateControl {
    pub fn new(p: CcParams, controller: HopController) -> HopRateControl {
        let control = match controller {
            HopController::Intcp => HopControl::Intcp(IntcpWindow::new()),
            HopController::Reno => HopControl::Reno(Box::new(RenoHop::new(p.mss, p.ssthresh_pkts))),
        };
        HopRateControl {
            rtt: SmoothedRtt::new(RFC6298_GAIN).with_floor(SRTT_FLOOR),
            thrp_mbps: 0.0,
            recvd_bytes: 0.0,
            last_thrp_update: SimTime::ZERO,
            fresh_thrp_after: None,
            last_send_int: SimTime::ZERO,
            control,
            p,
        }
    }

    /// The smoothed hop RTT in ms; 0 until the first sample (for traces and results).
    pub fn srtt_ms(&self) -> f64 {
        self.rtt.srtt_ms()
    }

    /// The smoothed hop RTT, once there was a sample.
    pub fn srtt(&self) -> Option<SimDuration> {
        self.rtt.srtt()
    }

    /// The minimum hop RTT (§5.2); zero before the first sample, and on a Reno hop, which keeps
    /// none.
    pub fn min_hrtt(&self) -> SimDuration {
        match &self.control {
            HopControl::Intcp(w) => w.min_hrtt,
            HopControl::Reno(_) => SimDuration::ZERO,
        }
    }

    /// The minimum hop RTT in ms (for traces and results).
    pub fn min_hrtt_ms(&self) -> f64 {
        self.min_hrtt().as_millis_f64()
    }

    /// The hop RTO of a Reno hop (RFC 6298 from the hop RTT, at least 200 ms).
    pub fn hop_rto(&self) -> SimDuration {
        hop_rto(&self.rtt)
    }

    /// Window reductions of a Reno hop: (hop losses, hop timeouts); INTCP's window makes none.
    pub fn reductions(&self) -> (u64, u64) {
        match &self.control {
            HopControl::Intcp(_) => (0, 0),
            HopControl::Reno(r) => r.reductions,
        }
    }

    /// A loss on this hop was confirmed (a SeqHole this requester found). A Reno hop halves its
    /// window, once per hop RTT; INTCP's RTT-based control does not react to losses (§5.4: the
    /// loss-based scheme exists in the code but is not selected).
    pub fn on_hop_loss(&mut self, now: SimTime) {
        if let HopControl::Reno(r) = &mut self.control {
            r.on_hop_loss(now, self.rtt.srtt().unwrap_or(SimDuration::ZERO));
        }
    }

    /// The window in packets: a Reno hop's integer window, or INTCP's.
    pub fn cwnd_pkts(&self) -> f64 {
        match &self.control {
            HopControl::Intcp(w) => w.cwnd,
            HopControl::Reno(r) => r.w.cwnd as f64,
        }
    }

    /// On a DATA segment from the hop's responder: `ts` is its back-dated send time (§5.1),
    /// `seg_bytes` its size counted for throughput (header + payload, as [L]), `payload` its
    /// payload length.
    pub fn on_data(&mut self, now: SimTime, ts: SimTime, seg_bytes: u32, payload: u32) {
        if let HopControl::Reno(r) = &mut self.control {
            r.check_timeout(now, self.last_send_int, &self.rtt);
        }
        if now > ts {
            if self.rtt.srtt().is_none() {
                self.last_thrp_update = now;
            }
            self.rtt.sample(now - ts);
        }
        if let Some(srtt) = self.srtt() {
            let elapsed = now.saturating_since(self.last_thrp_update);
            if elapsed > SimDuration(IDLE_RTTS * srtt.0) {
                // Nothing came for several hop RTTs (an outage, or nothing asked): the gap says
                // nothing about the hop's rate, so the window restarts without a measurement.
                self.recvd_bytes = seg_bytes as f64;
                self.last_thrp_update = now;
            } else {
                self.recvd_bytes += seg_bytes as f64;
            }
            let elapsed = now.saturating_since(self.last_thrp_update);
            // Over the last hop RTT, but at most two minimum hop RTTs: while a queue builds faster
            // than time passes (35 → 5 Mbit/s into a 1000-packet buffer adds 3.4 s of RTT per
            // second) a span of srtt never ends, and a decrease from the stale rate never lowers
            // the window.
            let span = match self.min_hrtt() {
                SimDuration::ZERO => srtt,
                min => srtt.min(SimDuration(MAX_RATE_SPAN_MIN_RTTS * min.0)),
            };
            if elapsed > span {
                self.fresh_thrp_after = Some(self.thrp_mbps);
                self.thrp_mbps = self.recvd_bytes * 8.0 / 1e6 / elapsed.as_secs_f64();
                self.recvd_bytes = 0.0;
                self.last_thrp_update = now;
            }
        }
        let rtt = (now > ts).then(|| now - ts);
        let srtt = self.srtt();
        match &mut self.control {
            HopControl::Reno(r) => r.on_data(now, payload, rtt, srtt),
            HopControl::Intcp(w) => {
                let Some(srtt) = srtt else {
                    w.cc_data_len += payload as f64;
                    return;
                };
                let fresh = self.fresh_thrp_after.take();
                w.on_data(now, payload, srtt, self.thrp_mbps, fresh, &self.p);
            }
        }
    }

    /// The rate to advertise upstream (§5.6). `backpressure` = (own send-queue bytes, the rate
    /// the downstream requester asked of this node) at a midnode; None at the consumer.
    pub fn rate_mbps(&self, backpressure: Option<(f64, f64)>) -> f64 {
        let Some(srtt) = self.srtt() else {
            return self.p.min_rate_mbps;
        };
        // INTCP divides by the minimum hop RTT (§5.6); a Reno window is worth cwnd per srtt.
        let (cwnd, rtt) = match &self.control {
            HopControl::Intcp(w) => (w.cwnd, w.min_hrtt),
            HopControl::Reno(r) => (r.w.cwnd as f64, srtt),
        };
        // `float`'s max and min, which wasm runs as instructions, give std's answers here: the
        // window is finite and at least +0 (it starts at CWND_MIN, and every rule keeps it so),
        // so `rate` is never NaN or -0; nor is `bp`, whose last term (a decoded wire rate) is
        // at least +0; and the scenario's rate bounds are finite and positive.
        let mut rate = cwnd * self.p.mss as f64 * 8.0 / 1e6 / float::max(MIN_RATE_RTT_S, rtt.as_secs_f64());
        if let Some((queued, next_hop_rate)) = backpressure {
            let bp = (self.p.target_buffer_bytes - queued) * 8.0 / 1e6 / srtt.as_secs_f64() + next_hop_rate;
            rate = float::min(rate, bp);
        }
        float::min(float::max(self.p.min_rate_mbps, rate), self.p.max_rate_mbps)
    }

    /// Whether a rate-refresh (empty) INTEREST is due: none sent for more than 0.9·hopSRTT.
    /// It is asked at every DATA, and most come within half a hop SRTT of the last INTEREST:
    /// that answers no without the product's conversions to and from f64, since 0.9·s rounds
    /// to at least s/2 for every s (`a_refresh_is_never_due_within_half_an_srtt`).
    pub fn refresh_due(&self, now: SimTime) -> bool {
        self.srtt().is_some_and(|srtt| {
            let idle = now.saturating_since(self.last_send_int);
            idle.0 > srtt.0 / 2 && idle > srtt.mul_f64(RATE_REFRESH_SRTTS)
        })
    }
}

impl IntcpWindow {
    fn new() -> IntcpWindow {
        IntcpWindow {
            hrtt: VecDeque::new(),
            min_hrtt: SimDuration::ZERO,
            resumed_slow_start: false,
            clean_probe_rounds: 0,
            cwnd: CWND_MIN,
            slow_start: true,
            cc_data_len: 0.0,
            last_decr: None,
            w_max: 0.0,
        }
    }

    /// The window's rate over the minimum hop RTT, Mbit/s.
    pub fn window_rate_mbps(&self, mss: u32) -> f64 {
        self.cwnd * mss as f64 * 8.0 / 1e6 / float::max(MIN_RATE_RTT_S, self.min_hrtt.as_secs_f64())
    }

    /// Rate probing found room (a jump, or clean probe rounds): double per hop RTT until a queue.
    fn resume_slow_start(&mut self) {
        self.slow_start = true;
        self.resumed_slow_start = true;
        self.clean_probe_rounds = 0;
    }

    /// Queued bytes implied by the RTT above its minimum (§5.4).
    fn queue_bytes(&self, srtt: SimDuration, thrp_mbps: f64) -> f64 {
        thrp_mbps * BYTES_PER_S_PER_MBPS * (srtt - self.min_hrtt).as_secs_f64()
    }

    /// The window's rules on a DATA segment of `payload` bytes, once the hop has an SRTT:
    /// `thrp_mbps` is the receive rate, `fresh` the measurement before it if it is new.
    fn on_data(
        &mut self,
        now: SimTime,
        payload: u32,
        srtt: SimDuration,
        thrp_mbps: f64,
        fresh: Option<f64>,
        p: &CcParams,
    ) {
        let mss = p.mss as f64;
        self.cc_data_len += payload as f64;
        // §5.2: the minimum of the smoothed hop RTT over the window (empty queue: append, Q2).
        while self.hrtt.front().is_some_and(|&(t, _)| now.saturating_since(t) > p.min_rtt_window) {
            self.hrtt.pop_front();
        }
        if self
            .hrtt
            .back()
            .is_none_or(|&(t, _)| now.saturating_since(t) >= SimDuration(srtt.0 / MIN_RTT_SAMPLE_SPACING_DIVISOR))
        {
            while self.hrtt.back().is_some_and(|&(_, r)| r >= srtt) {
                self.hrtt.pop_back();
            }
            self.hrtt.push_back((now, srtt));
        }
        self.min_hrtt = self.hrtt.front().map_or(srtt, |&(_, r)| r);
        let cong = self.queue_bytes(srtt, thrp_mbps) > p.queue_threshold_bytes;
        if let Some(previous) = fresh.filter(|_| p.probe_gain > 0.0) {
            // A link that speeds up shows it within one hop RTT: the queue it holds leaves at the
            // new rate, faster than this hop was ever paced and faster than it delivered before.
            // That rate is a measurement of the link, so the window takes it at once instead of
            // probing its way there (5 → 35 Mbit/s over a 100 ms hop RTT takes ~8 RTTs of
            // probing). The test against the previous measurement keeps a queue draining after
            // a cut (arrivals at the unchanged link rate) from undoing the cut.
            if previous > 0.0 && thrp_mbps > RATE_JUMP_RATIO * self.window_rate_mbps(p.mss).max(previous) {
                self.cwnd = thrp_mbps * BYTES_PER_S_PER_MBPS * self.min_hrtt.as_secs_f64() / mss;
                self.w_max = self.w_max.max(self.cwnd);
                self.resume_slow_start();
            }
        }
        if self.slow_start {
            if cong || (!self.resumed_slow_start && self.cwnd >= p.ssthresh_pkts) {
                self.resumed_slow_start = false;
                self.slow_start = false;
                self.w_max = self.cwnd;
                self.cc_data_len = self.cwnd * mss;
            } else {
                // The paper's slow start: cwnd doubles per hop RTT (+1 packet per packet received),
                // but only while the window is what limits the arrivals (Linux's
                // `tcp_is_cwnd_limited` in slow start). On a chain the data arrives at the pace of
                // the slowest hop upstream, never with a congestion signal here, so an unchecked
                // window doubles up to ssthresh and the hop advertises several times its link
                // (60-110 Mbit/s on 20-30 Mbit/s links): a window at most twice the rate that
                // arrived over the last hop RTT still doubles every RTT while it is used.
                if thrp_mbps == 0.0 || self.window_rate_mbps(p.mss) < MAX_RATE_OVER_RECEIVED * thrp_mbps {
                    self.cwnd += payload as f64 / mss;
                }
                return;
            }
        }
        // The code freezes cwnd for 2·hopSRTT after a decrease (§5.5). With rate probing the
        // hold-off is 2·minimum hop RTT: a standing queue inflates the smoothed RTT (a
        // 1000-packet buffer at 5 Mbit/s holds 2.4 s), and a hold-off that long lets the queue
        // grow for seconds after a link slows down. The decrease sets cwnd from the measured
        // rate, not from cwnd, so repeating it while the queue drains does not compound.
        let probing = p.probe_gain > 0.0;
        let hold = if probing { self.min_hrtt } else { srtt };
        let allow =
            self.last_decr.is_none_or(|t| now.saturating_since(t) >= SimDuration(DECREASE_HOLD_OFF_RTTS * hold.0));
        if !allow {
            return;
        }
        if cong {
            self.clean_probe_rounds = 0;
            let bdp_pkts = thrp_mbps * BYTES_PER_S_PER_MBPS * self.min_hrtt.as_secs_f64() / mss;
            self.w_max = bdp_pkts;
            self.cwnd = (p.decrease_factor * bdp_pkts).max(CWND_MIN);
            self.last_decr = Some(now);
            self.cc_data_len = 0.0;
        } else {
            let cwnd_rate_mbps = self.cwnd * mss * 8.0 / 1e6 / srtt.as_secs_f64();
            let allow_inc = thrp_mbps == 0.0 || thrp_mbps >= APP_LIMITED_RATE_SHARE * cwnd_rate_mbps;
            if allow_inc && self.cc_data_len > self.cwnd * mss / p.ca_increase_pkts {
                // The paper's additive increase: one packet per cwnd of data (≈ per hop RTT)
                // with ca_increase_pkts = 1; the code's +1 per cwnd/10 with 10. Rate probing
                // (probe_gain g > 0): back to the window at the last congestion (w_max) at once,
                // then the excess over it grows by g per hop RTT (1, 2, 4, ... packets with g =
                // 1), so a link that got faster is found within a few round trips while a steady
                // one is probed gently.
                let inc = if !probing {
                    1.0
                } else if self.cwnd < self.w_max {
                    (self.w_max - self.cwnd).max(1.0)
                } else {
                    (p.probe_gain * (self.cwnd - self.w_max)).max(1.0)
                };
                self.cwnd += inc;
                self.cc_data_len = 0.0;
                if probing && self.cwnd > self.w_max {
                    self.clean_probe_rounds += 1;
                    if self.clean_probe_rounds >= CLEAN_PROBE_ROUNDS_TO_SEARCH {
                        self.resume_slow_start();
                    }
                }
            } else if !allow_inc && self.cc_data_len > APP_LIMITED_TENTHS_OF_CWND * self.cwnd * mss / 10.0 {
                self.cwnd = (self.cwnd - APP_LIMITED_DECREASE_PKTS).max(CWND_MIN);
                self.cc_data_len = 0.0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::congestion::{CaState, Window};

    fn params() -> CcParams {
        CcParams::defaults(1449)
    }

    fn intcp() -> HopRateControl {
        HopRateControl::new(params(), HopController::Intcp)
    }

    /// An INTCP hop's window.
    fn window(cc: &HopRateControl) -> &IntcpWindow {
        match &cc.control {
            HopControl::Intcp(w) => w,
            HopControl::Reno(_) => panic!("an INTCP hop"),
        }
    }

    /// A Reno hop's state.
    fn reno_hop(cc: &HopRateControl) -> &RenoHop {
        match &cc.control {
            HopControl::Reno(r) => r,
            HopControl::Intcp(_) => panic!("a Reno hop"),
        }
    }

    /// The instant `ms` milliseconds after a start 1 s into the run (so that back-dated send
    /// times before it stay positive).
    fn t(ms: f64) -> SimTime {
        SimTime::from_secs_f64((1000.0 + ms) / 1e3)
    }

    fn ms(d: f64) -> SimDuration {
        SimDuration::from_secs_f64(d / 1e3)
    }

    #[test]
    fn the_hop_rtt_is_the_sum_of_both_one_way_delays_smoothed_rfc6298_style() {
        let mut cc = intcp();
        // The responder back-dates ts by the interest OWD (10 ms); data takes 15 ms.
        cc.on_data(t(125.0), t(100.0), 1472, 1449);
        assert_eq!(cc.srtt_ms(), 25.0);
        assert_eq!(cc.rtt.rttvar_ms(), 12.5);
        cc.on_data(t(200.0), t(167.0), 1472, 1449);
        assert_eq!(cc.srtt_ms(), (7.0 * 25.0 + 33.0) / 8.0);
    }

    #[test]
    fn the_minimum_hop_rtt_is_the_smallest_sample_of_the_window() {
        let mut cc = HopRateControl::new(CcParams { min_rtt_window: ms(300.0), ..params() }, HopController::Intcp);
        // Every sample the window took (one per half smoothed RTT), kept in full.
        let mut samples: Vec<(SimTime, SimDuration)> = Vec::new();
        let mut x = 11u64;
        let mut now = 0.0;
        for _ in 0..3000 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            now += 0.5 + (x >> 60) as f64;
            let rtt = 5.0 + ((x >> 33) % 40) as f64;
            cc.on_data(t(now), t(now - rtt), 1472, 1449);
            let srtt = cc.srtt().expect("sampled");
            let newest = samples.iter().rev().find(|&&(at, _)| t(now).saturating_since(at) <= ms(300.0));
            if newest.is_none_or(|&(at, _)| t(now).saturating_since(at) >= SimDuration(srtt.0 / 2)) {
                samples.push((t(now), srtt));
            }
            let in_window = samples.iter().filter(|&&(at, _)| t(now).saturating_since(at) <= ms(300.0));
            assert_eq!(window(&cc).min_hrtt, in_window.map(|&(_, r)| r).min().expect("one sample"));
        }
    }

    #[test]
    fn before_any_sample_the_advertised_rate_is_the_minimum() {
        let cc = intcp();
        assert_eq!(cc.rate_mbps(None), SENDRATE_MIN_MBPS);
    }

    #[test]
    fn slow_start_doubles_cwnd_per_hop_rtt_and_the_rate_uses_the_minimum_rtt() {
        let mut cc = intcp();
        let mut now = 0.0;
        for _ in 0..10 {
            now += 1.0;
            cc.on_data(t(now), t(now - 20.0), 1472, 1449);
        }
        assert!(window(&cc).slow_start);
        assert!((window(&cc).cwnd - 10.2).abs() < 1e-9);
        let r = cc.rate_mbps(None);
        assert!((r - 10.2 * 1449.0 * 8.0 / 1e6 / 20.0 * 1000.0).abs() < 1e-9, "{r}");
    }

    #[test]
    fn a_queue_above_m_bytes_cuts_cwnd_to_k_times_the_bdp() {
        let mut cc = intcp();
        let mut now = 0.0;
        // 1 packet per ms (≈ 11.8 Mbit/s) at a 20 ms hop RTT, then the RTT grows to 40 ms.
        for i in 0..400 {
            now += 1.0;
            let rtt = if i < 200 { 20.0 } else { 40.0 };
            cc.on_data(t(now), t(now - rtt), 1472, 1449);
        }
        assert!(!window(&cc).slow_start);
        let bdp = cc.thrp_mbps * 125.0 * cc.min_hrtt_ms() / 1449.0;
        assert!(window(&cc).cwnd <= 0.8 * bdp + 1.0 + 1e-9, "cwnd {} bdp {bdp}", window(&cc).cwnd);
    }

    #[test]
    fn a_filling_send_queue_lowers_the_midnode_rate_to_the_next_hop_rate_or_below() {
        let mut cc = intcp();
        for i in 0..50 {
            cc.on_data(t(i as f64), t(i as f64 - 20.0), 1472, 1449);
        }
        let free = cc.rate_mbps(Some((0.0, 5.0)));
        let full = cc.rate_mbps(Some((7.0 * 1449.0, 5.0)));
        let over = cc.rate_mbps(Some((20.0 * 1449.0, 5.0)));
        assert!(free > 5.0);
        assert!((full - 5.0).abs() < 1e-9, "{full}");
        assert!(over < 5.0);
        assert!(cc.rate_mbps(Some((1e9, 5.0))) >= SENDRATE_MIN_MBPS);
    }

    fn reno() -> HopRateControl {
        HopRateControl::new(params(), HopController::Reno)
    }

    /// Feeds `n` full DATA segments one per ms at a `rtt` ms hop RTT, with an interest sent
    /// just before each; returns the time of the last.
    fn feed(cc: &mut HopRateControl, from_ms: f64, n: usize, rtt: f64) -> f64 {
        let mut now = from_ms;
        for _ in 0..n {
            now += 1.0;
            cc.last_send_int = t(now - 0.5);
            cc.on_data(t(now), t(now - rtt), 1472, 1449);
        }
        now
    }

    /// A Reno hop's integer window (TCP's `Window`), packets.
    fn win(cc: &HopRateControl) -> &Window {
        &reno_hop(cc).w
    }

    #[test]
    fn a_reno_hop_slow_starts_one_packet_per_packet_then_adds_one_packet_per_window() {
        let mut cc = reno();
        let now = feed(&mut cc, 0.0, 97, 40.0);
        // 3 initial + 1 per packet, up to ssthresh (100).
        assert_eq!(win(&cc).cwnd, 100);
        assert_eq!(cc.cwnd_pkts(), 100.0);
        feed(&mut cc, now, 99, 40.0);
        assert_eq!(win(&cc).cwnd, 100);
        feed(&mut cc, now + 99.0, 1, 40.0);
        assert_eq!(win(&cc).cwnd, 101);
    }

    #[test]
    fn a_reno_hop_advertises_its_window_over_the_smoothed_hop_rtt() {
        let mut cc = reno();
        feed(&mut cc, 0.0, 20, 40.0);
        let want = win(&cc).cwnd as f64 * 1449.0 * 8.0 / 1e6 / cc.srtt_ms() * 1000.0;
        assert!((cc.rate_mbps(None) - want).abs() < 1e-9);
    }

    #[test]
    fn a_reno_hop_halves_its_window_on_a_hop_loss_once_per_hop_rtt() {
        let mut cc = reno();
        let now = feed(&mut cc, 0.0, 60, 40.0);
        assert_eq!(win(&cc).cwnd, 63);
        cc.on_hop_loss(t(now));
        assert_eq!((win(&cc).cwnd, win(&cc).ssthresh), (31, 31));
        assert_eq!(reno_hop(&cc).state, CaState::Recovery);
        // A second loss within the same hop RTT belongs to the same window.
        cc.on_hop_loss(t(now + 10.0));
        assert_eq!(cc.reductions(), (1, 0));
        assert_eq!(win(&cc).cwnd, 31);
        // One hop RTT later Recovery is over, and a loss halves again.
        let now = feed(&mut cc, now, 45, 40.0);
        assert_eq!(reno_hop(&cc).state, CaState::Open);
        let w = win(&cc).cwnd;
        cc.on_hop_loss(t(now));
        assert_eq!(win(&cc).cwnd, w / 2);
        assert_eq!(cc.reductions(), (2, 0));
    }

    #[test]
    fn a_reno_hop_collapses_to_one_packet_after_a_hop_timeout_and_slow_starts_again() {
        let mut cc = reno();
        let now = feed(&mut cc, 0.0, 60, 40.0);
        let w = win(&cc).cwnd;
        // An interest went out, then nothing came back for longer than the hop RTO.
        cc.last_send_int = t(now + 1.0);
        let later = t(now + 5.0) + cc.hop_rto();
        cc.on_data(later, SimTime(later.0 - ms(40.0).0), 1472, 1449);
        assert_eq!(cc.reductions(), (0, 1));
        assert_eq!(win(&cc).ssthresh, w / 2);
        assert_eq!(reno_hop(&cc).state, CaState::Loss);
        // The loss window of 1, and +1 for the DATA that revealed the timeout (slow start).
        assert_eq!(win(&cc).cwnd, 2);
        // A pause with no interest outstanding is not a timeout.
        let mut idle = reno();
        let now = feed(&mut idle, 0.0, 10, 40.0);
        idle.on_data(t(now + 5000.0), t(now + 4960.0), 1472, 1449);
        assert_eq!(idle.reductions(), (0, 0));
    }

    #[test]
    fn intcp_hops_ignore_hop_losses() {
        let mut cc = intcp();
        let now = feed(&mut cc, 0.0, 60, 40.0);
        let w = cc.cwnd_pkts();
        cc.on_hop_loss(t(now));
        assert_eq!(cc.cwnd_pkts(), w);
    }

    /// Delivers `n` full segments `gap` ms apart, the hop RTT of each given by `rtt(i)`; returns
    /// the time of the last.
    fn deliver(cc: &mut HopRateControl, from_ms: f64, n: usize, gap: f64, rtt: impl Fn(usize) -> f64) -> f64 {
        let mut now = from_ms;
        for i in 0..n {
            now += gap;
            cc.on_data(t(now), t(now - rtt(i)), 1472, 1449);
        }
        now
    }

    #[test]
    fn a_link_that_drains_faster_than_ever_before_moves_the_window_to_its_rate_at_once() {
        let mut cc = intcp();
        // 5.9 Mbit/s (one 1472-byte segment per 2 ms) at a 20 ms hop RTT: the window settles
        // near twice that, the most slow start lets it grow to over what arrives.
        let now = deliver(&mut cc, 0.0, 200, 2.0, |_| 20.0);
        assert!(window(&cc).window_rate_mbps(1449) < 15.0, "{}", window(&cc).window_rate_mbps(1449));
        // The link speeds up and drains at 47 Mbit/s (a segment per 0.25 ms) for 30 ms.
        deliver(&mut cc, now, 120, 0.25, |_| 20.0);
        assert!(window(&cc).window_rate_mbps(1449) > 40.0, "{}", window(&cc).window_rate_mbps(1449));
        // The jump (slow start's doubling alone leaves w_max alone) and the search beyond it.
        let w_max_rate = window(&cc).w_max * 1449.0 * 8.0 / 1e6 / window(&cc).min_hrtt.as_secs_f64();
        assert!(w_max_rate > 40.0, "{w_max_rate}");
        assert!(window(&cc).slow_start && window(&cc).resumed_slow_start);
    }

    #[test]
    fn a_queue_draining_after_a_cut_does_not_undo_the_cut() {
        let mut cc = intcp();
        // 11.8 Mbit/s at a 20 ms hop RTT, then a queue: the RTT is 40 ms and the window is cut.
        let now = deliver(&mut cc, 0.0, 200, 1.0, |_| 20.0);
        let now = deliver(&mut cc, now, 60, 1.0, |_| 40.0);
        let cut = window(&cc).cwnd;
        let bdp = cc.thrp_mbps * 125.0 * cc.min_hrtt_ms() / 1449.0;
        assert!(cut <= 0.8 * bdp + 1.0, "cwnd {cut} bdp {bdp}");
        // The queue drains: segments keep arriving at the link's unchanged rate while the RTT
        // falls back; the receive rate is no news, so the window stays where the cut put it
        // until the hold-off ends (two minimum RTTs).
        deliver(&mut cc, now, 30, 1.0, |i| 40.0 - i as f64 * 0.5);
        assert!(window(&cc).cwnd <= cut + 1e-9, "{} after a cut to {cut}", window(&cc).cwnd);
    }

    #[test]
    fn two_probe_rounds_without_a_queue_resume_doubling_until_a_queue_shows() {
        let mut cc = intcp();
        // A cut (the queue of a 40 ms RTT), then a link with room: no queue, and every window
        // is delivered (arrivals at the window's rate).
        let now = deliver(&mut cc, 0.0, 200, 1.0, |_| 20.0);
        let mut now = deliver(&mut cc, now, 60, 1.0, |_| 40.0);
        assert!(!window(&cc).slow_start);
        let w_max = window(&cc).w_max;
        let mut rounds = 0;
        while !window(&cc).slow_start && rounds < 50 {
            let (n, gap) = (window(&cc).cwnd.ceil() as usize, 20.0 / window(&cc).cwnd.max(1.0));
            now = deliver(&mut cc, now, n, gap, |_| 20.0);
            rounds += 1;
        }
        assert!(window(&cc).slow_start && window(&cc).resumed_slow_start, "still probing after {rounds} windows");
        // The hold-off's window, the return to w_max, and the probes of 1 and 2 packets.
        assert!(rounds <= 4, "the search began after {rounds} windows (w_max {w_max})");
        // Slow start's growth, gated by what arrives: two more delivered windows more than
        // double it, where probing would have added 4 and 8 packets.
        let w = window(&cc).cwnd;
        for _ in 0..2 {
            let (n, gap) = (window(&cc).cwnd.ceil() as usize, 20.0 / window(&cc).cwnd);
            now = deliver(&mut cc, now, n, gap, |_| 20.0);
        }
        assert!(window(&cc).cwnd > 2.0 * w, "{} from {w}", window(&cc).cwnd);
        // ...beyond ssthresh (100 packets), which bounds only the first slow start, until a
        // queue shows.
        deliver(&mut cc, now, 40, 0.2, |_| 40.0);
        assert!(!window(&cc).slow_start && !window(&cc).resumed_slow_start);
    }

    #[test]
    fn a_refresh_is_never_due_within_half_an_srtt() {
        let small = 0..100_000u64;
        let large = (0..64).flat_map(|b| [(1u64 << b) - 1, 1 << b, (1 << b) + 1, u64::MAX >> b]);
        for s in small.chain(large) {
            assert!(SimDuration(s).mul_f64(RATE_REFRESH_SRTTS).0 >= s / 2, "{s}");
        }
    }

    proptest::proptest! {
        #[test]
        fn a_refresh_is_never_due_within_half_an_srtt_for_any_srtt(s in proptest::prelude::any::<u64>()) {
            proptest::prop_assert!(SimDuration(s).mul_f64(RATE_REFRESH_SRTTS).0 >= s / 2);
        }
    }

    #[test]
    fn the_receive_rate_is_measured_while_the_rtt_grows_faster_than_time() {
        let mut cc = intcp();
        // 47 Mbit/s at a 20 ms hop RTT; then the link slows to 5.9 Mbit/s and its queue adds
        // 3.4 ms of RTT per ms (35 → 5 Mbit/s into a large buffer).
        let now = deliver(&mut cc, 0.0, 400, 0.25, |_| 20.0);
        assert!(cc.thrp_mbps > 40.0, "{}", cc.thrp_mbps);
        deliver(&mut cc, now, 50, 2.0, |i| 20.0 + 6.8 * i as f64);
        // Within 100 ms the rate measured is the new one, though the smoothed RTT (the span of
        // the paper's measurement) grew past 100 ms.
        assert!(cc.srtt_ms() > 100.0, "{}", cc.srtt_ms());
        assert!(cc.thrp_mbps < 8.0, "still {} Mbit/s", cc.thrp_mbps);
    }
}
