//! CUBIC as ns-3 writes it: `TcpCubic` of ns-3.44 (`src/internet/model/tcp-cubic.cc`), the
//! congestion control of a `cubic` flow in the `ns3` profile (docs/tcp.md, "The ns3 profile and
//! ns-3 itself"). Linux's CUBIC is `cubic.rs`; the two share the curve
//! `W(t) = C·(t − K)³ + W_max` and β, and differ where ns-3 chose otherwise:
//!
//! - **HyStart** (`HystartUpdate`): an ACK train ends the slow start once it spans the minimum
//!   delay (Linux: half of it), and a delay increase once the round's minimum delay exceeds
//!   twice the connection's, with the threshold clamped to 4-1000 ms (Linux: an eighth, 4-16 ms).
//!   The delay is the smoothed RTT `ProcessAck` hands `PktsAcked`, not the ACK's own sample. Once
//!   found, no HyStart until a timeout (`CubicReset`).
//! - **Slow start** adds every acknowledged segment and is not capped at ssthresh (ns-3's
//!   Appropriate Byte Counting in `IncreaseWindow`).
//! - **Congestion avoidance** (`Update`): the curve in floating-point seconds, `t` taken one
//!   minimum delay ahead, recomputed on every ACK; the Reno-friendly estimate with Linux's
//!   15/8 step; the count of ACKs per segment kept by the module (`m_cWndCnt`).
//! - **Loss**: ssthresh = max(⌊0.7·cwnd⌋, 2) with fast convergence; a timeout (`CubicReset`)
//!   forgets the curve's origin and K, the Reno estimate, the minimum delay and HyStart's
//!   verdict, but keeps W_max (`m_lastMaxCwnd`, which `GetSsThresh` has just set) and the ACK
//!   count (`m_cWndCnt`): the first congestion avoidance after a timeout climbs back towards the
//!   W_max of the timeout rather than growing at `CntClamp`'s 1 segment per 20 ACKs.
//!
//! Constants are `TcpCubic`'s attribute defaults in ns-3.44.

use super::{AckSample, CaState, CongestionControl, Window};
use crate::sim::{SimDuration, SimTime};

const BETA: f64 = 0.7; // TcpCubic::Beta
const C: f64 = 0.4; // TcpCubic::C
const HYSTART_LOW_WINDOW: u32 = 16; // TcpCubic::HyStartLowWindow, segments
const HYSTART_MIN_SAMPLES: u32 = 8; // TcpCubic::HyStartMinSamples
const HYSTART_ACK_DELTA: SimDuration = SimDuration::from_millis(2); // TcpCubic::HyStartAckDelta
const HYSTART_DELAY_MIN: SimDuration = SimDuration::from_millis(4); // TcpCubic::HyStartDelayMin
const HYSTART_DELAY_MAX: SimDuration = SimDuration::from_millis(1000); // TcpCubic::HyStartDelayMax
const CUBIC_DELTA: SimDuration = SimDuration::from_millis(10); // TcpCubic::CubicDelta
const CNT_CLAMP: u32 = 20; // TcpCubic::CntClamp
const MIN_CNT: u32 = 2; // `Update`: at most one segment per two ACKs
const FLAT_CNT_FACTOR: u32 = 100; // `Update`: cnt = 100·cwnd when the target is not above cwnd

/// The current congestion-avoidance epoch (`m_epochStart`, `m_bicK`, `m_bicOriginPoint`).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Epoch {
    start: SimTime,
    k_seconds: f64,
    origin: u32,
}

/// One HyStart round (`HystartReset`): from `start` until the cumulative ACK passes `end_seq`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Round {
    start: SimTime,
    end_seq: u64,
    /// The last ACK that continued the ACK train (`m_lastAck`).
    last_ack: SimTime,
    /// The lowest delay of the round's first samples (`m_currRtt`) and how many were taken.
    curr_rtt: Option<SimDuration>,
    samples: u32,
}

impl Round {
    fn new(now: SimTime, end_seq: u64) -> Round {
        Round { start: now, end_seq, last_ack: now, curr_rtt: None, samples: 0 }
    }
}

