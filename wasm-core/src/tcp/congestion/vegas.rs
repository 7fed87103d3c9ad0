//! TCP Vegas: Linux `net/ipv4/tcp_vegas.c`; L. Brakmo, L. Peterson, "TCP Vegas: End to End
//! Congestion Avoidance on a Global Internet", IEEE JSAC 13(8), 1995; docs/congestion-control.md §11.
//!
//! Once per RTT Vegas compares the window with what the path carries at its lowest RTT:
//! diff = cwnd·(rtt − baseRTT)/baseRTT estimates the packets queued in the network. Fewer than
//! α queued: one more packet; more than β: one fewer; slow start ends once more than γ queue.
//! Outside the Open state, or without enough RTT samples, it is Reno.
//!
//! The hooks that (re-)enable Vegas (`init`, `set_state`, `cwnd_event`) carry no sequence
//! numbers, but the kernel marks the end of the first Vegas RTT with `snd_nxt` at that moment.
//! This module takes `snd_nxt` from the first ACK it sees afterwards: the same value when the
//! stack changes state while processing an ACK (as Linux does, before `cong_avoid`), otherwise
//! at most the packets sent since, which delays the first adjustment by that much.

use super::{AckSample, CaState, CongestionControl, CwndEvent, Window};
use crate::sim::{SimDuration, SimTime};

const ALPHA: u64 = 2; // tcp_vegas.c alpha (packets queued: grow below this)
const BETA: u64 = 4; // tcp_vegas.c beta (packets queued: shrink above this)
const GAMMA: u64 = 1; // tcp_vegas.c gamma (packets queued: leave slow start above this)
const MIN_SAMPLES: u32 = 3; // tcp_vegas.c (cntRTT <= 2 means delayed ACKs only: Reno)
const MIN_CWND: u32 = 2; // tcp_vegas.c tcp_vegas_cong_avoid floor
const RTT_UNSET_US: u32 = 0x7fff_ffff; // tcp_vegas.c initial baseRTT and minRTT

/// One Vegas measurement interval: from the ACK that opened it until one acknowledging data
/// sent after that ACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Round {
    /// Kernel `beg_snd_nxt`: the round ends at the first ACK beyond this byte.
    ends_after: u64,
    /// Kernel `minRTT` in µs (+1): the least queueing the round saw.
    min_rtt_us: u32,
    /// Kernel `cntRTT`.
    samples: u32,
}

impl Round {
    fn starting_at(snd_nxt: u64) -> Round {
        Round { ends_after: snd_nxt, min_rtt_us: RTT_UNSET_US, samples: 0 }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Kernel `doing_vegas_now = 0` (not in Open): Reno.
    Reno,
    /// Enabled, waiting for an ACK to say where the first round ends.
    AwaitingSndNxt,
    Measuring(Round),
}

#[derive(Debug, Clone)]
pub struct Vegas {
    /// Kernel `baseRTT` in µs (+1, so it is never 0): the smallest RTT since `init`.
    base_rtt_us: u32,
    phase: Phase,
}

impl Default for Vegas {
    fn default() -> Self {
        Vegas { base_rtt_us: RTT_UNSET_US, phase: Phase::AwaitingSndNxt }
    }
}

/// The kernel's Vegas RTT: whole microseconds plus one.
fn vegas_rtt_us(rtt: SimDuration) -> u32 {
    let us = rtt.0 / 1000;
    us.min(RTT_UNSET_US as u64 - 1) as u32 + 1
}

/// Linux `tcp_reno_cong_avoid`, which Vegas falls back to.
fn reno_cong_avoid(w: &mut Window, ack: &AckSample) {
    if ack.cwnd_limited {
        w.reno_cong_avoid(ack.acked);
    }
}

impl Vegas {
    /// Kernel `tcp_vegas_init`: forget the path and start measuring afresh.
    fn restart(&mut self) {
        *self = Vegas::default();
    }

    fn start_first_round(&mut self, ack: &AckSample) {
        if self.phase == Phase::AwaitingSndNxt {
            self.phase = Phase::Measuring(Round::starting_at(ack.snd_nxt));
        }
    }

