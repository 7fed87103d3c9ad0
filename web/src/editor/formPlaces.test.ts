/// <reference types="node" />
import { readdirSync, readFileSync } from 'node:fs';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FormSections } from './ScenarioForm';
import { FormErrors } from './formErrors';
import { formPlaces } from './formPlaces';
import { makeKit } from './formKit';
import type { JsonObject } from './model';

const dir = new URL('../../../scenarios/', import.meta.url);
const presets = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => [f, JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as JsonObject] as const);

/** Errors that remember every place the form asks about. */
class Recording extends FormErrors {
  readonly asked = new Set<string>();
  constructor() {
    super({ byPlace: new Map(), general: [] });
  }
  override at(place: string): readonly string[] {
    this.asked.add(place);
    return super.at(place);
  }
}

/** The places the rendered form reads errors for. */
function askedPlaces(scenario: JsonObject): string[] {
  const errors = new Recording();
  renderToStaticMarkup(createElement(FormSections, { kit: makeKit(scenario, errors, () => {}) }));
  return [...errors.asked].sort();
}

const chain = (link: JsonObject, flows: JsonObject[] = [{ transport: 'tcp', cc: 'cubic' }], extra: JsonObject = {}): JsonObject => ({
  name: 'x',
  duration_s: 10,
  topology: { kind: 'chain', links: [link, { rate_mbps: 10, delay_ms: 5 }] },
  flows,
  ...extra,
});

const variants: [string, JsonObject][] = [
  ['bernoulli loss, steps, listed outages', chain({ rate_mbps: 1, loss: { model: 'bernoulli', p: 0.1 }, rate_schedule: [{ at_s: 0, rate_mbps: 1 }, { at_s: 5, rate_mbps: 2 }], outages: [{ start_s: 1, duration_s: 1 }] })],
  ['Gilbert-Elliott loss both ways, square wave, periodic outages', chain({ loss: { model: 'gilbert_elliott' }, reverse_loss: { model: 'list', drops: [1] }, rate_schedule: { square: {} }, outages: { every_s: 5, duration_s: 1 } })],
  ['forms the editor does not show', chain({ loss: 'odd', rate_schedule: { other: 1 }, outages: { other: 1 } })],
  ['every transport, and an unknown one', chain({}, [{ transport: 'tcp', cc: 'reno' }, { transport: 'ctcp', variant: 'v1' }, { transport: 'intcp' }, { transport: 'quic' }])],
  ['a sweep', chain({}, undefined, { sweep: { grid: { 'flows[0].cc': ['reno'], seed: [1, 2] }, runs: 2 } })],
  ['a Walker constellation between cities', { name: 'c', topology: { kind: 'constellation', constellation: { walker: { planes: 2 } }, src: 'Beijing', dst: 'London' }, flows: [] }],
  ['several shells and a point for a station', { name: 'c', topology: { kind: 'constellation', constellation: { walker: [{ planes: 2 }, { planes: 3 }] }, src: { lat_deg: 0 } }, flows: [] }],
  ['TLE satellites', { name: 'c', topology: { kind: 'constellation', constellation: { tle: 'x' } }, flows: [] }],
  [
    "Starlink's scheduler, gateways and named stations",
    {
      name: 'c',
      topology: {
        kind: 'constellation',
        constellation: { walker: { planes: 2 } },
        ground_stations: [{ name: 'Liège', lat_deg: 50.63, lon_deg: 5.57 }],
        src: 'Liège',
        dst: 'Frankfurt PoP',
        gateways: { stations: ['Usingen gateway'], pop: 'Frankfurt PoP' },
        attachment: { scheduler: { period_s: 15, rule: 'shortest_path' } },
      },
      flows: [],
    },
  ],
  ['an attachment the form does not know', { name: 'c', topology: { kind: 'constellation', constellation: { walker: { planes: 2 } }, attachment: { other: 1 } }, flows: [] }],
  ['nothing but a name', { name: 'empty' }],
];

describe('the places of the form', () => {
  it('are exactly those the form reads errors for, for every preset', () => {
    expect(presets.length).toBeGreaterThan(10);
    for (const [file, scenario] of presets) expect(askedPlaces(scenario), file).toEqual([...new Set(formPlaces(scenario))].sort());
  });

  it.each(variants)('are exactly those the form reads errors for: %s', (_, scenario) => {
    expect(askedPlaces(scenario)).toEqual([...new Set(formPlaces(scenario))].sort());
  });

  it("follow the scenario's shape: a link's loss parameters, a flow's transport", () => {
    const places = formPlaces(chain({ loss: { model: 'bernoulli', p: 0.1 } }, [{ transport: 'ctcp' }]));
    expect(places).toContain('topology.links[0].loss.p');
    expect(places).not.toContain('topology.links[1].loss.p');
    expect(places).toContain('flows[0].block_pkts');
    expect(places).not.toContain('flows[0].cc');
    expect(places).not.toContain('sweep');
  });
});

describe('the attachment of a constellation', () => {
  const starlink = JSON.parse(readFileSync(new URL('starlink-liege-frankfurt.json', dir), 'utf8')) as JsonObject;
  const html = (scenario: JsonObject) => renderToStaticMarkup(createElement(FormSections, { kit: makeKit(scenario, new FormErrors({ byPlace: new Map(), general: [] }), () => {}) }));

  it("shows Starlink's scheduler as chosen, with its fields, and names what only JSON edits", () => {
    const out = html(starlink);
    expect(out).toMatch(/<option selected value="scheduler">Starlink scheduler \(15 s slots\)<\/option>/);
    for (const label of ['Slot period', 'Slot offset', 'Slot rule', 'Reassignment gap']) expect(out).toContain(label);
    expect(out).toContain('gateways (Usingen gateway, Aerzen gateway) and the point of presence Frankfurt PoP');
    expect(out).toContain('named ground stations');
    expect(out).not.toContain('(unknown)');
  });

  it('shows the scheduler fields only for the scheduler, and a rule as itself', () => {
    const out = html({ ...starlink, topology: { ...(starlink.topology as JsonObject), attachment: 'shortest_path' } });
    expect(out).toMatch(/<option selected value="shortest_path">/);
    expect(out).not.toContain('Slot period');
  });
});
