//! TCP Veno: Linux `net/ipv4/tcp_veno.c`, after C. P. Fu and S. C. Liew, "TCP Veno: TCP
//! enhancement for transmission over wireless access networks", IEEE JSAC 21(2), 2003.
//! docs/congestion-control.md §6.
//!
//! Veno estimates this flow's backlog in the bottleneck queue the way Vegas does,
//! `N = cwnd·(RTT − BaseRTT)/RTT`, and uses it to tell random (wireless) loss from congestive
//! loss: below β = 3 packets a loss cuts the window by 1/5 only, otherwise by 1/2. While the
//! backlog is at or above β, congestion avoidance grows the window every other RTT.
//!
//! [`Arithmetic::Kernel`] (the default) compares in the kernel's half-packet fixed point, with
//! the kernel's truncation; [`Arithmetic::Ideal`] compares the real-valued N with 3.

use super::{AckSample, CaState, CongestionControl, CwndEvent, Window};
use crate::sim::SimTime;

const V_PARAM_SHIFT: u32 = 1; // tcp_veno.c V_PARAM_SHIFT: diff in half packets
const BETA_HALF_PACKETS: u64 = 3 << V_PARAM_SHIFT; // tcp_veno.c beta = 3 << 1 (paper β = 3)
const BETA_PACKETS: f64 = 3.0; // Fu & Liew β = 3 packets, for the ideal arithmetic
const MIN_SAMPLES_EXCLUSIVE: u32 = 2; // tcp_veno.c: Veno acts only once cntrtt > 2
const RANDOM_LOSS_NUM: u32 = 4; // tcp_veno.c: cwnd·4/5 on a random (non-congestive) loss
const RANDOM_LOSS_DEN: u32 = 5;
const MIN_CWND: u32 = 2; // tcp_veno.c: Veno keeps cwnd ≥ 2 and ssthresh ≥ 2

/// Which arithmetic the backlog test uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Arithmetic {
    /// `diff = 2·cwnd − ⌊2·cwnd·BaseRTT/RTT⌋ < 6`, in µs + 1 as the kernel does.
    #[default]
    Kernel,
    /// `cwnd·(RTT − BaseRTT)/RTT < 3` in real numbers.
    Ideal,
}

/// What the last backlog estimate said about the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backlog {
    /// N < β: losses are taken as random and congestion avoidance runs at Reno speed.
    NonCongestive,
    /// N ≥ β: losses halve the window and growth is +1 every other RTT.
    Congestive,
}

/// Whether the next window's worth of ACKs in the congestive state adds a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CongestiveStep {
    Grow,
    Skip,
}

#[derive(Debug, Clone)]
pub struct Veno {
    arithmetic: Arithmetic,
    /// Kernel `doing_veno_now`: only in Open; elsewhere Veno is Reno.
    active: bool,
    /// Samples seen (kernel `cntrtt`; its per-RTT reset is commented out in the kernel, so
    /// after three samples Veno stays active).
    samples: u32,
    /// Lowest RTT sample since the last `cong_avoid`, µs + 1 (kernel `minrtt`).
    min_rtt_us: u64,
    /// Lowest RTT sample ever, µs + 1 (kernel `basertt`).
    base_rtt_us: u64,
    backlog: Backlog,
    next_congestive_step: CongestiveStep,
}

/// Kernel `0x7fffffff`: "no sample yet".
const NO_RTT: u64 = 0x7fff_ffff;

impl Default for Veno {
    fn default() -> Self {
        Veno::new(Arithmetic::Kernel)
    }
}

impl Veno {
    pub fn new(arithmetic: Arithmetic) -> Veno {
        Veno {
            arithmetic,
            active: true,
            samples: 0,
            min_rtt_us: NO_RTT,
            base_rtt_us: NO_RTT,
            // A loss before the first estimate is treated as random (kernel diff starts at 0).
            backlog: Backlog::NonCongestive,
            next_congestive_step: CongestiveStep::Grow,
        }
    }

    pub fn backlog(&self) -> Backlog {
        self.backlog
    }

    /// Kernel `tcp_veno_init`, also run on idle restart: forget BaseRTT, grow on the next
    /// congestive window. `cntrtt` and `diff` survive, as in the kernel.
    fn restart(&mut self) {
        self.base_rtt_us = NO_RTT;
        self.next_congestive_step = CongestiveStep::Grow;
        self.active = true;
        self.min_rtt_us = NO_RTT;
    }

