//! Congestion control: one trait, one file per algorithm, one enum that dispatches.
//!
//! The interface is the Linux `tcp_congestion_ops` one (docs/congestion-control.md §1.2): the stack owns the
//! [`Window`] (cwnd, ssthresh and the fractional counter `cwnd_cnt`, in packets) and calls the
//! module's hooks at the same points the kernel does. Modules are kernel-faithful by default,
//! including integer arithmetic where it visibly changes behaviour.
//!
//! When the stack calls what:
//! - `init` once, after the initial window is set (Hybla overrides it).
//! - `pkts_acked` on every ACK that acknowledges (cumulatively or by SACK) new packets, before
//!   `cong_avoid`, with the RTT sample if there is a valid one (Karn).
//! - `cong_avoid` on ACKs of new data in the Open, Disorder and Loss states (not in Recovery).
//! - `ssthresh` on entering Recovery and on the first RTO of a loss episode, *before* the
//!   matching `set_state` (Linux `tcp_enter_recovery` / `tcp_enter_loss` order; CUBIC relies on
//!   it: `set_state(Loss)` after `ssthresh()` leaves W_max = 0 after an RTO).
//! - `set_state` before every change of [`CaState`].
//! - `cwnd_event(Loss)` on an RTO comes after `ssthresh()` and before `set_state(Loss)`.
//! - `cwnd_event` for `CompleteCwr` (leaving Recovery) and `Loss` (an RTO).
//! - `in_ack_event` on every incoming ACK (Westwood+ measures bandwidth here).
//! - `undo_cwnd` when a reduction is undone as spurious (Linux `tcp_undo_cwnd_reduction`, see
//!   `sender/undo.rs`), before ssthresh is set back and before `set_state(Open)`.

use crate::sim::rng::{Rng, Stream};
use crate::sim::{SimDuration, SimTime};
use serde::{Deserialize, Serialize};

pub mod bbr;
pub mod bbr_ns3;
pub mod bic;
pub mod cubic;
pub mod cubic_ns3;
pub mod highspeed;
pub mod htcp;
pub mod hybla;
pub mod reno;
pub mod scalable;
pub mod vegas;
pub mod veno;
pub mod westwood;

#[cfg(test)]
pub mod testing;

/// What a module's congestion avoidance does with the packets ACKed beyond what slow start needed
/// to reach ssthresh ([`Window::avoidance_acks`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeftOver {
    /// Counts them in the same ACK (`tcp_slow_start`'s return value: Reno, BIC, CUBIC, Scalable).
    Carry,
    /// Drops them: the module returns after slow start (HighSpeed, H-TCP).
    Drop,
}

/// The window the stack owns and the modules adjust. Units are packets (segments).
#[derive(Clone, Debug, PartialEq)]
pub struct Window {
    pub cwnd: u32,
    pub ssthresh: u32,
    /// Linux `snd_cwnd_cnt`: ACKed packets not yet turned into a whole-packet increase.
    pub cwnd_cnt: u32,
    /// Linux `snd_cwnd_clamp`: cwnd never exceeds this.
    pub cwnd_clamp: u32,
    /// cwnd before the last reduction (for undo and for PRR-style accounting).
    pub prior_cwnd: u32,
    /// Maximum segment size in bytes, for modules that convert bytes to packets.
    pub mss: u32,
}

/// Linux `TCP_INFINITE_SSTHRESH`.
pub const INFINITE_SSTHRESH: u32 = 0x7fff_ffff;

impl Window {
    pub fn new(initial_cwnd: u32, initial_ssthresh: Option<u32>, mss: u32) -> Window {
        Window {
            cwnd: initial_cwnd.max(1),
            ssthresh: initial_ssthresh.unwrap_or(INFINITE_SSTHRESH),
            cwnd_cnt: 0,
            cwnd_clamp: u32::MAX / 2,
            prior_cwnd: initial_cwnd.max(1),
            mss,
        }
    }

    /// Linux `tcp_in_slow_start`: strictly below ssthresh.
    pub fn in_slow_start(&self) -> bool {
        self.cwnd < self.ssthresh
    }

