//! TCP: the sender with its SACK scoreboard, loss detection (RACK-TLP or DupThresh), recovery
//! (PRR or RFC 6675) and RTO; the receiver with its advertised window; and the congestion
//! controls.

pub mod autotune;
pub mod congestion;
pub mod prr;
pub mod rack;
pub mod rate;
pub mod receiver;
pub mod scoreboard;
pub mod sender;
