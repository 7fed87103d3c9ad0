import { describe, expect, it } from 'vitest';
import type { CapacitySummary } from '../sim/results';
import { capacityShares, describeShares, roundedPercents } from './capacity';

const capacity = (over: Partial<CapacitySummary> = {}): CapacitySummary => ({
  link: 2,
  link_pkt_slots: 1000.4,
  innovative_pkts: 800,
  redundant_needed_pkts: 40,
  non_innovative_pkts: 10,
  lost_pkts: 30,
  in_flight_pkts: 20,
  other_pkt_slots: 0.4,
  idle_pkt_slots: 100,
  queue_drop_pkts: 5,
  ingress_loss_pkts: 7,
  busy_fraction: 0.9,
  ...over,
});

describe('capacityShares', () => {
  it('gives the seven parts in bar order, useful work first and idle last', () => {
    expect(capacityShares(capacity()).map((s) => s.key)).toEqual(['innovative', 'redundant', 'non_innovative', 'lost', 'in_flight', 'other', 'idle']);
  });
  it('divides each part by the parts’ sum, so the shares add up to 1', () => {
    const s = capacityShares(capacity());
    expect(s.reduce((a, b) => a + b.share, 0)).toBeCloseTo(1, 12);
    expect(s[0].slots).toBe(800);
    expect(s[0].share).toBeCloseTo(800 / 1000.4, 12);
    expect(s[6].share).toBeCloseTo(100 / 1000.4, 12);
  });
  it('leaves queue drops and ingress losses out: they took no link time', () => {
    const a = capacityShares(capacity());
    const b = capacityShares(capacity({ queue_drop_pkts: 5000, ingress_loss_pkts: 9000 }));
    expect(b).toEqual(a);
  });
  it('gives zero shares, not NaN, when the link carried nothing, and ignores bad parts', () => {
    const zero = capacityShares(capacity({ innovative_pkts: 0, redundant_needed_pkts: 0, non_innovative_pkts: 0, lost_pkts: 0, in_flight_pkts: 0, other_pkt_slots: 0, idle_pkt_slots: 0 }));
    expect(zero.map((s) => s.share)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    const bad = capacityShares(capacity({ other_pkt_slots: -3, idle_pkt_slots: Number.NaN }));
    expect(bad[5].slots).toBe(0);
    expect(bad[6].share).toBe(0);
    expect(bad.reduce((a, b) => a + b.share, 0)).toBeCloseTo(1, 12);
  });
  it('keeps a zero part as a zero share in its place', () => {
    const s = capacityShares(capacity({ non_innovative_pkts: 0 }));
    expect(s[2]).toMatchObject({ key: 'non_innovative', slots: 0, share: 0 });
  });
});

describe('roundedPercents', () => {
  it('rounds so that the printed percentages add up to exactly 100', () => {
    const p = roundedPercents([1 / 3, 1 / 3, 1 / 3]);
    expect(p).toEqual([33.4, 33.3, 33.3]);
    const q = roundedPercents(capacityShares(capacity()).map((s) => s.share));
    expect(Math.round(q.reduce((a, b) => a + b, 0) * 10)).toBe(1000);
  });
  it('keeps all zeros at zero', () => {
    expect(roundedPercents([0, 0, 0])).toEqual([0, 0, 0]);
  });
});

describe('describeShares', () => {
  it('names every part with its percentage, in order', () => {
    expect(describeShares(capacityShares(capacity({ innovative_pkts: 900, redundant_needed_pkts: 0, non_innovative_pkts: 0, lost_pkts: 0, in_flight_pkts: 0, other_pkt_slots: 0, idle_pkt_slots: 100 })))).toBe(
      'innovative 90.0%, redundant, needed 0.0%, non-innovative 0.0%, lost 0.0%, in flight 0.0%, other traffic 0.0%, idle 10.0%',
    );
  });
});