    /// Linux `tcp_slow_start`: grow by `acked`, capped at ssthresh; returns the ACKs left over
    /// for congestion avoidance in the same ACK.
    pub fn slow_start(&mut self, acked: u32) -> u32 {
        let new = self.cwnd.saturating_add(acked).min(self.ssthresh);
        let left = acked - (new - self.cwnd).min(acked);
        self.cwnd = new.min(self.cwnd_clamp);
        left
    }

    /// Linux `tcp_cong_avoid_ai`: add one packet for every `w` packets ACKed.
    pub fn cong_avoid_ai(&mut self, w: u32, acked: u32) {
        let w = w.max(1);
        if self.cwnd_cnt >= w {
            self.cwnd_cnt = 0;
            self.cwnd = self.cwnd.saturating_add(1);
        }
        self.cwnd_cnt += acked;
        if self.cwnd_cnt >= w {
            let delta = self.cwnd_cnt / w;
            self.cwnd_cnt -= delta * w;
            self.cwnd = self.cwnd.saturating_add(delta);
        }
        self.cwnd = self.cwnd.min(self.cwnd_clamp);
    }

    /// Linux `tcp_reno_cong_avoid` body (the caller has checked cwnd-limitedness).
    pub fn reno_cong_avoid(&mut self, acked: u32) {
        let Some(acked) = self.slow_start_then(acked, LeftOver::Carry) else { return };
        let w = self.cwnd;
        self.cong_avoid_ai(w, acked);
    }

    /// The start of every loss-based module's `cong_avoid` in Linux: nothing while the window
    /// does not limit the sender (`tcp_is_cwnd_limited`), then slow start takes its share of the
    /// ACK. Returns the packets ACKed that are left for congestion avoidance, `None` when there is
    /// nothing for it to do.
    pub fn avoidance_acks(&mut self, ack: &AckSample, left_over: LeftOver) -> Option<u32> {
        if !ack.cwnd_limited {
            return None;
        }
        self.slow_start_then(ack.acked, left_over)
    }

    fn slow_start_then(&mut self, acked: u32, left_over: LeftOver) -> Option<u32> {
        if !self.in_slow_start() {
            return Some(acked);
        }
        let left = self.slow_start(acked);
        match left_over {
            LeftOver::Carry if left > 0 => Some(left),
            _ => None,
        }
    }

    /// Linux `tcp_reno_ssthresh`.
    pub fn reno_ssthresh(&self) -> u32 {
        (self.cwnd >> 1).max(2)
    }
}

/// Linux `icsk_ca_state`, the congestion state the stack is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CaState {
    Open,
    Disorder,
    Recovery,
    Loss,
}

/// Events a module may react to (Linux `tcp_ca_event`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CwndEvent {
    /// First transmission after an idle period.
    TxStart,
    /// Leaving Recovery (Westwood+ sets cwnd to its bandwidth estimate here).
    CompleteCwr,
    /// A retransmission timeout.
    Loss,
}

/// What an ACK tells the module.
#[derive(Clone, Copy, Debug)]
pub struct AckSample {
    pub now: SimTime,
    /// Packets newly acknowledged by this ACK, cumulatively or by SACK.
    pub acked: u32,
    /// Bytes newly acknowledged cumulatively (`snd_una` advance).
    pub acked_bytes: u64,
    /// The RTT sample of this ACK, if it has a valid one (never from a retransmission).
    pub rtt: Option<SimDuration>,
    /// Smoothed RTT after this ACK's sample.
    pub srtt: Option<SimDuration>,
    /// Packets in flight after this ACK.
    pub in_flight: u32,
    /// Whether the sender was limited by cwnd (Linux `tcp_is_cwnd_limited`).
    pub cwnd_limited: bool,
    /// Sequence state, in bytes: the cumulative ACK and the next byte to send.
    pub snd_una: u64,
    pub snd_nxt: u64,
    /// True when the ACK carried no new cumulative or SACK information (a pure duplicate).
    pub dupack: bool,
}

/// What an algorithm that sets the window itself (`cong_control`, as BBR does) sees per ACK.
#[derive(Clone, Copy, Debug)]
pub struct ControlSample {
    pub ack: AckSample,
    pub rate: crate::tcp::rate::RateSample,
    /// The state after this ACK's loss detection.
    pub state: CaState,
    /// Packets in flight after loss detection.
    pub in_flight: u32,
    /// The RTT estimator's last sample (ns-3's `m_lastRtt`) and its minimum (`m_minRtt`).
    pub latest_rtt: Option<SimDuration>,
    pub min_rtt: Option<SimDuration>,
}

