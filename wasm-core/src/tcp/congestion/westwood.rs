//! TCP Westwood+: Linux `net/ipv4/tcp_westwood.c`, after S. Mascolo et al., "TCP Westwood:
//! bandwidth estimation for enhanced transport over wireless links", MobiCom 2001, and
//! L. A. Grieco and S. Mascolo, "Performance evaluation and comparison of Westwood+, New Reno
//! and Vegas TCP congestion control", ACM CCR 34(2), 2004. docs/congestion-control.md §7.
//!
//! Growth is Reno's. The difference is the loss reaction: the sender measures the rate at which
//! bytes are acknowledged over intervals of at least one RTT (never shorter than 50 ms),
//! smooths it with two cascaded 7/8 filters, and after a loss sets ssthresh (and, at the end of
//! fast recovery, cwnd) to the estimated pipe size `BWE · RTT_min` instead of halving blindly.
//!
//! Like the kernel, rates are integer bytes per jiffy (HZ = 1000, so bytes per ms) and RTTs are
//! whole jiffies (rounded up from the sample). Acknowledged bytes come from
//! `AckSample::acked_bytes`; an ACK that does not move `snd_una` but reports delivery (a
//! duplicate or a SACK) is credited one MSS, and the credit is taken back from the next
//! cumulative ACK that covers more than one MSS (the kernel's slow path, used for every ACK
//! here: on in-order ACKs it adds exactly what the kernel's fast path adds).

use super::{AckSample, CaState, CongestionControl, CwndEvent, Window};
use crate::sim::{SimDuration, SimTime};

const MIN_INTERVAL_MS: u64 = 50; // tcp_westwood.c TCP_WESTWOOD_RTT_MIN = HZ/20
const INIT_RTT_MS: u64 = 20_000; // tcp_westwood.c TCP_WESTWOOD_INIT_RTT = 20·HZ, deliberately high
const FILTER_OLD_WEIGHT: u64 = 7; // tcp_westwood.c westwood_do_filter: (7a + b) >> 3
const FILTER_SHIFT: u32 = 3;
const MIN_WINDOW: u32 = 2; // tcp_westwood.c tcp_westwood_bw_rttmin: at least 2 packets

/// How the next RTT sample updates `rtt_min`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RttMinUpdate {
    /// Take the next sample as is (at start and after an RTO, when the path may have changed).
    Replace,
    /// Keep the minimum.
    KeepMinimum,
}

#[derive(Debug, Clone)]
pub struct Westwood {
    /// First filter stage (kernel `bw_ns_est`), bytes per ms.
    bw_ns_est: u64,
    /// Second filter stage, the estimate used (kernel `bw_est`), bytes per ms.
    bw_est: u64,
    /// Start of the current sampling interval, in ms (kernel `rtt_win_sx`).
    interval_start_ms: u64,
    /// Bytes acknowledged in the current interval (kernel `bk`).
    interval_bytes: u64,
    /// Bytes credited for duplicate ACKs not yet covered by a cumulative ACK.
    accounted: u64,
    /// Last RTT sample, whole ms rounded up (kernel `rtt`).
    rtt_ms: u64,
    rtt_min_ms: u64,
    rtt_min_update: RttMinUpdate,
}

impl Default for Westwood {
    fn default() -> Self {
        Westwood {
            bw_ns_est: 0,
            bw_est: 0,
            interval_start_ms: 0,
            interval_bytes: 0,
            accounted: 0,
            rtt_ms: INIT_RTT_MS,
            rtt_min_ms: INIT_RTT_MS,
            rtt_min_update: RttMinUpdate::Replace,
        }
    }
}

fn jiffies(t: SimTime) -> u64 {
    t.0 / 1_000_000
}

/// Kernel `usecs_to_jiffies` at HZ = 1000: whole milliseconds, rounded up.
fn duration_to_jiffies(d: SimDuration) -> u64 {
    d.0.div_ceil(1_000_000)
}

fn low_pass(old: u64, sample: u64) -> u64 {
    (FILTER_OLD_WEIGHT * old + sample) >> FILTER_SHIFT
}

impl Westwood {
    /// The bandwidth estimate, bytes per second.
    pub fn bandwidth_bytes_per_sec(&self) -> u64 {
        self.bw_est.saturating_mul(1000)
    }

    /// `BWE · RTT_min` in packets, at least 2 (kernel `tcp_westwood_bw_rttmin`).
    fn pipe_packets(&self, w: &Window) -> u32 {
        let bytes = self.bw_est.saturating_mul(self.rtt_min_ms);
        let packets = bytes / w.mss.max(1) as u64;
        u32::try_from(packets).unwrap_or(u32::MAX).max(MIN_WINDOW).min(w.cwnd_clamp.max(1))
    }

