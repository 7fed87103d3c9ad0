import { describe, expect, it } from 'vitest';
import { hyblaWindow, renoWindow, windowModel } from './analytic';
import type { Scenario } from '../scenario/types.gen';

const RTT = 1.934;

describe('Reno window (the ISTN paper eq. 1)', () => {
  it('doubles every RTT in slow start', () => {
    expect(renoWindow(0, RTT, 128)).toBe(1);
    expect(renoWindow(RTT, RTT, 128)).toBeCloseTo(2, 12);
    expect(renoWindow(3 * RTT, RTT, 128)).toBeCloseTo(8, 12);
  });
  it('reaches γ at t_γ = RTT·log2 γ = 7 RTT = 13.538 s', () => {
    expect(renoWindow(7 * RTT, RTT, 128)).toBeCloseTo(128, 9);
    expect(renoWindow(13.538, RTT, 128)).toBeCloseTo(128, 9);
  });
  it('grows one segment per RTT in congestion avoidance', () => {
    // (60 − 13.538) / 1.934 + 128 = 24.0238 + 128
    expect(renoWindow(60, RTT, 128)).toBeCloseTo(152.0238, 3);
    expect(renoWindow(13.538 + 10 * RTT, RTT, 128)).toBeCloseTo(138, 9);
  });
  it('is undefined before t = 0', () => {
    expect(renoWindow(-1, RTT, 128)).toBeNaN();
  });
});

describe('Hybla window (the ISTN paper eqs. 5-6)', () => {
  // ρ = 1.934 / 0.025 = 77.36; t_γ0 = 0.025 · 7 = 0.175 s
  it('is ρ·2^(t/RTT0) in slow start', () => {
    expect(hyblaWindow(0, RTT, 128)).toBeCloseTo(77.36, 9);
    expect(hyblaWindow(0.05, RTT, 128)).toBeCloseTo(77.36 * 4, 9);
    expect(hyblaWindow(0.175, RTT, 128)).toBeCloseTo(77.36 * 128, 6); // 9902.08
  });
  it('grows ρ per RTT0 in congestion avoidance', () => {
    // 77.36 · ((60 − 0.175)/0.025 + 128) = 77.36 · 2521 = 195024.56
    expect(hyblaWindow(60, RTT, 128)).toBeCloseTo(195024.56, 4);
  });
  it('is Reno for RTT = RTT0 (ρ = 1)', () => {
    for (const t of [0, 0.1, 0.3, 2]) expect(hyblaWindow(t, 0.025, 128)).toBeCloseTo(renoWindow(t, 0.025, 128), 9);
  });
});

type TcpFlow = Extract<Scenario['flows'][0], { transport: 'tcp' }>;
const scenario = (flow: Partial<TcpFlow>): Scenario => ({
  version: 1,
  name: 't',
  duration_s: 61.934,
  topology: { kind: 'chain', links: [{ rate_mbps: 1000, delay_ms: 967 }] },
  flows: [{ transport: 'tcp', cc: 'reno', initial_cwnd_pkts: 1, initial_ssthresh_pkts: 128, ...flow }],
});

describe('windowModel', () => {
  it('applies to one Reno flow with IW 1 and a finite γ, from start + RTT', () => {
    const m = windowModel(scenario({ start_s: 2 }));
    expect(m).not.toBeNull();
    expect(m!.rttS).toBeCloseTo(1.934, 12);
    expect(m!.t0S).toBeCloseTo(3.934, 12);
    expect(m!.at(3.934 + 7 * RTT)).toBeCloseTo(128, 9);
    expect(m!.at(1)).toBeNaN();
    expect(m!.tGammaS).toBeCloseTo(3.934 + 7 * RTT, 12);
  });
  it('applies to Hybla', () => {
    const h = windowModel(scenario({ cc: 'hybla' }))!;
    expect(h.at(RTT + 60)).toBeCloseTo(195024.56, 4);
    expect(h.tGammaS).toBeCloseTo(RTT + 0.175, 12);
  });
  it('does not apply otherwise', () => {
    expect(windowModel(scenario({ cc: 'cubic' }))).toBeNull();
    expect(windowModel(scenario({ initial_cwnd_pkts: 10 }))).toBeNull();
    expect(windowModel(scenario({ initial_cwnd_pkts: undefined }))).toBeNull();
    expect(windowModel(scenario({ initial_ssthresh_pkts: null }))).toBeNull();
    expect(windowModel(null)).toBeNull();
    const two = scenario({});
    two.flows.push({ ...two.flows[0] });
    expect(windowModel(two)).toBeNull();
  });
});