#[derive(Clone, Debug)]
pub struct CubicNs3 {
    hystart_enabled: bool,
    /// `m_cWndCnt`: ACKed segments not yet turned into a whole segment of growth.
    cwnd_cnt: u32,
    /// `m_lastMaxCwnd`, W_max in segments; 0 when unknown.
    last_max_cwnd: u32,
    epoch: Option<Epoch>,
    /// `m_delayMin`: the lowest delay `PktsAcked` was handed since the last timeout.
    delay_min: Option<SimDuration>,
    /// `m_ackCnt` and `m_tcpCwnd`: the Reno-friendly estimate.
    ack_cnt: u32,
    tcp_cwnd: u32,
    /// `m_found`: HyStart has ended a slow start since the last timeout.
    found: bool,
    round: Option<Round>,
    /// The highest `snd_nxt` an ACK reported: `m_highTxMark` for the round a timeout starts.
    high_tx_mark: u64,
}

impl CubicNs3 {
    pub fn with_hystart(enabled: bool) -> CubicNs3 {
        CubicNs3 {
            hystart_enabled: enabled,
            cwnd_cnt: 0,
            last_max_cwnd: 0,
            epoch: None,
            delay_min: None,
            ack_cnt: 0,
            tcp_cwnd: 0,
            found: false,
            round: None,
            high_tx_mark: 0,
        }
    }

    /// `HystartDelayThresh`: the delay itself, clamped to 4-1000 ms.
    fn hystart_delay_thresh(t: SimDuration) -> SimDuration {
        t.clamp(HYSTART_DELAY_MIN, HYSTART_DELAY_MAX)
    }

    /// `HystartUpdate`, on an ACK in slow start with cwnd of at least 16 segments.
    fn hystart_update(&mut self, w: &mut Window, delay: SimDuration, now: SimTime) {
        if self.found {
            return;
        }
        let delay_min = self.delay_min.unwrap_or(delay);
        let Some(round) = self.round.as_mut() else { return };
        if now - round.last_ack <= HYSTART_ACK_DELTA {
            round.last_ack = now;
            if now - round.start > delay_min {
                self.found = true;
            }
        }
        if round.samples < HYSTART_MIN_SAMPLES {
            if round.curr_rtt.is_none_or(|c| c > delay) {
                round.curr_rtt = Some(delay);
            }
            round.samples += 1;
        } else if round.curr_rtt.is_some_and(|c| c > delay_min + Self::hystart_delay_thresh(delay_min)) {
            self.found = true;
        }
        if self.found {
            w.ssthresh = w.cwnd;
        }
    }

    /// `Update`: how many ACKs buy one segment of growth now.
    fn update(&mut self, cwnd: u32, acked: u32, now: SimTime) -> u32 {
        self.ack_cnt = self.ack_cnt.wrapping_add(acked);
        let epoch = match self.epoch {
            Some(e) => e,
            None => {
                self.ack_cnt = acked;
                self.tcp_cwnd = cwnd;
                let e = if self.last_max_cwnd <= cwnd {
                    Epoch { start: now, k_seconds: 0.0, origin: cwnd }
                } else {
                    let k = ((self.last_max_cwnd - cwnd) as f64 / C).powf(1.0 / 3.0);
                    Epoch { start: now, k_seconds: k, origin: self.last_max_cwnd }
                };
                self.epoch = Some(e);
                e
            }
        };
        let t = (now + self.delay_min.unwrap_or(SimDuration::ZERO) - epoch.start).as_secs_f64();
        let below_origin = t < epoch.k_seconds;
        let offs = if below_origin { epoch.k_seconds - t } else { t - epoch.k_seconds };
        // ns-3 converts the double to uint32_t and computes the target in unsigned arithmetic.
        let delta = (C * offs.powi(3)) as u32;
        let target = if below_origin { epoch.origin.wrapping_sub(delta) } else { epoch.origin.wrapping_add(delta) };
        let mut cnt = if target > cwnd { cwnd / (target - cwnd) } else { FLAT_CNT_FACTOR.wrapping_mul(cwnd) };
        if self.last_max_cwnd == 0 && cnt > CNT_CLAMP {
            cnt = CNT_CLAMP;
        }
        // TCP friendliness (`m_tcpFriendliness`, on by default): 8·(1024 + 0.7·1024)/3/(1024 − 0.7·1024)
        // truncates to 15, one Reno segment per 15/8 of a window of ACKs.
        let scale = (8.0 * (1024.0 + BETA * 1024.0) / 3.0 / (1024.0 - BETA * 1024.0)) as u32;
        let reno_step = (cwnd.wrapping_mul(scale) >> 3).max(1);
        while self.ack_cnt > reno_step {
            self.ack_cnt -= reno_step;
            self.tcp_cwnd += 1;
        }
        if self.tcp_cwnd > cwnd {
            let max_cnt = cwnd / (self.tcp_cwnd - cwnd);
            cnt = cnt.min(max_cnt);
        }
        cnt.max(MIN_CNT)
    }
}