    /// Kernel `westwood_update_window`: close the interval once it is longer than both the RTT
    /// and 50 ms, and feed its rate to the filters.
    fn close_interval_if_due(&mut self, now: SimTime) {
        let elapsed = jiffies(now).saturating_sub(self.interval_start_ms);
        if self.rtt_ms == 0 || elapsed <= self.rtt_ms.max(MIN_INTERVAL_MS) {
            return;
        }
        let sample = self.interval_bytes / elapsed;
        if self.bw_ns_est == 0 && self.bw_est == 0 {
            self.bw_ns_est = sample;
            self.bw_est = sample;
        } else {
            self.bw_ns_est = low_pass(self.bw_ns_est, sample);
            self.bw_est = low_pass(self.bw_est, self.bw_ns_est);
        }
        self.interval_bytes = 0;
        self.interval_start_ms = jiffies(now);
    }

    /// Kernel `westwood_acked_count`: bytes this ACK newly reports as delivered, counting each
    /// byte once across duplicate ACKs and the cumulative ACK that follows them.
    fn delivered_bytes(&mut self, ack: &AckSample, mss: u64) -> u64 {
        let mut cumulative = ack.acked_bytes;
        if cumulative == 0 {
            if !ack.dupack && ack.acked == 0 {
                return 0; // a window update or similar: nothing left the network
            }
            self.accounted = self.accounted.saturating_add(mss);
            cumulative = mss;
        }
        if cumulative > mss {
            if self.accounted >= cumulative {
                self.accounted -= cumulative;
                cumulative = mss;
            } else {
                cumulative -= self.accounted;
                self.accounted = 0;
            }
        }
        cumulative
    }
}

impl CongestionControl for Westwood {
    fn init(&mut self, _w: &mut Window, _srtt: Option<SimDuration>, now: SimTime) {
        *self = Westwood { interval_start_ms: jiffies(now), ..Westwood::default() };
    }

    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> u32 {
        w.reno_ssthresh()
    }

    fn cong_avoid(&mut self, w: &mut Window, ack: &AckSample) {
        if ack.cwnd_limited {
            w.reno_cong_avoid(ack.acked);
        }
    }

    fn pkts_acked(&mut self, _w: &mut Window, ack: &AckSample, _state: CaState) {
        if let Some(rtt) = ack.rtt {
            let rtt_ms = duration_to_jiffies(rtt);
            if rtt_ms > 0 {
                self.rtt_ms = rtt_ms;
            }
        }
    }

    fn in_ack_event(&mut self, w: &mut Window, ack: &AckSample) {
        self.close_interval_if_due(ack.now);
        let delivered = self.delivered_bytes(ack, w.mss as u64);
        self.interval_bytes = self.interval_bytes.saturating_add(delivered);
        self.rtt_min_ms = match self.rtt_min_update {
            RttMinUpdate::Replace => self.rtt_ms,
            RttMinUpdate::KeepMinimum => self.rtt_min_ms.min(self.rtt_ms),
        };
        self.rtt_min_update = RttMinUpdate::KeepMinimum;
    }

