//! The consumer (docs/intcp-protocol.md §6.1–§6.3, §5.8, §7.2, §7.3): it requests the flow's bytes from offset
//! 0 in 1-MSS interests paced by its interest credit, keeps the outstanding-interest table with
//! the end-to-end RTO, re-requests last-hop SeqHoles at once, reassembles in order and checks
//! every delivered byte against the producer's content, as the TCP receiver does.
//!
//! Simplifications, stated: the application's 10·MSS-per-ms requests are not materialised —
//! unsent requests are the range from a cursor on, up to `INTB_MAX` outstanding (the
//! application offers ~116 Mbit/s, always more than the credit lets out, §6.1); reassembly is
//! unbounded and never cleared (quirk Q1 is not modelled); a "dead link" does not end the flow
//! (quirk Q5): the consumer keeps retrying with its backoff.

use super::cache::Segment;
use super::holes::HoleDetector;
use super::rate::SRTT_FLOOR;
use super::{BYTES_PER_S_PER_MBPS, INTB_MAX_MSS, MAX_CONSEQ_TIMEOUT, RTO_DEF, RTO_MAX, RTO_MIN};
use crate::content::Content;
use crate::delivery::Delivery;
use crate::metrics::{DeliveryLog, Trace};
use crate::rtt::{SmoothedRtt, RFC6298_GAIN};
use crate::sim::{SimDuration, SimTime};
use std::collections::{BTreeMap, BTreeSet};

/// Columns of the consumer trace (the flow's "sender" trace in results).
/// An entry sent `xmit` times is due after rto·(ENTRY_BACKOFF_BASE^(xmit−1) + 1) ([L], [P]: "the
/// interval grows by 1.5 each time"; docs/intcp-protocol.md §7.3).
const ENTRY_BACKOFF_BASE: f64 = 1.5;
/// A tick with a timeout inflates the end-to-end SRTT and RTO by this factor (`RTO_EXPO`, §7.3).
const TIMEOUT_INFLATION: f64 = 1.1;

pub const CONSUMER_TRACE_COLUMNS: [&str; 8] = [
    "srtt_ms",
    "rto_ms",
    "hop_srtt_ms",
    "hop_cwnd",
    "hop_rate_mbps",
    "credit_bytes",
    "outstanding_bytes",
    "retransmissions",
];

#[derive(Clone, Copy, Debug)]
struct Entry {
    end: u64,
    /// Last send time (reset by a SeqHole re-request).
    ts: SimTime,
    xmit: u32,
}

#[derive(Clone, Debug, Default)]
pub struct ConsumerStats {
    /// Interests re-sent on an end-to-end timeout.
    pub timeout_resends: u64,
    /// Ticks in which at least one interest timed out.
    pub timeouts: u64,
    /// Interests sent for last-hop SeqHoles.
    pub hole_requests: u64,
    /// DATA that matched no outstanding interest (dropped).
    pub useless: u64,
}

/// What an INTCP consumer is built from.
pub struct ConsumerConfig {
    pub flow: u32,
    pub mss: u32,
    /// The flow's size; `None` for a flow that never ends.
    pub bytes: Option<u64>,
    /// Later packets that confirm a last-hop SeqHole lost (`holes.rs`).
    pub hole_threshold: u32,
    /// The responder's target send-buffer length (`CcParams::target_buffer_bytes`): the
    /// request credit before the first RTT sample (§5.8).
    pub target_buffer_bytes: f64,
    pub content: Content,
    /// Over time: the `CONSUMER_TRACE_COLUMNS`.
    pub trace: Trace<8>,
    pub owd_trace: Trace<1>,
    /// The width of a goodput bin.
    pub bin_width: SimDuration,
}

pub struct Consumer {
    pub flow: u32,
    mss: u32,
    bytes: Option<u64>,
    content: Content,
    next_new: u64,
    int_buf: BTreeMap<u64, Entry>,
    int_buf_bytes: u64,
    due: BTreeSet<u64>,
    next_check: SimTime,
    pub credit: f64,
    rmt_sndq_rest: f64,
    /// Whether the last DATA came from a midnode reading ahead, whose `wnd` is its own debt.
    pub responder_reads_ahead: bool,
    target_buffer_bytes: f64,
    /// The end-to-end smoothed RTT (`crate::rtt`, α = 1/8, at least 1 ms).
    rtt: SmoothedRtt,
    pub rto: SimDuration,
    conseq_timeout: u32,
    holes: HoleDetector,
    rcv: BTreeMap<u64, Segment>,
    rcv_nxt: u64,
    pub delivery: Delivery,
    pub trace: Trace<8>,
    pub stats: ConsumerStats,
}

