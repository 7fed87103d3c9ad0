//! A test-only rig that runs two agents over one link, in the manner of quinn-proto's `Pair`
//! (`quinn-proto/src/tests/util.rs`): agent A on node 0, agent B on node 1, the link between
//! them with its rate, delay, buffer and loss pattern in each direction, and the simulation
//! stepped to a time or to its end. Each agent knows the other by `Pair::A` and `Pair::B`.
//!
//! ```ignore
//! let mut pair = Pair::new(TestLink::new(10.0, 20).dropping(&[3]), sender, receiver, secs(5));
//! pair.run();
//! let r: &ArqReceiver = pair.b();
//! ```

use super::{Agent, AgentKind, Simulation};
use crate::arq::receiver::{ArqReceiver, ArqReceiverConfig};
use crate::arq::sender::{ArqConfig, ArqSender};
use crate::arq::ArqMode;
use crate::content::Content;
use crate::metrics::{DeliveryLog, Trace};
use crate::net::{AgentId, Buffer, Link, LinkConfig, LossProcess, Network, NodeId};
use crate::sim::{Rng, SimDuration, SimTime, Stream};

/// One link of a test network, the same both ways except for its loss.
#[derive(Clone, Debug)]
pub struct TestLink {
    pub rate_mbps: f64,
    pub delay: SimDuration,
    pub buffer: Buffer,
    /// The loss of packets from the lower-numbered node to the higher (A to B on a `Pair`).
    pub loss: LossProcess,
    /// The loss the other way.
    pub loss_back: LossProcess,
}

impl TestLink {
    /// A link of `rate_mbps` and a one-way delay of `delay_ms`, unlimited buffer, no loss.
    pub fn new(rate_mbps: f64, delay_ms: u64) -> TestLink {
        TestLink {
            rate_mbps,
            delay: SimDuration::from_millis(delay_ms),
            buffer: Buffer::Unlimited,
            loss: LossProcess::NONE,
            loss_back: LossProcess::NONE,
        }
    }

    /// Drops these packets (0-based, counting packets offered to the link) going forward.
    pub fn dropping(mut self, drops: &[u64]) -> TestLink {
        self.loss = LossProcess::drop_list(drops);
        self
    }

    /// Drops these packets going back.
    pub fn dropping_back(mut self, drops: &[u64]) -> TestLink {
        self.loss_back = LossProcess::drop_list(drops);
        self
    }

    /// Loses each forward packet with probability `p` (drawn from the run's seeded stream).
    pub fn with_loss(mut self, p: f64) -> TestLink {
        self.loss = LossProcess::bernoulli(p);
        self
    }

    fn config(&self, reverse: bool) -> LinkConfig {
        let loss = if reverse { self.loss_back.clone() } else { self.loss.clone() };
        LinkConfig { loss, ..LinkConfig::constant(self.rate_mbps * 1e6, self.delay, self.buffer) }
    }
}

/// The network of a chain of `links`: node i joined to node i + 1 by `links[i]`, link ids 2i
/// (forward) and 2i + 1 (back), as a scenario's chain numbers them.
pub fn chain(links: &[TestLink]) -> Network {
    let mut net_links = Vec::new();
    for (i, spec) in links.iter().enumerate() {
        let i = i as u32;
        for reverse in [false, true] {
            let (from, to) = if reverse { (i + 1, i) } else { (i, i + 1) };
            net_links.push(Link::new(
                2 * i + reverse as u32,
                from,
                to,
                spec.config(reverse),
                Rng::new(1, Stream::LinkLoss { link: i, reverse }),
                Rng::new(1, Stream::LinkJitter { link: i, reverse }),
                2,
            ));
        }
    }
    Network::new(links.len() as u32 + 1, net_links)
}

/// Two agents over one link, both started at time zero.
pub struct Pair {
    pub sim: Simulation,
}

impl Pair {
    /// Agent A's node and id.
    pub const A: (NodeId, AgentId) = (0, 0);
    /// Agent B's node and id.
    pub const B: (NodeId, AgentId) = (1, 1);

    /// A on node 0 and B on node 1 over `link`, the run ending at `end`.
    pub fn new(link: TestLink, a: Agent, b: Agent, end: SimTime) -> Pair {
        let mut sim = Simulation::new(chain(&[link]), end);
        sim.add_agent(Pair::A.0, a, Some(SimTime::ZERO));
        sim.add_agent(Pair::B.0, b, Some(SimTime::ZERO));
        Pair { sim }
    }

    /// Runs to the end.
    pub fn run(&mut self) {
        self.sim.run();
    }

    /// Runs every event up to and including `t`.
    pub fn run_until(&mut self, t: SimTime) {
        self.sim.step_until(t);
    }

    /// Agent A, as its type.
    pub fn a<T: AgentKind>(&self) -> &T {
        self.agent(Pair::A.1)
    }

    /// Agent B, as its type.
    pub fn b<T: AgentKind>(&self) -> &T {
        self.agent(Pair::B.1)
    }

    fn agent<T: AgentKind>(&self, id: AgentId) -> &T {
        T::of(&self.sim.agents[id as usize]).expect("the agent is of the type asked for")
    }

    /// The link from A to B (`reverse`: from B to A).
    pub fn link(&self, reverse: bool) -> &Link {
        &self.sim.net.links[reverse as usize]
    }
}

/// An ARQ flow of `bytes` in 1000-byte packets from A to B over `link`, with RFC 6298's
/// timeout, until `end`.
pub fn arq_pair(mode: ArqMode, window_pkts: u32, bytes: Option<u64>, link: TestLink, end: SimTime) -> Pair {
    let content = Content::new(7, 0);
    let cfg = ArqConfig { mode, window_pkts, mss: 1000, bytes, fixed_timeout: None };
    let (a, b) = (Pair::A, Pair::B);
    let sender = ArqSender::new(0, b.0, b.1, content, cfg, Trace::new(2));
    let receiver = ArqReceiver::new(
        ArqReceiverConfig { flow: 0, peer_node: a.0, peer_agent: a.1, content, mode, window_pkts, mss: 1000, bytes },
        DeliveryLog::new(Trace::new(2), SimDuration::from_millis(100)),
    );
    Pair::new(link, Agent::ArqSender(Box::new(sender)), Agent::ArqReceiver(Box::new(receiver)), end)
}