    fn cwnd_event(&mut self, w: &mut Window, ev: CwndEvent, _now: SimTime) {
        match ev {
            CwndEvent::CompleteCwr => {
                w.ssthresh = self.pipe_packets(w);
                w.cwnd = w.ssthresh;
            }
            CwndEvent::Loss => {
                w.ssthresh = self.pipe_packets(w);
                self.rtt_min_update = RttMinUpdate::Replace;
            }
            CwndEvent::TxStart => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::Driver;
    use super::*;

    fn ms(v: u64) -> SimDuration {
        SimDuration::from_millis(v)
    }

    /// One single-packet ACK now, then one every `spacing` for `count` more, without letting
    /// cwnd move (the estimate must not depend on it).
    fn deliver_at_constant_rate(d: &mut Driver<Westwood>, spacing: SimDuration, count: u32) {
        d.cwnd_limited = false;
        d.ack(1);
        for _ in 0..count {
            d.advance(spacing);
            d.ack(1);
        }
    }

    #[test]
    fn estimate_is_exact_for_a_constant_rate_from_the_start() {
        // 1000 B every 2 ms = 500 B/ms: every interval (102 ms, 51 ACKs) samples exactly 500.
        let mut d = Driver::new(Westwood::default(), 10, None);
        deliver_at_constant_rate(&mut d, ms(2), 1000);
        assert_eq!(d.cc.bw_est, 500);
        assert_eq!(d.cc.bandwidth_bytes_per_sec(), 500_000);
    }

    #[test]
    fn estimate_converges_to_a_new_constant_rate() {
        let mut d = Driver::new(Westwood::default(), 10, None);
        deliver_at_constant_rate(&mut d, ms(2), 600);
        assert_eq!(d.cc.bw_est, 500);
        // Double the rate for 80 intervals (101 ms each at 1 ACK/ms).
        deliver_at_constant_rate(&mut d, ms(1), 80 * 101);
        // Two cascaded 7/8 filters leave (1 + n/7)(7/8)^n ≈ 0.03 % of the 500 B/ms step after 80
        // intervals, and the integer filter stalls up to 7 B/ms below its input
        // ((7a + b) >> 3 == a for b − 8 < a ≤ b): 2 % covers both with margin.
        let error = 1000.0 - d.cc.bw_est as f64;
        assert!((0.0..20.0).contains(&error), "bw_est {}", d.cc.bw_est);
        // And it does move: halfway it is still visibly short.
        let mut d = Driver::new(Westwood::default(), 10, None);
        deliver_at_constant_rate(&mut d, ms(2), 600);
        deliver_at_constant_rate(&mut d, ms(1), 5 * 101);
        assert!(d.cc.bw_est < 800, "bw_est {}", d.cc.bw_est);
    }

    #[test]
    fn sampling_interval_is_never_shorter_than_50_ms() {
        // RTT 10 ms, one 1000 B ACK per ms: without the floor the first interval would close at
        // 11 ms; with it, at 51 ms.
        let mut d = Driver::with_rtt(Westwood::default(), 10, None, ms(10));
        deliver_at_constant_rate(&mut d, ms(1), 50);
        assert_eq!(d.cc.bw_est, 0, "no interval closed within 50 ms");
        d.advance(ms(1));
        d.ack(1);
        assert_eq!(d.cc.bw_est, 1000, "51 ACKs over 51 ms");
    }

    #[test]
    fn sampling_interval_is_at_least_one_rtt() {
        let mut d = Driver::with_rtt(Westwood::default(), 10, None, ms(300));
        deliver_at_constant_rate(&mut d, ms(1), 300);
        assert_eq!(d.cc.bw_est, 0);
        d.advance(ms(1));
        d.ack(1);
        assert_eq!(d.cc.bw_est, 1000);
    }

    #[test]
    fn after_rto_ssthresh_is_bwe_times_rtt_min_and_cwnd_one() {
        // 500 B/ms × 100 ms / 1000 B = 50 packets.
        let mut d = Driver::new(Westwood::default(), 80, None);
        deliver_at_constant_rate(&mut d, ms(2), 600);
        assert_eq!(d.cc.rtt_min_ms, 100);
        assert_eq!(d.rto(), 50);
        assert_eq!(d.w.cwnd, 1);
    }

    #[test]
    fn fast_recovery_ends_with_cwnd_and_ssthresh_at_the_pipe_size() {
        // A random loss at cwnd 100 with no queue: Reno would leave 50, Westwood+ the BDP.
        let mut d = Driver::new(Westwood::default(), 100, None);
        deliver_at_constant_rate(&mut d, ms(1), 600);
        d.w.cwnd = 100;
        assert_eq!(d.cc.ssthresh(&d.w, d.now), 50, "recovery is entered with Reno's ssthresh");
        assert_eq!(d.loss(), 100);
        assert_eq!(d.w.cwnd, 100);
    }

    #[test]
    fn pipe_size_is_at_least_two_packets() {
        let mut d = Driver::new(Westwood::default(), 10, None);
        assert_eq!(d.loss(), 2, "no estimate yet");
        assert_eq!(d.w.cwnd, 2);
    }

    #[test]
    fn rtt_min_is_relearnt_after_an_rto() {
        let mut d = Driver::new(Westwood::default(), 10, None);
        deliver_at_constant_rate(&mut d, ms(2), 10);
        assert_eq!(d.cc.rtt_min_ms, 100);
        // The path got longer (e.g. a handover) and the flow timed out.
        d.rtt = ms(300);
        d.ack(1);
        d.ack(1);
        assert_eq!(d.cc.rtt_min_ms, 100, "before the RTO the old minimum holds");
        d.rto();
        d.ack(1);
        assert_eq!(d.cc.rtt_min_ms, 300, "after it, the last sample replaces the minimum");
    }

    #[test]
    fn duplicate_acks_are_credited_once() {
        let mut d = Driver::new(Westwood::default(), 10, None);
        let mss = d.w.mss as u64;
        let mut dup = d.sample(0, None);
        dup.acked_bytes = 0;
        dup.dupack = true;
        for _ in 0..3 {
            d.cc.in_ack_event(&mut d.w, &dup);
        }
        assert_eq!(d.cc.interval_bytes, 3 * mss);
        // The cumulative ACK for 5 segments after the 3 dupacks adds only the 2 not yet credited.
        let cumulative = d.sample(5, None);
        d.cc.in_ack_event(&mut d.w, &cumulative);
        assert_eq!(d.cc.interval_bytes, 5 * mss);
        assert_eq!(d.cc.accounted, 0);
    }

    #[test]
    fn growth_is_reno() {
        let mut d = Driver::new(Westwood::default(), 1, None);
        d.ack_rounds(5);
        assert_eq!(d.w.cwnd, 32);
        let mut d = Driver::new(Westwood::default(), 20, Some(10));
        d.ack_round();
        assert_eq!(d.w.cwnd, 21);
    }
}