/// The figures every algorithm exposes, so the UI charts them all the same way.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CcMetrics {
    pub cwnd: u32,
    pub ssthresh: u32,
    /// Pacing rate in bit/s, for algorithms that pace.
    pub pacing_bps: Option<f64>,
}

/// A congestion-control module. `ssthresh` and `cong_avoid` are required; the other hooks
/// default to what a module that ignores them does in Linux.
pub trait CongestionControl {
    fn init(&mut self, _w: &mut Window, _srtt: Option<SimDuration>, _now: SimTime) {}
    /// New ssthresh on entering Recovery or on an RTO.
    fn ssthresh(&mut self, w: &Window, now: SimTime) -> u32;
    /// Window growth on an ACK of new data.
    fn cong_avoid(&mut self, w: &mut Window, ack: &AckSample);
    fn pkts_acked(&mut self, _w: &mut Window, _ack: &AckSample, _state: CaState) {}
    fn set_state(&mut self, _w: &mut Window, _new: CaState, _now: SimTime) {}
    fn cwnd_event(&mut self, _w: &mut Window, _ev: CwndEvent, _now: SimTime) {}
    /// ns-3's `CongestionStateSet(CA_RECOVERY)` reads what is in flight once the head is marked
    /// lost and what the ACK delivered (`m_lastAckedSackedBytes`), in segments; only the `ns3`
    /// profile's sender calls it, after `set_state`.
    fn ns3_enter_recovery(&mut self, _w: &mut Window, _in_flight: u32, _delivered: u32) {}
    fn in_ack_event(&mut self, _w: &mut Window, _ack: &AckSample) {}
    fn undo_cwnd(&mut self, w: &Window) -> u32 {
        w.cwnd.max(w.prior_cwnd)
    }
    fn pacing_bps(&self) -> Option<f64> {
        None
    }
    /// Linux `cong_control`: an algorithm that sets cwnd (and pacing) on every ACK itself,
    /// instead of PRR and `cong_avoid`. Returns whether it did.
    fn cong_control(&mut self, _w: &mut Window, _c: &ControlSample) -> bool {
        false
    }
    /// Whether the algorithm wants the current delivery-rate samples marked application-limited
    /// (BBR in PROBE_RTT).
    fn wants_app_limited(&self) -> bool {
        false
    }
}

/// The congestion controls a scenario can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CcKind {
    Reno,
    Cubic,
    Hybla,
    Htcp,
    Veno,
    Westwood,
    Bic,
    Highspeed,
    Scalable,
    Vegas,
    /// BBR v1 (model-based, paced; not loss-based).
    Bbr,
}

impl CcKind {
    pub const ALL: [CcKind; 11] = [
        CcKind::Reno,
        CcKind::Cubic,
        CcKind::Hybla,
        CcKind::Htcp,
        CcKind::Veno,
        CcKind::Westwood,
        CcKind::Bic,
        CcKind::Highspeed,
        CcKind::Scalable,
        CcKind::Vegas,
        CcKind::Bbr,
    ];

    pub fn name(self) -> &'static str {
        match self {
            CcKind::Reno => "reno",
            CcKind::Cubic => "cubic",
            CcKind::Hybla => "hybla",
            CcKind::Htcp => "htcp",
            CcKind::Veno => "veno",
            CcKind::Westwood => "westwood",
            CcKind::Bic => "bic",
            CcKind::Highspeed => "highspeed",
            CcKind::Scalable => "scalable",
            CcKind::Vegas => "vegas",
            CcKind::Bbr => "bbr",
        }
    }
}

/// One enum over the algorithms: the only dispatch style in the stack.
pub enum Cc {
    Reno(reno::Reno),
    Cubic(cubic::Cubic),
    /// CUBIC as ns-3's `TcpCubic` writes it, for flows of the `ns3` profile.
    CubicNs3(cubic_ns3::CubicNs3),
    /// BBR as ns-3's `TcpBbr` writes it, for flows of the `ns3` profile.
    BbrNs3(bbr_ns3::BbrNs3),
    Hybla(hybla::Hybla),
    Htcp(htcp::Htcp),
    Veno(veno::Veno),
    Westwood(westwood::Westwood),
    Bic(bic::Bic),
    Highspeed(highspeed::HighSpeed),
    Scalable(scalable::Scalable),
    Vegas(vegas::Vegas),
    Bbr(bbr::Bbr),
}

