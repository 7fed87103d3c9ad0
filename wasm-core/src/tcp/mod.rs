//! TCP: the sender with SACK, NewReno and RTO, the receiver, and the congestion controls.

pub mod congestion;
pub mod receiver;
pub mod rtt;
pub mod sender;
