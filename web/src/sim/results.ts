// Results as the core reports them. The JSON's types are generated from the Rust types
// (results.gen.ts, `npm run gen:types`); this file names them as the app does, and turns every
// trace column into a Float64Array so it can be transferred (not cloned) from the worker and
// indexed by the charts.

import type * as Core from './results.gen';

export type {
  CapacitySummary,
  CodingSummary,
  DelaySummary,
  Drops,
  HopRole,
  HopSummary,
  PathEvent,
  WireSummary,
} from './results.gen';

export type FlowSummary = Core.FlowResult;
export type LinkSummary = Core.LinkResult;
/** The moving path of a constellation scenario. Times are simulation seconds (orbit time =
 * the view's start_s + t). */
export type PathTimeline = Core.PathResult;

/** A route-timeline node id: a satellite index (>= 0, the constellation view's order), or a
 * ground station g as -(g + 1): -1 source, -2 destination, -3… relays in the view's order. */
export type NodeId = number;

/** The run as a whole and per flow and link: the core's result without its traces and path.
 * `seed` is decimal text, as the wasm boundary sends it: a 64-bit seed (a sweep run's is) does
 * not fit a JavaScript number. */
export interface RunSummary extends Omit<Core.RunResult, 'seed' | 'traces' | 'path'> {
  seed: string;
}

/** A time column and named value columns of the same length. */
export interface Columns {
  t: Float64Array;
  cols: Record<string, Float64Array>;
}

/** INTCP: one node's time series. */
export interface HopTrace {
  node: number;
  role: Core.HopRole;
  /** `advertised_rate_mbps` (what this node asks of the hop upstream; 0 at the producer),
   * `paced_rate_mbps` (this node's token bucket towards downstream; 0 at the consumer),
   * `queue_pkts` (send queue), `cache_bytes`, `held_bytes` (what the node holds for downstream:
   * its send queue and, on a midnode that reads ahead, data fetched before downstream asked),
   * `in_rate_mbps` (DATA arriving from upstream over the last hop RTT; 0 at the producer) and
   * `out_rate_mbps` (DATA sent downstream over the last 100 ms; 0 at the consumer), on one
   * shared `t` (the core's `HOP_TRACE_COLUMNS`). Results from before `held_bytes` and the two
   * rates lack them. */
  series: Columns;
  /** Re-requests this node sent (SeqHoles; at the consumer also end-to-end timeouts):
   * `node` and the node's cumulative `count`, one row per time some were sent. */
  retransmissions: Columns;
}

export interface FlowTraces {
  id: number;
  sender: Columns;
  owd: Columns;
  goodput: Columns;
  jitter: Columns;
  owdCdfMs: Float64Array;
  /** TCP and INTCP: one-way delays at first arrival (before reordering) at evenly spaced
   * quantiles, in the form of `owdCdfMs` (which is at in-order delivery). */
  owdArrivalCdfMs?: Float64Array;
  /** TCP and INTCP: jitter of the arrival delays per second (`jitter_ms`), as `jitter`. */
  jitterArrival?: Columns;
  /** CTCP: rank of the current block over time (`rank`, `block`), and decode events
   * (`block`, `latency_ms`). The sender columns then also hold `loss_estimate`, and
   * `retransmissions` counts coded packets. */
  coding?: { rank: Columns; decodes: Columns };
  /** INTCP: one entry per node of the path, producer first. */
  hops?: HopTrace[];
}

export interface LinkTraces {
  id: number;
  queue: Columns;
}

export interface RunResult {
  summary: RunSummary;
  traces?: { flows: FlowTraces[]; links: LinkTraces[] };
  /** Constellation scenarios only. */
  path?: PathTimeline;
}

/** Congestion states in the `state` column of the sender trace. */
export const CC_STATES = ['slow start', 'congestion avoidance', 'recovery', 'loss'] as const;

/** The result JSON as the wasm boundary sends it (`SteppedRun::result`): the seed as text. */
interface WasmResult extends Omit<Core.RunResult, 'seed'> {
  seed: string;
}

function column(values: (number | null)[]): Float64Array {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = values[i] ?? NaN;
  return out;
}

function columns(c: Core.Columns): Columns {
  const cols: Record<string, Float64Array> = {};
  for (const [k, v] of Object.entries(c)) if (k !== 't') cols[k] = column(v);
  return { t: column(c.t), cols };
}

/** Parses the core's result JSON into a summary and column traces. */
export function parseResult(json: string): RunResult {
  const raw = JSON.parse(json) as WasmResult;
  const { traces, path, ...summary } = raw;
  if (!traces) return path ? { summary, path } : { summary };
  return {
    summary,
    ...(path ? { path } : {}),
    traces: {
      flows: traces.flows.map((f) => ({
        id: f.id,
        sender: columns(f.sender),
        owd: columns(f.owd),
        goodput: columns(f.goodput),
        jitter: columns(f.jitter),
        owdCdfMs: column(f.owd_cdf_ms),
        ...(f.owd_arrival_cdf_ms ? { owdArrivalCdfMs: column(f.owd_arrival_cdf_ms) } : {}),
        ...(f.jitter_arrival ? { jitterArrival: columns(f.jitter_arrival) } : {}),
        ...(f.coding ? { coding: { rank: columns(f.coding.rank), decodes: columns(f.coding.decodes) } } : {}),
        ...(f.hops ? { hops: f.hops.map((h) => ({ node: h.node, role: h.role, series: columns(h.series), retransmissions: columns(h.retransmissions) })) } : {}),
      })),
      links: traces.links.map((l) => ({ id: l.id, queue: columns(l.queue) })),
    },
  };
}

/** Every ArrayBuffer in a result, for `postMessage(msg, transfer)`. */
export function transferables(r: RunResult): ArrayBuffer[] {
  if (!r.traces) return [];
  const out: ArrayBuffer[] = [];
  const add = (c: Columns) => {
    out.push(c.t.buffer as ArrayBuffer);
    for (const v of Object.values(c.cols)) out.push(v.buffer as ArrayBuffer);
  };
  for (const f of r.traces.flows) {
    add(f.sender);
    add(f.owd);
    add(f.goodput);
    add(f.jitter);
    out.push(f.owdCdfMs.buffer as ArrayBuffer);
    if (f.owdArrivalCdfMs) out.push(f.owdArrivalCdfMs.buffer as ArrayBuffer);
    if (f.jitterArrival) add(f.jitterArrival);
    if (f.coding) {
      add(f.coding.rank);
      add(f.coding.decodes);
    }
    for (const h of f.hops ?? []) {
      add(h.series);
      add(h.retransmissions);
    }
  }
  for (const l of r.traces.links) add(l.queue);
  return out;
}
