//! A Reno hop of a mixed INTCP path (docs/intcp-protocol.md §5.9; INTCP paper §III: "one hop
//! with terrestrial link can use the regular methods, like Cubic or Reno"): the hop's requester
//! runs TCP's Reno module (`tcp::congestion`, the integer window in packets and the
//! `tcp_congestion_ops` hooks) with each DATA as the ACK of one packet: slow start of one packet
//! per packet received, +1 packet per window in congestion avoidance, the window halved
//! (Recovery) on a loss confirmed on this hop (a SeqHole, at most once per hop RTT, like Reno's
//! one reduction per window), and the loss window of one packet (Loss) after a hop timeout (no
//! DATA for a hop RTO while interests were outstanding). `rate.rs` advertises its window as a
//! rate, cwnd·MSS / srtt.

use crate::rtt::SmoothedRtt;
use crate::sim::{SimDuration, SimTime};
use crate::tcp::congestion::{AckSample, CaState, Cc, CcKind, CwndEvent, Window};

/// Lower bound of the hop RTO (Linux `TCP_RTO_MIN`, 200 ms; §5.9).
pub const RENO_HOP_RTO_MIN: SimDuration = SimDuration::from_millis(200);
/// Initial window, packets (RFC 5681 §3.1: 3 segments for a 1095-2190 B SMSS; §5.9).
pub const RENO_INITIAL_WINDOW: u32 = 3;
/// The hop RTO is srtt + K·rttvar (RFC 6298 §2.3, K = 4; §5.9).
const RTO_K: u64 = 4;

/// TCP's integer window and Reno module, driven through the `tcp_congestion_ops` hooks as the
/// TCP stack drives them, with DATA as the ACKs.
pub struct RenoHop {
    pub w: Window,
    cc: Cc,
    /// Open, Recovery (after a hop loss) or Loss (after a hop timeout).
    pub state: CaState,
    /// When Recovery or Loss ends: one hop RTT after it began. Hop losses before then belong
    /// to the window already reduced (in Recovery).
    until: SimTime,
    /// When the last DATA arrived (the timeout rule); None before the first.
    last_data: Option<SimTime>,
    /// Window reductions: (hop losses, hop timeouts).
    pub reductions: (u64, u64),
}

/// The hop RTO (RFC 6298 from the hop RTT, at least `RENO_HOP_RTO_MIN`).
pub fn hop_rto(rtt: &SmoothedRtt) -> SimDuration {
    let srtt = rtt.srtt().unwrap_or(SimDuration::ZERO);
    (srtt + SimDuration(RTO_K * rtt.rttvar().0)).max(RENO_HOP_RTO_MIN)
}

impl RenoHop {
    pub fn new(mss: u32, ssthresh_pkts: f64) -> RenoHop {
        let mut w = Window::new(RENO_INITIAL_WINDOW, Some(ssthresh_pkts.ceil() as u32), mss);
        let mut cc = Cc::new(CcKind::Reno);
        cc.init(&mut w, None, SimTime::ZERO);
        RenoHop { w, cc, state: CaState::Open, until: SimTime::ZERO, last_data: None, reductions: (0, 0) }
    }

    /// DATA arrived at `now`: if none came for a hop RTO while an interest (the last sent at
    /// `last_send_int`) was outstanding, that was a hop timeout.
    pub fn check_timeout(&mut self, now: SimTime, last_send_int: SimTime, rtt: &SmoothedRtt) {
        let silent = self
            .last_data
            .is_some_and(|t| last_send_int > t && rtt.srtt().is_some() && now.saturating_since(t) > hop_rto(rtt));
        if silent {
            self.timeout(now, rtt.srtt().unwrap_or(SimDuration::ZERO));
            self.reductions.1 += 1;
        }
        self.last_data = Some(now);
    }

    /// A confirmed hop loss: the window halves, once per hop RTT.
    pub fn on_hop_loss(&mut self, now: SimTime, srtt: SimDuration) {
        if self.enter_recovery(now, srtt) {
            self.reductions.0 += 1;
        }
    }

    /// A DATA segment is the ACK of one packet (`pkts_acked`, then `cong_avoid`, as Linux's
    /// `tcp_ack` calls them), always window-limited (the hop's requester asks for more than its
    /// window lets through). Unlike the TCP stack, which holds the window at ssthresh through
    /// Recovery (PRR), the hop's window grows in Recovery as in congestion avoidance.
    pub fn on_data(&mut self, now: SimTime, payload: u32, rtt: Option<SimDuration>, srtt: Option<SimDuration>) {
        if self.state != CaState::Open && now >= self.until {
            // Leaving Recovery (Linux `tcp_end_cwnd_reduction`) or Loss, as the stack does.
            let was = self.state;
            self.cc.set_state(&mut self.w, CaState::Open, now);
            self.state = CaState::Open;
            if was == CaState::Recovery {
                self.cc.cwnd_event(&mut self.w, CwndEvent::CompleteCwr, now);
            }
        }
        let ack = AckSample {
            now,
            acked: 1,
            acked_bytes: payload as u64,
            rtt,
            srtt,
            in_flight: self.w.cwnd,
            cwnd_limited: true,
            snd_una: 0,
            snd_nxt: 0,
            dupack: false,
        };
        self.cc.pkts_acked(&mut self.w, &ack, self.state);
        self.cc.cong_avoid(&mut self.w, &ack);
    }

    /// Recovery with the window at the module's ssthresh, unless one began less than a hop RTT
    /// ago. Returns whether the window was reduced.
    fn enter_recovery(&mut self, now: SimTime, srtt: SimDuration) -> bool {
        if self.state == CaState::Recovery && now < self.until {
            return false;
        }
        self.w.prior_cwnd = self.w.cwnd;
        self.w.ssthresh = self.cc.ssthresh(&self.w, now);
        self.cc.set_state(&mut self.w, CaState::Recovery, now);
        self.state = CaState::Recovery;
        self.w.cwnd = self.w.ssthresh;
        self.w.cwnd_cnt = 0;
        self.until = now + srtt;
        true
    }

    /// A hop timeout (Linux `tcp_enter_loss`): ssthresh from the module, then the loss window
    /// of one packet (RFC 5681 §3.1), slow-starting again.
    fn timeout(&mut self, now: SimTime, srtt: SimDuration) {
        self.w.prior_cwnd = self.w.cwnd;
        self.w.ssthresh = self.cc.ssthresh(&self.w, now);
        self.cc.cwnd_event(&mut self.w, CwndEvent::Loss, now);
        self.cc.set_state(&mut self.w, CaState::Loss, now);
        self.state = CaState::Loss;
        self.w.cwnd = 1;
        self.w.cwnd_cnt = 0;
        self.until = now + srtt;
    }
}