/// Per-flow options of the algorithms that have them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CcOptions {
    /// CUBIC's HyStart (kernel module parameter `hystart`).
    pub hystart: bool,
    /// ns-3's own module where it differs from Linux's (the `ns3` profile): CUBIC is then
    /// `TcpCubic` (`cubic_ns3.rs`) and BBR `TcpBbr` (`bbr_ns3.rs`).
    pub ns3: bool,
}

impl Default for CcOptions {
    fn default() -> Self {
        CcOptions { hystart: true, ns3: false }
    }
}

impl Cc {
    pub fn new(kind: CcKind) -> Cc {
        Cc::with_options(kind, CcOptions::default(), Rng::new(0, Stream::CongestionControl { flow: 0 }))
    }

    /// `rng` is the flow's own stream, for algorithms with a random choice (BBR's first gain
    /// phase), so that it follows the scenario's seed.
    pub fn with_options(kind: CcKind, opts: CcOptions, rng: Rng) -> Cc {
        match kind {
            CcKind::Reno => Cc::Reno(reno::Reno),
            CcKind::Cubic if opts.ns3 => Cc::CubicNs3(cubic_ns3::CubicNs3::with_hystart(opts.hystart)),
            CcKind::Cubic => Cc::Cubic(cubic::Cubic::with_hystart(opts.hystart)),
            CcKind::Hybla => Cc::Hybla(hybla::Hybla::default()),
            CcKind::Htcp => Cc::Htcp(htcp::Htcp::default()),
            CcKind::Veno => Cc::Veno(veno::Veno::default()),
            CcKind::Westwood => Cc::Westwood(westwood::Westwood::default()),
            CcKind::Bic => Cc::Bic(bic::Bic::default()),
            CcKind::Highspeed => Cc::Highspeed(highspeed::HighSpeed::default()),
            CcKind::Scalable => Cc::Scalable(scalable::Scalable),
            CcKind::Vegas => Cc::Vegas(vegas::Vegas::default()),
            CcKind::Bbr if opts.ns3 => Cc::BbrNs3(bbr_ns3::BbrNs3::new(rng)),
            CcKind::Bbr => Cc::Bbr(bbr::Bbr::new(rng)),
        }
    }

    fn inner(&mut self) -> &mut dyn CongestionControl {
        match self {
            Cc::Reno(c) => c,
            Cc::Cubic(c) => c,
            Cc::CubicNs3(c) => c,
            Cc::Hybla(c) => c,
            Cc::Htcp(c) => c,
            Cc::Veno(c) => c,
            Cc::Westwood(c) => c,
            Cc::Bic(c) => c,
            Cc::Highspeed(c) => c,
            Cc::Scalable(c) => c,
            Cc::Vegas(c) => c,
            Cc::Bbr(c) => c,
            Cc::BbrNs3(c) => c,
        }
    }

