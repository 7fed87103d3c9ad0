//! Delivery-rate estimation (draft-cheng-iccrg-delivery-rate-estimation; Linux
//! `net/ipv4/tcp_rate.c`), the bandwidth samples BBR is built on.
//!
//! Each transmission remembers how much had been delivered when it left and when. When it is
//! delivered, the rate over the interval between is a sample of the path's delivery rate; the
//! interval is the longer of the send and the ACK intervals, so neither a burst on the way out
//! nor ACK compression on the way back inflates it.

use crate::sim::{SimDuration, SimTime};

/// What a segment carries from the moment it was (re)sent (Linux `tcp_skb_cb.tx`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TxSnapshot {
    pub delivered: u64,
    pub delivered_at: SimTime,
    pub first_tx_at: SimTime,
    pub app_limited: bool,
}

/// One ACK's sample (Linux `struct rate_sample`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RateSample {
    /// Segments delivered over `interval`; `None` when the ACK gave no valid sample.
    pub delivered: Option<u64>,
    pub interval: SimDuration,
    /// `delivered` counter when the sampled segment was sent (BBR counts rounds with it).
    pub prior_delivered: u64,
    pub is_app_limited: bool,
    /// RTT of the most recently sent segment this ACK delivered.
    pub rtt: Option<SimDuration>,
    /// Segments newly (S)ACKed and newly marked lost by this ACK.
    pub acked_sacked: u32,
    pub losses: u32,
    /// Packets in flight before this ACK.
    pub prior_in_flight: u32,
}

impl RateSample {
    /// Delivered segments per second, if valid.
    pub fn rate_pps(&self) -> Option<f64> {
        let d = self.delivered?;
        (self.interval.0 > 0).then(|| d as f64 / self.interval.as_secs_f64())
    }
}

/// The connection's side of the estimator.
#[derive(Clone, Debug, Default)]
pub struct RateSampler {
    /// Segments delivered (cumulatively ACKed or SACKed) so far (Linux `tp->delivered`).
    pub delivered: u64,
    pub delivered_at: SimTime,
    first_tx_at: SimTime,
    /// Nonzero while the flow is application-limited: the `delivered` count that ends it.
    app_limited_until: u64,
    /// The sample being built for the current ACK.
    pending: RateSample,
    pending_xmit: Option<SimTime>,
    /// ns-3's `TcpRateLinux` in place of Linux's: the sample outlives the ACK (below).
    ns3: Option<Ns3Sample>,
}

/// ns-3.44's `TcpRateLinux` keeps one `m_rateSample` for the connection: `SkbDelivered` replaces
/// its packet only with one sent after more was delivered (or while nothing has been), and
/// computes the ACK phase then, so later ACKs measure more delivered over the same interval.
/// An interval shorter than the minimum RTT voids the sample's timing (`m_priorTime = 0`) until a
/// newer packet is delivered.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Ns3Sample {
    prior_delivered: u64,
    prior_time: Option<SimTime>,
    send_elapsed: SimDuration,
    ack_elapsed: SimDuration,
    is_app_limited: bool,
}

impl RateSampler {
    /// The sampler of ns-3's `TcpRateLinux` (`Ns3Sample`), for the `ns3` profile.
    pub fn ns3() -> RateSampler {
        RateSampler { ns3: Some(Ns3Sample::default()), ..RateSampler::default() }
    }

    /// Linux `tcp_rate_skb_sent`: the snapshot a transmission carries.
    pub fn on_sent(&mut self, now: SimTime, packets_out_before: u64) -> TxSnapshot {
        if packets_out_before == 0 {
            self.first_tx_at = now;
            self.delivered_at = now;
        }
        TxSnapshot {
            delivered: self.delivered,
            delivered_at: self.delivered_at,
            first_tx_at: self.first_tx_at,
            app_limited: self.app_limited_until != 0,
        }
    }

    /// Linux `tcp_rate_skb_delivered`: a segment sent at `xmit_at` with `tx` was (S)ACKed.
    pub fn on_delivered(&mut self, tx: &TxSnapshot, xmit_at: SimTime, now: SimTime) {
        if let Some(kept) = &mut self.ns3 {
            // `TcpRateLinux::SkbDelivered`.
            if kept.prior_delivered == 0 || tx.delivered > kept.prior_delivered {
                *kept = Ns3Sample {
                    prior_delivered: tx.delivered,
                    prior_time: Some(tx.delivered_at),
                    send_elapsed: xmit_at - tx.first_tx_at,
                    ack_elapsed: now - tx.delivered_at,
                    is_app_limited: tx.app_limited,
                };
                self.first_tx_at = xmit_at;
            }
            return;
        }
        let rs = &mut self.pending;
        if self.pending_xmit.is_none() || tx.delivered > rs.prior_delivered {
            rs.prior_delivered = tx.delivered;
            rs.is_app_limited = tx.app_limited;
            // The send interval: from the first transmission of the flight this one belongs to.
            rs.interval = xmit_at - tx.first_tx_at;
            rs.rtt = Some(now - xmit_at);
            self.pending_xmit = Some(tx.delivered_at);
            self.first_tx_at = xmit_at;
        }
    }