    /// The once-per-RTT Vegas decision, with the round's minimum RTT.
    fn adjust(&self, w: &mut Window, rtt_us: u32, acked: u32) {
        let base = self.base_rtt_us.max(1) as u64;
        let rtt = (rtt_us as u64).max(base);
        let cwnd = w.cwnd as u64;
        let target_cwnd = cwnd * base / rtt;
        let diff = cwnd * (rtt - base) / base;

        if diff > GAMMA && w.in_slow_start() {
            // Queue building in slow start: fall back to the rate the path carries (+1 for the
            // truncation) and continue in congestion avoidance.
            w.cwnd = w.cwnd.min((target_cwnd + 1).min(u32::MAX as u64) as u32);
            w.ssthresh = w.ssthresh.min(w.cwnd);
        } else if w.in_slow_start() {
            w.slow_start(acked);
        } else if diff > BETA {
            w.cwnd = w.cwnd.saturating_sub(1);
            w.ssthresh = w.ssthresh.min(w.cwnd);
        } else if diff < ALPHA {
            w.cwnd = w.cwnd.saturating_add(1);
        }

        w.cwnd = w.cwnd.clamp(MIN_CWND, w.cwnd_clamp.max(MIN_CWND));
        // tcp_current_ssthresh in Open: keep ssthresh at least ¾ of cwnd, so a later loss or
        // idle restart returns close to the rate Vegas found.
        w.ssthresh = w.ssthresh.max((w.cwnd >> 1) + (w.cwnd >> 2));
    }
}

impl CongestionControl for Vegas {
    fn init(&mut self, _w: &mut Window, _srtt: Option<SimDuration>, _now: SimTime) {
        self.restart();
    }

    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> u32 {
        w.reno_ssthresh()
    }

    fn in_ack_event(&mut self, _w: &mut Window, ack: &AckSample) {
        self.start_first_round(ack);
    }