    pub fn init(&mut self, w: &mut Window, srtt: Option<SimDuration>, now: SimTime) {
        self.inner().init(w, srtt, now)
    }
    pub fn ssthresh(&mut self, w: &Window, now: SimTime) -> u32 {
        self.inner().ssthresh(w, now)
    }
    pub fn cong_avoid(&mut self, w: &mut Window, ack: &AckSample) {
        self.inner().cong_avoid(w, ack)
    }
    pub fn pkts_acked(&mut self, w: &mut Window, ack: &AckSample, state: CaState) {
        self.inner().pkts_acked(w, ack, state)
    }
    pub fn set_state(&mut self, w: &mut Window, new: CaState, now: SimTime) {
        self.inner().set_state(w, new, now)
    }
    pub fn cwnd_event(&mut self, w: &mut Window, ev: CwndEvent, now: SimTime) {
        self.inner().cwnd_event(w, ev, now)
    }
    pub fn ns3_enter_recovery(&mut self, w: &mut Window, in_flight: u32, delivered: u32) {
        self.inner().ns3_enter_recovery(w, in_flight, delivered)
    }
    pub fn in_ack_event(&mut self, w: &mut Window, ack: &AckSample) {
        self.inner().in_ack_event(w, ack)
    }
    pub fn undo_cwnd(&mut self, w: &Window) -> u32 {
        self.inner().undo_cwnd(w)
    }
    pub fn cong_control(&mut self, w: &mut Window, c: &ControlSample) -> bool {
        self.inner().cong_control(w, c)
    }
    pub fn has_cong_control(&self) -> bool {
        matches!(self, Cc::Bbr(_) | Cc::BbrNs3(_))
    }
    pub fn wants_app_limited(&mut self) -> bool {
        self.inner().wants_app_limited()
    }
    pub fn pacing_bps(&mut self) -> Option<f64> {
        self.inner().pacing_bps()
    }
    pub fn metrics(&mut self, w: &Window) -> CcMetrics {
        CcMetrics { cwnd: w.cwnd, ssthresh: w.ssthresh, pacing_bps: self.inner().pacing_bps() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_start_returns_the_acks_left_over_at_ssthresh() {
        let mut w = Window::new(8, Some(10), 1448);
        assert_eq!(w.slow_start(5), 3);
        assert_eq!(w.cwnd, 10);
    }

    fn ack_of(acked: u32, cwnd_limited: bool) -> AckSample {
        AckSample {
            now: SimTime(0),
            acked,
            acked_bytes: acked as u64 * 1448,
            rtt: None,
            srtt: None,
            in_flight: 0,
            cwnd_limited,
            snd_una: 0,
            snd_nxt: 0,
            dupack: false,
        }
    }

    #[test]
    fn avoidance_acks_carry_or_drop_what_slow_start_leaves() {
        // 5 ACKed at cwnd 8, ssthresh 10: slow start takes 2, 3 are left over.
        let mut w = Window::new(8, Some(10), 1448);
        assert_eq!(w.avoidance_acks(&ack_of(5, true), LeftOver::Carry), Some(3));
        assert_eq!(w.cwnd, 10);
        let mut w = Window::new(8, Some(10), 1448);
        assert_eq!(w.avoidance_acks(&ack_of(5, true), LeftOver::Drop), None);
        assert_eq!(w.cwnd, 10);
        // Slow start takes them all: nothing left either way.
        let mut w = Window::new(8, Some(20), 1448);
        assert_eq!(w.avoidance_acks(&ack_of(5, true), LeftOver::Carry), None);
        assert_eq!(w.cwnd, 13);
        // In congestion avoidance every ACKed packet is left, even none.
        let mut w = Window::new(10, Some(5), 1448);
        assert_eq!(w.avoidance_acks(&ack_of(0, true), LeftOver::Carry), Some(0));
        assert_eq!(w.avoidance_acks(&ack_of(3, true), LeftOver::Drop), Some(3));
    }

    #[test]
    fn avoidance_acks_are_none_while_the_window_does_not_limit() {
        let mut w = Window::new(8, Some(10), 1448);
        assert_eq!(w.avoidance_acks(&ack_of(5, false), LeftOver::Carry), None);
        assert_eq!(w.cwnd, 8, "slow start does not grow an unused window");
    }

    #[test]
    fn cong_avoid_ai_adds_one_packet_per_window_of_acks() {
        let mut w = Window::new(10, Some(5), 1448);
        for _ in 0..9 {
            w.cong_avoid_ai(10, 1);
        }
        assert_eq!(w.cwnd, 10);
        w.cong_avoid_ai(10, 1);
        assert_eq!(w.cwnd, 11);
        assert_eq!(w.cwnd_cnt, 0);
    }

    #[test]
    fn cong_avoid_ai_carries_credit_earned_under_a_larger_w() {
        let mut w = Window::new(10, Some(5), 1448);
        w.cwnd_cnt = 12;
        w.cong_avoid_ai(10, 1);
        assert_eq!(w.cwnd, 11);
        assert_eq!(w.cwnd_cnt, 1);
    }

    #[test]
    fn every_named_algorithm_builds() {
        for k in CcKind::ALL {
            let mut cc = Cc::new(k);
            let mut w = Window::new(10, None, 1448);
            cc.init(&mut w, Some(SimDuration::from_millis(500)), SimTime::ZERO);
            assert!(cc.metrics(&w).cwnd >= 1, "{}", k.name());
        }
    }
}
