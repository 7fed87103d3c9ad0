//! The simulation: an event loop over links and agents, steppable in slices so that a UI can
//! animate a run while it computes.
//!
//! Agents are the endpoints of transports (and, for hop-by-hop transports, the functions that
//! sit on intermediate nodes). A packet is delivered to the agent it names when it reaches that
//! agent's node; other nodes forward it along the route. This module sits above the transports
//! (it names each in `Agent`, dispatched by `match`, as smoltcp's `Socket` enum is); the
//! transports see only `crate::engine`.

use crate::arq::{receiver::ArqReceiver, sender::ArqSender};
use crate::ctcp::{receiver::CtcpReceiver, sender::CtcpSender};
use crate::engine::{forward, Ctx, Event};
use crate::intcp::midnode::IntcpNode;
use crate::net::{AgentId, Express, Network, NodeId};
use crate::sim::{EventQueue, SimTime};
use crate::tcp::{receiver::TcpReceiver, sender::TcpSender};

#[cfg(test)]
pub mod testing;

pub enum Agent {
    TcpSender(Box<TcpSender>),
    TcpReceiver(Box<TcpReceiver>),
    CtcpSender(Box<CtcpSender>),
    CtcpReceiver(Box<CtcpReceiver>),
    /// An INTCP flow's agent on one node of its path (producer, midnode or consumer).
    IntcpNode(Box<IntcpNode>),
    ArqSender(Box<ArqSender>),
    ArqReceiver(Box<ArqReceiver>),
}

/// A type of agent the `Agent` enum holds, read back out of it (the runner's report reads each
/// flow's agents as their own types).
pub trait AgentKind {
    /// The agent as this type, if it is one.
    fn of(agent: &Agent) -> Option<&Self>;
}

macro_rules! agent_kinds {
    ($($variant:ident($ty:ty)),* $(,)?) => {
        $(impl AgentKind for $ty {
            fn of(agent: &Agent) -> Option<&Self> {
                match agent {
                    Agent::$variant(a) => Some(&**a),
                    _ => None,
                }
            }
        })*
    };
}

agent_kinds!(
    TcpSender(TcpSender),
    TcpReceiver(TcpReceiver),
    CtcpSender(CtcpSender),
    CtcpReceiver(CtcpReceiver),
    IntcpNode(IntcpNode),
    ArqSender(ArqSender),
    ArqReceiver(ArqReceiver),
);

pub struct Simulation {
    pub now: SimTime,
    pub end: SimTime,
    pub net: Network,
    pub agents: Vec<Agent>,
    pub agent_node: Vec<NodeId>,
    /// The run stops after this many events even if simulated time has not reached `end`
    /// (`Scenario::max_events`).
    pub max_events: u64,
    /// Why the run stopped with events still due before `end`, if it did.
    pub stopped: Option<EarlyStop>,
    queue: EventQueue<Event>,
}

/// Why a run stopped before its time limit, with events still due.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EarlyStop {
    /// It spent its event budget (`max_events`).
    EventBudget,
    /// Its caller stopped it ([`Simulation::interrupt`]: Ctrl-C in the CLI).
    Interrupted,
}

impl Simulation {
    pub fn new(net: Network, end: SimTime) -> Simulation {
        Simulation {
            now: SimTime::ZERO,
            end,
            net,
            agents: Vec::new(),
            agent_node: Vec::new(),
            max_events: u64::MAX,
            stopped: None,
            queue: EventQueue::new(),
        }
    }

    pub fn add_agent(&mut self, node: NodeId, agent: Agent, start: Option<SimTime>) -> AgentId {
        let id = self.agents.len() as AgentId;
        self.agents.push(agent);
        self.agent_node.push(node);
        if let Some(t) = start {
            self.queue.schedule(t, Event::Start { agent: id });
        }
        id
    }

    /// Turns the express path on (`net::express`) where it gives the hop-by-hop result: a
    /// constellation's moving route, `flows` = 1 flow, no capture, and no link that lets jitter
    /// reorder packets. Call after the agents are added: nodes without one only forward.
    pub fn enable_express(&mut self, flows: usize) {
        let Some(routes) = &self.net.moving else { return };
        if flows != 1 || self.net.capture.is_some() || self.net.links.iter().any(|l| l.cfg.reorder) {
            return;
        }
        let mut forward_only = vec![true; self.net.node_count as usize];
        for &node in &self.agent_node {
            forward_only[node as usize] = false;
        }
        self.net.express = Some(Box::new(Express::new(routes, forward_only, self.end)));
    }

