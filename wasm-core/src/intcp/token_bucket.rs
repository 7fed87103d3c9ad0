//! The responder side of one INTCP hop: the token bucket that paces DATA at the rate the hop's
//! requester advertised on its latest INTEREST (docs/intcp-protocol.md §5.7).

use super::{BYTES_PER_S_PER_MBPS, SENDRATE_MIN_MBPS};
use crate::sim::{float, SimDuration};

/// The responder side of one hop (§5.7).
#[derive(Clone, Debug)]
pub struct TokenBucket {
    /// Rate the downstream requester asked for, Mbit/s (`SENDRATE_MIN` until its first
    /// INTEREST, §5.7).
    pub rate_mbps: f64,
    /// Credit in bytes (`dataOutputLimit`, initially 1 MSS, §5.7).
    pub tokens: f64,
    /// The latest INTEREST one-way delay (`intHopOwd`, §5.1).
    pub int_hop_owd: SimDuration,
}

impl TokenBucket {
    #[inline]
    pub fn new(mss: u32) -> TokenBucket {
        TokenBucket { rate_mbps: SENDRATE_MIN_MBPS, tokens: mss as f64, int_hop_owd: SimDuration::ZERO }
    }

    /// Adds a tick's credit for `dt`; returns it (`newOutput`).
    #[inline]
    pub fn refill(&mut self, dt: SimDuration) -> f64 {
        let new_output = self.rate_mbps * BYTES_PER_S_PER_MBPS * dt.as_secs_f64();
        self.tokens += new_output;
        new_output
    }

    /// Spends `cost` bytes if the credit covers them.
    #[inline]
    pub fn try_spend(&mut self, cost: f64) -> bool {
        if self.tokens < cost {
            return false;
        }
        self.tokens -= cost;
        true
    }

    /// The queue drained: an idle bucket keeps at most one tick's worth (§5.7). `float::min`
    /// is std's here (in wasm an instruction, not a call): the tokens are never NaN and never
    /// -0 (they start at one MSS, and a refill or a spend of finite bytes keeps them ≥ +0).
    #[inline]
    pub fn drained(&mut self, new_output: f64) {
        self.tokens = float::min(self.tokens, new_output);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_bucket_paces_and_caps_idle_credit_at_one_tick() {
        let mut b = TokenBucket::new(1449);
        b.rate_mbps = 12.0; // 1500 bytes per ms
        let n = b.refill(SimDuration::from_millis(1));
        assert_eq!(n, 1500.0);
        assert!(b.try_spend(1472.0));
        assert!(b.try_spend(1472.0));
        assert!(!b.try_spend(1472.0));
        b.refill(SimDuration::from_millis(10));
        b.drained(1500.0);
        assert_eq!(b.tokens, 1500.0);
    }

    #[test]
    fn a_new_bucket_holds_one_segment_and_paces_at_the_minimum_rate() {
        let mut b = TokenBucket::new(1449);
        assert_eq!(b.rate_mbps, SENDRATE_MIN_MBPS);
        assert!(b.try_spend(1449.0));
        assert!(!b.try_spend(1.0));
    }
}
