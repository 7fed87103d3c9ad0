//! The discrete-event machinery: simulated time, the event queue, and seeded random streams.

pub mod float;
pub mod int;
pub mod queue;
pub mod rng;
pub mod time;

pub use queue::EventQueue;
pub use rng::{Rng, Stream};
pub use time::{SimDuration, SimTime};
