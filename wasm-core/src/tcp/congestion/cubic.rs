//! PLACEHOLDER: being replaced by the real module.
use super::{AckSample, CongestionControl, Window};
use crate::sim::SimTime;

#[derive(Default, Debug, Clone)]
pub struct Cubic;

impl CongestionControl for Cubic {
    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> u32 {
        w.reno_ssthresh()
    }
    fn cong_avoid(&mut self, w: &mut Window, ack: &AckSample) {
        if ack.cwnd_limited {
            w.reno_cong_avoid(ack.acked);
        }
    }
}