    pub fn events_processed(&self) -> u64 {
        self.queue.events_processed()
    }

    /// Digest of the sequence of events processed (time and scheduling order of each).
    pub fn event_digest(&self) -> u64 {
        self.queue.digest()
    }

    /// Whether the run is over: no events left, the next one is past the end time, or the event
    /// budget is spent.
    pub fn finished(&mut self) -> bool {
        let due = self.queue.peek_time().is_some_and(|t| t <= self.end);
        if due && self.stopped.is_none() && self.events_processed() >= self.max_events {
            self.stopped = Some(EarlyStop::EventBudget);
        }
        !due || self.stopped.is_some()
    }

    /// Stops the run at the current event, as the event budget does: the result reports what
    /// was done, and flows that had not finished say why. A run already over is left as it is.
    pub fn interrupt(&mut self) {
        if !self.finished() {
            self.stopped = Some(EarlyStop::Interrupted);
        }
    }

    /// Processes one event. Returns false when the run is over.
    pub fn step(&mut self) -> bool {
        self.step_inline()
    }

    /// Processes up to `n` events; returns how many it did, fewer only when the run is over. The
    /// callers' loop, with the event's work inlined in it.
    pub fn steps(&mut self, n: u64) -> u64 {
        for done in 0..n {
            if !self.step_inline() {
                return done;
            }
        }
        n
    }

    #[inline(always)]
    fn step_inline(&mut self) -> bool {
        // With no stop and budget left, the run is over when no event is due by its end: the
        // pop tells, as `finished` would.
        let popped = if self.stopped.is_none() && self.events_processed() < self.max_events {
            self.queue.pop_due(self.end)
        } else {
            None
        };
        let Some((t, ev)) = popped else {
            self.finished();
            // A run that reached its time limit with events still to come ran until the limit,
            // whenever its last event fell: what happened between them is nothing, whether an
            // event of a satellite hop fell there or not (the express path leaves those out).
            if self.stopped.is_none() && self.queue.peek_time().is_some_and(|t| t > self.end) {
                self.now = self.now.max(self.end);
            }
            return false;
        };
        self.now = t;
        match ev {
            Event::Arrive { link } => self.arrive(link),
            Event::Timer { agent, token } => self.with_agent(agent, |a, ctx| match a {
                Agent::TcpSender(s) => s.on_timer(ctx, token),
                Agent::TcpReceiver(r) => r.on_timer(ctx, token),
                Agent::CtcpSender(s) => s.on_timer(ctx, token),
                Agent::CtcpReceiver(_) | Agent::ArqReceiver(_) => {}
                Agent::IntcpNode(n) => n.on_timer(ctx, token),
                Agent::ArqSender(s) => s.on_timer(ctx, token),
            }),
            Event::Start { agent } => self.with_agent(agent, |a, ctx| match a {
                Agent::TcpSender(s) => s.start(ctx),
                Agent::CtcpSender(s) => s.start(ctx),
                Agent::IntcpNode(n) => n.start(ctx),
                Agent::ArqSender(s) => s.start(ctx),
                Agent::TcpReceiver(_) | Agent::CtcpReceiver(_) | Agent::ArqReceiver(_) => {}
            }),
        }
        true
    }

    /// Runs every event up to and including time `t` (or the end of the run).
    pub fn step_until(&mut self, t: SimTime) {
        while self.queue.peek_time().is_some_and(|next| next <= t.min(self.end)) {
            if !self.step() {
                return;
            }
        }
        self.now = self.now.max(t.min(self.end));
    }

    pub fn run(&mut self) {
        while self.step() {}
    }

    fn arrive(&mut self, link: u32) {
        let now = self.now;
        let to = self.net.links[link as usize].to;
        while let Some((pkt, transit)) = self.net.links[link as usize].take_arrived(now) {
            self.net.in_transit -= 1;
            if pkt.dst_node == to {
                let agent = pkt.dst_agent;
                self.with_agent(agent, |a, ctx| match a {
                    Agent::TcpSender(s) => s.on_packet(ctx, pkt),
                    Agent::TcpReceiver(r) => r.on_packet(ctx, pkt),
                    Agent::CtcpSender(s) => s.on_packet(ctx, pkt),
                    Agent::CtcpReceiver(r) => r.on_packet(ctx, pkt),
                    Agent::IntcpNode(n) => n.on_packet(ctx, &pkt),
                    Agent::ArqSender(s) => s.on_packet(ctx, pkt),
                    Agent::ArqReceiver(r) => r.on_packet(ctx, pkt),
                });
            } else {
                forward(&mut self.net, &mut self.queue, now, to, pkt, transit);
            }
        }
        if let Some(t) = self.net.links[link as usize].next_arrival_event(now) {
            self.queue.schedule(t, Event::Arrive { link });
        }
    }

