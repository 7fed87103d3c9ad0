// Results as the core reports them, with every trace column turned into a Float64Array so it
// can be transferred (not cloned) from the worker and indexed by the charts.

export interface DelaySummary {
  mean: number;
  p5: number;
  p95: number;
}

/** CTCP's coding figures (absent for TCP flows). */
export interface CodingSummary {
  packets_sent: number;
  coded_packets: number;
  source_packets_delivered: number;
  /** Packets sent per source packet delivered. */
  coded_overhead: number;
  non_innovative: number;
  blocks_decoded: number;
  decode_latency_ms: DelaySummary;
  /** The sender's loss estimate at the end of the run. */
  loss_estimate: number;
  /** Where the bottleneck's capacity went (chain topologies; absent on a constellation). */
  capacity?: CapacitySummary;
}

/** Where the capacity of a CTCP flow's bottleneck link went over the run, in packet slots (the
 * time one of the flow's data packets takes on the link). The seven parts from
 * `innovative_pkts` to `idle_pkt_slots` add up to `link_pkt_slots` (to within one packet);
 * queue drops and ingress losses took no link time and are counted apart. Mirrors the core's
 * `CapacitySummary` (wasm-core/src/runner/mod.rs). */
export interface CapacitySummary {
  /** Id of the bottleneck link. */
  link: number;
  link_pkt_slots: number;
  /** Systematic packets that arrived and added a degree of freedom. */
  innovative_pkts: number;
  /** Coded packets that arrived and added a degree of freedom (each replaced a lost packet). */
  redundant_needed_pkts: number;
  /** Packets that arrived and added nothing. */
  non_innovative_pkts: number;
  /** Packets transmitted on the bottleneck and lost after it. */
  lost_pkts: number;
  /** Packets transmitted on the bottleneck and still propagating at the end. */
  in_flight_pkts: number;
  /** Time taken by other flows' packets and this flow's control packets. */
  other_pkt_slots: number;
  /** Time the link did not transmit. */
  idle_pkt_slots: number;
  /** Of the flow's packets: dropped by the bottleneck's full buffer (not in the sum). */
  queue_drop_pkts: number;
  /** Of the flow's packets: lost at the bottleneck's ingress (not in the sum). */
  ingress_loss_pkts: number;
  /** 1 − idle / link. */
  busy_fraction: number;
}

/** An INTCP node's part in a flow: the data source, a router along the path, or the requester. */
export type HopRole = 'producer' | 'midnode' | 'consumer';

/** INTCP: one node of the flow's path, at the end of the run. */
export interface HopSummary {
  node: number;
  role: HopRole;
  hop_srtt_ms: number;
  hop_min_rtt_ms: number;
  hop_cwnd_pkts: number;
  advertised_rate_mbps: number;
  paced_rate_mbps: number;
  data_sent: number;
  interests_sent: number;
  cache_served: number;
  cache_bytes_used: number;
  hole_requests: number;
  max_queue_bytes: number;
}

/** What a TCP or CTCP sender put on the wire against what was delivered (absent for INTCP). */
export interface WireSummary {
  /** Data packets sent, retransmissions (TCP) or coded packets (CTCP) included. */
  data_sent: number;
  /** TCP: retransmitted segments. CTCP: packets beyond one per source packet delivered. */
  retransmitted: number;
  /** Packets that arrived and brought nothing new (duplicates; CTCP: non-innovative). */
  spurious: number;
  delivered: number;
  retransmitted_per_delivered: number;
  spurious_per_delivered: number;
  loss_probes?: number;
  dsacks?: number;
  max_cwnd_pkts?: number;
  max_inflight_pkts?: number;
}

export interface FlowSummary {
  id: number;
  transport: string;
  cc: string;
  label?: string;
  bytes: number | null;
  delivered_bytes: number;
  completed: boolean;
  completion_s: number | null;
  goodput_mbps: number;
  retransmissions: number;
  timeouts: number;
  owd_ms: DelaySummary;
  /** TCP and INTCP: one-way delay from first transmission to a segment's first arrival,
   * before reordering (what a packet sniffer sees). */
  owd_arrival_ms?: DelaySummary;
  jitter_ms: number;
  incomplete_reason?: string;
  error?: string;
  wire?: WireSummary;
  coding?: CodingSummary;
  hops?: HopSummary[];
}

export interface LinkSummary {
  id: number;
  from: number;
  to: number;
  delivered_pkts: number;
  /** Bytes on the wire delivered (headers included). */
  delivered_bytes: number;
  drops: { buffer: number; loss: number; outage: number };
}

export interface RunSummary {
  name: string;
  seed: number;
  end_s: number;
  events: number;
  flows: FlowSummary[];
  fairness_jain: number;
  links: LinkSummary[];
}

/** A time column and named value columns of the same length. */
export interface Columns {
  t: Float64Array;
  cols: Record<string, Float64Array>;
}

/** INTCP: one node's time series. */
export interface HopTrace {
  node: number;
  role: HopRole;
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

/** A route-timeline node id: a satellite index (>= 0, the constellation view's order), or a
 * ground station g as -(g + 1): -1 source, -2 destination, -3… relays in the view's order. */
export type NodeId = number;

/** A handover (an endpoint's serving satellite changed) or another change of the node list. */
export interface PathEvent {
  t_s: number;
  kind: 'handover' | 'route_change';
  end?: 'src' | 'dst';
  from?: number | null;
  to?: number | null;
}

/** The moving path of a constellation scenario. Times are simulation seconds (orbit time =
 * the view's start_s + t). */
export interface PathTimeline {
  src: string;
  dst: string;
  step_s: number;
  steps: { t_s: number[]; hops: number[]; owd_ms: (number | null)[]; bottleneck_mbps: number[] };
  /** One entry each time the node list changes, in time order. */
  routes: { t_s: number; nodes: NodeId[] }[];
  events: PathEvent[];
}

export interface RunResult {
  summary: RunSummary;
  traces?: { flows: FlowTraces[]; links: LinkTraces[] };
  /** Constellation scenarios only. */
  path?: PathTimeline;
}

/** Congestion states in the `state` column of the sender trace. */
export const CC_STATES = ['slow start', 'congestion avoidance', 'recovery', 'loss'] as const;

type JsonColumns = { t: number[] } & Record<string, (number | null)[]>;
interface JsonFlowTrace {
  id: number;
  sender: JsonColumns;
  owd: JsonColumns;
  goodput: JsonColumns;
  jitter: JsonColumns;
  owd_cdf_ms: number[];
  owd_arrival_cdf_ms?: number[];
  jitter_arrival?: JsonColumns;
  coding?: { rank: JsonColumns; decodes: JsonColumns };
  hops?: { node: number; role: HopRole; series: JsonColumns; retransmissions: JsonColumns }[];
}
interface JsonResult extends RunSummary {
  traces?: { flows: JsonFlowTrace[]; links: { id: number; queue: JsonColumns }[] };
  path?: PathTimeline;
}

function column(values: (number | null)[]): Float64Array {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = values[i] ?? NaN;
  return out;
}

function columns(c: JsonColumns): Columns {
  const cols: Record<string, Float64Array> = {};
  for (const [k, v] of Object.entries(c)) if (k !== 't') cols[k] = column(v);
  return { t: column(c.t), cols };
}

/** Parses the core's result JSON into a summary and column traces. */
export function parseResult(json: string): RunResult {
  const raw = JSON.parse(json) as JsonResult;
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
