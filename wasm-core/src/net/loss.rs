//! Packet-loss processes (docs/links-and-orbits.md §1): none, Bernoulli, Gilbert-Elliott, and a
//! deterministic list of drops for tests.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::sim::Rng;

// A link direction's loss model as a scenario states it (`scenario::LossSpec`); a `LossProcess`
// runs it. A plain comment, not a doc comment: the scenario's schema would carry it.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "model", rename_all = "snake_case", deny_unknown_fields)]
pub enum LossSpec {
    None,
    /// Each packet is lost independently with probability `p`.
    Bernoulli {
        p: f64,
    },
    /// Two-state Markov chain per packet (docs/links-and-orbits.md §1).
    GilbertElliott {
        p_good_to_bad: f64,
        p_bad_to_good: f64,
        loss_good: f64,
        loss_bad: f64,
    },
    /// Drops exactly these packets (0-based indices of packets offered to this direction).
    List {
        drops: Vec<u64>,
    },
}

/// A loss model and where it stands: Gilbert-Elliott's state, a list's next drop.
#[derive(Clone, Debug)]
pub struct LossProcess {
    /// The model; a `List`'s drops are sorted and without repeats.
    model: LossSpec,
    /// Gilbert-Elliott: the chain is in its bad state. `loss_good`/`loss_bad` are the loss
    /// probabilities in each state (netem's 1−k and 1−h).
    bad: bool,
    /// List: the position in `drops` of the next index to drop.
    next: usize,
}

impl LossProcess {
    /// Loses nothing.
    pub const NONE: LossProcess = LossProcess { model: LossSpec::None, bad: false, next: 0 };

    /// The model, starting in Gilbert-Elliott's good state and before a list's first drop.
    pub fn new(model: LossSpec) -> LossProcess {
        let model = match model {
            LossSpec::List { mut drops } => {
                drops.sort_unstable();
                drops.dedup();
                LossSpec::List { drops }
            }
            other => other,
        };
        LossProcess { model, bad: false, next: 0 }
    }

    /// Each packet lost independently with probability `p`.
    pub fn bernoulli(p: f64) -> LossProcess {
        LossProcess::new(LossSpec::Bernoulli { p })
    }

    /// Drops the packets with these indices (0-based, counting packets offered to this link
    /// direction), in any order.
    pub fn drop_list(drops: &[u64]) -> LossProcess {
        LossProcess::new(LossSpec::List { drops: drops.to_vec() })
    }

    /// Decides the fate of packet number `index` on this link direction.
    pub fn drops(&mut self, index: u64, rng: &mut Rng) -> bool {
        match &self.model {
            LossSpec::None => false,
            LossSpec::Bernoulli { p } => rng.chance(*p),
            LossSpec::GilbertElliott { p_good_to_bad, p_bad_to_good, loss_good, loss_bad } => {
                // Transition first, then draw the loss in the new state (netem's order).
                if self.bad {
                    if rng.chance(*p_bad_to_good) {
                        self.bad = false;
                    }
                } else if rng.chance(*p_good_to_bad) {
                    self.bad = true;
                }
                rng.chance(if self.bad { *loss_bad } else { *loss_good })
            }
            LossSpec::List { drops } => {
                while self.next < drops.len() && drops[self.next] < index {
                    self.next += 1;
                }
                if self.next < drops.len() && drops[self.next] == index {
                    self.next += 1;
                    true
                } else {
                    false
                }
            }
        }
    }

    /// The long-run loss rate the process is configured for.
    pub fn mean_loss(&self) -> f64 {
        match &self.model {
            LossSpec::None | LossSpec::List { .. } => 0.0,
            LossSpec::Bernoulli { p } => *p,
            LossSpec::GilbertElliott { p_good_to_bad, p_bad_to_good, loss_good, loss_bad } => {
                let s = p_good_to_bad + p_bad_to_good;
                if s == 0.0 {
                    return *loss_good;
                }
                let pi_bad = p_good_to_bad / s;
                (1.0 - pi_bad) * loss_good + pi_bad * loss_bad
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Stream;

    fn rng() -> Rng {
        Rng::new(3, Stream::LinkLoss { link: 0, reverse: false })
    }

    #[test]
    fn bernoulli_loses_its_fraction() {
        let mut l = LossProcess::bernoulli(0.05);
        let mut r = rng();
        let n = 100_000;
        let lost = (0..n).filter(|&i| l.drops(i, &mut r)).count() as f64 / n as f64;
        // std = sqrt(0.05 * 0.95 / 1e5) = 0.00069: 5 sigma.
        assert!((lost - 0.05).abs() < 0.0035, "{lost}");
    }

    #[test]
    fn simple_gilbert_matches_mean_loss_and_burst_length() {
        // docs/links-and-orbits.md §1: L = 1 %, mean burst 5 ⇒ r = 0.2, p = 0.00202.
        let mut l = LossProcess::new(LossSpec::GilbertElliott {
            p_good_to_bad: 0.00202,
            p_bad_to_good: 0.2,
            loss_good: 0.0,
            loss_bad: 1.0,
        });
        assert!((l.mean_loss() - 0.01).abs() < 1e-4);
        let mut r = rng();
        let n = 2_000_000u64;
        let (mut lost, mut bursts, mut prev) = (0u64, 0u64, false);
        for i in 0..n {
            let d = l.drops(i, &mut r);
            lost += d as u64;
            if d && !prev {
                bursts += 1;
            }
            prev = d;
        }
        let rate = lost as f64 / n as f64;
        let burst = lost as f64 / bursts as f64;
        // About 4000 bursts: the mean burst has a relative std of ~1.8 %, the rate ~2 %; 10 % bounds.
        assert!((rate - 0.01).abs() < 0.001, "rate {rate}");
        assert!((burst - 5.0).abs() < 0.5, "burst {burst}");
    }

    #[test]
    fn drop_list_drops_exactly_the_listed_packets_in_any_order_given() {
        let mut l = LossProcess::drop_list(&[6, 2, 5, 2]);
        let mut r = rng();
        let lost: Vec<u64> = (0..10).filter(|&i| l.drops(i, &mut r)).collect();
        assert_eq!(lost, vec![2, 5, 6]);
    }
}