    fn estimate_backlog(&self, cwnd: u32) -> Backlog {
        let rtt = self.min_rtt_us.max(1);
        let base = self.base_rtt_us;
        let congestive = match self.arithmetic {
            Arithmetic::Kernel => {
                let target = ((cwnd as u64 * base) << V_PARAM_SHIFT) / rtt;
                let diff = ((cwnd as u64) << V_PARAM_SHIFT).saturating_sub(target);
                diff >= BETA_HALF_PACKETS
            }
            Arithmetic::Ideal => {
                let queued = cwnd as f64 * rtt.saturating_sub(base) as f64 / rtt as f64;
                queued >= BETA_PACKETS
            }
        };
        if congestive {
            Backlog::Congestive
        } else {
            Backlog::NonCongestive
        }
    }

    fn veno_cong_avoid(&mut self, w: &mut Window, acked: u32) {
        self.backlog = self.estimate_backlog(w.cwnd);
        let mut acked = acked;
        if w.in_slow_start() {
            acked = w.slow_start(acked);
        }
        if acked > 0 {
            match self.backlog {
                Backlog::NonCongestive => {
                    let cwnd = w.cwnd;
                    w.cong_avoid_ai(cwnd, acked);
                }
                Backlog::Congestive => {
                    if w.cwnd_cnt >= w.cwnd {
                        self.next_congestive_step = match self.next_congestive_step {
                            CongestiveStep::Grow if w.cwnd < w.cwnd_clamp => {
                                w.cwnd += 1;
                                CongestiveStep::Skip
                            }
                            _ => CongestiveStep::Grow,
                        };
                        w.cwnd_cnt = 0;
                    } else {
                        w.cwnd_cnt = w.cwnd_cnt.saturating_add(acked);
                    }
                }
            }
        }
        w.cwnd = w.cwnd.max(MIN_CWND).min(w.cwnd_clamp.max(1));
    }
}

impl CongestionControl for Veno {
    fn init(&mut self, _w: &mut Window, _srtt: Option<crate::sim::SimDuration>, _now: SimTime) {
        *self = Veno::new(self.arithmetic);
    }

    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> u32 {
        let reduced = match self.backlog {
            Backlog::NonCongestive => (w.cwnd as u64 * RANDOM_LOSS_NUM as u64 / RANDOM_LOSS_DEN as u64) as u32,
            Backlog::Congestive => w.cwnd >> 1,
        };
        reduced.max(MIN_CWND)
    }

    fn pkts_acked(&mut self, _w: &mut Window, ack: &AckSample, _state: CaState) {
        let Some(rtt) = ack.rtt else { return };
        // Never a zero RTT or BaseRTT (kernel adds 1 µs).
        let vrtt = (rtt.0 / 1_000).saturating_add(1);
        self.base_rtt_us = self.base_rtt_us.min(vrtt);
        self.min_rtt_us = self.min_rtt_us.min(vrtt);
        self.samples = self.samples.saturating_add(1);
    }

    fn set_state(&mut self, _w: &mut Window, new: CaState, _now: SimTime) {
        self.active = new == CaState::Open;
        if self.active {
            self.min_rtt_us = NO_RTT;
        }
    }

    fn cwnd_event(&mut self, _w: &mut Window, ev: CwndEvent, _now: SimTime) {
        if ev == CwndEvent::TxStart {
            self.restart();
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, ack: &AckSample) {
        if !self.active {
            if ack.cwnd_limited {
                w.reno_cong_avoid(ack.acked);
            }
            return;
        }
        if !ack.cwnd_limited {
            return;
        }
        if self.samples <= MIN_SAMPLES_EXCLUSIVE {
            w.reno_cong_avoid(ack.acked);
        } else {
            self.veno_cong_avoid(w, ack.acked);
        }
        self.min_rtt_us = NO_RTT;
    }
}

#[cfg(test)]
mod tests {
    use super::super::reno::Reno;
    use super::super::testing::Driver;
    use super::*;
    use crate::sim::SimDuration;

    fn ms(v: u64) -> SimDuration {
        SimDuration::from_millis(v)
    }

    /// A Veno in congestion avoidance at `cwnd`, BaseRTT 500 ms learnt from three ACKs, whose
    /// last ACK carried an RTT of `rtt_ms` (so the backlog estimate uses it).
    fn veno_at(arithmetic: Arithmetic, cwnd: u32, rtt_ms: u64) -> Driver<Veno> {
        let mut d = Driver::with_rtt(Veno::new(arithmetic), cwnd, Some(2), ms(500));
        for _ in 0..3 {
            d.ack(1);
        }
        d.w.cwnd = cwnd;
        d.w.cwnd_cnt = 0;
        d.ack_with_rtt(1, ms(rtt_ms));
        assert_eq!(d.w.cwnd, cwnd, "one CA ACK does not move the window");
        d
    }

