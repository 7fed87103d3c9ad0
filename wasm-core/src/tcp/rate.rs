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
}

impl RateSampler {
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
}
