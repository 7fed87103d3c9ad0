//! A directional link: a FIFO transmitter with a rate (possibly scheduled), a drop-tail buffer,
//! propagation delay with optional jitter, a loss process and outages.
//!
//! The transmitter is computed, not simulated: each accepted packet's departure time follows
//! from the previous one's (`free_at`), so a packet costs one event per link (its arrival),
//! and queue occupancy is derived lazily from the departure times still in the future.

use super::loss::LossProcess;
use super::motion::StepMemo;
pub use super::motion::{Motion, MotionSample};
use super::packet::{NodeId, Packet, Transit};
pub use super::rate_schedule::RateSchedule;
use crate::metrics::Trace;
use crate::sim::{Rng, SimDuration, SimTime};
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Buffer {
    Packets(u32),
    Bytes(u64),
    Unlimited,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Outages {
    None,
    /// Half-open intervals [start, end). A link keeps them sorted, disjoint and non-empty (see
    /// [`Outages::normalized`]), which is what `overlaps` relies on.
    List(Vec<(SimTime, SimTime)>),
    /// An outage of `duration` every `every`, the first one starting at `first`.
    Periodic {
        every: SimDuration,
        duration: SimDuration,
        first: SimTime,
    },
}

impl Outages {
    /// The form a link keeps: a list sorted by start, with empty intervals removed and
    /// overlapping or touching ones merged into their union. Nested or overlapping outages
    /// (a scenario's list, or handover outages longer than a routing step) would otherwise leave
    /// the ends unsorted, and `overlaps` binary-searches them.
    pub fn normalized(self) -> Outages {
        match self {
            Outages::List(mut list) => {
                list.retain(|&(start, end)| end > start);
                list.sort_unstable();
                let mut merged: Vec<(SimTime, SimTime)> = Vec::with_capacity(list.len());
                for (start, end) in list {
                    match merged.last_mut() {
                        Some(last) if start <= last.1 => last.1 = last.1.max(end),
                        _ => merged.push((start, end)),
                    }
                }
                if merged.is_empty() {
                    Outages::None
                } else {
                    Outages::List(merged)
                }
            }
            other => other,
        }
    }

    /// Whether any outage overlaps the closed interval `[a, b]`.
    pub fn overlaps(&self, a: SimTime, b: SimTime) -> bool {
        match self {
            Outages::None => false,
            Outages::List(list) => {
                let i = list.partition_point(|&(_, end)| end <= a);
                list.get(i).is_some_and(|&(start, _)| start <= b)
            }
            Outages::Periodic { every, duration, first } => {
                if every.0 == 0 || b < *first {
                    return false;
                }
                let k = a.0.saturating_sub(first.0) / every.0;
                let start = first.0 + k * every.0;
                let end = start.saturating_add(duration.0);
                // Outage k ends after `a`, or outage k+1 starts before `b`.
                (start <= b.0 && end > a.0) || start.saturating_add(every.0) <= b.0
            }
        }
    }
}

#[derive(Clone, Debug)]
pub struct LinkConfig {
    pub rate: RateSchedule,
    pub delay: SimDuration,
    pub buffer: Buffer,
    /// Extra delay drawn uniformly from [0, jitter] per packet.
    pub jitter: SimDuration,
    /// With jitter, whether a packet may overtake an earlier one.
    pub reorder: bool,
    pub loss: LossProcess,
    /// Where the loss process acts: on the channel (a lost packet still took its transmission
    /// time) or at the ingress of the queue, as a dummynet router does (it never takes capacity).
    pub loss_at: LossAt,
    pub outages: Outages,
    /// A link of a moving constellation: its delay, rate and loss follow the geometry and
    /// replace `delay`, `rate` and `loss`.
    pub motion: Option<Box<Motion>>,
}

impl LinkConfig {
    /// A link of one fixed rate and delay that loses, jitters and fails nothing.
    pub fn constant(rate_bps: f64, delay: SimDuration, buffer: Buffer) -> LinkConfig {
        LinkConfig {
            rate: RateSchedule::Constant(rate_bps),
            delay,
            buffer,
            jitter: SimDuration::ZERO,
            reorder: false,
            loss: LossProcess::NONE,
            loss_at: LossAt::Channel,
            outages: Outages::None,
            motion: None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossAt {
    Channel,
    Ingress,
}

/// Why a link dropped packets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Drops {
    pub buffer: u64,
    pub loss: u64,
    pub outage: u64,
    /// Constellation links: packets that had not started transmission when the link left the
    /// route (`on_route_change: "drop"`).
    pub route_change: u64,
}

/// What one flow's packets did at a link: for the capacity breakdown of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlowTally {
    /// Packets accepted for transmission (some may not have started yet: see `Link::carried`).
    pub accepted_pkts: u64,
    pub accepted_bytes: u64,
    /// Of those, data packets (`Body::is_data`).
    pub accepted_data_pkts: u64,
    /// Dropped by the full buffer, or by the loss process at the ingress: never transmitted.
    pub buffer_drops: u64,
    pub ingress_losses: u64,
}

/// A link's use up to some time, from [`Link::usage`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinkUsage {
    /// What the link could carry from 0 to the time asked, in bits.
    pub capacity_bits: f64,
    /// Bits of time the transmitter was idle.
    pub idle_bits: f64,
    /// Per flow: (packets, bytes, data packets) that started transmission by then.
    pub carried: Vec<(u64, u64, u64)>,
}

pub struct Link {
    pub id: u32,
    pub from: NodeId,
    pub to: NodeId,
    pub cfg: LinkConfig,
    loss_rng: Rng,
    jitter_rng: Rng,
    /// When the transmitter finishes the last accepted packet.
    free_at: SimTime,
    /// Accepted packets that have not started transmission: (start time, size, flow, data,
    /// propagates). A packet the channel or an outage loses still takes the transmitter, but
    /// is not in `pipeline`: `propagates` is false for it.
    waiting: VecDeque<(SimTime, u32, u32, bool, bool)>,
    waiting_bytes: u64,
    /// Entries of `waiting` that do not propagate (not in `pipeline`).
    waiting_lost: usize,
    /// Packets propagating, in arrival order.
    pipeline: VecDeque<(SimTime, Packet, Transit)>,
    last_arrival: SimTime,
    /// Time of the arrival event currently scheduled for this link, if any.
    pub(crate) arrival_event_at: Option<SimTime>,
    /// When the packet last offered started (or will start) transmission; None if the link
    /// dropped it before its transmitter (buffer, ingress loss, route change). A capture reads
    /// it right after `enqueue`.
    pub(crate) tx_start: Option<SimTime>,
    offered: u64,
    /// Every packet handed to the link, whatever became of it.
    pub offered_pkts: u64,
    pub delivered_pkts: u64,
    pub delivered_bytes: u64,
    pub drops: Drops,
    pub queue_trace: Trace<1>,
    /// Per flow id.
    pub tally: Vec<FlowTally>,
    /// Transmitter idle time before `free_at`, in bits of capacity (fixed-rate and scheduled
    /// links; a moving link's is not tracked).
    idle_bits: f64,
    /// The motion sample found last ([`Motion::index_near`]).
    motion_hint: usize,
    /// The routing step asked about last, and the link's motion then ([`Motion::sample_near`]).
    motion_step: StepMemo,
    /// The last constant-rate transmission time worked out: ((size, rate's bits), ns).
    tx_time_memo: Option<((u32, u64), u64)>,
}

impl Link {
    pub fn new(
        id: u32,
        from: NodeId,
        to: NodeId,
        cfg: LinkConfig,
        loss_rng: Rng,
        jitter_rng: Rng,
        trace_points: usize,
    ) -> Link {
        let mut cfg = cfg;
        cfg.outages = std::mem::replace(&mut cfg.outages, Outages::None).normalized();
        Link {
            id,
            from,
            to,
            cfg,
            loss_rng,
            jitter_rng,
            free_at: SimTime::ZERO,
            waiting: VecDeque::new(),
            waiting_bytes: 0,
            waiting_lost: 0,
            pipeline: VecDeque::new(),
            last_arrival: SimTime::ZERO,
            arrival_event_at: None,
            tx_start: None,
            offered: 0,
            offered_pkts: 0,
            delivered_pkts: 0,
            delivered_bytes: 0,
            drops: Drops::default(),
            queue_trace: Trace::new(trace_points),
            tally: Vec::new(),
            idle_bits: 0.0,
            motion_hint: 0,
            motion_step: StepMemo::default(),
            tx_time_memo: None,
        }
    }

    /// Packets waiting for the transmitter at `now` (the one being sent is not counted).
    pub fn queue_len(&mut self, now: SimTime) -> usize {
        self.release_started(now);
        self.waiting.len()
    }

    fn release_started(&mut self, now: SimTime) {
        while let Some(&(start, size, .., propagates)) = self.waiting.front() {
            if start > now {
                break;
            }
            self.waiting.pop_front();
            self.waiting_bytes -= size as u64;
            self.waiting_lost -= !propagates as usize;
        }
        shrink(&mut self.waiting);
    }

    /// Packets the link holds: queued, in transmission or propagating, and queued packets the
    /// channel will lose (they still take the transmitter). What the network's packet budget
    /// counts (`net::MAX_PACKETS_IN_NETWORK`).
    pub fn held(&self) -> u64 {
        (self.pipeline.len() + self.waiting_lost) as u64
    }

    fn buffer_full(&self, size: u32) -> bool {
        match self.cfg.buffer {
            Buffer::Packets(n) => self.waiting.len() >= n as usize,
            Buffer::Bytes(b) => self.waiting_bytes + size as u64 > b,
            Buffer::Unlimited => false,
        }
    }

    fn tally_mut(&mut self, flow: u32) -> &mut FlowTally {
        let i = flow as usize;
        if self.tally.len() <= i {
            self.tally.resize(i + 1, FlowTally::default());
        }
        &mut self.tally[i]
    }

    /// The link's use from time 0 to `end`: its capacity, its idle time and what each flow's
    /// packets took. A packet counts whole once it has started transmission by `end` (so one in
    /// service at `end` counts whole). None for a moving link.
    pub fn usage(&self, end: SimTime) -> Option<LinkUsage> {
        if self.cfg.motion.is_some() {
            return None;
        }
        let rate = &self.cfg.rate;
        let mut carried: Vec<(u64, u64, u64)> =
            self.tally.iter().map(|t| (t.accepted_pkts, t.accepted_bytes, t.accepted_data_pkts)).collect();
        for &(start, size, flow, data, _) in &self.waiting {
            if start > end {
                let c = &mut carried[flow as usize];
                c.0 -= 1;
                c.1 -= size as u64;
                c.2 -= data as u64;
            }
        }
        Some(LinkUsage {
            capacity_bits: rate.bits_between(SimTime::ZERO, end),
            idle_bits: self.idle_bits + rate.bits_between(self.free_at, end),
            carried,
        })
    }

    /// Offers a packet to the link at `now`. Returns the time at which the caller must schedule
    /// this link's arrival event, if a new one is needed.
    pub fn enqueue(&mut self, now: SimTime, pkt: Packet) -> Option<SimTime> {
        self.enqueue_with_room(now, pkt, true)
    }

    /// [`Self::enqueue`], where `room` false means the network holds all the packets it may:
    /// the link drops the packet as a full buffer would.
    pub fn enqueue_with_room(&mut self, now: SimTime, pkt: Packet, room: bool) -> Option<SimTime> {
        let arrival = self.accept(now, &pkt, room)?;
        self.hold(arrival, pkt, Transit::Free)
    }

    /// Everything [`Self::enqueue_with_room`] does but holding the packet: the transmitter, the
    /// buffer, the loss and jitter draws and the counters. Returns when the packet reaches the
    /// far end, or None if it is dropped. The caller then either holds it ([`Self::hold`]) or
    /// lets it pass ([`Self::pass`]), and must do one of the two.
    pub(crate) fn accept(&mut self, now: SimTime, pkt: &Packet, room: bool) -> Option<SimTime> {
        self.offered_pkts += 1;
        self.tx_start = None;
        self.release_started(now);
        if self.cfg.loss_at == LossAt::Ingress {
            let index = self.offered;
            self.offered += 1;
            if self.cfg.loss.drops(index, &mut self.loss_rng) {
                self.drops.loss += 1;
                self.tally_mut(pkt.flow).ingress_losses += 1;
                return None;
            }
        }
        let busy = self.free_at > now;
        if (busy && self.buffer_full(pkt.size)) || !room {
            self.drops.buffer += 1;
            self.tally_mut(pkt.flow).buffer_drops += 1;
            return None;
        }
        let start = if busy { self.free_at } else { now };
        let at_start =
            self.cfg.motion.as_deref().map(|m| m.in_force_near(start, &mut self.motion_step, &mut self.motion_hint));
        if at_start.is_some_and(|s| s.drops_off_route) {
            self.drops.route_change += 1;
            return None;
        }
        // Validation bounds scenario rates, but a link budget's Shannon capacity is not
        // bounded: the transmission still takes at least 1 ns, so simulated time moves on.
        let end = match (at_start, &self.cfg.rate) {
            (Some(s), _) => self.constant_rate_end(start, pkt.size, s.rate_bps),
            (None, &RateSchedule::Constant(rate)) => self.constant_rate_end(start, pkt.size, rate),
            _ => self.cfg.rate.transmission_end(start, pkt.size as f64 * 8.0),
        };
        if !busy && self.cfg.motion.is_none() {
            self.idle_bits += self.cfg.rate.bits_between(self.free_at, now);
        }
        self.free_at = end;
        self.tx_start = Some(start);
        let data = pkt.body.is_data();
        let t = self.tally_mut(pkt.flow);
        t.accepted_pkts += 1;
        t.accepted_bytes += pkt.size as u64;
        t.accepted_data_pkts += data as u64;
        if busy {
            self.waiting.push_back((start, pkt.size, pkt.flow, data, false));
            self.waiting_bytes += pkt.size as u64;
            self.waiting_lost += 1;
        }
        self.queue_trace.record(now, [self.waiting.len() as f64]);

        // Every accepted packet draws from the loss stream, so outages do not shift the pattern.
        let lost = self.cfg.loss_at == LossAt::Channel && {
            let index = self.offered;
            self.offered += 1;
            match at_start {
                Some(s) => self.loss_rng.chance(s.loss),
                None => self.cfg.loss.drops(index, &mut self.loss_rng),
            }
        };
        let delay = match &self.cfg.motion {
            Some(m) => m.delay_near(self.free_at, &mut self.motion_step, &mut self.motion_hint),
            None => self.cfg.delay,
        };
        let mut arrival = self.free_at + delay;
        if self.cfg.jitter.0 > 0 {
            arrival += SimDuration((self.jitter_rng.uniform() * self.cfg.jitter.0 as f64) as u64);
        }
        if self.cfg.outages.overlaps(start, arrival) {
            self.drops.outage += 1;
            return None;
        }
        if lost {
            self.drops.loss += 1;
            return None;
        }
        if !self.cfg.reorder {
            arrival = arrival.max(self.last_arrival);
        }
        self.last_arrival = self.last_arrival.max(arrival);
        // The packet will propagate: it is no longer one the channel loses.
        if busy {
            if let Some(w) = self.waiting.back_mut() {
                w.4 = true;
                self.waiting_lost -= 1;
            }
        }
        Some(arrival)
    }

    /// When a packet of `size` bytes started at `start` at a constant `rate` ends: what
    /// [`RateSchedule::transmission_end`] gives, its division done once per size and rate (a
    /// link carries a few sizes, data and ACKs, at a rate that changes rarely).
    fn constant_rate_end(&mut self, start: SimTime, size: u32, rate: f64) -> SimTime {
        let key = (size, rate.to_bits());
        let ns = match self.tx_time_memo {
            Some((k, ns)) if k == key => ns,
            _ => {
                let ns = RateSchedule::Constant(rate).transmission_end(SimTime::ZERO, size as f64 * 8.0).0;
                self.tx_time_memo = Some((key, ns));
                ns
            }
        };
        SimTime(start.0.saturating_add(ns))
    }

    /// Holds an accepted packet until `arrival` (from [`Self::accept`]). Returns the time at which
    /// the caller must schedule this link's arrival event, if a new one is needed.
    /// The rare out-of-order insertion is a cold call, which keeps this small.
    #[inline]
    pub(crate) fn hold(&mut self, arrival: SimTime, pkt: Packet, transit: Transit) -> Option<SimTime> {
        if self.pipeline.back().is_none_or(|(t, ..)| *t <= arrival) {
            self.pipeline.push_back((arrival, pkt, transit));
        } else {
            self.hold_out_of_order(arrival, pkt, transit);
        }
        match self.arrival_event_at {
            Some(t) if t <= arrival => None,
            _ => {
                self.arrival_event_at = Some(arrival);
                Some(arrival)
            }
        }
    }

    /// A packet that overtakes others (jitter with reordering): its place in the pipeline.
    #[cold]
    #[inline(never)]
    fn hold_out_of_order(&mut self, arrival: SimTime, pkt: Packet, transit: Transit) {
        let pos = self.pipeline.partition_point(|(t, ..)| *t <= arrival);
        self.pipeline.insert(pos, (arrival, pkt, transit));
    }

    /// Counts an accepted packet as delivered without holding it: the express path
    /// (`engine::forward`) has already sent it on from the far end.
    pub(crate) fn pass(&mut self, pkt: &Packet) {
        self.delivered_pkts += 1;
        self.delivered_bytes += pkt.size as u64;
    }

    /// Accepted packets not yet delivered: queued, in transmission or propagating.
    pub fn in_transit(&self) -> u64 {
        self.pipeline.len() as u64
    }

    /// Packets the link dropped, for any reason.
    pub fn dropped(&self) -> u64 {
        self.drops.buffer + self.drops.loss + self.drops.outage + self.drops.route_change
    }

    /// Data packets of `flow` accepted but not yet arrived at the far end: `(all, started)`,
    /// `started` leaving out those still waiting for the transmitter at `now`.
    pub fn data_in_flight(&self, flow: u32, now: SimTime) -> (u64, u64) {
        let all = self.pipeline.iter().filter(|(_, p, _)| p.flow == flow && p.body.is_data()).count() as u64;
        let waiting = self
            .waiting
            .iter()
            .filter(|&&(start, _, f, data, propagates)| f == flow && data && propagates && start > now)
            .count() as u64;
        (all, all - waiting)
    }

    /// Takes the next packet that has arrived by `now`. Inlined, the test of the head's time
    /// costs a comparison: an arrival event asks once more than it finds packets, and that last
    /// call took a whole call's register saves.
    #[inline]
    pub fn take_arrived(&mut self, now: SimTime) -> Option<(Packet, Transit)> {
        match self.pipeline.front() {
            Some((t, ..)) if *t <= now => self.pop_arrived(),
            _ => None,
        }
    }

    /// Inlined too, so that the packet goes from the pipeline to the event loop in one copy.
    #[inline]
    fn pop_arrived(&mut self) -> Option<(Packet, Transit)> {
        let (_, p, transit) = self.pipeline.pop_front()?;
        shrink(&mut self.pipeline);
        self.delivered_pkts += 1;
        self.delivered_bytes += p.size as u64;
        Some((p, transit))
    }

    /// After an arrival event at `now` has drained what arrived: the next event to schedule.
    pub fn next_arrival_event(&mut self, now: SimTime) -> Option<SimTime> {
        if self.arrival_event_at == Some(now) {
            self.arrival_event_at = None;
        }
        let head = self.pipeline.front()?.0;
        match self.arrival_event_at {
            Some(t) if t <= head => None,
            _ => {
                self.arrival_event_at = Some(head);
                Some(head)
            }
        }
    }
}

/// Gives memory back once a queue is far below its capacity, so that a burst does not keep it.
#[inline]
fn shrink<T>(q: &mut VecDeque<T>) {
    if q.capacity() > 1024 && q.len() * 4 < q.capacity() {
        shrink_now(q);
    }
}

#[cold]
#[inline(never)]
fn shrink_now<T>(q: &mut VecDeque<T>) {
    q.shrink_to(q.len() * 2);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::packet::{Body, SackBlocks};
    use crate::sim::Stream;

    fn link(cfg: LinkConfig) -> Link {
        Link::new(
            0,
            0,
            1,
            cfg,
            Rng::new(1, Stream::LinkLoss { link: 0, reverse: false }),
            Rng::new(1, Stream::LinkJitter { link: 0, reverse: false }),
            100,
        )
    }
    fn cfg(rate_bps: f64, delay_ms: u64, buffer: Buffer) -> LinkConfig {
        LinkConfig::constant(rate_bps, SimDuration::from_millis(delay_ms), buffer)
    }
    fn pkt(size: u32) -> Packet {
        Packet {
            flow: 0,
            dst_node: 1,
            dst_agent: 0,
            size,
            body: Body::TcpAck {
                ack: 0,
                sack: SackBlocks::default(),
                dsack: None,
                wnd: u64::MAX,
                ts: SimTime::ZERO,
                ts_echo: SimTime::ZERO,
            },
        }
    }

    #[test]
    fn arrival_is_serialisation_plus_propagation() {
        // 1000 bytes at 8 Mbit/s take 1 ms; plus 10 ms of propagation.
        let mut l = link(cfg(8e6, 10, Buffer::Unlimited));
        assert_eq!(l.enqueue(SimTime::ZERO, pkt(1000)), Some(SimTime(11_000_000)));
        // The second packet queues behind the first: no new event needed, it arrives 1 ms later.
        assert_eq!(l.enqueue(SimTime::ZERO, pkt(1000)), None);
        assert!(l.take_arrived(SimTime(10_999_999)).is_none());
        assert!(l.take_arrived(SimTime(11_000_000)).is_some());
        assert_eq!(l.next_arrival_event(SimTime(11_000_000)), Some(SimTime(12_000_000)));
    }

    #[test]
    fn drop_tail_buffer_counts_waiting_packets_only() {
        let mut l = link(cfg(8e6, 0, Buffer::Packets(2)));
        for _ in 0..3 {
            l.enqueue(SimTime::ZERO, pkt(1000));
        }
        // One in service, two waiting: the fourth is dropped.
        l.enqueue(SimTime::ZERO, pkt(1000));
        assert_eq!(l.drops.buffer, 1);
        assert_eq!(l.queue_len(SimTime::ZERO), 2);
        // After 1 ms the second packet has started: room for one more.
        assert_eq!(l.queue_len(SimTime(1_000_000)), 1);
    }

    #[test]
    fn a_packet_started_in_a_slow_step_speeds_up_when_the_step_ends() {
        // 12 000 bits at 1 kbit/s for 2 s (2000 bits), then the other 10 000 at 10 Mbit/s: 1 ms.
        let s = RateSchedule::Steps(vec![(SimTime::ZERO, 1e3), (SimTime::from_secs_f64(2.0), 10e6)]);
        assert_eq!(s.transmission_end(SimTime::ZERO, 12_000.0), SimTime::from_secs_f64(2.001));
        let mut l = link(LinkConfig { rate: s, ..cfg(1e3, 0, Buffer::Unlimited) });
        let arrival = l.enqueue(SimTime::ZERO, pkt(1500));
        assert_eq!(arrival, Some(SimTime::from_secs_f64(2.001)));
    }

    #[test]
    fn packets_in_flight_during_an_outage_are_lost() {
        let mut c = cfg(8e6, 100, Buffer::Unlimited);
        c.outages = Outages::List(vec![(SimTime::from_secs_f64(0.05), SimTime::from_secs_f64(0.06))]);
        let mut l = link(c);
        l.enqueue(SimTime::ZERO, pkt(1000));
        assert_eq!(l.drops.outage, 1);
        l.enqueue(SimTime::from_secs_f64(0.07), pkt(1000));
        assert_eq!(l.drops.outage, 1);
    }

    #[test]
    fn a_queued_data_packet_lost_to_an_outage_is_not_counted_in_flight() {
        // The second packet waits 1 ms for the transmitter and then meets the outage: it takes
        // its turn on the transmitter but never propagates, so only the first is in flight.
        let mut c = cfg(8e6, 10, Buffer::Unlimited);
        c.outages = Outages::List(vec![(SimTime::from_secs_f64(0.0115), SimTime::from_secs_f64(0.02))]);
        let mut l = link(c);
        let data = |seq| Packet {
            body: Body::TcpData {
                seq,
                len: 952,
                digest: 0,
                first_sent: SimTime::ZERO,
                ts: SimTime::ZERO,
                ts_echo: SimTime::ZERO,
            },
            ..pkt(1000)
        };
        l.enqueue(SimTime::ZERO, data(0));
        l.enqueue(SimTime::ZERO, data(952));
        assert_eq!(l.drops.outage, 1);
        assert_eq!(l.data_in_flight(0, SimTime::ZERO), (1, 1));
    }

    #[test]
    fn periodic_outages_repeat() {
        let o = Outages::Periodic {
            every: SimDuration::from_millis(20_000),
            duration: SimDuration::from_millis(1_000),
            first: SimTime::from_secs_f64(20.0),
        };
        assert!(!o.overlaps(SimTime::from_secs_f64(5.0), SimTime::from_secs_f64(6.0)));
        assert!(o.overlaps(SimTime::from_secs_f64(20.5), SimTime::from_secs_f64(20.6)));
        assert!(o.overlaps(SimTime::from_secs_f64(39.9), SimTime::from_secs_f64(40.1)));
        assert!(!o.overlaps(SimTime::from_secs_f64(41.0), SimTime::from_secs_f64(59.0)));
        assert!(o.overlaps(SimTime::from_secs_f64(59.5), SimTime::from_secs_f64(62.0)));
    }

    #[test]
    fn a_nested_outage_does_not_cancel_the_outer_one() {
        // 1 s to 101 s, and 2 s to 3 s inside it: the ends (101, 3) are not sorted unless the
        // link merges them, and a packet at 50 s used to get through.
        let mut c = cfg(8e6, 10, Buffer::Unlimited);
        let s = SimTime::from_secs_f64;
        c.outages = Outages::List(vec![(s(1.0), s(101.0)), (s(2.0), s(3.0))]);
        let mut l = link(c);
        assert_eq!(l.cfg.outages, Outages::List(vec![(s(1.0), s(101.0))]));
        for t in [1.5, 2.5, 50.0, 100.0] {
            l.enqueue(s(t), pkt(1000));
        }
        assert_eq!(l.drops.outage, 4);
        l.enqueue(s(102.0), pkt(1000));
        assert_eq!(l.drops.outage, 4);
    }

    #[test]
    fn outages_are_merged_sorted_and_stripped_of_empty_intervals() {
        let t = SimTime;
        let o = Outages::List(vec![(t(50), t(60)), (t(5), t(5)), (t(10), t(20)), (t(20), t(30)), (t(15), t(25))]);
        assert_eq!(o.normalized(), Outages::List(vec![(t(10), t(30)), (t(50), t(60))]));
        assert_eq!(Outages::List(vec![(t(7), t(7))]).normalized(), Outages::None);
    }

    proptest::proptest! {
        // The oracle: a packet offered to an idle link at `at` occupies [at, arrival]; it is
        // dropped for an outage iff some instant of that span lies in the union of the outages
        // (each the half-open [start, start + duration)), however the outages overlap or nest.
        #[test]
        fn a_packet_is_dropped_for_outage_iff_its_span_meets_the_union_of_outages(
            outages in proptest::collection::vec((0u64..20_000, 0u64..8_000), 0..8),
            at in 0u64..30_000,
            delay in 0u64..3_000,
        ) {
            let mut c = cfg(8e9, 0, Buffer::Unlimited); // 1000 bytes: 1000 ns on the wire
            c.delay = SimDuration(delay);
            c.outages = Outages::List(outages.iter().map(|&(s, d)| (SimTime(s), SimTime(s + d))).collect());
            let mut l = link(c);
            l.enqueue(SimTime(at), pkt(1000));
            let arrival = at + 1000 + delay;
            let in_union = (at..=arrival).any(|x| outages.iter().any(|&(s, d)| s <= x && x < s + d));
            proptest::prop_assert_eq!(l.drops.outage == 1, in_union);
        }
    }

    #[test]
    fn a_packet_takes_at_least_a_nanosecond_however_fast_the_link() {
        // 1e15 bit/s: 1000 bytes would take 0.008 ns, which rounded to 0 and froze time.
        let mut l = link(cfg(1e15, 0, Buffer::Unlimited));
        assert_eq!(l.enqueue(SimTime::ZERO, pkt(1000)), Some(SimTime(1)));
        l.enqueue(SimTime::ZERO, pkt(1000));
        assert!(l.take_arrived(SimTime(1)).is_some());
        assert!(l.take_arrived(SimTime(1)).is_none());
        assert!(l.take_arrived(SimTime(2)).is_some());
    }

    #[test]
    fn ingress_loss_takes_no_capacity_and_channel_loss_does() {
        for (at, second_arrival_ms) in [(LossAt::Channel, 12), (LossAt::Ingress, 11)] {
            let mut c = cfg(8e6, 10, Buffer::Unlimited);
            c.loss = LossProcess::drop_list(&[0]);
            c.loss_at = at;
            let mut l = link(c);
            l.enqueue(SimTime::ZERO, pkt(1000));
            assert_eq!(l.drops.loss, 1);
            l.enqueue(SimTime::ZERO, pkt(1000));
            assert!(l.take_arrived(SimTime::MAX).is_some());
            assert_eq!(l.last_arrival, SimTime(second_arrival_ms * 1_000_000), "{at:?}");
        }
    }

    #[test]
    fn jitter_never_reorders_unless_asked() {
        let mut c = cfg(1e9, 10, Buffer::Unlimited);
        c.jitter = SimDuration::from_millis(16);
        let mut l = link(c);
        for i in 0..200u32 {
            let mut p = pkt(100);
            p.flow = i;
            l.enqueue(SimTime(i as u64 * 1000), p);
        }
        let mut last = 0;
        let mut n = 0;
        while let Some((p, _)) = l.take_arrived(SimTime::MAX) {
            assert!(p.flow >= last);
            last = p.flow;
            n += 1;
        }
        assert_eq!(n, 200);
    }
}
