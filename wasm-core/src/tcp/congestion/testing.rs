//! A test-only driver that feeds ACKs, losses and RTOs to a module the way the stack does,
//! so that each algorithm's tests stay a few lines long (quiche's `test_sender.rs`).

use super::reno::Reno;
use super::{AckSample, CaState, CongestionControl, CwndEvent, Window};
use crate::sim::{SimDuration, SimTime};

/// An ACK of `acked` full segments carrying `rtt` as both its sample and the smoothed RTT, for
/// modules that set the window themselves (BBR), whose tests build `ControlSample`s by hand.
pub fn ack_of(now: SimTime, acked: u32, mss: u32, rtt: SimDuration, in_flight: u32) -> AckSample {
    AckSample {
        now,
        acked,
        acked_bytes: acked as u64 * mss as u64,
        rtt: Some(rtt),
        srtt: Some(rtt),
        in_flight,
        cwnd_limited: true,
        snd_una: 0,
        snd_nxt: 0,
        dupack: false,
    }
}

pub struct Driver<C: CongestionControl> {
    pub cc: C,
    pub w: Window,
    pub now: SimTime,
    /// RTT reported with every ACK; also the time one `ack_round` takes.
    pub rtt: SimDuration,
    pub state: CaState,
    pub cwnd_limited: bool,
    pub snd_una: u64,
}

impl<C: CongestionControl> Driver<C> {
    /// A module with the given initial cwnd and ssthresh, RTT 100 ms, MSS 1000, after `init`.
    pub fn new(cc: C, cwnd: u32, ssthresh: Option<u32>) -> Self {
        Self::with_rtt(cc, cwnd, ssthresh, SimDuration::from_millis(100))
    }

    pub fn with_rtt(cc: C, cwnd: u32, ssthresh: Option<u32>, rtt: SimDuration) -> Self {
        let mut d = Driver {
            cc,
            w: Window::new(cwnd, ssthresh, 1000),
            now: SimTime(1_000_000_000),
            rtt,
            state: CaState::Open,
            cwnd_limited: true,
            snd_una: 0,
        };
        let now = d.now;
        d.cc.init(&mut d.w, Some(rtt), now);
        d
    }

    pub fn sample(&self, acked: u32, rtt: Option<SimDuration>) -> AckSample {
        AckSample {
            now: self.now,
            acked,
            acked_bytes: acked as u64 * self.w.mss as u64,
            rtt,
            srtt: Some(self.rtt),
            in_flight: self.w.cwnd,
            cwnd_limited: self.cwnd_limited,
            snd_una: self.snd_una,
            snd_nxt: self.snd_una + self.w.cwnd as u64 * self.w.mss as u64,
            dupack: false,
        }
    }

    /// One ACK for `acked` packets, with the driver's RTT as its sample, at the current time.
    pub fn ack(&mut self, acked: u32) {
        self.ack_with_rtt(acked, self.rtt);
    }

    pub fn ack_with_rtt(&mut self, acked: u32, rtt: SimDuration) {
        self.snd_una += acked as u64 * self.w.mss as u64;
        let s = self.sample(acked, Some(rtt));
        self.cc.in_ack_event(&mut self.w, &s);
        self.cc.pkts_acked(&mut self.w, &s, self.state);
        if self.state != CaState::Recovery {
            self.cc.cong_avoid(&mut self.w, &s);
        }
    }

    /// One RTT's worth of single-packet ACKs (one per packet of the window at the round's start),
    /// spread evenly over one RTT of simulated time.
    pub fn ack_round(&mut self) {
        let n = self.w.cwnd;
        let step = SimDuration(self.rtt.0 / n.max(1) as u64);
        for _ in 0..n {
            self.now += step;
            self.ack(1);
        }
    }

    /// `n` rounds of `ack_round`.
    pub fn ack_rounds(&mut self, n: u32) {
        for _ in 0..n {
            self.ack_round();
        }
    }

    /// A fast-retransmit loss, in the kernel's order (`tcp_enter_recovery`): `ssthresh()` first,
    /// then `set_state(Recovery)`; one RTT later leave with cwnd = ssthresh and `CompleteCwr`.
    /// Returns the new ssthresh.
    pub fn loss(&mut self) -> u32 {
        self.w.prior_cwnd = self.w.cwnd;
        let now = self.now;
        let ss = self.cc.ssthresh(&self.w, now);
        self.w.ssthresh = ss;
        self.cc.set_state(&mut self.w, CaState::Recovery, now);
        self.state = CaState::Recovery;
        self.now += self.rtt;
        let now = self.now;
        self.w.cwnd = self.w.ssthresh;
        self.cc.set_state(&mut self.w, CaState::Open, now);
        self.state = CaState::Open;
        self.cc.cwnd_event(&mut self.w, CwndEvent::CompleteCwr, now);
        self.w.ssthresh
    }

    /// A retransmission timeout, in the kernel's order (`tcp_enter_loss`): `ssthresh()` (only
    /// when not already in Loss: a repeated RTO holds ssthresh), `cwnd_event(Loss)`, then
    /// `set_state(Loss)`; cwnd = 1. Returns ssthresh.
    pub fn rto(&mut self) -> u32 {
        let now = self.now;
        if self.state != CaState::Loss {
            self.w.prior_cwnd = self.w.cwnd;
            let ss = self.cc.ssthresh(&self.w, now);
            self.w.ssthresh = ss;
            self.cc.cwnd_event(&mut self.w, CwndEvent::Loss, now);
        }
        self.cc.set_state(&mut self.w, CaState::Loss, now);
        self.state = CaState::Loss;
        self.w.cwnd = 1;
        self.w.cwnd_cnt = 0;
        self.w.ssthresh
    }

    /// Back to Open after recovering from an RTO.
    pub fn open(&mut self) {
        let now = self.now;
        self.cc.set_state(&mut self.w, CaState::Open, now);
        self.state = CaState::Open;
    }

    pub fn advance(&mut self, d: SimDuration) {
        self.now += d;
    }
}

/// Drives `cc` and Reno from the same window, ssthresh and RTT through `rounds` rounds of ACKs
/// (`ack_round`), asserting after each that their windows are equal; returns `cc`'s driver.
pub fn assert_grows_like_reno<C: CongestionControl>(
    cc: C,
    cwnd: u32,
    ssthresh: Option<u32>,
    rtt: SimDuration,
    rounds: u32,
) -> Driver<C> {
    let mut d = Driver::with_rtt(cc, cwnd, ssthresh, rtt);
    let mut reno = Driver::with_rtt(Reno, cwnd, ssthresh, rtt);
    for round in 0..rounds {
        d.ack_round();
        reno.ack_round();
        assert_eq!(d.w.cwnd, reno.w.cwnd, "round {round}");
    }
    d
}
