// The form's topology section for a constellation: the Walker shell, the two ground stations,
// reach (elevation mask, range, the Earth's shape), routing and attachment (with Starlink's slot
// scheduler), buffers and the access links. TLE/OMM satellites, several shells, grids and ISL
// lists, named ground stations, gateways and the per-link-type capacity and loss are edited in
// JSON; the form keeps them as they are (it edits the parsed text in place) and says they are
// there.

import type { ReactNode } from 'react';
import type { Attachment, Earth, IslChoice, SlotRule } from '../scenario/types.gen';
import { SelectInput, StringInput, type Option } from './fields';
import { attachmentKind, isCityPlace, SCHEDULER_PATH, walkerPath } from './formPlaces';
import type { Kit } from './formKit';
import { formatValue, isObject, type Json } from './model';

/** The enumerations' labels: `satisfies Record<...>` makes a value new in the generated types a
 * compile error here until it has one. The first of each is the default (written as no field). */
const ISL_LABELS = {
  plus_grid: '+Grid (4 per satellite)',
  none: 'none: bent pipe via ground relays or gateways',
  list: 'listed (constellation.isls, in JSON)',
} satisfies Record<IslChoice, string>;
const ATTACHMENT_LABELS = {
  highest_elevation: 'highest elevation, every step',
  stay_until_lost: 'stay until lost',
  shortest_path: 'shortest path (any satellite in reach)',
} satisfies Record<Extract<Attachment, string>, string>;
const SLOT_RULE_LABELS = { highest_elevation: 'highest elevation', shortest_path: 'shortest path' } satisfies Record<SlotRule, string>;
const EARTH_LABELS = { sphere: 'sphere', wgs72: 'WGS72 ellipsoid (Hypatia)' } satisfies Record<Earth, string>;
const options = (labels: Record<string, string>): Option[] => Object.entries(labels).map(([value, label]) => ({ value, label }));

const ISL_OPTIONS = options(ISL_LABELS);
/** The attachment select's value for Starlink's scheduler (the field is then an object). */
const SCHEDULER = 'scheduler';
const ATTACHMENT_OPTIONS: Option[] = [...options(ATTACHMENT_LABELS), { value: SCHEDULER, label: 'Starlink scheduler (15 s slots)' }];
/** What choosing the scheduler writes: Starlink's slots, 15 s at 12, 27, 42 and 57 s past the
 * minute (the core's defaults, written out so the form shows them). */
const NEW_SCHEDULER: Json = { scheduler: { period_s: 15, offset_s: 12 } };
const SLOT_RULE_OPTIONS = options(SLOT_RULE_LABELS);
const EARTH_OPTIONS = options(EARTH_LABELS);
const ROUTE_CHANGE_OPTIONS: Option[] = [
  { value: 'deliver', label: 'deliver along the old route' },
  { value: 'drop', label: 'drop' },
];

const ATTACHMENT_HINT =
  'Which satellite in reach a ground station uses: the highest, re-chosen every step; the same one until it leaves reach; any one, the route taking the shortest total delay (Hypatia); or, as Starlink, a new one only at the scheduler’s slot boundaries.';

/** The parts of the topology the form does not edit, named so the user knows they are kept. */
function keptInJson(topology: Json | undefined): string[] {
  if (!isObject(topology)) return [];
  const c = isObject(topology.constellation) ? topology.constellation : {};
  const out: string[] = [];
  if (topology.ground_stations !== undefined || topology.ground_stations_file !== undefined) out.push('named ground stations');
  if (isObject(topology.gateways)) {
    const stations = Array.isArray(topology.gateways.stations) ? topology.gateways.stations.map(placeName) : [];
    out.push(`gateways${stations.length ? ` (${stations.join(', ')})` : ''}${topology.gateways.pop !== undefined ? ` and the point of presence ${placeName(topology.gateways.pop)}` : ''}`);
  }
  if (c.grid !== undefined) out.push('the element sets’ grid');
  if (c.isls !== undefined || c.isls_file !== undefined) out.push('the ISL list');
  if (topology.relays !== undefined) out.push('the relays');
  return out;
}

function placeName(p: Json): string {
  return isObject(p) ? formatValue(p.name ?? `${formatValue(p.lat_deg)}°, ${formatValue(p.lon_deg)}°`) : formatValue(p);
}

