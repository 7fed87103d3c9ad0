// Which constellation the globe shows, as the text the core's `constellation_view` reads. Small
// and free of three.js: App.tsx imports it into the main bundle.
//
// INTERIM, until the scenario format carries constellations (topology.kind = "constellation"):
// the core's export reads an `orbitcp route` configuration, and the page can name one of the
// route examples in its URL (`#route=beijing_newyork_intcp1600`). When the format lands, a
// constellation scenario's own text is the source and the `#route=` path can go.

import type { Scenario } from '../scenario/types.gen';

// Not eager: each example is its own small chunk, fetched only when named.
const ROUTE_EXAMPLES = import.meta.glob('../../../wasm-core/src/orbit/examples/*.json', { query: '?raw', import: 'default' }) as Record<
  string,
  () => Promise<string>
>;

export const ROUTE_PARAM = 'route';

export function routeExampleIds(): string[] {
  return Object.keys(ROUTE_EXAMPLES)
    .map((p) => p.replace(/^.*\//, '').replace(/\.json$/, ''))
    .sort();
}

/** The text of a bundled route example, or null if there is none of that name. */
export async function routeExample(id: string): Promise<string | null> {
  const entry = Object.entries(ROUTE_EXAMPLES).find(([p]) => p.endsWith(`/${id}.json`));
  return entry ? entry[1]() : null;
}

export function isConstellationScenario(s: Scenario | null): boolean {
  return (s?.topology as { kind?: string } | undefined)?.kind === 'constellation';
}
