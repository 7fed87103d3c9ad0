//! The retransmission timeout (TCP and ARQ), as Linux or as RFC 6298 forms it
//! (docs/models.md §7.1, docs/tcp.md "The RTT estimator"): Linux's `tcp_rtt_estimator`
//! (`crate::rtt::LinuxRttEstimator`), or RFC 6298's per-sample smoothing (α = 1/8, β = 1/4, K = 4;
//! `crate::rtt`'s, shared with CTCP and INTCP).

use crate::rtt::{LinuxRttEstimator, SmoothedRtt, RFC6298_GAIN};
use crate::sim::SimDuration;

const K: u64 = 4; // RFC 6298 K
const CLOCK_GRANULARITY: SimDuration = SimDuration::from_millis(1); // RFC 6298 G (ns-3's default)
pub const INITIAL_RTO: SimDuration = SimDuration::from_millis(1000); // RFC 6298 §2.1

/// How the RTO is formed from SRTT and RTTVAR.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RtoFlavor {
    /// Linux: `tcp_rtt_estimator`, whose rttvar holds each round trip's largest deviation, and
    /// `srtt + max(4·rttvar, rto_min)` (`__tcp_set_rto`, rttvar floored at `tcp_rto_min`).
    Linux,
    /// RFC 6298: `max(rto_min, srtt + max(G, 4·rttvar))`.
    Rfc6298,
}

/// Where the flight stood after the ACK that measured an RTT: Linux ends its round trip
/// (`rtt_seq`) when the cumulative ACK passes the segment that was next when it began.
#[derive(Clone, Copy, Debug, Default)]
pub struct Flight {
    /// The cumulative ACK, in segments.
    pub una: u64,
    /// The next new segment.
    pub nxt: u64,
}

#[derive(Clone, Debug)]
enum Smoothing {
    Linux(LinuxRttEstimator),
    Rfc6298(SmoothedRtt),
}

#[derive(Clone, Debug)]
pub struct RttEstimator {
    smoothing: Smoothing,
    pub min_rtt: Option<SimDuration>,
    pub latest: Option<SimDuration>,
    rto_min: SimDuration,
    rto_max: SimDuration,
    /// Consecutive timeouts without a new RTT sample: the RTO doubles with each (Karn).
    pub backoff: u32,
}

impl RttEstimator {
    pub fn new(flavor: RtoFlavor, rto_min: SimDuration, rto_max: SimDuration) -> Self {
        let smoothing = match flavor {
            RtoFlavor::Linux => Smoothing::Linux(LinuxRttEstimator::default()),
            RtoFlavor::Rfc6298 => Smoothing::Rfc6298(SmoothedRtt::new(RFC6298_GAIN)),
        };
        RttEstimator { smoothing, min_rtt: None, latest: None, rto_min, rto_max, backoff: 0 }
    }

    /// One measurement `r`, which also bounds the minimum RTT.
    pub fn sample(&mut self, r: SimDuration, flight: Flight) {
        self.sample_with_newest(r, r, flight);
    }

    /// One measurement `r` for SRTT and the RTO, and `newest`, the RTT of the most recently
    /// sent segment the ACK covered, for the minimum RTT (Linux measures `seq_rtt_us` from the
    /// oldest segment and `ca_rtt_us` from the newest, `tcp_clean_rtx_queue`).
    pub fn sample_with_newest(&mut self, r: SimDuration, newest: SimDuration, flight: Flight) {
        self.latest = Some(newest);
        self.min_rtt = Some(self.min_rtt.map_or(newest, |m| m.min(newest)));
        match &mut self.smoothing {
            Smoothing::Linux(e) => e.sample(r, flight.una, flight.nxt, self.rto_min),
            Smoothing::Rfc6298(e) => e.sample(r),
        }
        self.backoff = 0;
    }

    pub fn srtt(&self) -> Option<SimDuration> {
        match &self.smoothing {
            Smoothing::Linux(e) => e.srtt(),
            Smoothing::Rfc6298(e) => e.srtt(),
        }
    }

    pub fn rttvar(&self) -> SimDuration {
        match &self.smoothing {
            Smoothing::Linux(e) => e.rttvar(),
            Smoothing::Rfc6298(e) => e.rttvar(),
        }
    }

    /// The RTO before back-off.
    pub fn base_rto(&self) -> SimDuration {
        let rto = match &self.smoothing {
            Smoothing::Linux(e) => e.rto(),
            Smoothing::Rfc6298(e) => {
                e.srtt().map(|srtt| (srtt + SimDuration(K * e.rttvar().0).max(CLOCK_GRANULARITY)).max(self.rto_min))
            }
        };
        rto.unwrap_or(INITIAL_RTO.max(self.rto_min)).min(self.rto_max)
    }

    /// The RTO with exponential back-off applied, capped at the maximum.
    pub fn rto(&self) -> SimDuration {
        let base = self.base_rto();
        SimDuration(base.0.saturating_mul(1u64 << self.backoff.min(30))).min(self.rto_max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> SimDuration {
        SimDuration::from_millis(x)
    }

    #[test]
    fn first_sample_sets_srtt_and_half_rttvar() {
        let mut e = RttEstimator::new(RtoFlavor::Rfc6298, ms(1000), ms(60_000));
        e.sample(ms(600), Flight::default());
        assert_eq!(e.srtt(), Some(ms(600)));
        assert_eq!(e.rttvar(), ms(300));
        assert_eq!(e.rto(), ms(1800));
    }

    #[test]
    fn constant_rtt_converges_to_srtt_and_the_minimum() {
        let mut e = RttEstimator::new(RtoFlavor::Rfc6298, ms(1000), ms(60_000));
        for _ in 0..200 {
            e.sample(ms(100), Flight::default());
        }
        assert_eq!(e.srtt(), Some(ms(100)));
        assert!(e.rttvar() < SimDuration::from_micros(10));
        // RFC: max(R + G, 1 s) = 1 s.
        assert_eq!(e.rto(), ms(1000));
        let mut l = RttEstimator::new(RtoFlavor::Linux, ms(200), ms(120_000));
        for k in 0..2000 {
            l.sample(ms(500), Flight { una: k, nxt: k + 10 });
        }
        // Linux: srtt + max(4·rttvar, 200 ms), rttvar settling once per round trip.
        assert!(l.rto() - ms(700) < SimDuration::from_micros(1), "{:?}", l.rto());
    }

    #[test]
    fn back_off_doubles_and_caps() {
        let mut e = RttEstimator::new(RtoFlavor::Rfc6298, ms(1000), ms(60_000));
        e.sample(ms(100), Flight::default());
        let base = e.rto();
        e.backoff = 1;
        assert_eq!(e.rto(), SimDuration(base.0 * 2));
        e.backoff = 20;
        assert_eq!(e.rto(), ms(60_000));
        e.sample(ms(100), Flight::default());
        assert_eq!(e.backoff, 0);
    }

    #[test]
    fn no_sample_means_one_second() {
        let e = RttEstimator::new(RtoFlavor::Linux, ms(200), ms(120_000));
        assert_eq!(e.rto(), ms(1000));
    }
}
