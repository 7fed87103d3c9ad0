//! The engine: events, what an agent may do while it handles one (`Ctx`), timers, and routing a
//! packet onto its next link. It knows nothing of the transports: they import it, and
//! `crate::simulation` (above both) holds the agents and runs the event loop.

mod ctx;
mod event;
mod forward;
mod timer;

pub use ctx::Ctx;
pub use event::Event;
pub use forward::{forward, route};
pub use timer::LazyTimer;
