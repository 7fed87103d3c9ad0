import { describe, expect, it } from 'vitest';
import type { FlowTraces, HopRole, HopTrace } from '../sim/results';
import type { Scenario } from '../scenario/types.gen';
import { columnLayout, heldAt, heldMean, heldText, hopShown, hopX, increments, maxOf, nodeShown, nodeX, pathChoices, pathModel, peak, ratesText, snapshotAt, visibleColumns, withUnit } from './hopModel';

const f64 = (v: number[]) => Float64Array.from(v);

interface NodeSeries {
  t: number[];
  adv: number[];
  paced: number[];
  queue: number[];
  cache: number[];
  /** The columns older results lack: left out when not given. */
  held?: number[];
  inRate?: number[];
  outRate?: number[];
}

function node(id: number, role: HopRole, s: NodeSeries, rtx: { t: number[]; count: number[] } = { t: [], count: [] }): HopTrace {
  const cols: Record<string, Float64Array> = { advertised_rate_mbps: f64(s.adv), paced_rate_mbps: f64(s.paced), queue_pkts: f64(s.queue), cache_bytes: f64(s.cache) };
  if (s.held) cols.held_bytes = f64(s.held);
  if (s.inRate) cols.in_rate_mbps = f64(s.inRate);
  if (s.outRate) cols.out_rate_mbps = f64(s.outRate);
  return {
    node: id,
    role,
    series: { t: f64(s.t), cols },
    retransmissions: { t: f64(rtx.t), cols: { node: f64(rtx.t.map(() => id)), count: f64(rtx.count) } },
  };
}

const empty = { t: f64([]), cols: {} };

function flow(id: number, hops?: HopTrace[]): FlowTraces {
  return { id, sender: empty, owd: empty, goodput: empty, jitter: empty, owdCdfMs: f64([]), ...(hops ? { hops } : {}) };
}

/** Producer 0 → midnode 1 → consumer 2, sampled at 0, 1 and 2 s. The downstream hop is slow at
 * 1 s (the midnode takes 19 Mbit/s in, sends 5 out and holds 8.4 MB) and fast at 2 s. */
const twoHop = flow(0, [
  node(0, 'producer', { t: [0, 1, 2], adv: [0, 0, 0], paced: [0.1, 20, 20], queue: [0, 7, 2], cache: [0, 0, 0], held: [0, 10500, 3000], inRate: [0, 0, 0], outRate: [0.1, 19, 19] }),
  node(
    1,
    'midnode',
    { t: [0, 1, 2], adv: [20, 20, 25], paced: [0.1, 5, 35], queue: [0, 40, 1], cache: [0, 1e6, 3e6], held: [0, 8.4e6, 2.1e6], inRate: [0, 19, 19.5], outRate: [0, 5, 34] },
    { t: [1.5, 1.7], count: [2, 3] },
  ),
  node(2, 'consumer', { t: [0, 1, 2], adv: [5, 5, 35], paced: [0, 0, 0], queue: [0, 0, 0], cache: [0, 0, 0], held: [0, 0, 0], inRate: [0, 5, 34], outRate: [0, 0, 0] }, { t: [1.9], count: [1] }),
]);

/** The same path as a result made before the core reported held bytes and rates in and out. */
const twoHopOld = flow(0, [
  node(0, 'producer', { t: [0, 1, 2], adv: [0, 0, 0], paced: [0.1, 20, 20], queue: [0, 7, 2], cache: [0, 0, 0] }),
  node(1, 'midnode', { t: [0, 1, 2], adv: [20, 20, 25], paced: [0.1, 5, 35], queue: [0, 40, 1], cache: [0, 1e6, 3e6] }),
  node(2, 'consumer', { t: [0, 1, 2], adv: [5, 5, 35], paced: [0, 0, 0], queue: [0, 0, 0], cache: [0, 0, 0] }),
]);

describe('increments', () => {
  it('turns a cumulative count into how many were added each time', () => {
    const r = increments([1, 2, 3, 4], [2, 2, 5, 6]);
    expect(Array.from(r.t)).toEqual([1, 3, 4]);
    expect(Array.from(r.v)).toEqual([2, 3, 1]);
  });
  it('skips gaps and never counts a dip as new re-requests', () => {
    const r = increments([1, 2, 3, 4], [1, NaN, 1, 2]);
    expect(Array.from(r.t)).toEqual([1, 4]);
    expect(Array.from(r.v)).toEqual([1, 1]);
  });
});