export function ConstellationFields({ kit }: { kit: Kit }) {
  const { get, set, num, errors } = kit;
  const w = walkerPath(kit.scenario);
  const place = (path: string, label: string): ReactNode => {
    const v = get(path);
    return isCityPlace(v) ? (
      <StringInput
        label={label}
        hint="A city of the table (Beijing, New York, London, ...) or a name from ground_stations; a {name, lat_deg, lon_deg} point can be given in JSON."
        value={v}
        errors={errors.at(path)}
        onChange={(x) => set(path)(x ?? '')}
      />
    ) : (
      <p className="muted">
        {label}: a point, edit it in JSON
      </p>
    );
  };
  /** A select whose first option is the default, written as no field. */
  const select = (path: string, label: string, options: Option[], hint: string) => (
    <SelectInput label={label} hint={hint} value={get(path) ?? options[0].value} options={options} errors={errors.at(path)} onChange={(v) => set(path)(v === options[0].value ? undefined : v)} />
  );
  const attachment = get('topology.attachment');
  const kind = attachmentKind(attachment);
  const kept = keptInJson(get('topology'));
  return (
    <fieldset className="item">
      <legend>Constellation path</legend>
      <div className="grid">
        {isObject(get(w)) ? (
          <>
            {num(`${w}.altitude_km`, 'Altitude', { unit: 'km', hint: 'Walker shell altitude.' })}
            {num(`${w}.inclination_deg`, 'Inclination', { unit: '°' })}
            {num(`${w}.planes`, 'Planes', { integer: true })}
            {num(`${w}.sats_per_plane`, 'Satellites per plane', { integer: true })}
            {num(`${w}.phasing`, 'Phasing F', { integer: true, empty: 'remove', placeholder: '0' })}
          </>
        ) : (
          <p className="muted">Satellites from TLE, OMM or several shells: edit them in JSON.</p>
        )}
        {place('topology.src', 'Source')}
        {place('topology.dst', 'Destination')}
        {num('topology.min_elevation_deg', 'Elevation mask', { unit: '°', empty: 'remove', placeholder: '25' })}
        {num('topology.gsl_max_range_km', 'Longest ground–satellite link', {
          unit: 'km',
          empty: 'remove',
          placeholder: 'no limit',
          hint: 'Hypatia’s cone: a satellite is in reach when within this range and above the mask (1260 km for Kuiper-630, 1089.686 km for Starlink-550; set the mask to 0 for the range alone).',
        })}
        {select('topology.earth', 'Earth', EARTH_OPTIONS, 'WGS72: ground stations on the ellipsoid at geodetic latitude, elevation from its normal (Hypatia’s).')}
        {num('topology.step_s', 'Routing step', { unit: 's', empty: 'remove', placeholder: '1' })}
        {num('topology.start_s', 'Orbit time at start', { unit: 's', empty: 'remove', placeholder: '0' })}
        {select('topology.isl', 'Inter-satellite links', ISL_OPTIONS, 'Which inter-satellite links exist.')}
        <SelectInput
          label="Attachment"
          hint={ATTACHMENT_HINT}
          value={kind === 'scheduler' ? SCHEDULER : (attachment ?? ATTACHMENT_OPTIONS[0].value)}
          options={ATTACHMENT_OPTIONS}
          errors={errors.at('topology.attachment')}
          onChange={(v) => set('topology.attachment')(v === SCHEDULER ? NEW_SCHEDULER : v === ATTACHMENT_OPTIONS[0].value ? undefined : v)}
        />
        {kind === 'scheduler' && <SchedulerFields kit={kit} />}
        {num('topology.handover_outage_s', 'Handover outage', { unit: 's', empty: 'remove', placeholder: '0', hint: 'The new ground–satellite link carries nothing for this long after a handover.' })}
        {select('topology.on_route_change', 'Queued packets on a route change', ROUTE_CHANGE_OPTIONS, 'What happens to packets waiting on a link that leaves the route.')}
        {num('topology.buffer_pkts', 'Buffer per link', { unit: 'packets', integer: true, empty: 'remove', placeholder: '1000' })}
        {num('topology.access.rate_mbps', 'Access link rate', { unit: 'Mbit/s', hint: 'The terrestrial link between each end host and its ground station.' })}
        {num('topology.access.delay_ms', 'Access link delay', { unit: 'ms' })}
      </div>
      {kept.length > 0 && (
        <p className="muted" data-testid="form-kept-json">
          Kept as written, edited in JSON: {kept.join('; ')}.
        </p>
      )}
      <p className="muted">Link capacity and loss per link type (fixed or from a link budget) are edited in JSON.</p>
    </fieldset>
  );
}

/** Starlink's scheduler: the slot period and offset (of UTC), the rule at each boundary, and the
 * terminal's re-acquisition gap. Empty fields take the core's defaults. */
function SchedulerFields({ kit }: { kit: Kit }) {
  const { get, set, num, errors } = kit;
  const p = (f: string) => `${SCHEDULER_PATH}.${f}`;
  const rule = p('rule');
  return (
    <>
      {num(p('period_s'), 'Slot period', { unit: 's', empty: 'remove', placeholder: '15', hint: 'The scheduler reassigns terminals to satellites once per slot (Starlink: 15 s).' })}
      {num(p('offset_s'), 'Slot offset', {
        unit: 's',
        empty: 'remove',
        placeholder: '12',
        hint: 'Slot boundaries fall this long past each whole period of UTC: 12, 27, 42 and 57 s past the minute for Starlink.',
      })}
      <SelectInput
        label="Slot rule"
        hint="The satellite a terminal takes at a boundary; it keeps it for the slot unless it loses sight of it (then it is replaced at once)."
        value={get(rule) ?? SLOT_RULE_OPTIONS[0].value}
        options={SLOT_RULE_OPTIONS}
        errors={errors.at(rule)}
        onChange={(v) => set(rule)(v === SLOT_RULE_OPTIONS[0].value ? undefined : v)}
      />
      {num(p('reassign_gap_ms'), 'Reassignment gap', {
        unit: 'ms',
        empty: 'remove',
        placeholder: '0',
        hint: 'After each change of satellite the terminal’s ground link carries nothing for this long (the dish re-acquiring); packets crossing it are lost.',
      })}
    </>
  );
}
