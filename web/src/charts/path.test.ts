import { describe, expect, it } from 'vitest';
import type { PathTimeline } from '../sim/results';
import { pathColumns, pathEventCounts } from './PathChart';

const path: PathTimeline = {
  src: 'Liège',
  dst: 'Frankfurt PoP',
  step_s: 1,
  steps: { t_s: [0, 1, 2, 3], hops: [4, 4, 0, 4], owd_ms: [5.1, 5.2, null, 6.4], bottleneck_mbps: [100, 100, 0, 100] },
  routes: [
    { t_s: 0, nodes: [-1, 5, -3, -5, -2] },
    { t_s: 2, nodes: [] },
    { t_s: 3, nodes: [-1, 7, -4, -5, -2] },
  ],
  events: [
    { t_s: 2, kind: 'handover', end: 'src', from: 5, to: null, cause: 'lost_mid_slot' },
    { t_s: 3, kind: 'handover', end: 'src', from: null, to: 7, cause: 'slot_boundary' },
    { t_s: 3, kind: 'route_change' },
  ],
  nodes_used: 7,
  slot_boundaries_s: [3],
};

describe('the path chart', () => {
  it('draws the path per step, with a gap where there is none', () => {
    const c = pathColumns(path);
    expect(Array.from(c.t)).toEqual([0, 1, 2, 3]);
    expect(Array.from(c.owd)).toEqual([5.1, 5.2, NaN, 6.4]);
    expect(Array.from(c.hops)).toEqual([4, 4, NaN, 4]);
  });

  it('counts handovers by cause, and route changes', () => {
    expect(pathEventCounts(path)).toEqual({ handovers: 2, atSlot: 1, lostMidSlot: 1, routeChanges: 1 });
  });
});
