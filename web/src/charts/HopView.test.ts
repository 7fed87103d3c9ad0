// The hop view rendered to markup (React's server renderer: no DOM needed) for a result with and
// one without the columns the core added later (held bytes, rates in and out): the strip and
// the read-out show what the result has and "–" for what it lacks, never NaN.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { HopRole, HopTrace, RunResult } from '../sim/results';
import { HopView } from './HopView';

const f64 = (v: number[]) => Float64Array.from(v);
const empty = { t: f64([]), cols: {} };

function hop(node: number, role: HopRole, cols: Record<string, number[]>): HopTrace {
  return {
    node,
    role,
    series: { t: f64([0, 1, 2]), cols: Object.fromEntries(Object.entries(cols).map(([k, v]) => [k, f64(v)])) },
    retransmissions: { t: f64([]), cols: { node: f64([]), count: f64([]) } },
  };
}

/** Producer 0 → midnode 1 → consumer 2; `extra` adds each node's later columns. */
function result(extra: (node: number) => Record<string, number[]>): RunResult {
  const base = { advertised_rate_mbps: [20, 20, 20], paced_rate_mbps: [20, 5, 35], queue_pkts: [0, 12, 3], cache_bytes: [0, 6e6, 9e6] };
  const hops = ([
    [0, 'producer'],
    [1, 'midnode'],
    [2, 'consumer'],
  ] as const).map(([n, role]) => hop(n, role, { ...base, ...extra(n) }));
  return {
    summary: { flows: [{ id: 0, cc: 'intcp' }] } as unknown as RunResult['summary'],
    traces: { flows: [{ id: 0, sender: empty, owd: empty, goodput: empty, jitter: empty, owdCdfMs: f64([]), hops }], links: [] },
  };
}

const render = (r: RunResult) => renderToStaticMarkup(createElement(HopView, { result: r, scenario: null, xDomain: [0, 2], name: 'test' }));
/** The text of the elements with a data-testid, in document order. */
const texts = (html: string, testid: string) => Array.from(html.matchAll(new RegExp(`data-testid="${testid}"[^>]*>([^<]*)<`, 'g')), (m) => m[1]);

describe('HopView', () => {
  it("shows each node's held bytes and its rates in and out at the cursor", () => {
    // The cursor starts at 0: in 19, out 5, holding 8.4 MB.
    const html = render(result((n) => ({ held_bytes: [n === 1 ? 8.4e6 : 0, 0, 0], in_rate_mbps: [n === 0 ? 0 : 19, 0, 0], out_rate_mbps: [n === 2 ? 0 : 5, 0, 0] })));
    expect(texts(html, 'hop-held')).toEqual(['holds 0 MB', 'holds 8.4 MB', 'holds 0 MB']);
    expect(texts(html, 'hop-rates')).toEqual(['out 5 Mbit/s', 'in 19 | out 5 Mbit/s', 'in 19 Mbit/s']);
    expect(texts(html, 'hop-readout')[0]).toContain('node 1 (midnode) queue 0 packets, cache 0 MB, holds 8.4 MB, in 19, out 5 Mbit/s');
    expect(html.match(/data-series="held"/g)).toHaveLength(3);
    expect(html).not.toContain('not in this result');
  });
  it('renders a result without those columns with "–" in their place and no NaN', () => {
    const html = render(result(() => ({})));
    expect(texts(html, 'hop-held')).toEqual(['holds –', 'holds –', 'holds –']);
    expect(texts(html, 'hop-rates')).toEqual(['out –', 'in – | out –', 'in –']);
    expect(texts(html, 'hop-readout')[0]).toContain('node 1 (midnode) queue 0 packets, cache 0 MB, holds –, in –, out –');
    expect(html.match(/not in this result/g)).toHaveLength(3);
    expect(html).not.toMatch(/NaN/);
  });
});
