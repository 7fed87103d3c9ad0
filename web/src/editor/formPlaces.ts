// Every place of the scenario form that shows errors, for a given scenario: its fields, and the
// groups and sections around them (a link, a flow, the links, the sweep). The form's section
// files read these lists for their folded groups' error counts, and formErrors.ts assigns the
// core's errors to them before anything renders. formPlaces.test.ts renders the form for every
// preset and checks that it asks for the errors of exactly these places.

import { getAt } from '../scenario/jsonPath';
import { formatValue, isObject, type Json, type JsonObject } from './model';

/** A folded group's places, apart from the places always shown. */
export interface Sections {
  main: string[];
  folded: string[];
}

export const TOP_PLACES = ['name', 'duration_s', 'seed'];

/** The loss model a link direction's `loss` has ('none' when it has none). */
export function lossModel(loss: unknown): string {
  return loss === undefined || loss === null ? 'none' : isObject(loss) ? formatValue(loss.model) : formatValue(loss);
}

export function lossPlaces(base: string, loss: unknown): string[] {
  const at = (...f: string[]) => f.map((x) => `${base}.${x}`);
  switch (lossModel(loss)) {
    case 'bernoulli':
      return [base, ...at('p')];
    case 'gilbert_elliott':
      return [base, ...at('p_good_to_bad', 'p_bad_to_good', 'loss_good', 'loss_bad')];
    case 'list':
      return [base, ...at('drops')];
    default:
      return [base];
  }
}

/** How a link's rate schedule is given: none, a list of steps, a square wave, or another form. */
export function scheduleKind(sched: unknown): 'none' | 'steps' | 'square' | 'other' {
  if (sched === undefined || sched === null) return 'none';
  if (Array.isArray(sched)) return 'steps';
  return isObject(sched) && 'square' in sched ? 'square' : 'other';
}

export function schedulePlaces(lp: string, sched: unknown): string[] {
  const base = `${lp}.rate_schedule`;
  const kind = scheduleKind(sched);
  if (kind === 'steps') return [base, ...(sched as Json[]).flatMap((_, k) => [`${base}[${k}].at_s`, `${base}[${k}].rate_mbps`])];
  if (kind === 'square') return [base, `${base}.square.low_mbps`, `${base}.square.high_mbps`, `${base}.square.period_s`];
  return [base];
}

/** How a link's outages are given: none, listed, periodic, or another form. */
export function outageKind(out: unknown): 'none' | 'list' | 'periodic' | 'other' {
  if (out === undefined || out === null) return 'none';
  if (Array.isArray(out)) return 'list';
  return isObject(out) && 'every_s' in out ? 'periodic' : 'other';
}

export function outagePlaces(lp: string, out: unknown): string[] {
  const base = `${lp}.outages`;
  const kind = outageKind(out);
  if (kind === 'list') return [base, ...(out as Json[]).flatMap((_, k) => [`${base}[${k}].start_s`, `${base}[${k}].duration_s`])];
  if (kind === 'periodic') return [base, `${base}.every_s`, `${base}.duration_s`, `${base}.first_s`];
  return [base];
}

/** A link's places: the link itself and its main fields; folded, the reverse direction and the
 * byte buffer. */
export function linkPlaces(i: number, link: Json | undefined): Sections {
  const lp = `topology.links[${i}]`;
  const l = isObject(link) ? link : {};
  return {
    main: [
      lp,
      ...['rate_mbps', 'delay_ms', 'buffer_pkts', 'jitter_ms'].map((f) => `${lp}.${f}`),
      ...lossPlaces(`${lp}.loss`, l.loss),
      `${lp}.loss_at`,
      ...schedulePlaces(lp, l.rate_schedule),
      ...outagePlaces(lp, l.outages),
    ],
    folded: [`${lp}.reverse_rate_mbps`, `${lp}.buffer_bytes`, `${lp}.jitter_reorder`, ...lossPlaces(`${lp}.reverse_loss`, l.reverse_loss)],
  };
}

export function isConstellation(scenario: JsonObject): boolean {
  return getAt(scenario, 'topology.kind') === 'constellation';
}

/** The Walker shell the form shows: the first of a list, or the one shell. */
export function walkerPath(scenario: JsonObject): string {
  return Array.isArray(getAt(scenario, 'topology.constellation.walker')) ? 'topology.constellation.walker[0]' : 'topology.constellation.walker';
}

/** A ground station the form shows as a city name; a {name, lat_deg, lon_deg} point is edited
 * in JSON. */
export function isCityPlace(v: unknown): boolean {
  return typeof v === 'string' || v === undefined;
}

/** Where Starlink's scheduler's fields are (`attachment: {"scheduler": {...}}`). */
export const SCHEDULER_PATH = 'topology.attachment.scheduler';
export const SCHEDULER_FIELDS = ['period_s', 'offset_s', 'rule', 'reassign_gap_ms'] as const;

/** How a constellation's `attachment` is given: a named rule (or none: the default), Starlink's
 * scheduler object, or another form the form does not show (edited in JSON). */