describe('heldAt and heldMean', () => {
  const c = { t: f64([1, 2, 4]), v: f64([10, 20, 40]) };
  it('hold the last sample until the next', () => {
    expect(heldAt(c, 0.5)).toBeNaN();
    expect(heldAt(c, 1)).toBe(10);
    expect(heldAt(c, 3.9)).toBe(20);
    expect(heldAt(c, 100)).toBe(40);
  });
  it('weight each value by how long it was held', () => {
    // 10 for 1 s, 20 for 2 s, 40 for 1 s
    expect(heldMean(c, 0, 5)).toBeCloseTo((10 + 40 + 40) / 4);
    expect(heldMean(c, 2, 3)).toBe(20);
    expect(heldMean({ t: f64([]), v: f64([]) }, 0, 1)).toBeNaN();
  });
  it('maxOf ignores NaN and is 0 for nothing', () => {
    expect(maxOf(f64([1, NaN, 3]), f64([2]))).toBe(3);
    expect(maxOf()).toBe(0);
  });
});

describe('pathModel', () => {
  const m = pathModel(twoHop)!;
  it('has the nodes producer first and one hop between each pair', () => {
    expect(m.nodes.map((n) => [n.node, n.role])).toEqual([
      [0, 'producer'],
      [1, 'midnode'],
      [2, 'consumer'],
    ]);
    expect(m.hops.map((h) => [h.from, h.to])).toEqual([
      [0, 1],
      [1, 2],
    ]);
  });
  it("takes a hop's asked rate from its downstream node and its paced rate from its upstream node", () => {
    expect(Array.from(m.hops[0].advertised.v)).toEqual([20, 20, 25]);
    expect(Array.from(m.hops[0].paced.v)).toEqual([0.1, 20, 20]);
    expect(Array.from(m.hops[1].advertised.v)).toEqual([5, 5, 35]);
    expect(Array.from(m.hops[1].paced.v)).toEqual([0.1, 5, 35]);
  });
  it("marks re-requests on the hop upstream of the node that sent them", () => {
    expect(Array.from(m.hops[0].retransmissions.t)).toEqual([1.5, 1.7]);
    expect(Array.from(m.hops[0].retransmissions.v)).toEqual([2, 1]);
    expect(m.hops[0].totalRetransmissions).toBe(3);
    expect(m.hops[1].totalRetransmissions).toBe(1);
  });
  it('shares one scale per row across the path', () => {
    expect(m.maxRateMbps).toBe(35);
    expect(m.maxQueuePkts).toBe(40);
    expect(m.maxCacheBytes).toBe(3e6);
    expect(m.maxHeldBytes).toBe(8.4e6);
  });
  it("takes each node's held bytes and rates in and out from its own series", () => {
    expect(Array.from(m.nodes[1].held.v)).toEqual([0, 8.4e6, 2.1e6]);
    expect(Array.from(m.nodes[1].inRate.v)).toEqual([0, 19, 19.5]);
    expect(Array.from(m.nodes[1].outRate.v)).toEqual([0, 5, 34]);
    expect(Array.from(m.nodes[2].inRate.v)).toEqual([0, 5, 34]);
    expect(m.nodes[1].held.t).toBe(twoHop.hops![1].series.t);
  });
  it('keeps a result without the held and rate columns, with those columns empty', () => {
    const old = pathModel(twoHopOld)!;
    expect(old.nodes).toHaveLength(3);
    for (const n of old.nodes) {
      for (const c of [n.held, n.inRate, n.outRate]) {
        expect(c.t.length).toBe(0);
        expect(c.v.length).toBe(0);
      }
      expect(peak(n.held)).toBeNaN();
    }
    expect(old.maxHeldBytes).toBe(0);
    // The columns it has are read as before.
    expect(old.maxCacheBytes).toBe(3e6);
    expect(peak(old.nodes[1].queue)).toBe(40);
  });
  it('is null for a flow without per-node traces', () => {
    expect(pathModel(flow(1))).toBeNull();
    expect(pathModel(flow(1, []))).toBeNull();
  });
});

