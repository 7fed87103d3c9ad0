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
  const { get, num } = kit;
  const base = `${lp}.rate_schedule`;
  const sched = get(base);
  const rate = get(`${lp}.rate_mbps`);
  const r = typeof rate === 'number' && rate > 0 ? rate : 10;
  const kind = scheduleKind(sched);
  let body: ReactNode = null;
  if (kind === 'steps') {
    body = timedRows(kit, base, 'Step', [
      { key: 'at_s', label: 'from', unit: 's' },
      { key: 'rate_mbps', label: 'rate', unit: 'Mbit/s' },
    ], (last) => ({ at_s: isObject(last) && typeof last.at_s === 'number' ? last.at_s + 10 : 0, rate_mbps: r }));
  } else if (kind === 'square')
    body = (
      <>
        {num(`${base}.square.low_mbps`, 'Low', { unit: 'Mbit/s', hint: 'Rate in the first half of each period.' })}
        {num(`${base}.square.high_mbps`, 'High', { unit: 'Mbit/s', hint: 'Rate in the second half of each period.' })}
        {num(`${base}.square.period_s`, 'Period', { unit: 's', hint: 'Full period: low for the first half, high for the second.' })}
      </>
    );
  else if (kind === 'other') body = <p className="note wide">This schedule has a form the editor does not show; edit it as JSON.</p>;
  return formChoice(kit, base, {
    label: 'Rate schedule',
    hint: 'Bandwidth over time in the data direction, replacing the rate.',
    kind,
    options: [
      { value: 'none', label: 'Constant rate' },
      { value: 'steps', label: 'Steps' },
      { value: 'square', label: 'Square wave' },
    ],
    start: (k) => (k === 'steps' ? [{ at_s: 0, rate_mbps: r }] : { square: { low_mbps: r / 2, high_mbps: r, period_s: 20 } }),
    body,
  });
}

/** A link's outages: none, listed, or periodic. */
function outageEditor(kit: Kit, lp: string) {
  const { get, num } = kit;
  const base = `${lp}.outages`;
  const kind = outageKind(get(base));
  let body: ReactNode = null;
  if (kind === 'list') {
    body = timedRows(kit, base, 'Outage', [
      { key: 'start_s', label: 'at', unit: 's' },
      { key: 'duration_s', label: 'for', unit: 's' },
    ], (last) => ({ start_s: isObject(last) && typeof last.start_s === 'number' ? last.start_s + 20 : 10, duration_s: 2 }));
  } else if (kind === 'periodic')
    body = (
      <>
        {num(`${base}.every_s`, 'Every', { unit: 's' })}
        {num(`${base}.duration_s`, 'Lasting', { unit: 's', hint: 'Must be shorter than the period.' })}
        {num(`${base}.first_s`, 'First at', { unit: 's', empty: 'remove', placeholder: '= every', hint: 'Start of the first outage; empty: one period in.' })}
      </>
    );
  else if (kind === 'other') body = <p className="note wide">These outages have a form the editor does not show; edit them as JSON.</p>;
  return formChoice(kit, base, {
    label: 'Outages',
    hint: 'Periods during which every packet on the link, both directions, is lost.',
    kind,
    options: [
      { value: 'none', label: 'None' },
      { value: 'list', label: 'Listed' },
      { value: 'periodic', label: 'Periodic' },
    ],
    start: (k) => (k === 'list' ? [{ start_s: 10, duration_s: 2 }] : { every_s: 20, duration_s: 2 }),
    body,
  });
}

interface TimedField {
  key: string;
  label: string;
  unit: string;
}

/** A list of timed entries (a schedule's steps, a link's outages) at `base`: a row per entry with
 * its two fields (the first labelled with the entry's number, "Step 2 from") and a button that
 * removes it, then one that adds an entry after the last (`next`: the new entry, from the last
 * if there is one). */
function timedRows(kit: Kit, base: string, noun: string, [first, second]: [TimedField, TimedField], next: (last: Json | undefined) => Json) {
  const { get, num, edit } = kit;
  const name = noun.toLowerCase();
  return (
    <div className="rows wide">
      {asArray(get(base)).map((_, k) => (
        <div className="row" key={k} role="group" aria-label={`${noun} ${k + 1}`}>
          {num(`${base}[${k}].${first.key}`, `${noun} ${k + 1} ${first.label}`, { unit: first.unit })}
          {num(`${base}[${k}].${second.key}`, second.label, { unit: second.unit })}
          <button type="button" className="icon" aria-label={`Remove ${name} ${k + 1}`} onClick={() => edit((root) => asArray(getAt(root, base) as Json | undefined).splice(k, 1))}>
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
            list.push(next(list[list.length - 1]));
          })
        }
      >
        {`Add ${name}`}
      </button>
    </div>
  );
}

/** A setting at `base` that takes one of several forms: a select of the forms (`none` removes
 * the setting; `other`, a form the editor does not show, is offered only while the scenario has
 * it), then the chosen form's fields (`body`). `start` gives a newly chosen form's value. */
function formChoice(
  kit: Kit,
  base: string,
  choice: { label: string; hint: string; kind: string; options: Option[]; start: (kind: string) => Json; body: ReactNode },
) {
  const { get, set, errors } = kit;
  const { label, hint, kind, options, start, body } = choice;
  return (
    <div className="group">
      <SelectInput
        label={label}
        hint={hint}
        value={kind}
        options={[...options, ...(kind === 'other' ? [{ value: 'other', label: 'Other (JSON)' }] : [])]}
        errors={errors.at(base)}
        onChange={(k) => set(base)(k === 'none' ? undefined : k === 'other' ? get(base) : start(k))}
      />
      {body}
    </div>
  );
}
