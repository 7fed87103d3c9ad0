//! What the receiving end of every transport records about the bytes it hands to the
//! application: how many, whether the flow completed and when, the first thing that went wrong,
//! and the delays and goodput over time. TCP's receiver, CTCP's receiver and INTCP's consumer
//! each own one `Delivery`, and a run's report reads it the same way for all three.

use crate::metrics::{DelayStats, DeliveryLog};
use crate::sim::SimTime;

#[derive(Clone, Debug)]
pub struct Delivery {
    flow: u32,
    /// The flow's size; None for a flow that sends until the run ends.
    expected: Option<u64>,
    /// Whether the transport sees each segment arrive before it is delivered in order (TCP and
    /// INTCP do; CTCP delivers what a block decodes, so it has no arrival of its own to record).
    measures_arrivals: bool,
    /// Bytes delivered in order.
    pub delivered: u64,
    pub completed_at: Option<SimTime>,
    /// The first delivery failure (a wrong, missing or extra byte), naming the flow.
    pub error: Option<String>,
    pub log: DeliveryLog,
}

impl Delivery {
    pub fn new(flow: u32, expected: Option<u64>, log: DeliveryLog) -> Delivery {
        Delivery { flow, expected, measures_arrivals: true, delivered: 0, completed_at: None, error: None, log }
    }

    /// For a transport whose segments have no arrival distinct from their delivery.
    pub fn without_arrivals(mut self) -> Delivery {
        self.measures_arrivals = false;
        self
    }

    /// Records a failure; only the first is kept, since later ones usually follow from it.
    pub fn fail(&mut self, msg: impl std::fmt::Display) {
        if self.error.is_none() {
            self.error = Some(format!("flow {}: {msg}", self.flow));
        }
    }

    /// `bytes` delivered in order at `now`, first sent at `first_sent`: counted, checked against
    /// the flow's size (the flow completes when the last byte arrives), and logged.
    pub fn deliver(&mut self, now: SimTime, first_sent: SimTime, bytes: u64) {
        self.delivered += bytes;
        if let Some(total) = self.expected {
            if self.delivered > total {
                self.fail(format!("received {} bytes, more than the {total} sent", self.delivered));
            } else if self.delivered == total {
                self.completed_at = Some(now);
            }
        }
        self.log.record(now, now - first_sent, bytes);
    }

    /// A new segment (not a duplicate) arrived at `now`, first sent at `first_sent`; it may wait
    /// for earlier bytes before it is delivered.
    pub fn arrived(&mut self, now: SimTime, first_sent: SimTime) {
        self.log.record_arrival(now, now - first_sent);
    }

    /// Completed, or failed: nothing more will be delivered that counts.
    pub fn done(&self) -> bool {
        self.completed_at.is_some() || self.error.is_some()
    }

    /// One-way delays at arrival, before reordering, where the transport measures them.
    pub fn arrivals(&self) -> Option<&DelayStats> {
        self.measures_arrivals.then_some(&self.log.arrivals)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::Trace;
    use crate::sim::SimDuration;

    fn at_ms(ms: u64) -> SimTime {
        SimTime(ms * 1_000_000)
    }

    fn delivery(expected: Option<u64>) -> Delivery {
        Delivery::new(3, expected, DeliveryLog::new(Trace::new(16), SimDuration::from_millis(1000)))
    }

    #[test]
    fn completes_when_the_last_expected_byte_is_delivered() {
        let mut d = delivery(Some(3000));
        d.deliver(at_ms(10), SimTime::ZERO, 1500);
        assert_eq!(d.completed_at, None);
        d.deliver(at_ms(20), at_ms(5), 1500);
        assert_eq!(d.completed_at, Some(at_ms(20)));
        assert_eq!(d.delivered, 3000);
        assert!(d.done() && d.error.is_none());
        assert_eq!(d.log.goodput_bins, vec![3000]);
    }

    #[test]
    fn a_byte_past_the_flow_size_is_an_error_naming_the_flow() {
        let mut d = delivery(Some(1000));
        d.deliver(at_ms(1), SimTime::ZERO, 1500);
        assert_eq!(d.error.as_deref(), Some("flow 3: received 1500 bytes, more than the 1000 sent"));
        assert_eq!(d.completed_at, None);
    }

    #[test]
    fn only_the_first_failure_is_kept() {
        let mut d = delivery(None);
        d.fail("first");
        d.fail("second");
        assert_eq!(d.error.as_deref(), Some("flow 3: first"));
        assert!(d.done());
    }

    #[test]
    fn an_unlimited_flow_never_completes() {
        let mut d = delivery(None);
        d.deliver(at_ms(1000), SimTime::ZERO, u32::MAX as u64);
        assert_eq!(d.completed_at, None);
        assert!(!d.done());
    }

    #[test]
    fn arrivals_are_reported_only_where_measured() {
        let mut d = delivery(None);
        d.arrived(at_ms(30), at_ms(10));
        assert_eq!(d.arrivals().map(|a| a.summary().mean), Some(20.0));
        assert!(delivery(None).without_arrivals().arrivals().is_none());
    }
}