    /// Linux `tcp_mark_app_limited` / `tcp_rate_check_app_limited`.
    pub fn mark_app_limited(&mut self, in_flight: u32) {
        self.app_limited_until = (self.delivered + in_flight as u64).max(1);
    }

    /// Linux `tcp_rate_gen`: closes the ACK's sample.
    pub fn finish(
        &mut self,
        now: SimTime,
        acked_sacked: u32,
        losses: u32,
        prior_in_flight: u32,
        min_rtt: Option<SimDuration>,
    ) -> RateSample {
        if self.app_limited_until != 0 && self.delivered + acked_sacked as u64 > self.app_limited_until {
            self.app_limited_until = 0;
        }
        if acked_sacked > 0 {
            self.delivered += acked_sacked as u64;
            self.delivered_at = now;
        }
        let mut rs = std::mem::take(&mut self.pending);
        rs.acked_sacked = acked_sacked;
        rs.losses = losses;
        rs.prior_in_flight = prior_in_flight;
        if let Some(kept) = &mut self.ns3 {
            return Self::ns3_sample(kept, rs, self.delivered, min_rtt);
        }
        let Some(prior_delivered_at) = self.pending_xmit.take() else {
            rs.delivered = None;
            rs.rtt = None;
            return rs;
        };
        let ack_interval = now - prior_delivered_at;
        rs.interval = rs.interval.max(ack_interval);
        let delivered = self.delivered - rs.prior_delivered;
        // An interval shorter than the minimum RTT is an artefact (a burst of SACKs).
        rs.delivered = match min_rtt {
            Some(m) if rs.interval < m => None,
            _ if rs.interval.0 == 0 => None,
            _ => Some(delivered),
        };
        rs
    }
}

