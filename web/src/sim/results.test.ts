import { describe, expect, it } from 'vitest';
import { parseResult, transferables } from './results';

const flow = {
  id: 0,
  sender: { t: [0], cwnd: [1] },
  owd: { t: [], owd_ms: [] },
  goodput: { t: [], mbps: [] },
  jitter: { t: [], jitter_ms: [] },
  owd_cdf_ms: [],
};

function json(hops?: unknown, extra: Record<string, unknown> = {}, flows: unknown[] = []): string {
  return JSON.stringify({ name: 'x', seed: '1', end_s: 1, events: 1, flows, fairness_jain: 1, links: [], unrouted_pkts: 0, traces: { flows: [{ ...flow, ...(hops ? { hops } : {}), ...extra }], links: [] } });
}

const arrival = { owd_arrival_cdf_ms: [100, 120, 180], jitter_arrival: { t: [2, 3], jitter_ms: [4.5, null] } };

describe('parseResult', () => {
  it('keeps a 64-bit seed exact, as the decimal text the wasm boundary sends', () => {
    // 2^64 − 1: as a JSON number it would read back as 18446744073709552000.
    const text = json().replace('"seed":"1"', '"seed":"18446744073709551615"');
    expect(parseResult(text).summary.seed).toBe('18446744073709551615');
  });

  it("turns an INTCP flow's per-node traces into columns", () => {
    const r = parseResult(
      json([
        { node: 0, role: 'producer', series: { t: [0, 1], advertised_rate_mbps: [0, 0], paced_rate_mbps: [0.1, 20], queue_pkts: [0, 3], cache_bytes: [0, 0] }, retransmissions: { t: [], node: [], count: [] } },
        { node: 1, role: 'consumer', series: { t: [0.5], advertised_rate_mbps: [null], paced_rate_mbps: [0], queue_pkts: [0], cache_bytes: [0] }, retransmissions: { t: [0.7], node: [1], count: [2] } },
      ]),
    );
    const hops = r.traces!.flows[0].hops!;
    expect(hops.map((h) => [h.node, h.role])).toEqual([
      [0, 'producer'],
      [1, 'consumer'],
    ]);
    expect(hops[0].series.cols.paced_rate_mbps).toEqual(Float64Array.from([0.1, 20]));
    expect(hops[1].series.cols.advertised_rate_mbps[0]).toBeNaN();
    expect(hops[1].retransmissions.t).toEqual(Float64Array.from([0.7]));
    expect(hops[1].retransmissions.cols.count).toEqual(Float64Array.from([2]));
  });

  it('leaves hops out for flows that have none', () => {
    expect(parseResult(json()).traces!.flows[0].hops).toBeUndefined();
  });

  it('turns the arrival CDF and arrival jitter into columns', () => {
    const r = parseResult(json(undefined, arrival));
    const f = r.traces!.flows[0];
    expect(f.owdArrivalCdfMs).toEqual(Float64Array.from([100, 120, 180]));
    expect(f.jitterArrival!.t).toEqual(Float64Array.from([2, 3]));
    expect(f.jitterArrival!.cols.jitter_ms[0]).toBe(4.5);
    expect(f.jitterArrival!.cols.jitter_ms[1]).toBeNaN();
  });

  it('leaves the arrival figures out for flows without them (CTCP)', () => {
    const f = parseResult(json()).traces!.flows[0];
    expect(f.owdArrivalCdfMs).toBeUndefined();
    expect(f.jitterArrival).toBeUndefined();
    expect('owdArrivalCdfMs' in f).toBe(false);
  });

  it("keeps the summary's arrival delay as the core gives it", () => {
    const summary = { id: 0, transport: 'intcp', cc: 'intcp', bytes: null, delivered_bytes: 1, completed: false, completion_s: null, goodput_mbps: 1, retransmissions: 0, timeouts: 0, owd_ms: { mean: 150, p5: 100, p95: 200 }, owd_arrival_ms: { mean: 120, p5: 90, p95: 141 }, jitter_ms: 3 };
    const r = parseResult(json(undefined, {}, [summary, { ...summary, id: 1, owd_arrival_ms: undefined }]));
    expect(r.summary.flows[0].owd_arrival_ms).toEqual({ mean: 120, p5: 90, p95: 141 });
    expect(r.summary.flows[1].owd_arrival_ms).toBeUndefined();
  });
});

describe('transferables', () => {
  it("lists the hop columns' buffers too, each once", () => {
    const r = parseResult(json([{ node: 0, role: 'producer', series: { t: [0], queue_pkts: [1] }, retransmissions: { t: [], count: [] } }]));
    const bufs = transferables(r);
    const hop = r.traces!.flows[0].hops![0];
    for (const c of [hop.series.t, hop.series.cols.queue_pkts, hop.retransmissions.t, hop.retransmissions.cols.count]) expect(bufs).toContain(c.buffer);
    expect(new Set(bufs).size).toBe(bufs.length);
  });

  it("lists the arrival columns' buffers, each once", () => {
    const r = parseResult(json(undefined, arrival));
    const f = r.traces!.flows[0];
    const bufs = transferables(r);
    for (const c of [f.owdArrivalCdfMs!, f.jitterArrival!.t, f.jitterArrival!.cols.jitter_ms]) expect(bufs).toContain(c.buffer);
    expect(new Set(bufs).size).toBe(bufs.length);
  });
});