describe('snapshotAt', () => {
  const m = pathModel(twoHop)!;
  it('gives each node and hop its state at the cursor', () => {
    const s = snapshotAt(m, 1.6);
    expect(s.nodes.map((n) => n.queuePkts)).toEqual([7, 40, 0]);
    expect(s.nodes[1].cacheBytes).toBe(1e6);
    expect(s.hops[1]).toEqual({ advertisedMbps: 5, pacedMbps: 5, retransmissions: 0 });
    expect(s.hops[0].retransmissions).toBe(2);
  });
  it('changes as the cursor moves', () => {
    expect(snapshotAt(m, 2).nodes[1].queuePkts).toBe(1);
    expect(snapshotAt(m, 2).hops[0].retransmissions).toBe(3);
  });
  it("gives the midnode's held bytes and rates in and out: filling while downstream is slow, draining while it is fast", () => {
    const slow = snapshotAt(m, 1.6).nodes[1];
    expect([slow.heldBytes, slow.inMbps, slow.outMbps]).toEqual([8.4e6, 19, 5]);
    const fast = snapshotAt(m, 2.5).nodes[1];
    expect([fast.heldBytes, fast.inMbps, fast.outMbps]).toEqual([2.1e6, 19.5, 34]);
    expect(snapshotAt(m, 1).nodes[0].heldBytes).toBe(10500);
  });
  it('is NaN, not 0, for columns an older result lacks, and keeps the columns it has', () => {
    const s = snapshotAt(pathModel(twoHopOld)!, 1.6);
    for (const n of s.nodes) {
      expect(n.heldBytes).toBeNaN();
      expect(n.inMbps).toBeNaN();
      expect(n.outMbps).toBeNaN();
    }
    expect(s.nodes[1].queuePkts).toBe(40);
    expect(s.nodes[1].cacheBytes).toBe(1e6);
    expect(s.hops[1].pacedMbps).toBe(5);
  });
});

describe('at-cursor text', () => {
  const m = pathModel(twoHop)!;
  const old = pathModel(twoHopOld)!;
  it('says what a node holds, in MB', () => {
    expect(heldText(snapshotAt(m, 1.6).nodes[1])).toBe('holds 8.4 MB');
    expect(heldText(snapshotAt(m, 2).nodes[1])).toBe('holds 2.1 MB');
    expect(heldText({ heldBytes: 0 })).toBe('holds 0 MB');
  });
  it("puts a midnode's rate in beside its rate out, the reverse of each other in a slow and a fast phase", () => {
    expect(ratesText('midnode', snapshotAt(m, 1.6).nodes[1])).toBe('in 19 | out 5 Mbit/s');
    expect(ratesText('midnode', snapshotAt(m, 2).nodes[1])).toBe('in 19.5 | out 34 Mbit/s');
    expect(ratesText('midnode', snapshotAt(m, 2).nodes[1], ', ')).toBe('in 19.5, out 34 Mbit/s');
  });
  it('gives the producer only its rate out and the consumer only its rate in', () => {
    const s = snapshotAt(m, 1.6);
    expect(ratesText('producer', s.nodes[0])).toBe('out 19 Mbit/s');
    expect(ratesText('consumer', s.nodes[2])).toBe('in 5 Mbit/s');
  });
  it('shows "–" for a missing column, never NaN', () => {
    const s = snapshotAt(old, 1.6);
    expect(heldText(s.nodes[1])).toBe('holds –');
    expect(ratesText('midnode', s.nodes[1])).toBe('in – | out –');
    expect(ratesText('consumer', s.nodes[2])).toBe('in –');
    // Before the first sample too.
    expect(ratesText('midnode', snapshotAt(m, -1).nodes[1])).toBe('in – | out –');
    expect(ratesText('midnode', { inMbps: 19, outMbps: NaN })).toBe('in 19 | out – Mbit/s');
    for (const n of s.nodes) expect(`${heldText(n)} ${ratesText('midnode', n)}`).not.toContain('NaN');
  });
  it('withUnit leaves the unit off an unknown value', () => {
    expect(withUnit(8.43e6 / 1e6, 'MB')).toBe('8.43 MB');
    expect(withUnit(NaN, 'MB')).toBe('–');
  });
});