impl Consumer {
    pub fn new(cfg: ConsumerConfig) -> Consumer {
        let ConsumerConfig {
            flow,
            mss,
            bytes,
            hole_threshold,
            target_buffer_bytes,
            content,
            trace,
            owd_trace,
            bin_width,
        } = cfg;
        Consumer {
            responder_reads_ahead: false,
            flow,
            mss,
            bytes,
            content,
            next_new: 0,
            int_buf: BTreeMap::new(),
            int_buf_bytes: 0,
            due: BTreeSet::new(),
            next_check: SimTime::MAX,
            // Before the first RTT sample the credit is SNDQ_MAX of requests (§5.8).
            credit: target_buffer_bytes,
            rmt_sndq_rest: target_buffer_bytes,
            target_buffer_bytes,
            rtt: SmoothedRtt::new(RFC6298_GAIN).with_floor(SRTT_FLOOR),
            rto: RTO_DEF,
            conseq_timeout: 0,
            holes: HoleDetector::new(mss, hole_threshold),
            rcv: BTreeMap::new(),
            rcv_nxt: 0,
            delivery: Delivery::new(flow, bytes, DeliveryLog::new(owd_trace, bin_width)),
            trace,
            stats: ConsumerStats::default(),
        }
    }

    pub fn done(&self) -> bool {
        self.delivery.done()
    }

    fn fail(&mut self, msg: String) {
        self.delivery.fail(msg);
    }

    fn entry_deadline(&self, e: &Entry) -> SimTime {
        let k = ENTRY_BACKOFF_BASE.powi(e.xmit.saturating_sub(1) as i32) + 1.0;
        e.ts + self.rto.mul_f64(k)
    }

    /// The RTT estimate and the RTO from a sample (§7.3).
    fn update_rtt(&mut self, r: SimDuration) {
        let first = self.rtt.srtt().is_none();
        self.rtt.sample(r);
        self.rto = match self.rtt.srtt() {
            Some(srtt) if !first => srtt + SimDuration(4 * self.rtt.rttvar().0).max(SimDuration::from_millis(1)),
            _ => SimDuration(3 * r.0),
        }
        .clamp(RTO_MIN, RTO_MAX);
    }

    /// The end-to-end smoothed RTT in ms; 0 until the first sample (for traces).
    pub fn srtt_ms(&self) -> f64 {
        self.rtt.srtt_ms()
    }

    /// The RTO in ms (for traces).
    pub fn rto_ms(&self) -> f64 {
        self.rto.as_millis_f64()
    }

    /// One 1 ms flush (§5.8, §7.3): refills the interest credit from the last-hop receive rate
    /// `thrp_mbps`, finds timed-out interests, and returns the interests to send now (due
    /// re-sends first, then new ranges), stopping at the first that the credit does not cover.
    ///
    /// `follow` = (the rate the consumer advertises on its hop, its hop RTT once measured), when the last
    /// hop's responder reads ahead and reports its own debt in `wnd` (`readahead.rs`): the
    /// consumer then requests at the rate it asks the hop to send at, plus the correction that
    /// keeps that responder's debt at its target over one hop RTT, rather than at the rate that
    /// arrived plus the producer's queue correction over the end-to-end RTT ([L], §5.8), which
    /// lags a link that speeds up by a round trip at every step.
    pub fn tick(
        &mut self,
        now: SimTime,
        dt: SimDuration,
        thrp_mbps: f64,
        follow: Option<(f64, Option<SimDuration>)>,
        out: &mut Vec<(u64, u64)>,
    ) {
        let mut new_output = 0.0;
        let base = follow.and_then(|(rate, hop_srtt)| Some((rate, hop_srtt?)));
        let dt_s = dt.as_secs_f64();
        if let Some(srtt) = self.rtt.srtt() {
            new_output = match base {
                Some((rate, hop_srtt)) => {
                    (self.rmt_sndq_rest * dt_s / hop_srtt.as_secs_f64() + rate * BYTES_PER_S_PER_MBPS * dt_s).max(0.0)
                }
                None => self.rmt_sndq_rest * dt_s / srtt.as_secs_f64() + thrp_mbps * BYTES_PER_S_PER_MBPS * dt_s,
            };
            new_output = new_output.max(super::SENDRATE_MIN_MBPS * BYTES_PER_S_PER_MBPS * dt_s);
            self.credit += new_output;
        }
        if now >= self.next_check {
            self.next_check = SimTime::MAX;
            let mut timed_out = false;
            let starts: Vec<u64> = self.int_buf.keys().copied().collect();
            for s in starts {
                if self.due.contains(&s) {
                    continue;
                }
                let deadline = self.entry_deadline(&self.int_buf[&s]);
                if now >= deadline {
                    self.due.insert(s);
                    timed_out = true;
                } else {
                    self.next_check = self.next_check.min(deadline);
                }
            }
            if timed_out {
                self.stats.timeouts += 1;
                self.conseq_timeout += 1;
                if self.conseq_timeout < MAX_CONSEQ_TIMEOUT {
                    self.rtt.scale(TIMEOUT_INFLATION);
                    self.rto = self.rto.mul_f64(TIMEOUT_INFLATION).min(RTO_MAX);
                }
            }
        }
        let mut stopped = false;
        while let Some(&s) = self.due.first() {
            let Some(e) = self.int_buf.get(&s).copied() else {
                self.due.remove(&s);
                continue;
            };
            let len = (e.end - s) as f64;
            if self.credit < len {
                stopped = true;
                break;
            }
            self.credit -= len;
            self.due.remove(&s);
            let e = Entry { end: e.end, ts: now, xmit: e.xmit + 1 };
            self.int_buf.insert(s, e);
            self.next_check = self.next_check.min(self.entry_deadline(&e));
            self.holes.remove_range(s, e.end);
            self.stats.timeout_resends += 1;
            out.push((s, e.end));
        }
        if !stopped {
            let limit = self.bytes.unwrap_or(u64::MAX);
            let intb_max = INTB_MAX_MSS * self.mss as u64;
            while self.next_new < limit && self.int_buf_bytes < intb_max {
                let end = (self.next_new + self.mss as u64).min(limit);
                let len = end - self.next_new;
                if self.credit < len as f64 {
                    stopped = true;
                    break;
                }
                self.credit -= len as f64;
                let e = Entry { end, ts: now, xmit: 1 };
                self.int_buf.insert(self.next_new, e);
                self.int_buf_bytes += len;
                self.next_check = self.next_check.min(self.entry_deadline(&e));
                out.push((self.next_new, end));
                self.next_new = end;
            }
        }
        if !stopped && self.rtt.srtt().is_some() {
            self.credit = self.credit.min(new_output);
        }
    }

