// The closed-form window growth of the ISTN paper (docs/models.md §4), drawn over the simulated cwnd
// of a single Reno or Hybla flow that starts with a window of 1 and a finite ssthresh γ. Time t is
// measured from the first data segment, one RTT after the flow starts (the SYN handshake).

import type { Scenario } from '../scenario/types.gen';
import { chainLinks } from '../scenario/topology';

/** Hybla's reference round trip, RTT₀ (seconds). */
export const HYBLA_RTT0_S = 0.025;

/** Reno, one ACK per segment, IW 1: 2^(t/RTT) below t_γ = RTT·log₂γ, then (t − t_γ)/RTT + γ. */
export function renoWindow(t: number, rttS: number, gamma: number): number {
  if (!(t >= 0) || !(rttS > 0) || !(gamma >= 1)) return NaN;
  const tGamma = rttS * Math.log2(gamma);
  return t < tGamma ? 2 ** (t / rttS) : (t - tGamma) / rttS + gamma;
}

/** Hybla: ρ·2^(t/RTT₀) below t_γ0 = RTT₀·log₂γ, then ρ·[(t − t_γ0)/RTT₀ + γ], ρ = RTT/RTT₀ (≥ 1). */
export function hyblaWindow(t: number, rttS: number, gamma: number, rtt0S = HYBLA_RTT0_S): number {
  if (!(t >= 0) || !(rttS > 0) || !(gamma >= 1)) return NaN;
  const rho = Math.max(1, rttS / rtt0S);
  const tGamma0 = rtt0S * Math.log2(gamma);
  return t < tGamma0 ? rho * 2 ** (t / rtt0S) : rho * ((t - tGamma0) / rtt0S + gamma);
}

export interface WindowModel {
  cc: 'reno' | 'hybla';
  /** Round trip: twice the chain's one-way delays (seconds). */
  rttS: number;
  gamma: number;
  /** Simulation time of the model's t = 0: the flow's start plus one RTT. */
  t0S: number;
  /** Simulation time at which the model leaves slow start (t_γ, or t_γ0 for Hybla). */
  tGammaS: number;
  /** Which equation, for the legend. */
  label: string;
  /** The model's window (packets) at simulation time `t` (NaN before t0). */
  at: (t: number) => number;
}

/** The model for this scenario's single flow, or null when the formulas do not apply. */
export function windowModel(scenario: Scenario | null): WindowModel | null {
  if (!scenario || scenario.flows.length !== 1) return null;
  const f = scenario.flows[0];
  if (f.transport !== 'tcp') return null;
  if (f.cc !== 'reno' && f.cc !== 'hybla') return null;
  if ((f.initial_cwnd_pkts ?? 10) !== 1) return null;
  const gamma = f.initial_ssthresh_pkts;
  if (typeof gamma !== 'number' || !Number.isFinite(gamma) || gamma < 1) return null;
  const rttS = (2 * chainLinks(scenario).reduce((a, l) => a + l.delay_ms, 0)) / 1000;
  if (!(rttS > 0)) return null;
  const t0S = (f.start_s ?? 0) + rttS;
  const cc = f.cc;
  const fn = cc === 'reno' ? renoWindow : hyblaWindow;
  return {
    cc,
    rttS,
    gamma,
    t0S,
    tGammaS: t0S + (cc === 'reno' ? rttS : HYBLA_RTT0_S) * Math.log2(gamma),
    label: cc === 'reno' ? `model: Reno W(t), γ = ${gamma}` : `model: Hybla W_H(t), γ = ${gamma}, ρ = ${(Math.max(1, rttS / HYBLA_RTT0_S)).toFixed(1)}`,
    at: (t: number) => fn(t - t0S, rttS, gamma),
  };
}