impl CongestionControl for CubicNs3 {
    /// `GetSsThresh`, with W_max and fast convergence.
    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> u32 {
        let cwnd = w.cwnd;
        self.last_max_cwnd = if cwnd < self.last_max_cwnd { (cwnd as f64 * (1.0 + BETA) / 2.0) as u32 } else { cwnd };
        self.epoch = None;
        ((cwnd as f64 * BETA) as u32).max(2)
    }

    /// `IncreaseWindow`.
    fn cong_avoid(&mut self, w: &mut Window, ack: &AckSample) {
        self.high_tx_mark = self.high_tx_mark.max(ack.snd_nxt);
        let mut acked = ack.acked;
        if w.cwnd < w.ssthresh {
            if self.hystart_enabled && self.round.is_none_or(|r| ack.snd_una > r.end_seq) {
                self.round = Some(Round::new(ack.now, ack.snd_nxt));
            }
            w.cwnd = w.cwnd.saturating_add(acked).min(w.cwnd_clamp);
            acked = 0;
        }
        if w.cwnd >= w.ssthresh && acked > 0 {
            self.cwnd_cnt += acked;
            let cnt = self.update(w.cwnd, acked, ack.now);
            if self.cwnd_cnt >= cnt {
                w.cwnd = w.cwnd.saturating_add(1).min(w.cwnd_clamp);
                self.cwnd_cnt -= cnt;
            }
        }
    }

    /// `PktsAcked`, handed the smoothed RTT as ns-3's `ProcessAck` does.
    fn pkts_acked(&mut self, w: &mut Window, ack: &AckSample, _state: CaState) {
        self.high_tx_mark = self.high_tx_mark.max(ack.snd_nxt);
        let Some(delay) = ack.rtt else { return };
        if self.epoch.is_some_and(|e| ack.now - e.start < CUBIC_DELTA) {
            return;
        }
        if self.delay_min.is_none_or(|d| d > delay) {
            self.delay_min = Some(delay);
        }
        if self.hystart_enabled && w.cwnd <= w.ssthresh && w.cwnd >= HYSTART_LOW_WINDOW {
            self.hystart_update(w, delay, ack.now);
        }
    }

