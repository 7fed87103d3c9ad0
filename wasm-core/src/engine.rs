//! The simulation: an event loop over links and agents, steppable in slices so that a UI can
//! animate a run while it computes.
//!
//! Agents are the endpoints of transports (and, for hop-by-hop transports, the functions that
//! sit on intermediate nodes). A packet is delivered to the agent it names when it reaches that
//! agent's node; other nodes forward it along the route.

use crate::ctcp::{receiver::CtcpReceiver, sender::CtcpSender};
use crate::intcp::midnode::IntcpNode;
use crate::net::{AgentId, Network, NodeId, Packet};
use crate::sim::{EventQueue, SimTime};
use crate::tcp::{receiver::TcpReceiver, sender::TcpSender};

#[derive(Clone, Copy, Debug)]
pub enum Event {
    /// The head of a link's propagation pipeline reaches the far end.
    Arrive { link: u32 },
    /// A timer an agent set; `token` tells the agent which one.
    Timer { agent: AgentId, token: u64 },
    /// An agent starts (a flow's `start_s`).
    Start { agent: AgentId },
}

pub enum Agent {
    TcpSender(Box<TcpSender>),
    TcpReceiver(Box<TcpReceiver>),
    CtcpSender(Box<CtcpSender>),
    CtcpReceiver(Box<CtcpReceiver>),
    /// An INTCP flow's agent on one node of its path (producer, midnode or consumer).
    IntcpNode(Box<IntcpNode>),
}

/// What an agent may do while it handles an event.
pub struct Ctx<'a> {
    pub now: SimTime,
    pub node: NodeId,
    pub agent: AgentId,
    net: &'a mut Network,
    queue: &'a mut EventQueue<Event>,
}

impl Ctx<'_> {
    pub fn send(&mut self, pkt: Packet) {
        route(self.net, self.queue, self.now, self.node, pkt);
    }
    /// On a network whose route changes with time: the neighbours of `node` on the route in
    /// force now (towards the source end, towards the destination end), or None if `node` is
    /// not on it or the network is static.
    pub fn route_neighbours(&self, node: NodeId) -> Option<(Option<NodeId>, Option<NodeId>)> {
        self.net.moving.as_ref()?.route_at(self.now).neighbours(node)
    }
    /// Schedules `Event::Timer { agent: self, token }` at `at`.
    pub fn timer_at(&mut self, at: SimTime, token: u64) {
        self.queue.schedule(at, Event::Timer { agent: self.agent, token });
    }
}

/// A timer that is re-armed far more often than it fires (a retransmission timeout). Arming only
/// moves the deadline; an event is scheduled only when none is pending at or before it, and an
/// event that fires before the (moved) deadline schedules itself again. So re-arming on every
/// ACK costs no heap operation.
#[derive(Clone, Debug, Default)]
pub struct LazyTimer {
    deadline: Option<SimTime>,
    /// The event currently scheduled: (time, token).
    event: Option<(SimTime, u64)>,
    next_token: u64,
    /// Told apart from the agent's other timers by the low bits of its tokens.
    tag: u64,
}

impl LazyTimer {
    pub fn arm(&mut self, ctx: &mut Ctx, deadline: SimTime) {
        self.deadline = Some(deadline);
        match self.event {
            Some((t, _)) if t <= deadline => {} // fires first, then re-schedules itself
            _ => self.schedule(ctx, deadline),
        }
    }

    /// A timer whose tokens never collide with those of the agent's timers with other tags
    /// (0 to 3): an agent with several timers gives each its own tag.
    pub fn tagged(tag: u64) -> LazyTimer {
        debug_assert!(tag < 4);
        LazyTimer { tag, ..LazyTimer::default() }
    }

    /// When the timer will fire, if armed.
    pub fn deadline(&self) -> Option<SimTime> {
        self.deadline
    }

    pub fn stop(&mut self) {
        self.deadline = None;
    }

    pub fn is_armed(&self) -> bool {
        self.deadline.is_some()
    }

    fn schedule(&mut self, ctx: &mut Ctx, at: SimTime) {
        let token = (self.next_token << 2) | self.tag;
        self.next_token += 1;
        self.event = Some((at, token));
        ctx.timer_at(at, token);
    }

    /// Handles a timer event with this token. Returns true when the timer fires: the deadline
    /// has come (the timer is then stopped).
    pub fn on_event(&mut self, ctx: &mut Ctx, token: u64) -> bool {
        match self.event {
            Some((_, t)) if t == token => self.event = None,
            _ => return false, // superseded by an earlier re-arm
        }
        let Some(deadline) = self.deadline else { return false };
        if ctx.now < deadline {
            self.schedule(ctx, deadline);
            return false;
        }
        self.deadline = None;
        true
    }
}

fn route(net: &mut Network, queue: &mut EventQueue<Event>, now: SimTime, at: NodeId, pkt: Packet) {
    // A packet without a route is dropped: validation guarantees connected endpoints on a chain;
    // a constellation may have no path for a while.
    let Some(l) = net.next_link(now, at, pkt.dst_node) else {
        net.unrouted += 1;
        return;
    };
    if let Some(t) = net.links[l as usize].enqueue(now, pkt) {
        queue.schedule(t, Event::Arrive { link: l });
    }
}

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
        if self.finished() {
            return false;
        }
        let Some((t, ev)) = self.queue.pop() else { return false };
        self.now = t;
        match ev {
            Event::Arrive { link } => self.arrive(link),
            Event::Timer { agent, token } => self.with_agent(agent, |a, ctx| match a {
                Agent::TcpSender(s) => s.on_timer(ctx, token),
                Agent::TcpReceiver(r) => r.on_timer(ctx, token),
                Agent::CtcpSender(s) => s.on_timer(ctx, token),
                Agent::CtcpReceiver(_) => {}
                Agent::IntcpNode(n) => n.on_timer(ctx, token),
            }),
            Event::Start { agent } => self.with_agent(agent, |a, ctx| match a {
                Agent::TcpSender(s) => s.start(ctx),
                Agent::CtcpSender(s) => s.start(ctx),
                Agent::IntcpNode(n) => n.start(ctx),
                Agent::TcpReceiver(_) | Agent::CtcpReceiver(_) => {}
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
        while let Some(pkt) = self.net.links[link as usize].take_arrived(now) {
            if pkt.dst_node == to {
                let agent = pkt.dst_agent;
                self.with_agent(agent, |a, ctx| match a {
                    Agent::TcpSender(s) => s.on_packet(ctx, pkt),
                    Agent::TcpReceiver(r) => r.on_packet(ctx, pkt),
                    Agent::CtcpSender(s) => s.on_packet(ctx, pkt),
                    Agent::CtcpReceiver(r) => r.on_packet(ctx, pkt),
                    Agent::IntcpNode(n) => n.on_packet(ctx, pkt),
                });
            } else {
                route(&mut self.net, &mut self.queue, now, to, pkt);
            }
        }
        if let Some(t) = self.net.links[link as usize].next_arrival_event(now) {
            self.queue.schedule(t, Event::Arrive { link });
        }
    }

    fn with_agent(&mut self, agent: AgentId, f: impl FnOnce(&mut Agent, &mut Ctx)) {
        let node = self.agent_node[agent as usize];
        let mut ctx = Ctx { now: self.now, node, agent, net: &mut self.net, queue: &mut self.queue };
        f(&mut self.agents[agent as usize], &mut ctx);
    }
}