    /// The upstream neighbour changed (a moving route): its hop sequence numbers start afresh.
    pub fn new_upstream(&mut self) {
        self.holes = self.holes.restarted();
    }

    /// A DATA segment from the last hop. Returns (via `rerequest`) the byte ranges of confirmed
    /// last-hop SeqHoles, to be requested at once without credit (§7.1).
    pub fn on_data(
        &mut self,
        now: SimTime,
        sn: u64,
        seg: Segment,
        wnd: i16,
        ahead: bool,
        rerequest: &mut Vec<(u64, u64)>,
    ) {
        if ahead != self.responder_reads_ahead {
            // The headroom meant the other queue (the midnode's debt, or the producer's queue):
            // start from the target until this one reports.
            self.responder_reads_ahead = ahead;
            self.rmt_sndq_rest = self.target_buffer_bytes;
        }
        if wnd != 0 {
            self.rmt_sndq_rest = wnd as f64 * self.mss as f64;
        }
        let first = rerequest.len();
        self.holes.on_data(now, sn, seg.start, seg.end, rerequest);
        for &(a, b) in &rerequest[first..] {
            let keys: Vec<u64> =
                self.int_buf.range(..b).rev().take_while(|(_, e)| e.end > a).map(|(&k, _)| k).collect();
            for k in keys {
                if let Some(e) = self.int_buf.get_mut(&k) {
                    e.ts = now;
                }
            }
            self.stats.hole_requests += 1;
        }
        let Some(e) = self.int_buf.get(&seg.start).copied().filter(|e| e.end == seg.end) else {
            self.stats.useless += 1;
            return;
        };
        self.int_buf.remove(&seg.start);
        self.due.remove(&seg.start);
        self.int_buf_bytes -= seg.len();
        self.conseq_timeout = 0;
        if e.xmit == 1 {
            self.update_rtt(now - e.ts);
        }
        if seg.start < self.rcv_nxt || self.rcv.contains_key(&seg.start) {
            self.fail(format!("bytes [{}, {}) received twice for one interest", seg.start, seg.end));
            return;
        }
        // The authors' OWD: producer's first send to arrival here, matched on rangeStart
        // (docs/intcp-protocol.md §11.1); `deliver` records the in-order delivery delay as TCP does.
        self.delivery.arrived(now, seg.first_sent);
        self.rcv.insert(seg.start, seg);
        while let Some(s) = self.rcv.remove(&self.rcv_nxt) {
            self.deliver(now, s);
        }
    }

    fn deliver(&mut self, now: SimTime, s: Segment) {
        if s.digest != self.content.digest(s.start, s.len() as u32) {
            self.fail(format!("bytes [{}, {}) differ from what the producer sent", s.start, s.end));
        }
        self.rcv_nxt = s.end;
        self.delivery.deliver(now, s.first_sent, s.len());
    }

    pub fn outstanding_bytes(&self) -> u64 {
        self.int_buf_bytes
    }
}
