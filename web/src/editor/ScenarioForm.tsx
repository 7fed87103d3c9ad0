// The form view: the common fields of a scenario, bound to the parsed JSON.
//
// Every change edits a fresh parse of the current text in place and writes it back, so fields
// the form does not show (description, trace, paper, ...) stay as they are. Field names and
// enumerations come from the generated types (types.gen.ts); ranges are checked by the core,
// whose errors arrive in `errors` and are routed to the field whose path they name
// (see ErrorRouter in model.ts). The help texts follow scenarios/README.md.

import { useState, type ReactNode } from 'react';
import type { CcKind, CodingMode, CtcpVariant, LossAtSpec, LossDetection, LossSpec, Recovery, RtoFlavor, TcpProfile } from '../scenario/types.gen';
import { CheckInput, FieldErrors, ListInput, NumberInput, SelectInput, StringInput, TextInput, type Option } from './fields';
import type { FieldError } from '../sim/protocol';
import { getAt as getPath, setAt } from '../scenario/jsonPath';
import { ErrorRouter, formatValue, isObject, switchTransport, type Json, type JsonObject, type Transport } from './model';

/** Every congestion control the core knows (CcKind in types.gen.ts). The `satisfies` makes a
 * new kind in the generated types a compile error here until it is listed. */
const CC_KINDS = ['reno', 'cubic', 'hybla', 'htcp', 'veno', 'westwood', 'bic', 'highspeed', 'scalable', 'vegas', 'bbr'] as const satisfies readonly CcKind[];
type MissingCc = Exclude<CcKind, (typeof CC_KINDS)[number]>;
const ccComplete: MissingCc extends never ? true : false = true;
void ccComplete;

const CC_LABELS: Record<CcKind, string> = {
  reno: 'Reno',
  cubic: 'CUBIC',
  hybla: 'Hybla',
  htcp: 'H-TCP',
  veno: 'Veno',
  westwood: 'Westwood+',
  bic: 'BIC',
  highspeed: 'HighSpeed',
  scalable: 'Scalable',
  vegas: 'Vegas',
  bbr: 'BBR v1',
};
const CC_OPTIONS: Option[] = CC_KINDS.map((k) => ({ value: k, label: CC_LABELS[k] }));

type LossModel = LossSpec['model'];
const LOSS_OPTIONS: { value: LossModel; label: string }[] = [
  { value: 'none', label: 'None' },
  { value: 'bernoulli', label: 'Random (Bernoulli)' },
  { value: 'gilbert_elliott', label: 'Bursty (Gilbert-Elliott)' },
  { value: 'list', label: 'Listed packets' },
];
const LOSS_DEFAULTS: Record<LossModel, LossSpec> = {
  none: { model: 'none' },
  bernoulli: { model: 'bernoulli', p: 0.01 },
  gilbert_elliott: { model: 'gilbert_elliott', p_good_to_bad: 0.01, p_bad_to_good: 0.1, loss_good: 0, loss_bad: 0.5 },
  list: { model: 'list', drops: [] },
};
const TRANSPORT_OPTIONS: { value: Transport; label: string }[] = [
  { value: 'tcp', label: 'TCP' },
  { value: 'ctcp', label: 'CTCP (network coded)' },
  { value: 'intcp', label: 'INTCP (hop by hop)' },
];
/** CTCP's enumerations; `satisfies Record<...>` makes a new value in the generated types a
 * compile error here until it has a label. */
const CTCP_VARIANT_LABELS = { v1: 'v1 (AIMD)', v2: 'v2 (H-TCP-like)' } satisfies Record<CtcpVariant, string>;
const CTCP_VARIANT_OPTIONS: Option[] = Object.entries(CTCP_VARIANT_LABELS).map(([value, label]) => ({ value, label }));
const CODING_LABELS = { full: 'Full', 'rank-only': 'Rank only' } satisfies Record<CodingMode, string>;
const CODING_OPTIONS: Option[] = Object.entries(CODING_LABELS).map(([value, label]) => ({ value, label }));
const LOSS_AT_LABELS = { channel: 'On the channel', ingress: 'At ingress' } satisfies Record<LossAtSpec, string>;
const LOSS_AT_OPTIONS: Option[] = Object.entries(LOSS_AT_LABELS).map(([value, label]) => ({ value, label }));
const ISL_OPTIONS: Option[] = [
  { value: 'plus_grid', label: '+Grid (4 per satellite)' },
  { value: 'none', label: 'none: bent pipe via ground relays' },
];
const ATTACHMENT_OPTIONS: Option[] = [
  { value: 'highest_elevation', label: 'highest elevation, every step' },
  { value: 'stay_until_lost', label: 'stay until lost' },
];
const ROUTE_CHANGE_OPTIONS: Option[] = [
  { value: 'deliver', label: 'deliver along the old route' },
  { value: 'drop', label: 'drop' },
];
const RTO_OPTIONS: { value: RtoFlavor | ''; label: string }[] = [
  { value: '', label: 'by profile' },
  { value: 'linux', label: 'Linux' },
  { value: 'rfc6298', label: 'RFC 6298' },
];
/** TCP machinery; '' leaves the choice to the flow's profile. */
const PROFILE_LABELS = { linux: 'Linux', ns3: 'ns-3' } satisfies Record<TcpProfile, string>;
const PROFILE_OPTIONS: Option[] = Object.entries(PROFILE_LABELS).map(([value, label]) => ({ value, label }));
const RECOVERY_LABELS = { prr: 'PRR (RFC 6937)', rfc6675: 'RFC 6675' } satisfies Record<Recovery, string>;
const RECOVERY_OPTIONS: Option[] = [{ value: '', label: 'by profile' }, ...Object.entries(RECOVERY_LABELS).map(([value, label]) => ({ value, label }))];
const DETECTION_LABELS = { rack: 'RACK-TLP (RFC 8985)', dupack: 'Three duplicate ACKs' } satisfies Record<LossDetection, string>;
const DETECTION_OPTIONS: Option[] = [{ value: '', label: 'by profile' }, ...Object.entries(DETECTION_LABELS).map(([value, label]) => ({ value, label }))];