    #[test]
    fn without_queueing_a_loss_is_random_and_cuts_one_fifth() {
        let mut d = veno_at(Arithmetic::Kernel, 50, 500);
        assert_eq!(d.cc.backlog(), Backlog::NonCongestive);
        assert_eq!(d.loss(), 40);
    }

    #[test]
    fn a_backlog_of_three_or_more_packets_halves_the_window() {
        // N = 40·50/550 = 3.6 packets.
        let mut d = veno_at(Arithmetic::Kernel, 40, 550);
        assert_eq!(d.cc.backlog(), Backlog::Congestive);
        assert_eq!(d.loss(), 20);
        let mut d = veno_at(Arithmetic::Ideal, 40, 550);
        assert_eq!(d.loss(), 20);
    }

    #[test]
    fn kernel_truncation_makes_a_backlog_of_2_73_congestive() {
        // Real N = 30·50/550 = 2.73 < 3, but diff = 60 − ⌊54.5⌋ = 6, which is not < 6.
        let mut d = veno_at(Arithmetic::Kernel, 30, 550);
        assert_eq!(d.cc.backlog(), Backlog::Congestive);
        assert_eq!(d.loss(), 15);
    }

    #[test]
    fn ideal_arithmetic_calls_a_backlog_of_2_73_random() {
        let mut d = veno_at(Arithmetic::Ideal, 30, 550);
        assert_eq!(d.cc.backlog(), Backlog::NonCongestive);
        assert_eq!(d.loss(), 24);
    }

    #[test]
    fn a_loss_before_any_estimate_is_treated_as_random() {
        let mut d = Driver::new(Veno::default(), 50, None);
        assert_eq!(d.loss(), 40);
    }

    #[test]
    fn ssthresh_never_drops_below_two() {
        let mut d = Driver::new(Veno::default(), 2, None);
        assert_eq!(d.loss(), 2);
    }

    #[test]
    fn non_congestive_avoidance_adds_one_packet_per_rtt() {
        let mut d = veno_at(Arithmetic::Kernel, 40, 500);
        d.w.cwnd_cnt = 0;
        d.ack_rounds(10);
        assert_eq!(d.w.cwnd, 50);
    }

    #[test]
    fn congestive_avoidance_adds_one_packet_every_other_rtt() {
        // RTT 600 ms against BaseRTT 500 ms: N = 40/6 ≈ 6.7, congestive throughout.
        let mut d = veno_at(Arithmetic::Kernel, 40, 600);
        d.rtt = ms(600);
        d.w.cwnd_cnt = 0;
        d.ack_rounds(2);
        assert_eq!(d.w.cwnd, 41, "one packet after the first two RTTs");
        d.ack_rounds(18);
        // Ten packets in twenty RTTs, against twenty for the non-congestive state.
        assert_eq!(d.w.cwnd, 50);
        assert_eq!(d.cc.backlog(), Backlog::Congestive);
    }

    #[test]
    fn slow_start_is_plain_doubling() {
        let mut d = Driver::with_rtt(Veno::default(), 4, None, ms(500));
        d.ack_rounds(3);
        assert_eq!(d.w.cwnd, 32);
    }

    #[test]
    fn with_fewer_than_three_samples_it_is_reno() {
        let mut veno = Driver::new(Veno::default(), 10, Some(5));
        let mut reno = Driver::new(Reno, 10, Some(5));
        for _ in 0..2 {
            veno.ack(1);
            reno.ack(1);
        }
        assert_eq!(veno.cc.samples, 2);
        assert_eq!((veno.w.cwnd, veno.w.cwnd_cnt), (reno.w.cwnd, reno.w.cwnd_cnt));
    }

    #[test]
    fn outside_open_veno_is_reno_and_after_recovery_it_resumes() {
        let mut d = veno_at(Arithmetic::Kernel, 40, 600);
        d.rto();
        d.ack(1);
        assert_eq!(d.w.cwnd, 2);
        d.open();
        assert!(d.cc.active);
        d.ack_with_rtt(1, ms(500));
        assert_eq!(d.cc.backlog(), Backlog::NonCongestive);
    }

    #[test]
    fn idle_restart_forgets_base_rtt() {
        let mut d = veno_at(Arithmetic::Kernel, 40, 600);
        let now = d.now;
        d.cc.cwnd_event(&mut d.w, CwndEvent::TxStart, now);
        assert_eq!(d.cc.base_rtt_us, NO_RTT);
        // The path's delay grew while idle: the new BaseRTT is the new floor, no false backlog.
        d.ack_with_rtt(1, ms(600));
        assert_eq!(d.cc.backlog(), Backlog::NonCongestive);
    }
}