export function attachmentKind(a: unknown): 'rule' | 'scheduler' | 'other' {
  if (a === undefined || a === null || typeof a === 'string') return 'rule';
  return isObject(a) && Object.keys(a).length === 1 && (isObject(a.scheduler) || a.scheduler === null) ? 'scheduler' : 'other';
}

export function constellationPlaces(scenario: JsonObject): string[] {
  const w = walkerPath(scenario);
  const walker = isObject(getAt(scenario, w)) ? ['altitude_km', 'inclination_deg', 'planes', 'sats_per_plane', 'phasing'].map((f) => `${w}.${f}`) : [];
  const stations = ['topology.src', 'topology.dst'].filter((p) => isCityPlace(getAt(scenario, p)));
  const rest = ['min_elevation_deg', 'gsl_max_range_km', 'earth', 'step_s', 'start_s', 'isl', 'attachment', 'handover_outage_s', 'on_route_change', 'buffer_pkts', 'access.rate_mbps', 'access.delay_ms'];
  const scheduler = attachmentKind(getAt(scenario, 'topology.attachment')) === 'scheduler' ? SCHEDULER_FIELDS.map((f) => `${SCHEDULER_PATH}.${f}`) : [];
  return [...walker, ...stations, ...rest.map((f) => `topology.${f}`), ...scheduler];
}

const NODES_AND_LABEL = ['from_node', 'to_node', 'label'];
const FLOW_FIELDS = {
  intcp: {
    main: ['transport', 'cache', 'bytes', 'start_s', 'cache_bytes', 'name'],
    folded: [
      'mss_bytes',
      'target_buffer_pkts',
      'queue_threshold_bytes',
      'decrease_factor',
      'ssthresh_pkts',
      'ca_increase_pkts',
      'min_rtt_window_s',
      'min_rate_mbps',
      'max_rate_mbps',
      'hole_threshold_pkts',
      'hold_budget_bytes',
      'read_ahead',
      ...NODES_AND_LABEL,
    ],
  },
  ctcp: {
    main: ['transport', 'variant', 'coding', 'bytes', 'start_s', 'block_pkts', 'max_blocks'],
    folded: ['mss_bytes', 'initial_cwnd_pkts', 'initial_ssthresh_pkts', 'max_cwnd_pkts', 'v2_delta_l_s', 'loss_scaling', ...NODES_AND_LABEL],
  },
  arq: {
    main: ['transport', 'mode', 'bytes', 'start_s', 'window_pkts', 'timeout_ms'],
    folded: ['mss_bytes', ...NODES_AND_LABEL],
  },
  tcp: {
    main: ['transport', 'cc', 'bytes', 'start_s'],
    folded: [
      'mss_bytes',
      'initial_cwnd_pkts',
      'initial_ssthresh_pkts',
      'profile',
      'recovery',
      'loss_detection',
      'rwnd_pkts',
      'rcv_autotune',
      'sack',
      'hystart',
      'delayed_ack',
      'delack_ms',
      'rto_flavor',
      'rto_min_ms',
      ...NODES_AND_LABEL,
    ],
  },
};

/** The form of a flow: its transport's, with any unknown transport shown as TCP. */
export function flowForm(flow: Json | undefined): 'tcp' | 'ctcp' | 'intcp' | 'arq' {
  const t = isObject(flow) ? flow.transport : undefined;
  return t === 'ctcp' || t === 'intcp' || t === 'arq' ? t : 'tcp';
}

/** A flow's places: the flow itself and its main fields; folded, its advanced fields. */
export function flowPlaces(i: number, flow: Json | undefined): Sections {
  const fp = `flows[${i}]`;
  const f = FLOW_FIELDS[flowForm(flow)];
  return { main: [fp, ...f.main.map((x) => `${fp}.${x}`)], folded: f.folded.map((x) => `${fp}.${x}`) };
}

/** The sweep's grid paths, in order. */
export function sweepAxes(scenario: JsonObject): string[] {
  const grid = getAt(scenario, 'sweep.grid');
  return isObject(grid) ? Object.keys(grid) : [];
}

/** The place of a grid axis's values, as the core writes its path. */
export function axisPlace(key: string): string {
  return `sweep.grid."${key}"`;
}

export function sweepPlaces(scenario: JsonObject): string[] {
  if (!isObject(scenario.sweep)) return [];
  return ['sweep', ...sweepAxes(scenario).map(axisPlace), 'sweep.runs'];
}

/** Every place of the form for this scenario. */
export function formPlaces(scenario: JsonObject): string[] {
  const out = [...TOP_PLACES, 'topology'];
  if (isConstellation(scenario)) out.push(...constellationPlaces(scenario));
  else {
    const links = getAt(scenario, 'topology.links');
    if (Array.isArray(links))
      links.forEach((l, i) => {
        const p = linkPlaces(i, l);
        out.push(...p.main, ...p.folded);
      });
  }
  out.push('flows');
  const flows = scenario.flows;
  if (Array.isArray(flows))
    flows.forEach((f, i) => {
      const p = flowPlaces(i, f);
      out.push(...p.main, ...p.folded);
    });
  out.push(...sweepPlaces(scenario));
  return out;
}