    /// `CongestionStateSet`: a timeout resets the curve (`CubicReset`) and HyStart
    /// (`HystartReset`). ns-3.44's `CubicReset` clears `m_bicOriginPoint`, `m_bicK`, `m_ackCnt`,
    /// `m_tcpCwnd`, `m_delayMin` and `m_found` only (read in the 3.44 wheel's
    /// `libns3.44-internet.so`): W_max and `m_cWndCnt` survive the timeout.
    fn set_state(&mut self, _w: &mut Window, new: CaState, now: SimTime) {
        if new == CaState::Loss {
            self.epoch = self.epoch.map(|e| Epoch { k_seconds: 0.0, origin: 0, ..e });
            self.ack_cnt = 0;
            self.tcp_cwnd = 0;
            self.delay_min = None;
            self.found = false;
            self.round = Some(Round::new(now, self.high_tx_mark));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ms: u64) -> SimTime {
        SimTime::ZERO + SimDuration::from_millis(ms)
    }

    fn ack(now_ms: u64, acked: u32, srtt_ms: u64, snd_una: u64, snd_nxt: u64) -> AckSample {
        AckSample {
            now: at(now_ms),
            acked,
            acked_bytes: acked as u64 * 1448,
            rtt: Some(SimDuration::from_millis(srtt_ms)),
            srtt: Some(SimDuration::from_millis(srtt_ms)),
            in_flight: 0,
            cwnd_limited: true,
            snd_una,
            snd_nxt,
            dupack: false,
        }
    }

    #[test]
    fn slow_start_adds_every_acked_segment_past_ssthresh() {
        let mut cc = CubicNs3::with_hystart(false);
        let mut w = Window::new(10, Some(11), 1448);
        cc.cong_avoid(&mut w, &ack(0, 2, 500, 2, 20));
        // ns-3's byte-counting slow start is not capped at ssthresh.
        assert_eq!(w.cwnd, 12);
    }

    #[test]
    fn hystart_ack_train_must_span_the_whole_minimum_delay() {
        let mut cc = CubicNs3::with_hystart(true);
        let mut w = Window::new(16, None, 1448);
        cc.cong_avoid(&mut w, &ack(1000, 0, 100, 1, 100));
        // ACKs 1 ms apart from the round's start: the train spans 60 ms, then 120 ms.
        for i in 1..=60 {
            cc.pkts_acked(&mut w, &ack(1000 + i, 1, 100, 1, 100), CaState::Open);
        }
        assert!(!cc.found, "60 ms is more than half of the 100 ms delay, but not all of it");
        for i in 61..=120 {
            cc.pkts_acked(&mut w, &ack(1000 + i, 1, 100, 1, 100), CaState::Open);
        }
        assert!(cc.found);
        assert_eq!(w.ssthresh, w.cwnd);
    }

    #[test]
    fn hystart_train_breaks_on_acks_more_than_2_ms_apart() {
        let mut cc = CubicNs3::with_hystart(true);
        let mut w = Window::new(16, None, 1448);
        cc.cong_avoid(&mut w, &ack(0, 0, 100, 1, 100));
        // Delayed ACKs behind a 10 Mbit/s bottleneck come every 2.3 ms: no train ever forms.
        for i in 1..200u64 {
            cc.pkts_acked(&mut w, &ack(i * 23 / 10, 2, 100, 1, 100), CaState::Open);
        }
        assert!(!cc.found);
    }

    #[test]
    fn hystart_delay_needs_the_round_minimum_above_twice_the_connection_minimum() {
        let mut cc = CubicNs3::with_hystart(true);
        let mut w = Window::new(16, None, 1448);
        cc.cong_avoid(&mut w, &ack(0, 0, 100, 1, 100));
        cc.pkts_acked(&mut w, &ack(0, 1, 100, 1, 100), CaState::Open);
        // A new round whose samples all sit at 190 ms: below 100 + 100 ms, no exit.
        cc.cong_avoid(&mut w, &ack(300, 0, 190, 101, 300));
        for i in 0..20 {
            cc.pkts_acked(&mut w, &ack(300 + 10 * i, 1, 190, 101, 300), CaState::Open);
        }
        assert!(!cc.found);
        cc.cong_avoid(&mut w, &ack(700, 0, 210, 301, 600));
        for i in 0..9 {
            cc.pkts_acked(&mut w, &ack(700 + 10 * i, 1, 210, 301, 600), CaState::Open);
        }
        assert!(cc.found, "210 ms > 100 ms + clamp(100 ms, 4 ms, 1 s)");
    }

    #[test]
    fn loss_sets_ssthresh_to_seven_tenths_with_fast_convergence() {
        let mut cc = CubicNs3::with_hystart(false);
        let w = Window::new(100, None, 1448);
        assert_eq!(cc.ssthresh(&w, SimTime::ZERO), 70);
        assert_eq!(cc.last_max_cwnd, 100);
        let w = Window::new(80, None, 1448);
        assert_eq!(cc.ssthresh(&w, SimTime::ZERO), 56);
        // Below the last W_max: W_max = 80·(1 + 0.7)/2.
        assert_eq!(cc.last_max_cwnd, 68);
    }

    #[test]
    fn window_reaches_w_max_once_the_truncated_curve_does() {
        let mut cc = CubicNs3::with_hystart(false);
        let mut w = Window::new(100, None, 1448);
        w.ssthresh = cc.ssthresh(&w, SimTime::ZERO);
        w.cwnd = w.ssthresh;
        // K = ∛((100 − 70)/0.4) ≈ 4.2 s; one ACK per segment, an RTT of 100 ms.
        let mut now_ms = 0;
        let mut una = 0;
        while w.cwnd < 100 {
            for _ in 0..w.cwnd {
                una += 1;
                cc.pkts_acked(&mut w, &ack(now_ms, 1, 100, una, una + 100), CaState::Open);
                cc.cong_avoid(&mut w, &ack(now_ms, 1, 100, una, una + 100));
            }
            now_ms += 100;
            assert!(now_ms < 10_000, "cwnd {} after 10 s", w.cwnd);
        }
        // ns-3 truncates C·(K − t)³ to whole segments, so the target reaches W_max once
        // K − t < ∛(1/0.4) ≈ 1.36 s, with t one delay (0.1 s) ahead: about 2.76 s after the loss.
        assert!((2_700..=3_200).contains(&now_ms), "W_max regained after {now_ms} ms");
    }

    #[test]
    fn timeout_forgets_the_minimum_delay_and_hystart() {
        let mut cc = CubicNs3::with_hystart(true);
        let mut w = Window::new(100, None, 1448);
        cc.pkts_acked(&mut w, &ack(0, 1, 100, 1, 50), CaState::Open);
        cc.ssthresh(&w, SimTime::ZERO);
        cc.found = true;
        cc.set_state(&mut w, CaState::Loss, at(5));
        assert_eq!(cc.delay_min, None);
        assert!(!cc.found);
        assert_eq!(cc.round.map(|r| r.end_seq), Some(50));
    }

    #[test]
    fn timeout_keeps_w_max_and_the_ack_count_as_ns3s_cubic_reset_does() {
        let mut cc = CubicNs3::with_hystart(false);
        let mut w = Window::new(23, None, 1448);
        // Congestion avoidance at W_max: the target is not above cwnd, ACKs pile up in m_cWndCnt.
        w.ssthresh = 16;
        cc.last_max_cwnd = 23;
        for i in 0..8 {
            cc.pkts_acked(&mut w, &ack(1000 + i, 2, 800, 100 + 2 * i, 140), CaState::Open);
            cc.cong_avoid(&mut w, &ack(1000 + i, 2, 800, 100 + 2 * i, 140));
        }
        assert_eq!((w.cwnd, cc.cwnd_cnt), (23, 16));
        // The timeout: GetSsThresh, then CongestionStateSet(CA_LOSS) → CubicReset.
        w.ssthresh = cc.ssthresh(&w, at(2000));
        cc.set_state(&mut w, CaState::Loss, at(2000));
        assert_eq!((w.ssthresh, cc.last_max_cwnd, cc.cwnd_cnt), (16, 23, 16));
        // Slow start in Loss carries cwnd to 17; the first ACK of congestion avoidance then starts
        // an epoch towards W_max 23 (K = ∛(6/0.4) ≈ 2.47 s, t one 0.8 s delay ahead, target 22,
        // cnt = 17/5 = 3), so the 18 counted ACKs buy a segment at once, as in ns-3's trace of
        // RTT 800 ms, 1 %, run 1 at 6.43 s. Had the timeout cleared W_max, cnt would be clamped
        // to 20 and cwnd would stay at 17.
        w.cwnd = 17;
        cc.pkts_acked(&mut w, &ack(2600, 2, 800, 200, 230), CaState::Loss);
        cc.cong_avoid(&mut w, &ack(2600, 2, 800, 200, 230));
        assert_eq!((w.cwnd, cc.cwnd_cnt), (18, 15));
    }
}
