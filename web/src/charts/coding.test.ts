import { describe, expect, it } from 'vitest';
import type { LinkSpec, Scenario } from '../scenario/types.gen';
import { bottleneckPer, stepMean } from './CodingChart';

const scenario = (links: LinkSpec[]): Scenario => ({
  version: 1,
  name: 't',
  duration_s: 10,
  topology: { kind: 'chain', links },
  flows: [{ transport: 'ctcp', variant: 'v2' }],
});

describe('bottleneckPer', () => {
  it('takes the Bernoulli p of the data-direction link with the lowest rate', () => {
    const s = scenario([
      { rate_mbps: 1000, delay_ms: 0, loss: { model: 'bernoulli', p: 0.2 } },
      { rate_mbps: 10, delay_ms: 250, loss_at: 'ingress', loss: { model: 'bernoulli', p: 0.005 } },
    ]);
    expect(bottleneckPer(s)).toEqual({ link: 1, p: 0.005 });
  });
  it('is null without a Bernoulli loss on the bottleneck', () => {
    expect(bottleneckPer(scenario([{ rate_mbps: 10, delay_ms: 1 }]))).toBeNull();
    expect(bottleneckPer(scenario([{ rate_mbps: 10, delay_ms: 1, loss: { model: 'list', drops: [1] } }]))).toBeNull();
    expect(bottleneckPer(null)).toBeNull();
  });
});

describe('stepMean', () => {
  it('weights each value by how long it holds, up to the end', () => {
    expect(stepMean([0, 1, 3], [1, 2, 4], 4)).toBeCloseTo((1 + 4 + 4) / 4, 12);
    expect(stepMean([2], [0.5], 4)).toBe(0.5);
    expect(stepMean([], [], 4)).toBeNaN();
  });
});
