// The form's topology section for a chain of links: each link's rate, delay, buffer and jitter,
// its loss, rate schedule and outages, and (folded) the reverse direction. A constellation's
// path is FormConstellation.tsx.

import type { ReactNode } from 'react';
import type { LossAtSpec, LossSpec } from '../scenario/types.gen';
import { getAt } from '../scenario/jsonPath';
import { FieldErrors, ListInput, SelectInput, type Option } from './fields';
import { linkPlaces, lossModel, outageKind, scheduleKind } from './formPlaces';
import { asArray, More, PROB, type Kit } from './formKit';
import { isObject, type Json } from './model';

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
const LOSS_AT_LABELS = { channel: 'On the channel', ingress: 'At ingress' } satisfies Record<LossAtSpec, string>;
const LOSS_AT_OPTIONS: Option[] = Object.entries(LOSS_AT_LABELS).map(([value, label]) => ({ value, label }));

/** The links, one fieldset each, and the button that adds one. */
export function LinkFields({ kit }: { kit: Kit }) {
  const links = asArray(kit.get('topology.links'));
  return (
    <>
      {links.map((link, i) => (
        <LinkItem key={i} kit={kit} i={i} link={link} count={links.length} />
      ))}
      <button
        type="button"
        className="small"
        onClick={() =>
          kit.edit((root) => {
            if (!isObject(root.topology)) root.topology = { kind: 'chain', links: [] };
            const t = root.topology;
            if (!Array.isArray(t.links)) t.links = [];
            (t.links as Json[]).push({ rate_mbps: 10, delay_ms: 10 });
          })
        }
      >
        Add link
      </button>
    </>
  );
}

function LinkItem({ kit, i, link, count }: { kit: Kit; i: number; link: Json; count: number }) {
  const { get, set, num, check, errors, edit } = kit;
  const lp = `topology.links[${i}]`;
  return (
    <fieldset className="item">
      <legend>
        Link {i + 1} <span className="muted">(node {i} → {i + 1})</span>
      </legend>
      <button type="button" className="icon remove" aria-label={`Remove link ${i + 1}`} disabled={count <= 1} onClick={() => edit((root) => asArray(getAt(root, 'topology.links') as Json | undefined).splice(i, 1))}>
        ×
      </button>
      <FieldErrors errors={errors.at(lp)} />
      <div className="grid">
        {num(`${lp}.rate_mbps`, 'Rate', { unit: 'Mbit/s', hint: 'Rate in Mbit/s, both directions unless the reverse rate is set.' })}
        {num(`${lp}.delay_ms`, 'Delay', { unit: 'ms', hint: 'One-way propagation delay.' })}
        {num(`${lp}.buffer_pkts`, 'Buffer', { unit: 'packets', integer: true, empty: 'remove', placeholder: 'unlimited', hint: 'Drop-tail buffer: packets waiting for the transmitter. Empty: unlimited.' })}
        {num(`${lp}.jitter_ms`, 'Jitter', { unit: 'ms', empty: 'remove', placeholder: '0', hint: 'Extra delay per packet, uniform in [0, jitter].' })}
        {lossEditor(
          kit,
          `${lp}.loss`,
          'Loss',
          <SelectInput
            label="Loss acts"
            hint="Channel: a lost packet has used its transmission time. Ingress: dropped before the queue, as the CTCP paper's router does."
            value={get(`${lp}.loss_at`) ?? 'channel'}
            options={LOSS_AT_OPTIONS}
            errors={errors.at(`${lp}.loss_at`)}
            onChange={(v) => set(`${lp}.loss_at`)(v === 'channel' ? undefined : v)}
          />,
        )}
        {scheduleEditor(kit, lp)}
        {outageEditor(kit, lp)}
      </div>
      <More id={`link${i}`} label="Reverse direction, byte buffer" errorCount={errors.count(linkPlaces(i, link).folded)}>
        {num(`${lp}.reverse_rate_mbps`, 'Reverse rate', { unit: 'Mbit/s', empty: 'remove', placeholder: '= rate', hint: 'Rate of the ACK direction (node i+1 → i).' })}
        {num(`${lp}.buffer_bytes`, 'Buffer', { unit: 'bytes', integer: true, empty: 'remove', placeholder: 'unlimited', hint: 'The buffer in bytes instead of packets; give one of the two.' })}
        {check(`${lp}.jitter_reorder`, 'Jitter may reorder packets', false)}
        {lossEditor(kit, `${lp}.reverse_loss`, 'ACK loss')}
      </More>
    </fieldset>
  );
}

/** A link direction's loss: the model, then its parameters. */
function lossEditor(kit: Kit, base: string, title: string, extra?: ReactNode) {
  const { get, set, num, errors } = kit;
  const model = lossModel(get(base));
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
        errors={errors.at(`${base}.drops`)}
        onChange={set(`${base}.drops`)}
      />
    );
  const select = (
    <SelectInput
      label={title}
      hint="How packets are lost on this link direction."
      value={model}
      options={LOSS_OPTIONS}
      errors={errors.at(base)}
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
}

/** A link's rate over time: constant, steps, or a square wave. */
function scheduleEditor(kit: Kit, lp: string) {
  const { get, set, num, errors, edit } = kit;
  const base = `${lp}.rate_schedule`;
  const sched = get(base);
  const rate = get(`${lp}.rate_mbps`);
  const r = typeof rate === 'number' && rate > 0 ? rate : 10;
  const kind = scheduleKind(sched);
  let body: ReactNode = null;
  if (kind === 'steps') {
    const steps = asArray(sched);
    body = (
      <div className="rows wide">
        {steps.map((_, k) => (
          <div className="row" key={k} role="group" aria-label={`Step ${k + 1}`}>
            {num(`${base}[${k}].at_s`, `Step ${k + 1} from`, { unit: 's' })}
            {num(`${base}[${k}].rate_mbps`, 'rate', { unit: 'Mbit/s' })}
            <button type="button" className="icon" aria-label={`Remove step ${k + 1}`} onClick={() => edit((root) => asArray(getAt(root, base) as Json | undefined).splice(k, 1))}>
              ×
            </button>
          </div>
        ))}
        <button
          type="button"
          className="small"
          onClick={() =>
            edit((root) => {
              const list = asArray(getAt(root, base) as Json | undefined);
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
      errors={errors.at(base)}
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
}

/** A link's outages: none, listed, or periodic. */
function outageEditor(kit: Kit, lp: string) {
  const { get, set, num, errors, edit } = kit;
  const base = `${lp}.outages`;
  const out = get(base);
  const kind = outageKind(out);
  let body: ReactNode = null;
  if (kind === 'list') {
    body = (
      <div className="rows wide">
        {asArray(out).map((_, k) => (
          <div className="row" key={k} role="group" aria-label={`Outage ${k + 1}`}>
            {num(`${base}[${k}].start_s`, `Outage ${k + 1} at`, { unit: 's' })}
            {num(`${base}[${k}].duration_s`, 'for', { unit: 's' })}
            <button type="button" className="icon" aria-label={`Remove outage ${k + 1}`} onClick={() => edit((root) => asArray(getAt(root, base) as Json | undefined).splice(k, 1))}>
              ×
            </button>
          </div>
        ))}
        <button
          type="button"
          className="small"
          onClick={() =>
            edit((root) => {
              const list = asArray(getAt(root, base) as Json | undefined);
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
      errors={errors.at(base)}
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
}
