// The form's topology section for a constellation: the Walker shell, the two ground stations,
// routing and attachment, buffers and the access links. TLE/OMM satellites, several shells and
// the per-link-type capacity and loss are edited in JSON.

import type { ReactNode } from 'react';
import { SelectInput, StringInput, type Option } from './fields';
import { isCityPlace, walkerPath } from './formPlaces';
import type { Kit } from './formKit';
import { isObject } from './model';

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

export function ConstellationFields({ kit }: { kit: Kit }) {
  const { get, set, num, errors } = kit;
  const w = walkerPath(kit.scenario);
  const place = (path: string, label: string): ReactNode => {
    const v = get(path);
    return isCityPlace(v) ? (
      <StringInput label={label} hint="A city of the table (Beijing, New York, London, ...); a {name, lat_deg, lon_deg} point can be given in JSON." value={v} errors={errors.at(path)} onChange={(x) => set(path)(x ?? '')} />
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
}