describe('pathChoices', () => {
  const summary = (id: number) => ({ id, cc: 'intcp' });
  const consumerAt = (id: number, to: number) =>
    flow(id, [
      node(0, 'producer', { t: [0], adv: [0], paced: [0], queue: [0], cache: [0] }),
      node(to, 'consumer', { t: [0], adv: [0], paced: [0], queue: [0], cache: [0] }),
    ]);
  it('lists only flows with a path, each with its consumer', () => {
    const c = pathChoices([summary(0), summary(1)], [flow(0), consumerAt(1, 3)], null);
    expect(c.map((x) => [x.id, x.producer, x.consumer, x.label])).toEqual([[1, 0, 3, 'flow 1 intcp, consumer at node 3']]);
  });
  it('names the other consumers of the same content', () => {
    const scenario = { flows: [{ transport: 'intcp', name: 'video' }, { transport: 'intcp', name: 'video' }, { transport: 'intcp' }] } as unknown as Scenario;
    const c = pathChoices([0, 1, 2].map(summary), [consumerAt(0, 5), consumerAt(1, 4), consumerAt(2, 3)], scenario);
    expect(c[0].content).toBe('video');
    expect(c[0].sharing).toEqual([{ id: 1, consumer: 4 }]);
    expect(c[1].sharing).toEqual([{ id: 0, consumer: 5 }]);
    expect(c[2].content).toBeUndefined();
    expect(c[2].sharing).toEqual([]);
  });
});

describe('columnLayout', () => {
  it('spreads a short path over the width', () => {
    const l = columnLayout(3, 900, { gutter: 90 });
    expect(l.column).toBe(270);
    expect(l.width).toBe(900);
    expect(nodeX(l, 0)).toBe(90 + 135);
    expect(hopX(l, 0)).toBe(90 + 270);
  });
  it('keeps columns readable on a long path and lets it scroll', () => {
    const l = columnLayout(20, 900, { gutter: 90, minColumn: 150 });
    expect(l.column).toBe(150);
    expect(l.width).toBe(90 + 20 * 150);
  });
});

describe('visibleColumns', () => {
  // 230 columns of 150 px after a 92 px gutter: the preset's route over 10 minutes.
  const l = columnLayout(230, 1200, { gutter: 92, minColumn: 150 });
  const inView = (first: number, last: number, x0: number, x1: number) =>
    // A column is in view when any of its pixels is.
    l.gutter + l.column * (last + 1) > x0 && l.gutter + l.column * first < x1;

  it('draws every column without a viewport, and a short path whole', () => {
    expect(visibleColumns(l, 230, null)).toEqual({ first: 0, last: 229 });
    const short = columnLayout(3, 900, { gutter: 90 });
    expect(visibleColumns(short, 3, { left: 0, width: 900 })).toEqual({ first: 0, last: 2 });
  });

  it('covers every column in view, one more on each side, and no more', () => {
    for (const left of [0, 91, 92, 241, 242, 5000, 17_333, l.width - 1200]) {
      const r = visibleColumns(l, 230, { left, width: 1200 });
      for (let k = 0; k < 230; k++) {
        if (inView(k, k, left, left + 1200)) expect(nodeShown(r, k), `node ${k} at left ${left}`).toBe(true);
      }
      // At most what the width holds, plus a partial column at each edge and the overscan.
      expect(r.last - r.first + 1).toBeLessThanOrEqual(Math.ceil(1200 / l.column) + 1 + 2);
    }
    expect(visibleColumns(l, 230, { left: l.width - 1200, width: 1200 }).last).toBe(229);
  });

  it('draws a hop with either of the nodes it joins', () => {
    const r = { first: 10, last: 14 };
    expect([8, 9, 10, 14, 15].map((k) => hopShown(r, k))).toEqual([false, true, true, true, false]);
    expect([9, 10, 14, 15].map((k) => nodeShown(r, k))).toEqual([false, true, true, false]);
  });
});