const PROB = 'A probability between 0 and 1.';

/** The value at a path of the form's scenario (a parsed JSON text). */
function getAt(root: Json, path: string): Json | undefined {
  return getPath(root, path) as Json | undefined;
}

function asArray(v: Json | undefined): Json[] {
  return Array.isArray(v) ? v : [];
}

export type Edit = (mutate: (root: JsonObject) => void) => void;

interface FormProps {
  scenario: JsonObject;
  errors: readonly FieldError[];
  edit: Edit;
}

export function ScenarioForm({ scenario, errors, edit }: FormProps) {
  const [open, setOpen] = useState<Record<string, boolean>>({});
  const sweep = getAt(scenario, 'sweep');
  const grid = isObject(sweep) && isObject(sweep.grid) ? sweep.grid : null;
  const axes = grid ? Object.keys(grid) : [];
  const router = new ErrorRouter(errors, axes);
  const get = (path: string) => getAt(scenario, path);
  const set = (path: string) => (value: Json | undefined) => edit((root) => setAt(root, path, value));
  const toggle = (key: string) => setOpen((o) => ({ ...o, [key]: !o[key] }));

  /** A number field at a path; takes the errors for that path. */
  const num = (path: string, label: string, o: { unit?: string; hint?: string; empty?: 'remove' | 'null'; integer?: boolean; placeholder?: string } = {}) => (
    <NumberInput
      key={path}
      label={label}
      unit={o.unit}
      hint={o.hint}
      integer={o.integer}
      placeholder={o.placeholder}
      empty={o.empty ?? 'null'}
      value={get(path)}
      errors={router.take(path)}
      onChange={set(path)}
    />
  );
  /** A select whose empty choice removes the field (the default applies). */
  const choose = (path: string, label: string, options: readonly Option[], hint: string) => (
    <SelectInput key={path} label={label} hint={hint} value={get(path) ?? ''} options={options} errors={router.take(path)} onChange={(v) => set(path)(v === '' ? undefined : v)} />
  );
  const check = (path: string, label: string, fallback: boolean, hint?: string) => (
    <CheckInput key={path} label={label} hint={hint} value={get(path)} fallback={fallback} errors={router.take(path)} onChange={set(path)} />
  );

  /** A disclosure for fields most scenarios leave at their defaults; it opens by itself when
   * one of them has an error. */
  const more = (key: string, label: string, body: ReactNode, errorCount: number) => {
    const expanded = !!open[key] || errorCount > 0;
    return (
      <div className="more">
        <button type="button" className="link-button" aria-expanded={expanded} aria-controls={`more-${key}`} onClick={() => toggle(key)}>
          {expanded ? '▾' : '▸'} {label}
          {errorCount > 0 && ` (${errorCount} error${errorCount > 1 ? 's' : ''})`}
        </button>
        <div id={`more-${key}`} className="grid" hidden={!expanded}>
          {body}
        </div>
      </div>
    );
  };
  const counted = (build: () => ReactNode): [ReactNode, number] => {
    const before = router.remaining();
    const node = build();
    return [node, before - router.remaining()];
  };

  // ---- loss ----
  const lossEditor = (base: string, title: string, extra?: ReactNode) => {
    const loss = get(base);
    const model = loss === undefined || loss === null ? 'none' : isObject(loss) ? formatValue(loss.model) : formatValue(loss);
    let params: ReactNode = null;
    if (model === 'bernoulli') params = num(`${base}.p`, 'Loss probability', { hint: `Each packet is lost independently with this probability (PER). ${PROB}` });
    else if (model === 'gilbert_elliott')
      params = (
        <>
          {num(`${base}.p_good_to_bad`, 'Good → bad', { hint: `Per-packet chance of entering the bad state. ${PROB}` })}
          {num(`${base}.p_bad_to_good`, 'Bad → good', { hint: `Per-packet chance of leaving the bad state. ${PROB}` })}
          {num(`${base}.loss_good`, 'Loss when good', { hint: PROB })}
          {num(`${base}.loss_bad`, 'Loss when bad', { hint: PROB })}
        </>
      );
    else if (model === 'list')
      params = (
        <ListInput
          key={`${base}.drops`}
          label="Packets to drop"
          hint="0-based indices of the packets offered to this link direction, comma-separated."
          placeholder="e.g. 10, 11, 250"
          wide
          value={get(`${base}.drops`)}
          errors={router.take(`${base}.drops`)}
          onChange={set(`${base}.drops`)}
        />
      );
    const select = (
      <SelectInput
        label={title}
        hint="How packets are lost on this link direction."
        value={model}
        options={LOSS_OPTIONS}
        errors={router.take(base)}
        onChange={(m) => set(base)(m === 'none' ? undefined : (structuredClone(LOSS_DEFAULTS[m as LossModel]) as unknown as Json))}
      />
    );
    return (
      <div className="group">
        {select}
        {params}
        {extra}
      </div>
    );
  };

  // ---- rate schedule ----
  const scheduleEditor = (lp: string) => {
    const base = `${lp}.rate_schedule`;
    const sched = get(base);
    const rate = get(`${lp}.rate_mbps`);
    const r = typeof rate === 'number' && rate > 0 ? rate : 10;
    const kind = sched === undefined || sched === null ? 'none' : Array.isArray(sched) ? 'steps' : isObject(sched) && 'square' in sched ? 'square' : 'other';
    let body: ReactNode = null;
    if (kind === 'steps') {
      const steps = asArray(sched);
      body = (
        <div className="rows wide">
          {steps.map((_, k) => (
            <div className="row" key={k} role="group" aria-label={`Step ${k + 1}`}>
              {num(`${base}[${k}].at_s`, `Step ${k + 1} from`, { unit: 's' })}
              {num(`${base}[${k}].rate_mbps`, 'rate', { unit: 'Mbit/s' })}
              <button type="button" className="icon" aria-label={`Remove step ${k + 1}`} onClick={() => edit((root) => asArray(getAt(root, base)).splice(k, 1))}>
                ×
              </button>
            </div>
          ))}
          <button
            type="button"
            className="small"
            onClick={() =>
              edit((root) => {
                const list = asArray(getAt(root, base));
                const last = list[list.length - 1];
                const at = isObject(last) && typeof last.at_s === 'number' ? last.at_s + 10 : 0;
                list.push({ at_s: at, rate_mbps: r });
              })
            }
          >
            Add step
          </button>
        </div>
      );
    } else if (kind === 'square')
      body = (
        <>
          {num(`${base}.square.low_mbps`, 'Low', { unit: 'Mbit/s', hint: 'Rate in the first half of each period.' })}
          {num(`${base}.square.high_mbps`, 'High', { unit: 'Mbit/s', hint: 'Rate in the second half of each period.' })}
          {num(`${base}.square.period_s`, 'Period', { unit: 's', hint: 'Full period: low for the first half, high for the second.' })}
        </>
      );
    else if (kind === 'other') body = <p className="note wide">This schedule has a form the editor does not show; edit it as JSON.</p>;
    const select = (
      <SelectInput
        label="Rate schedule"
        hint="Bandwidth over time in the data direction, replacing the rate."
        value={kind}
        options={[
          { value: 'none', label: 'Constant rate' },
          { value: 'steps', label: 'Steps' },
          { value: 'square', label: 'Square wave' },
          ...(kind === 'other' ? [{ value: 'other', label: 'Other (JSON)' }] : []),
        ]}
        errors={router.take(base)}
        onChange={(k) =>
          set(base)(k === 'none' ? undefined : k === 'steps' ? [{ at_s: 0, rate_mbps: r }] : k === 'square' ? { square: { low_mbps: r / 2, high_mbps: r, period_s: 20 } } : sched)
        }
      />
    );
    return (
      <div className="group">
        {select}
        {body}
      </div>
    );
  };

  // ---- outages ----
  const outageEditor = (lp: string) => {
    const base = `${lp}.outages`;
    const out = get(base);
    const kind = out === undefined || out === null ? 'none' : Array.isArray(out) ? 'list' : isObject(out) && 'every_s' in out ? 'periodic' : 'other';
    let body: ReactNode = null;
    if (kind === 'list') {
      body = (
        <div className="rows wide">
          {asArray(out).map((_, k) => (
            <div className="row" key={k} role="group" aria-label={`Outage ${k + 1}`}>
              {num(`${base}[${k}].start_s`, `Outage ${k + 1} at`, { unit: 's' })}
              {num(`${base}[${k}].duration_s`, 'for', { unit: 's' })}
              <button type="button" className="icon" aria-label={`Remove outage ${k + 1}`} onClick={() => edit((root) => asArray(getAt(root, base)).splice(k, 1))}>
                ×
              </button>
            </div>
          ))}
          <button
            type="button"
            className="small"
            onClick={() =>
              edit((root) => {
                const list = asArray(getAt(root, base));
                const last = list[list.length - 1];
                const at = isObject(last) && typeof last.start_s === 'number' ? last.start_s + 20 : 10;
                list.push({ start_s: at, duration_s: 2 });
              })
            }
          >
            Add outage
          </button>
        </div>
      );
    } else if (kind === 'periodic')
      body = (
        <>
          {num(`${base}.every_s`, 'Every', { unit: 's' })}
          {num(`${base}.duration_s`, 'Lasting', { unit: 's', hint: 'Must be shorter than the period.' })}
          {num(`${base}.first_s`, 'First at', { unit: 's', empty: 'remove', placeholder: '= every', hint: 'Start of the first outage; empty: one period in.' })}
        </>
      );
    else if (kind === 'other') body = <p className="note wide">These outages have a form the editor does not show; edit them as JSON.</p>;
    const select = (
      <SelectInput
        label="Outages"
        hint="Periods during which every packet on the link, both directions, is lost."
        value={kind}
        options={[
          { value: 'none', label: 'None' },
          { value: 'list', label: 'Listed' },
          { value: 'periodic', label: 'Periodic' },
          ...(kind === 'other' ? [{ value: 'other', label: 'Other (JSON)' }] : []),
        ]}
        errors={router.take(base)}
        onChange={(k) =>
          set(base)(k === 'none' ? undefined : k === 'list' ? [{ start_s: 10, duration_s: 2 }] : k === 'periodic' ? { every_s: 20, duration_s: 2 } : out)
        }
      />
    );
    return (
      <div className="group">
        {select}
        {body}
      </div>
    );
  };

  // ---- links ----
  const links = asArray(get('topology.links'));
  const linkNodes = links.map((_, i) => {
    const lp = `topology.links[${i}]`;
    const main = (
      <>
        {num(`${lp}.rate_mbps`, 'Rate', { unit: 'Mbit/s', hint: 'Rate in Mbit/s, both directions unless the reverse rate is set.' })}
        {num(`${lp}.delay_ms`, 'Delay', { unit: 'ms', hint: 'One-way propagation delay.' })}
        {num(`${lp}.buffer_pkts`, 'Buffer', { unit: 'packets', integer: true, empty: 'remove', placeholder: 'unlimited', hint: 'Drop-tail buffer: packets waiting for the transmitter. Empty: unlimited.' })}
        {num(`${lp}.jitter_ms`, 'Jitter', { unit: 'ms', empty: 'remove', placeholder: '0', hint: 'Extra delay per packet, uniform in [0, jitter].' })}
        {lossEditor(`${lp}.loss`, 'Loss', (
          <SelectInput
            label="Loss acts"
            hint="Channel: a lost packet has used its transmission time. Ingress: dropped before the queue, as the CTCP paper's router does."
            value={get(`${lp}.loss_at`) ?? 'channel'}
            options={LOSS_AT_OPTIONS}
            errors={router.take(`${lp}.loss_at`)}
            onChange={(v) => set(`${lp}.loss_at`)(v === 'channel' ? undefined : v)}
          />
        ))}
        {scheduleEditor(lp)}
        {outageEditor(lp)}
      </>
    );
    const [extra, extraErrors] = counted(() => (
      <>
        {num(`${lp}.reverse_rate_mbps`, 'Reverse rate', { unit: 'Mbit/s', empty: 'remove', placeholder: '= rate', hint: 'Rate of the ACK direction (node i+1 → i).' })}
        {num(`${lp}.buffer_bytes`, 'Buffer', { unit: 'bytes', integer: true, empty: 'remove', placeholder: 'unlimited', hint: 'The buffer in bytes instead of packets; give one of the two.' })}
        {check(`${lp}.jitter_reorder`, 'Jitter may reorder packets', false)}
        {lossEditor(`${lp}.reverse_loss`, 'ACK loss')}
      </>
    ));
    const rest = router.take(lp);
    return (
      <fieldset className="item" key={i}>
        <legend>
          Link {i + 1} <span className="muted">(node {i} → {i + 1})</span>
        </legend>
        <button type="button" className="icon remove" aria-label={`Remove link ${i + 1}`} disabled={links.length <= 1} onClick={() => edit((root) => asArray(getAt(root, 'topology.links')).splice(i, 1))}>
          ×
        </button>
        <FieldErrors errors={rest} />
        <div className="grid">{main}</div>
        {more(`link${i}`, 'Reverse direction, byte buffer', extra, extraErrors)}
      </fieldset>
    );
  });
  // ---- constellation ----
  const constellation = get('topology.kind') === 'constellation';
  const walkerPath = Array.isArray(get('topology.constellation.walker')) ? 'topology.constellation.walker[0]' : 'topology.constellation.walker';
  const place = (path: string, label: string) => {
    const v = get(path);
    return typeof v === 'string' || v === undefined ? (
      <StringInput label={label} hint="A city of the table (Beijing, New York, London, ...); a {name, lat_deg, lon_deg} point can be given in JSON." value={v} errors={router.take(path)} onChange={(x) => set(path)(x ?? '')} />
    ) : (
      <p className="muted">
        {label}: a point, edit it in JSON
      </p>
    );
  };
  const select = (path: string, label: string, options: Option[], hint: string) => (
    <SelectInput label={label} hint={hint} value={get(path) ?? options[0].value} options={options} errors={router.take(path)} onChange={(v) => set(path)(v === options[0].value ? undefined : v)} />
  );
  const constellationNode = constellation && (
    <fieldset className="item">
      <legend>Constellation path</legend>
      <div className="grid">
        {isObject(get(walkerPath)) ? (
          <>
            {num(`${walkerPath}.altitude_km`, 'Altitude', { unit: 'km', hint: 'Walker shell altitude.' })}
            {num(`${walkerPath}.inclination_deg`, 'Inclination', { unit: '°' })}
            {num(`${walkerPath}.planes`, 'Planes', { integer: true })}
            {num(`${walkerPath}.sats_per_plane`, 'Satellites per plane', { integer: true })}
            {num(`${walkerPath}.phasing`, 'Phasing F', { integer: true, empty: 'remove', placeholder: '0' })}
          </>
        ) : (
          <p className="muted">Satellites from TLE, OMM or several shells: edit them in JSON.</p>
        )}
        {place('topology.src', 'Source')}
        {place('topology.dst', 'Destination')}
        {num('topology.min_elevation_deg', 'Elevation mask', { unit: '°', empty: 'remove', placeholder: '25' })}
        {num('topology.step_s', 'Routing step', { unit: 's', empty: 'remove', placeholder: '1' })}
        {num('topology.start_s', 'Orbit time at start', { unit: 's', empty: 'remove', placeholder: '0' })}
        {select('topology.isl', 'Inter-satellite links', ISL_OPTIONS, 'Which inter-satellite links exist.')}
        {select('topology.attachment', 'Attachment', ATTACHMENT_OPTIONS, 'Which visible satellite a ground station uses.')}
        {num('topology.handover_outage_s', 'Handover outage', { unit: 's', empty: 'remove', placeholder: '0', hint: 'The new ground–satellite link carries nothing for this long after a handover.' })}
        {select('topology.on_route_change', 'Queued packets on a route change', ROUTE_CHANGE_OPTIONS, 'What happens to packets waiting on a link that leaves the route.')}
        {num('topology.buffer_pkts', 'Buffer per link', { unit: 'packets', integer: true, empty: 'remove', placeholder: '1000' })}
        {num('topology.access.rate_mbps', 'Access link rate', { unit: 'Mbit/s', hint: 'The terrestrial link between each end host and its ground station.' })}
        {num('topology.access.delay_ms', 'Access link delay', { unit: 'ms' })}
      </div>
      <p className="muted">Link capacity and loss per link type (fixed or from a link budget) are edited in JSON.</p>
    </fieldset>
  );
  const linksErrors = router.take('topology');

  // ---- flows ----
  const flows = asArray(get('flows'));
  const flowNodes = flows.map((flow, i) => {
    const fp = `flows[${i}]`;
    const transport = isObject(flow) ? flow.transport : undefined;
    const ctcp = transport === 'ctcp';
    const intcp = transport === 'intcp';
    const transportSelect = (
      <SelectInput
        label="Transport"
        hint="TCP, network-coded TCP (CTCP) or hop-by-hop INTCP. Switching keeps the bytes, start, nodes and label."
        value={transport}
        options={TRANSPORT_OPTIONS}
        errors={router.take(`${fp}.transport`)}
        onChange={(t) =>
          edit((root) => {
            const list = asArray(root.flows);
            if (t === 'tcp' || t === 'ctcp' || t === 'intcp') list[i] = switchTransport(list[i], t);
            else setAt(root, `${fp}.transport`, t);
          })
        }
      />
    );
    const common = (
      <>
        {num(`${fp}.bytes`, 'Bytes to send', { integer: true, placeholder: 'unlimited', hint: 'Bytes to transfer. Empty: send until the end of the run.' })}
        {num(`${fp}.start_s`, 'Start', {
          unit: 's',
          empty: 'remove',
          placeholder: '0',
          hint: intcp ? 'When the consumer sends its first INTEREST.' : 'When the sender opens the connection (sends its SYN).',
        })}
      </>
    );
    const nodesAndLabel = () => (
      <>
        {num(`${fp}.from_node`, 'From node', { integer: true, empty: 'remove', placeholder: '0' })}
        {num(`${fp}.to_node`, 'To node', { integer: true, empty: 'remove', placeholder: 'last' })}
        <StringInput label="Label" hint="A name for charts and tables." placeholder="none" value={get(`${fp}.label`)} errors={router.take(`${fp}.label`)} onChange={(v) => set(`${fp}.label`)(v === '' ? undefined : v)} />
      </>
    );
    const main = intcp ? (
      <>
        {transportSelect}
        {check(`${fp}.cache`, 'Caches', true, 'Caches at every midnode; off is INTCP-uni, where every request goes to the producer.')}
        {common}
        {num(`${fp}.cache_bytes`, 'Cache size', { unit: 'bytes', integer: true, empty: 'remove', placeholder: '81920000', hint: "Each midnode's cache capacity in payload bytes (the code's 20000 blocks of 4096 B)." })}
        <StringInput
          label="Content name"
          hint="Multicast: flows with the same name request the same bytes and share one cache on every node they both pass, so a later consumer is served from a midnode. Empty: this flow shares nothing."
          placeholder="none"
          value={get(`${fp}.name`)}
          errors={router.take(`${fp}.name`)}
          onChange={(v) => set(`${fp}.name`)(v === '' ? undefined : v)}
        />
      </>
    ) : ctcp ? (
      <>
        {transportSelect}
        <SelectInput
          label="CTCP variant"
          hint="v1: the reference code's per-RTT AIMD with adaptive backoff. v2: an H-TCP-like increase with the same backoff."
          value={get(`${fp}.variant`)}
          options={CTCP_VARIANT_OPTIONS}
          errors={router.take(`${fp}.variant`)}
          onChange={set(`${fp}.variant`)}
        />
        <SelectInput
          label="Coding"
          hint="Full: payloads are coded over GF(256), decoded and checked. Rank only: coefficient vectors only, the same decisions, faster for big sweeps."
          value={get(`${fp}.coding`) ?? 'full'}
          options={CODING_OPTIONS}
          errors={router.take(`${fp}.coding`)}
          onChange={set(`${fp}.coding`)}
        />
        {common}
        {num(`${fp}.block_pkts`, 'Block size', { unit: 'packets', integer: true, empty: 'remove', placeholder: '32', hint: 'Source packets per coded block (k).' })}
        {num(`${fp}.max_blocks`, 'Window of blocks', { integer: true, empty: 'remove', placeholder: '100', hint: 'Blocks that may be outstanding beyond the oldest undecoded one.' })}
      </>
    ) : (
      <>
        {transportSelect}
        <SelectInput label="Congestion control" hint="The Linux kernel module the sender follows." value={get(`${fp}.cc`)} options={CC_OPTIONS} errors={router.take(`${fp}.cc`)} onChange={set(`${fp}.cc`)} />
        {common}
      </>
    );
    const [advanced, advancedErrors] = counted(() =>
      intcp ? (
        <>
          <p className="muted wide">Hop-by-hop rate control, the same on every hop of this flow (docs/intcp-protocol.md §5; defaults are the paper's).</p>
          {num(`${fp}.mss_bytes`, 'Payload', { unit: 'bytes', integer: true, empty: 'remove', placeholder: '1449', hint: 'Payload bytes per DATA segment (1472 − 23 header bytes: a 1500-byte packet).' })}
          {num(`${fp}.target_buffer_pkts`, 'Target send buffer', { unit: 'packets', empty: 'remove', placeholder: '7', hint: 'BL_tar, the back-pressure target: a node whose send queue grows past it asks the hop upstream for less.' })}
          {num(`${fp}.queue_threshold_bytes`, 'Queueing threshold', { unit: 'bytes', empty: 'remove', placeholder: '3000', hint: "M: a hop is congested when its estimated queue, throughput × (hop RTT − the minimum), exceeds this." })}
          {num(`${fp}.decrease_factor`, 'Decrease factor', { empty: 'remove', placeholder: '0.8', hint: 'k in cwnd := k·BDP on congestion; more than 0, at most 1.' })}
          {num(`${fp}.ssthresh_pkts`, 'Slow-start threshold', { unit: 'packets', empty: 'remove', placeholder: '100', hint: 'Where a hop leaves slow start.' })}
          {num(`${fp}.ca_increase_pkts`, 'Increase per window', { unit: 'packets', empty: 'remove', placeholder: '1', hint: "Congestion-avoidance increase per window of data (the paper's 1; the code's 10)." })}
          {num(`${fp}.min_rtt_window_s`, 'Minimum-RTT window', { unit: 's', empty: 'remove', placeholder: '5', hint: "How long the minimum hop RTT is remembered (the paper's 5 s; the code's 10 s)." })}
          {num(`${fp}.min_rate_mbps`, 'Lowest rate', { unit: 'Mbit/s', empty: 'remove', placeholder: '0.1', hint: 'The least a node may ask of the hop upstream.' })}
          {num(`${fp}.max_rate_mbps`, 'Highest rate', { unit: 'Mbit/s', empty: 'remove', placeholder: '300', hint: 'The most a node may ask of the hop upstream.' })}
          {num(`${fp}.hole_threshold_pkts`, 'SeqHole threshold', { unit: 'packets', integer: true, empty: 'remove', placeholder: '3', hint: 'A range skipped by this many later packets is re-requested from the node upstream.' })}
          {nodesAndLabel()}
        </>
      ) : ctcp ? (
        <>
          {num(`${fp}.mss_bytes`, 'Payload', { unit: 'bytes', integer: true, empty: 'remove', placeholder: '1445', hint: "Payload bytes per packet (the reference code's 1445 with 1500-byte packets)." })}
          {num(`${fp}.initial_cwnd_pkts`, 'Initial window', { unit: 'packets', integer: true, empty: 'remove', placeholder: '8' })}
          {num(`${fp}.initial_ssthresh_pkts`, 'Initial ssthresh', { unit: 'packets', integer: true, empty: 'remove', placeholder: '850' })}
          {num(`${fp}.max_cwnd_pkts`, 'Maximum window', { unit: 'packets', integer: true, empty: 'remove', placeholder: '1000', hint: "The reference code's MAX_CWND." })}
          {num(`${fp}.v2_delta_l_s`, 'v2 Δ_L', { unit: 's', empty: 'remove', placeholder: '1', hint: 'v2 only: seconds after a backoff before the H-TCP increase starts.' })}
          {num(`${fp}.loss_scaling`, 'Loss scaling', { empty: 'remove', placeholder: '1', hint: 'Multiplier on the loss estimate when sizing redundancy (the reference SLR_scaling).' })}
          {nodesAndLabel()}
        </>
      ) : (
        <>
          {num(`${fp}.mss_bytes`, 'MSS', { unit: 'bytes', integer: true, empty: 'remove', placeholder: '1448', hint: 'Payload per segment, 64 to 65000; each packet adds 52 bytes of headers.' })}
          {num(`${fp}.initial_cwnd_pkts`, 'Initial window', { unit: 'packets', integer: true, empty: 'remove', placeholder: '10', hint: 'Linux since 2.6.39 uses 10; older kernels 2 to 4.' })}
          {num(`${fp}.initial_ssthresh_pkts`, 'Initial ssthresh', { unit: 'packets', integer: true, empty: 'remove', placeholder: 'infinite', hint: 'Empty: infinite, as in Linux.' })}
          <SelectInput label="Profile" hint="Whose defaults the flow takes for what it does not set: a Linux host, or ns-3's TcpSocketBase." value={get(`${fp}.profile`) ?? 'linux'} options={PROFILE_OPTIONS} errors={router.take(`${fp}.profile`)} onChange={set(`${fp}.profile`)} />
          {choose(`${fp}.recovery`, 'Recovery', RECOVERY_OPTIONS, 'How cwnd is cut in fast recovery. PRR spreads the cut over a round trip; RFC 6675 sets cwnd = ssthresh at once.')}
          {choose(`${fp}.loss_detection`, 'Loss detection', DETECTION_OPTIONS, "RACK-TLP finds losses by time (Linux's default); the ns-3 profile counts three duplicate ACKs.")}
          {num(`${fp}.rwnd_pkts`, 'Receive window', { unit: 'packets', integer: true, empty: 'remove', placeholder: 'autotuned', hint: 'A fixed window: at most this many segments outstanding. Empty: Linux autotuning (64 KB, growing to 3 MB).' })}
          {check(`${fp}.rcv_autotune`, 'Receive autotuning', true, "Linux's receive-buffer autotuning (tcp_rmem 4096/131072/6291456). Off with no fixed window: the receiver never limits.")}
          {check(`${fp}.sack`, 'SACK', true, 'SACK loss recovery (RFC 6675); off gives NewReno (RFC 6582).')}
          {check(`${fp}.hystart`, 'HyStart', true, "CUBIC's HyStart slow-start exit (Linux 2.6.29 and later); other algorithms ignore it.")}
          {check(`${fp}.delayed_ack`, 'Delayed ACKs', get(`${fp}.profile`) === 'ns3', 'One ACK per two segments (or per delayed-ACK timer) instead of one per segment. Default: off (Linux), on (ns-3).')}
          {num(`${fp}.delack_ms`, 'Delayed-ACK timer', { unit: 'ms', empty: 'remove', placeholder: 'by profile', hint: 'At most 500 ms. Default: 40 (Linux), 200 (ns-3).' })}
          <SelectInput label="RTO" hint="How the retransmission timeout is formed from SRTT and RTTVAR." value={get(`${fp}.rto_flavor`) ?? ''} options={RTO_OPTIONS} errors={router.take(`${fp}.rto_flavor`)} onChange={(v) => set(`${fp}.rto_flavor`)(v === '' ? undefined : v)} />
          {num(`${fp}.rto_min_ms`, 'Minimum RTO', { unit: 'ms', empty: 'remove', placeholder: 'by flavor', hint: 'Default: 200 (Linux) or 1000 (RFC 6298).' })}
          {nodesAndLabel()}
        </>
      ),
    );
    const rest = router.take(fp);
    return (
      <fieldset className="item" key={i}>
        <legend>
          Flow {i + 1}
          {ctcp && <span className="muted"> (CTCP)</span>}
          {intcp && <span className="muted"> (INTCP)</span>}
        </legend>
        <button type="button" className="icon remove" aria-label={`Remove flow ${i + 1}`} disabled={flows.length <= 1} onClick={() => edit((root) => asArray(root.flows).splice(i, 1))}>
          ×
        </button>
        <FieldErrors errors={rest} />
        <div className="grid">{main}</div>
        {more(`flow${i}`, intcp ? 'Rate control, nodes, label' : 'Advanced', advanced, advancedErrors)}
      </fieldset>
    );
  });
  const flowsErrors = router.take('flows');

  // ---- sweep ----
  const suggestions = pathSuggestions(links.length, flows.map((f) => (isObject(f) ? f.transport : undefined)));
  const sweepNode = (() => {
    if (!isObject(sweep)) {
      return (
        <p className="note">
          No sweep: one run.{' '}
          <button type="button" className="small" onClick={() => edit((root) => void (root.sweep = { grid: { 'flows[0].cc': ['reno', 'cubic'] }, runs: 1 }))}>
            Add a sweep
          </button>
        </p>
      );
    }
    const axisNodes = axes.map((key, k) => {
      const path = `sweep.grid."${key}"`; // as the core writes it
      return (
        <div className="row axis" key={k} role="group" aria-label={`Axis ${k + 1}`}>
          <TextInput
            label={`Axis ${k + 1} path`}
            hint="Path of any scenario field: dots for fields, [i] for list elements."
            value={key}
            parse={(t) => t}
            format={formatValue}
            list="orbitcp-sweep-paths"
            check={(t) => (t !== key && axes.includes(t) ? 'another axis already varies this path' : null)}
            errors={[]}
            onChange={(v) => edit((root) => renameAxis(root, key, typeof v === 'string' ? v : ''))}
          />
          <ListInput
            label="values"
            hint='Comma-separated: numbers, names such as reno, or JSON ("quoted", [lists]).'
            value={grid?.[key]}
            errors={router.take(path)}
            onChange={(v) => edit((root) => setAxis(root, key, v))}
          />
          <button type="button" className="icon" aria-label={`Remove axis ${k + 1}`} onClick={() => edit((root) => removeAxis(root, key))}>
            ×
          </button>
        </div>
      );
    });
    const runs = num('sweep.runs', 'Runs per point', { integer: true, empty: 'remove', placeholder: '1', hint: 'Runs per grid point (common random numbers across points), 1 to 10 000.' });
    const rest = router.take('sweep');
    return (
      <>
        <FieldErrors errors={rest} />
        <div className="rows">{axisNodes}</div>
        <datalist id="orbitcp-sweep-paths">
          {suggestions.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
        <div className="grid">{runs}</div>
        <div className="buttons">
          <button type="button" className="small" onClick={() => edit((root) => addAxis(root, suggestions))}>
            Add axis
          </button>
          <button type="button" className="small" onClick={() => edit((root) => void delete root.sweep)}>
            Remove the sweep
          </button>
        </div>
      </>
    );
  })();

  // ---- top ----
  const top = (
    <div className="grid">
      <StringInput label="Name" wide value={get('name')} errors={router.take('name')} onChange={(v) => set('name')(v ?? '')} />
      {num('duration_s', 'Duration', { unit: 's', hint: 'Simulated time limit; unfinished flows are reported as incomplete.' })}
      {num('seed', 'Seed', { integer: true, empty: 'remove', placeholder: '1', hint: 'Seed of every random stream in the run (loss, jitter).' })}
    </div>
  );
  const unmatched = router.rest();

  return (
    <div className="scenario-form">
      {unmatched.length > 0 && (
        <div className="form-errors" role="group" aria-label="Scenario errors">
          <FieldErrors errors={unmatched} />
        </div>
      )}
      {top}
      <section aria-labelledby="form-links">
        <h3 id="form-links">{constellation ? 'Path' : 'Links'}</h3>
        <FieldErrors errors={linksErrors} />
        {constellationNode}
        {!constellation && linkNodes}
        {!constellation && (
        <button
          type="button"
          className="small"
          onClick={() =>
            edit((root) => {
              if (!isObject(root.topology)) root.topology = { kind: 'chain', links: [] };
              const t = root.topology as JsonObject;
              if (!Array.isArray(t.links)) t.links = [];
              (t.links as Json[]).push({ rate_mbps: 10, delay_ms: 10 });
            })
          }
        >
          Add link
        </button>
        )}
      </section>
      <section aria-labelledby="form-flows">
        <h3 id="form-flows">Flows</h3>
        <FieldErrors errors={flowsErrors} />
        {flowNodes}
        <button
          type="button"
          className="small"
          onClick={() =>
            edit((root) => {
              if (!Array.isArray(root.flows)) root.flows = [];
              const last = root.flows[root.flows.length - 1];
              if (isObject(last) && last.transport === 'ctcp') root.flows.push({ transport: 'ctcp', variant: typeof last.variant === 'string' ? last.variant : 'v2' });
              // Another consumer of the same content: the way to build a multicast scenario.
              else if (isObject(last) && last.transport === 'intcp') root.flows.push({ transport: 'intcp', cache: last.cache !== false, ...(typeof last.name === 'string' ? { name: last.name } : {}) });
              else root.flows.push({ transport: 'tcp', cc: isObject(last) && typeof last.cc === 'string' ? last.cc : 'cubic' });
            })
          }
        >
          Add flow
        </button>
      </section>
      <section aria-labelledby="form-sweep">
        <h3 id="form-sweep">Sweep</h3>
        {sweepNode}
      </section>
    </div>
  );
}

function pathSuggestions(links: number, transports: unknown[]): string[] {
  const out = ['seed', 'duration_s'];
  for (let i = 0; i < links; i++) {
    for (const f of ['rate_mbps', 'delay_ms', 'buffer_pkts', 'jitter_ms', 'loss.p']) out.push(`topology.links[${i}].${f}`);
  }
  transports.forEach((t, i) => {
    const fields =
      t === 'ctcp'
        ? ['variant', 'bytes', 'block_pkts', 'max_blocks', 'loss_scaling', 'coding']
        : t === 'intcp'
          ? ['cache', 'cache_bytes', 'bytes', 'start_s', 'target_buffer_pkts', 'decrease_factor', 'hole_threshold_pkts', 'to_node']
          : ['cc', 'bytes', 'start_s', 'initial_cwnd_pkts', 'mss_bytes'];
    for (const f of fields) out.push(`flows[${i}].${f}`);
  });
  return out;
}

function gridOf(root: JsonObject): JsonObject {
  if (!isObject(root.sweep)) root.sweep = { grid: {} };
  const sweep = root.sweep as JsonObject;
  if (!isObject(sweep.grid)) sweep.grid = {};
  return sweep.grid as JsonObject;
}

/** Renames an axis in place of the old one: the grid's order is the sweep's order. */
function renameAxis(root: JsonObject, from: string, to: string) {
  const grid = gridOf(root);
  if (from === to || to in grid) return;
  const entries = Object.entries(grid);
  for (const k of Object.keys(grid)) delete grid[k];
  for (const [k, v] of entries) grid[k === from ? to : k] = v;
}

function setAxis(root: JsonObject, key: string, values: Json[]) {
  gridOf(root)[key] = values;
}

function removeAxis(root: JsonObject, key: string) {
  delete gridOf(root)[key];
}

function addAxis(root: JsonObject, suggestions: string[]) {
  const grid = gridOf(root);
  const key = ['flows[0].cc', ...suggestions].find((s) => !(s in grid));
  if (key === undefined) return;
  const current = getAt(root, key);
  grid[key] = key.endsWith('.cc') ? ['reno', 'cubic'] : current !== undefined && current !== null ? [current] : key === 'seed' ? [1, 2] : [];
}
