//! Seeded randomness, split into independent streams.
//!
//! Every consumer (a link direction's loss model, its jitter, a flow's content) draws from its own
//! stream, derived from the run seed and a stream label, as smoltcp's netsim does. Adding a flow
//! therefore never changes another link's loss pattern, and the same run index gives the same
//! loss pattern to every variant in a sweep (common random numbers).

use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Labels of random streams. Numbers are part of the determinism contract: do not renumber.
#[derive(Clone, Copy, Debug)]
pub enum Stream {
    LinkLoss {
        link: u32,
        reverse: bool,
    },
    LinkJitter {
        link: u32,
        reverse: bool,
    },
    FlowContent {
        flow: u32,
    },
    Transport {
        flow: u32,
    },
    /// A flow's congestion control (BBR's draw of its first ProbeBW phase).
    CongestionControl {
        flow: u32,
    },
}

impl Stream {
    fn label(self) -> u64 {
        match self {
            Stream::LinkLoss { link, reverse } => (1 << 40) | ((link as u64) << 1) | reverse as u64,
            Stream::LinkJitter { link, reverse } => (2 << 40) | ((link as u64) << 1) | reverse as u64,
            Stream::FlowContent { flow } => (3 << 40) | flow as u64,
            Stream::Transport { flow } => (4 << 40) | flow as u64,
            Stream::CongestionControl { flow } => (5 << 40) | flow as u64,
        }
    }
}

/// SplitMix64 finaliser: a bijective 64-bit mix used to derive seeds.
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Seed of run `r` of a sweep point: same `r`, same seed, whatever the variant.
pub fn run_seed(base: u64, run: u32) -> u64 {
    if run == 0 {
        base
    } else {
        mix64(base ^ mix64(run as u64))
    }
}

/// A deterministic random stream.
#[derive(Clone, Debug)]
pub struct Rng(Xoshiro256PlusPlus);

impl Rng {
    pub fn new(seed: u64, stream: Stream) -> Rng {
        Rng(Xoshiro256PlusPlus::seed_from_u64(mix64(seed) ^ mix64(stream.label())))
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// Uniform in [0, 1) with 53 bits of precision.
    pub fn uniform(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        p > 0.0 && self.uniform() < p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_and_stream_give_the_same_sequence() {
        let mut a = Rng::new(7, Stream::LinkLoss { link: 1, reverse: false });
        let mut b = Rng::new(7, Stream::LinkLoss { link: 1, reverse: false });
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
    }

    #[test]
    fn streams_of_different_links_are_independent() {
        let mut a = Rng::new(7, Stream::LinkLoss { link: 1, reverse: false });
        let mut b = Rng::new(7, Stream::LinkLoss { link: 1, reverse: true });
        let same = (0..64).filter(|_| a.next_u64() == b.next_u64()).count();
        assert_eq!(same, 0);
    }

    #[test]
    fn chance_matches_its_probability() {
        let mut r = Rng::new(1, Stream::Transport { flow: 0 });
        let n = 200_000;
        let hits = (0..n).filter(|_| r.chance(0.1)).count() as f64 / n as f64;
        // Binomial std at n = 2e5, p = 0.1 is 0.00067: 5 sigma.
        assert!((hits - 0.1).abs() < 0.0034, "{hits}");
    }

    #[test]
    fn run_zero_keeps_the_scenario_seed() {
        assert_eq!(run_seed(42, 0), 42);
        assert_ne!(run_seed(42, 1), run_seed(42, 2));
    }
}