impl RateSampler {
    /// `TcpRateLinux::GenerateSample`: `delivered` is `None` without timing (`m_delivered = -1`);
    /// with timing but an interval under the minimum RTT it is `Some` with a zero interval.
    fn ns3_sample(kept: &mut Ns3Sample, mut rs: RateSample, total: u64, min_rtt: Option<SimDuration>) -> RateSample {
        rs.prior_delivered = kept.prior_delivered;
        rs.is_app_limited = kept.is_app_limited;
        if kept.prior_time.is_none() {
            rs.delivered = None;
            return rs;
        }
        rs.rtt = None;
        rs.delivered = Some(total - kept.prior_delivered);
        rs.interval = kept.send_elapsed.max(kept.ack_elapsed);
        if min_rtt.is_some_and(|m| rs.interval < m) {
            rs.interval = SimDuration::ZERO;
            kept.prior_time = None;
        }
        rs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> SimTime {
        SimTime(v * 1_000_000)
    }

    #[test]
    fn a_paced_stream_samples_the_rate_it_was_delivered_at() {
        // One segment every 10 ms, each ACKed 100 ms after it was sent: once the first flight
        // is through, every sample says 100 segments per second over one RTT.
        let mut r = RateSampler::default();
        let mut sent = std::collections::VecDeque::new();
        let mut last = None;
        for k in 0..60u64 {
            let now = ms(10 * k);
            // ACKs due now come before the send at the same instant.
            while let Some(&(at, tx)) = sent.front() {
                if at + 100 > 10 * k {
                    break;
                }
                sent.pop_front();
                r.on_delivered(&tx, ms(at), now);
                last = Some(r.finish(now, 1, 0, sent.len() as u32 + 1, Some(SimDuration::from_millis(100))));
            }
            let tx = r.on_sent(now, sent.len() as u64);
            sent.push_back((10 * k, tx));
        }
        let rs = last.unwrap();
        assert_eq!(rs.interval, SimDuration::from_millis(100));
        assert!((rs.rate_pps().unwrap() - 100.0).abs() < 1e-9, "{rs:?}");
    }

    #[test]
    fn the_first_flight_counts_from_the_first_send() {
        // Linux `tcp_rate_gen`: the ACK interval of the first flight runs from the first send,
        // so the start of a connection is not over-estimated.
        let mut r = RateSampler::default();
        let tx: Vec<_> = (0..10).map(|i| r.on_sent(ms(10 * i), i)).collect();
        let mut last = None;
        for (i, t) in tx.iter().enumerate() {
            let now = ms(100 + 10 * i as u64);
            r.on_delivered(t, ms(10 * i as u64), now);
            last = Some(r.finish(now, 1, 0, 10, Some(SimDuration::from_millis(100))));
        }
        let rs = last.unwrap();
        assert_eq!(rs.delivered, Some(10));
        assert_eq!(rs.interval, SimDuration::from_millis(190));
    }

    #[test]
    fn ack_compression_does_not_inflate_the_sample() {
        // Two segments sent 50 ms apart, their ACKs arrive together: the send interval rules.
        let mut r = RateSampler::default();
        let a = r.on_sent(ms(0), 0);
        let b = r.on_sent(ms(50), 1);
        r.on_delivered(&a, ms(0), ms(100));
        r.on_delivered(&b, ms(50), ms(100));
        let rs = r.finish(ms(100), 2, 0, 2, None);
        assert_eq!(rs.delivered, Some(2));
        assert_eq!(rs.interval, SimDuration::from_millis(100));
    }

    #[test]
    fn samples_shorter_than_the_min_rtt_are_invalid() {
        let mut r = RateSampler::default();
        let a = r.on_sent(ms(0), 0);
        r.on_delivered(&a, ms(0), ms(10));
        let rs = r.finish(ms(10), 1, 0, 1, Some(SimDuration::from_millis(100)));
        assert_eq!(rs.delivered, None);
    }

    #[test]
    fn app_limited_marks_last_until_the_flight_is_delivered() {
        let mut r = RateSampler::default();
        r.mark_app_limited(3);
        let tx = r.on_sent(ms(0), 0);
        assert!(tx.app_limited);
        r.finish(ms(100), 4, 0, 3, None);
        assert!(!r.on_sent(ms(100), 0).app_limited);
    }

    /// ns-3's sampler once one segment, sent at 0, was delivered at 100 ms (minimum RTT 100 ms).
    fn ns3_after_one_delivery() -> (RateSampler, Option<SimDuration>) {
        let mut r = RateSampler::ns3();
        let min_rtt = Some(SimDuration::from_millis(100));
        let s0 = r.on_sent(ms(0), 0);
        r.on_delivered(&s0, ms(0), ms(100));
        r.finish(ms(100), 1, 0, 1, min_rtt);
        (r, min_rtt)
    }

    #[test]
    fn ns3s_sample_keeps_its_packet_until_one_sent_after_more_was_delivered() {
        let (mut r, min_rtt) = ns3_after_one_delivery();
        // Three segments sent once one was delivered.
        let s1 = r.on_sent(ms(100), 0);
        let s2 = r.on_sent(ms(110), 1);
        let _s3 = r.on_sent(ms(120), 2);
        r.on_delivered(&s1, ms(100), ms(250));
        let first = r.finish(ms(250), 1, 0, 3, min_rtt);
        assert_eq!((first.delivered, first.interval), (Some(1), SimDuration::from_millis(150)));
        // The next segment left with the same delivered count: ns-3 keeps the sample's interval
        // (Linux would take this ACK's 170 ms) and counts everything delivered since.
        r.on_delivered(&s2, ms(110), ms(270));
        let second = r.finish(ms(270), 1, 0, 2, min_rtt);
        assert_eq!((second.delivered, second.interval), (Some(2), SimDuration::from_millis(150)));
        // A segment sent after three were delivered replaces it.
        let s4 = r.on_sent(ms(280), 1);
        r.on_delivered(&s4, ms(280), ms(400));
        let third = r.finish(ms(400), 1, 0, 2, min_rtt);
        assert_eq!(third.prior_delivered, 3);
        assert_eq!((third.delivered, third.interval), (Some(1), SimDuration::from_millis(180)));
    }

    #[test]
    fn ns3s_short_interval_voids_the_sample_until_a_newer_packet_is_delivered() {
        let (mut r, min_rtt) = ns3_after_one_delivery();
        let s1 = r.on_sent(ms(100), 0);
        let s2 = r.on_sent(ms(101), 1);
        // Delivered 50 ms after the delivery it was sent on: under the minimum RTT, timed but
        // without a rate.
        r.on_delivered(&s1, ms(100), ms(150));
        let short = r.finish(ms(150), 1, 0, 1, min_rtt);
        assert_eq!((short.delivered, short.interval), (Some(1), SimDuration::ZERO));
        // The next segment left with the same delivered count, so it cannot replace the sample,
        // whose timing is now void (`m_priorTime = 0`): no sample at all.
        r.on_delivered(&s2, ms(101), ms(300));
        assert_eq!(r.finish(ms(300), 1, 0, 0, min_rtt).delivered, None);
    }
}