    fn pkts_acked(&mut self, _w: &mut Window, ack: &AckSample, _state: CaState) {
        self.start_first_round(ack);
        let Some(rtt) = ack.rtt else {
            return;
        };
        let rtt_us = vegas_rtt_us(rtt);
        self.base_rtt_us = self.base_rtt_us.min(rtt_us);
        if let Phase::Measuring(round) = &mut self.phase {
            round.min_rtt_us = round.min_rtt_us.min(rtt_us);
            round.samples = round.samples.saturating_add(1);
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, ack: &AckSample) {
        self.start_first_round(ack);
        let Phase::Measuring(round) = self.phase else {
            reno_cong_avoid(w, ack);
            return;
        };
        if ack.snd_una > round.ends_after {
            if round.samples < MIN_SAMPLES {
                reno_cong_avoid(w, ack);
            } else {
                self.adjust(w, round.min_rtt_us, ack.acked);
            }
            self.phase = Phase::Measuring(Round::starting_at(ack.snd_nxt));
        } else if w.in_slow_start() {
            w.slow_start(ack.acked);
        }
    }

    fn set_state(&mut self, _w: &mut Window, new: CaState, _now: SimTime) {
        self.phase = if new == CaState::Open { Phase::AwaitingSndNxt } else { Phase::Reno };
    }

    fn cwnd_event(&mut self, _w: &mut Window, ev: CwndEvent, _now: SimTime) {
        // After idle the old RTTs say nothing about the path now: no Vegas decisions until
        // a fresh round of samples.
        if ev == CwndEvent::TxStart {
            self.restart();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::Driver;
    use super::*;

    fn ms(n: u64) -> SimDuration {
        SimDuration::from_millis(n)
    }

    /// Single-packet ACKs until one ends a Vegas round; returns cwnd just before that ACK.
    fn finish_round(d: &mut Driver<Vegas>) -> u32 {
        loop {
            let before = d.w.cwnd;
            let phase = d.cc.phase;
            d.ack(1);
            if let (Phase::Measuring(old), Phase::Measuring(new)) = (phase, d.cc.phase) {
                if old.ends_after != new.ends_after {
                    return before;
                }
            }
        }
    }

    /// In congestion avoidance at `cwnd`, baseRTT learned at 100 ms, and the current round
    /// ended, so the next one sees only RTTs sent after `d.rtt` is changed.
    fn base_rtt_100ms_at(cwnd: u32) -> Driver<Vegas> {
        let mut d = Driver::new(Vegas::default(), cwnd - 1, Some(2));
        let before = finish_round(&mut d);
        assert_eq!(d.w.cwnd, before + 1, "rtt = baseRTT grows the window");
        assert_eq!(d.w.cwnd, cwnd);
        assert_eq!(d.cc.base_rtt_us, 100_001);
        d
    }

    #[test]
    fn vegas_with_rtt_at_base_rtt_adds_one_packet_per_rtt() {
        let mut d = base_rtt_100ms_at(20);
        for expected in 21..=25 {
            let before = finish_round(&mut d);
            assert_eq!(before, expected - 1, "no change inside the round");
            assert_eq!(d.w.cwnd, expected);
        }
    }

    /// diff = 20·(150 001 − 100 001)/100 001 = 9 (the doc's 10 less the kernel's +1 µs) > β.
    #[test]
    fn vegas_at_cwnd_20_and_rtt_150ms_drops_one_packet_per_rtt() {
        let mut d = base_rtt_100ms_at(20);
        d.rtt = ms(150);
        for expected in [19, 18, 17] {
            finish_round(&mut d);
            assert_eq!(d.w.cwnd, expected);
            // min(ssthresh, cwnd) then max(·, ¾ cwnd): stays at ¾ of the 20 it had.
            assert_eq!(d.w.ssthresh, 15);
        }
    }

    /// diff = 20·20 000/100 001 = 3 (the doc's 4 less the kernel's +1 µs): α ≤ 3 ≤ β.
    #[test]
    fn vegas_at_cwnd_20_and_rtt_120ms_holds() {
        let mut d = base_rtt_100ms_at(20);
        d.rtt = ms(120);
        for _ in 0..3 {
            finish_round(&mut d);
            assert_eq!(d.w.cwnd, 20);
        }
    }

    /// The kernel's integer diff truncates: exactly α = 2 packets of queue (rtt 110 ms at
    /// cwnd 20) computes as 1.9998 → 1 and still grows; 6 (rtt 130 ms) as 5 and shrinks.
    #[test]
    fn vegas_integer_diff_rounds_the_queue_estimate_down() {
        let mut d = base_rtt_100ms_at(20);
        d.rtt = ms(110);
        finish_round(&mut d);
        assert_eq!(d.w.cwnd, 21);
        let mut d = base_rtt_100ms_at(20);
        d.rtt = ms(130);
        finish_round(&mut d);
        assert_eq!(d.w.cwnd, 19);
    }

    #[test]
    fn vegas_leaves_slow_start_at_the_carried_rate_once_more_than_gamma_queue() {
        let mut d = Driver::new(Vegas::default(), 2, None);
        d.ack_rounds(4);
        assert!(d.w.in_slow_start());
        assert_eq!(d.cc.base_rtt_us, 100_001);
        let grown = d.w.cwnd;
        assert!(grown >= 16, "rtt = baseRTT: slow start went on ({grown})");
        d.rtt = ms(120);
        let before = loop {
            let before = d.w.cwnd;
            d.ack(1);
            if !d.w.in_slow_start() {
                break before;
            }
        };
        // target = cwnd·baseRTT/rtt, +1 for the truncation; diff = cwnd/5 > γ at these sizes.
        assert_eq!(d.w.cwnd, before * 100_001 / 120_001 + 1);
        assert_eq!(d.w.ssthresh, d.w.cwnd);
        // Then congestion avoidance: diff = cwnd·20 000/100 001 > β shrinks it by one per RTT.
        let exited_at = d.w.cwnd;
        finish_round(&mut d);
        assert_eq!(d.w.cwnd, exited_at - 1);
    }

    #[test]
    fn vegas_slow_start_doubles_per_rtt_while_no_queue_builds() {
        let mut d = Driver::new(Vegas::default(), 1, None);
        // The first round opens at the first ACK and closes one window later, and the
        // once-per-RTT point also grows by the ACKed packet, so this is plain slow start.
        d.ack_rounds(5);
        assert_eq!(d.w.cwnd, 32);
    }

    #[test]
    fn vegas_is_reno_outside_open() {
        let mut d = base_rtt_100ms_at(20);
        d.rtt = ms(150); // Vegas would shrink by one per RTT
        let now = d.now;
        d.cc.set_state(&mut d.w, CaState::Disorder, now);
        d.state = CaState::Disorder;
        for expected in 21..=23 {
            d.ack_round();
            assert_eq!(d.w.cwnd, expected);
        }
        // After an RTO, growth in Loss is Reno slow start.
        d.w.cwnd = 40;
        d.w.ssthresh = 40;
        assert_eq!(d.rto(), 20);
        for expected in [2, 4, 8, 16] {
            d.ack_round();
            assert_eq!(d.w.cwnd, expected);
        }
    }

    #[test]
    fn vegas_back_in_open_decides_again_after_one_round() {
        let mut d = base_rtt_100ms_at(20);
        d.rtt = ms(150);
        d.w.cwnd = 80;
        d.rto();
        d.ack_rounds(4);
        assert_eq!(d.w.cwnd, 16);
        d.open();
        // Slow start goes on until the first full round ends; then diff = cwnd/2 > γ and
        // cwnd falls to the carried rate: baseRTT (100 ms) survived the RTO.
        let before = finish_round(&mut d);
        assert!(before > 16, "slow start continued during the first round");
        assert_eq!(d.w.cwnd, before * 100_001 / 150_001 + 1);
        assert_eq!(d.w.ssthresh, d.w.cwnd);
    }

    /// ACKs until the current round ends, split into `acks` ACKs of equal size.
    fn end_round_in(d: &mut Driver<Vegas>, acks: u32) {
        let Phase::Measuring(round) = d.cc.phase else {
            panic!("not measuring");
        };
        let span = (round.ends_after - d.snd_una) / 1000 + 1;
        let size = span.div_ceil(acks as u64) as u32;
        for _ in 0..acks {
            d.ack(size);
        }
        let Phase::Measuring(next) = d.cc.phase else {
            panic!("not measuring");
        };
        assert_ne!(next.ends_after, round.ends_after, "the last ACK ended the round");
    }

    /// Two RTT samples in a round may both be delayed ACKs: Reno; three are enough for Vegas.
    #[test]
    fn vegas_needs_three_rtt_samples_per_round() {
        let mut d = base_rtt_100ms_at(20);
        d.rtt = ms(150);
        end_round_in(&mut d, 2);
        assert_eq!(d.w.cwnd, 20, "Reno: 11 of the 20 ACKs needed for +1");
        let mut d = base_rtt_100ms_at(20);
        d.rtt = ms(150);
        end_round_in(&mut d, 3);
        assert_eq!(d.w.cwnd, 19, "Vegas: diff 9 > β");
    }

    /// One ACK per window: every ACK ends a round holding its single RTT sample, so growth
    /// is Reno's +1 per window ACKed where Vegas would take one packet off per round.
    #[test]
    fn vegas_with_two_or_fewer_samples_per_round_is_reno() {
        let mut d = base_rtt_100ms_at(20);
        d.rtt = ms(150);
        for _ in 0..8 {
            let window = d.w.cwnd;
            d.ack(window);
        }
        assert_eq!(d.w.cwnd, 28);
    }

    #[test]
    fn vegas_never_shrinks_below_two_packets() {
        let mut d = base_rtt_100ms_at(3);
        d.w.cwnd = 2;
        d.rtt = ms(400); // diff = 2·300 000/100 001 = 5 > β
        for _ in 0..3 {
            finish_round(&mut d);
            assert_eq!(d.w.cwnd, 2);
        }
    }

    #[test]
    fn vegas_keeps_ssthresh_at_least_three_quarters_of_cwnd() {
        let d = base_rtt_100ms_at(40);
        assert_eq!(d.w.ssthresh, 30);
    }

    #[test]
    fn vegas_restart_after_idle_forgets_base_rtt() {
        let mut d = base_rtt_100ms_at(20);
        d.rtt = ms(150);
        let now = d.now;
        d.cc.cwnd_event(&mut d.w, CwndEvent::TxStart, now);
        // 150 ms is now the path's RTT: no queue, so growth instead of the −1 of a kept base.
        finish_round(&mut d);
        assert_eq!(d.cc.base_rtt_us, 150_001);
        assert_eq!(d.w.cwnd, 21);
    }

    #[test]
    fn vegas_loss_halves_like_reno() {
        let mut d = base_rtt_100ms_at(20);
        assert_eq!(d.loss(), 10);
    }

    /// A bottleneck of 20 packets per 100 ms: every packet beyond 20 waits 5 ms, so with q
    /// queued rtt = 100 ms · (20 + q)/20. The kernel's diff divides by baseRTT, not rtt, so it
    /// reads q·cwnd/20, a little over q. Growing from 10 packets, the window stops at the
    /// first queue Vegas accepts and stays, with between α and β packets queued.
    #[test]
    fn vegas_settles_with_alpha_to_beta_packets_queued() {
        let mut d = base_rtt_100ms_at(10);
        let mut history = Vec::new();
        for _ in 0..40 {
            let queued = d.w.cwnd.saturating_sub(20) as u64;
            d.rtt = ms(100 + 5 * queued);
            finish_round(&mut d);
            history.push(d.w.cwnd);
        }
        let queued = d.w.cwnd - 20;
        assert!((ALPHA as u32..=BETA as u32).contains(&queued), "queued {queued}");
        assert!(history[20..].iter().all(|&c| c == d.w.cwnd), "{history:?}");
    }
}
