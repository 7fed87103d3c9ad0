//! What the event loop processes.

use crate::net::AgentId;

#[derive(Clone, Copy, Debug)]
pub enum Event {
    /// The head of a link's propagation pipeline reaches the far end.
    Arrive { link: u32 },
    /// A timer an agent set; `token` tells the agent which one.
    Timer { agent: AgentId, token: u64 },
    /// An agent starts (a flow's `start_s`).
    Start { agent: AgentId },
}