    fn with_agent(&mut self, agent: AgentId, f: impl FnOnce(&mut Agent, &mut Ctx)) {
        let node = self.agent_node[agent as usize];
        let mut ctx = Ctx::new(self.now, node, agent, &mut self.net, &mut self.queue);
        f(&mut self.agents[agent as usize], &mut ctx);
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{arq_pair, Pair, TestLink};
    use super::*;
    use crate::arq::ArqMode;
    use crate::arq::{receiver::ArqReceiver, sender::ArqSender};
    use crate::sim::SimDuration;

    fn ms(x: u64) -> SimTime {
        SimTime::from_millis(x)
    }

    /// A flow that never ends (stop-and-wait over 10 Mbit/s, 20 ms each way) for `end_ms`.
    fn endless(end_ms: u64) -> Pair {
        arq_pair(ArqMode::StopAndWait, 1, None, TestLink::new(10.0, 20), ms(end_ms))
    }

    #[test]
    fn a_packet_reaches_the_agent_it_names_after_its_transmission_and_the_delay() {
        let mut pair = arq_pair(ArqMode::StopAndWait, 1, Some(1000), TestLink::new(10.0, 20), ms(1000));
        pair.run();
        // 1000 bytes and 40 of headers at 10 Mbit/s take 832 µs, then 20 ms of propagation.
        let r: &ArqReceiver = pair.b();
        assert_eq!(r.delivery.completed_at, Some(SimTime(SimDuration::from_micros(20_832).0)));
    }

    #[test]
    fn step_until_runs_what_is_due_and_moves_the_clock_to_the_time_asked() {
        let mut pair = endless(1000);
        pair.run_until(ms(30));
        assert_eq!(pair.sim.now, ms(30));
        // The first packet has arrived (20.832 ms); its ACK is still on the way back.
        let r: &ArqReceiver = pair.b();
        assert_eq!(r.delivery.delivered, 1000);
        let s: &ArqSender = pair.a();
        assert_eq!(s.stats.sent_pkts, 1);
        assert!(pair.sim.queue.peek_time().is_some_and(|t| t > ms(30)));
    }

    #[test]
    fn a_run_ends_at_its_end_time_with_events_still_to_come() {
        let mut pair = endless(500);
        pair.run();
        assert_eq!(pair.sim.now, ms(500));
        assert_eq!(pair.sim.stopped, None);
        assert!(pair.sim.finished());
        // A packet per round trip of 40.864 ms (832 µs + 20 ms out, 32 µs + 20 ms back): 13 by 500 ms.
        let s: &ArqSender = pair.a();
        assert_eq!(s.stats.sent_pkts, 13);
    }

    #[test]
    fn the_event_budget_stops_a_run_early_and_says_why() {
        let mut pair = endless(10_000);
        pair.sim.max_events = 100;
        pair.run();
        assert_eq!(pair.sim.events_processed(), 100);
        assert_eq!(pair.sim.stopped, Some(EarlyStop::EventBudget));
        assert!(pair.sim.now < ms(10_000));
    }

    #[test]
    fn an_interrupted_run_stops_at_the_current_event_and_a_finished_one_is_left_alone() {
        let mut pair = endless(10_000);
        pair.run_until(ms(100));
        pair.sim.interrupt();
        assert!(!pair.sim.step());
        assert_eq!(pair.sim.stopped, Some(EarlyStop::Interrupted));
        let mut done = endless(100);
        done.run();
        done.sim.interrupt();
        assert_eq!(done.sim.stopped, None);
    }

    #[test]
    fn the_same_run_processes_the_same_events_in_the_same_order() {
        let digest = |loss: &[u64]| {
            let link = TestLink::new(10.0, 20).dropping(loss);
            let mut pair = arq_pair(ArqMode::GoBackN, 8, Some(50_000), link, ms(10_000));
            pair.run();
            (pair.sim.event_digest(), pair.sim.events_processed())
        };
        assert_eq!(digest(&[3, 17]), digest(&[3, 17]));
        assert_ne!(digest(&[3, 17]), digest(&[4, 17]));
    }
}
