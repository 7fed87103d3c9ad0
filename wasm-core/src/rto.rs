//! The retransmission timeout (TCP and ARQ): RFC 6298 (α = 1/8, β = 1/4, K = 4: the
//! smoothing is `crate::rtt`'s, shared with CTCP and INTCP), with the minimum and the formula
//! selectable between Linux and the RFC (docs/models.md §7.1).

use crate::rtt::{SmoothedRtt, RFC6298_GAIN};
use crate::sim::SimDuration;

const K: u64 = 4; // RFC 6298 K
const CLOCK_GRANULARITY: SimDuration = SimDuration::from_millis(1); // RFC 6298 G (ns-3's default)
pub const INITIAL_RTO: SimDuration = SimDuration::from_millis(1000); // RFC 6298 §2.1

/// How the RTO is formed from SRTT and RTTVAR.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RtoFlavor {
    /// Linux: `srtt + max(4·rttvar, rto_min)` (`__tcp_set_rto`, rttvar floored at `tcp_rto_min`).
    Linux,
    /// RFC 6298: `max(rto_min, srtt + max(G, 4·rttvar))`.
    Rfc6298,
}

#[derive(Clone, Debug)]
pub struct RttEstimator {
    smoothed: SmoothedRtt,
    pub min_rtt: Option<SimDuration>,
    pub latest: Option<SimDuration>,
    flavor: RtoFlavor,
    rto_min: SimDuration,
    rto_max: SimDuration,
    /// Consecutive timeouts without a new RTT sample: the RTO doubles with each (Karn).
    pub backoff: u32,
}

impl RttEstimator {
    pub fn new(flavor: RtoFlavor, rto_min: SimDuration, rto_max: SimDuration) -> Self {
        RttEstimator {
            smoothed: SmoothedRtt::new(RFC6298_GAIN),
            min_rtt: None,
            latest: None,
            flavor,
            rto_min,
            rto_max,
            backoff: 0,
        }
    }

    pub fn sample(&mut self, r: SimDuration) {
        self.latest = Some(r);
        self.min_rtt = Some(self.min_rtt.map_or(r, |m| m.min(r)));
        self.smoothed.sample(r);
        self.backoff = 0;
    }

    pub fn srtt(&self) -> Option<SimDuration> {
        self.smoothed.srtt()
    }

    pub fn rttvar(&self) -> SimDuration {
        self.smoothed.rttvar()
    }

    /// The RTO before back-off.
    pub fn base_rto(&self) -> SimDuration {
        let Some(srtt) = self.srtt() else { return INITIAL_RTO.max(self.rto_min) };
        let var = SimDuration(K * self.rttvar().0);
        let rto = match self.flavor {
            RtoFlavor::Linux => srtt + var.max(self.rto_min),
            RtoFlavor::Rfc6298 => (srtt + var.max(CLOCK_GRANULARITY)).max(self.rto_min),
        };
        rto.min(self.rto_max)
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
        e.sample(ms(600));
        assert_eq!(e.srtt(), Some(ms(600)));
        assert_eq!(e.rttvar(), ms(300));
        assert_eq!(e.rto(), ms(1800));
    }

    #[test]
    fn constant_rtt_converges_to_srtt_and_the_minimum() {
        let mut e = RttEstimator::new(RtoFlavor::Rfc6298, ms(1000), ms(60_000));
        for _ in 0..200 {
            e.sample(ms(100));
        }
        assert_eq!(e.srtt(), Some(ms(100)));
        assert!(e.rttvar() < SimDuration::from_micros(10));
        // RFC: max(R + G, 1 s) = 1 s.
        assert_eq!(e.rto(), ms(1000));
        let mut l = RttEstimator::new(RtoFlavor::Linux, ms(200), ms(120_000));
        for _ in 0..200 {
            l.sample(ms(500));
        }
        // Linux: srtt + max(4·rttvar, 200 ms).
        assert_eq!(l.rto(), ms(700));
    }

    #[test]
    fn back_off_doubles_and_caps() {
        let mut e = RttEstimator::new(RtoFlavor::Rfc6298, ms(1000), ms(60_000));
        e.sample(ms(100));
        let base = e.rto();
        e.backoff = 1;
        assert_eq!(e.rto(), SimDuration(base.0 * 2));
        e.backoff = 20;
        assert_eq!(e.rto(), ms(60_000));
        e.sample(ms(100));
        assert_eq!(e.backoff, 0);
    }

    #[test]
    fn no_sample_means_one_second() {
        let e = RttEstimator::new(RtoFlavor::Linux, ms(200), ms(120_000));
        assert_eq!(e.rto(), ms(1000));
    }
}
