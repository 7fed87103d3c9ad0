import type { LinkSpec, Scenario } from './types.gen';

/** A chain's links in order; a constellation has none the user wrote (its links follow the orbits). */
export function chainLinks(scenario: Scenario | null | undefined): LinkSpec[] {
  const t = scenario?.topology;
  return t && t.kind === 'chain' ? t.links : [];
}

/** Whether the scenario's path comes from a moving constellation. */
export function isConstellation(scenario: Scenario | null | undefined): boolean {
  return scenario?.topology.kind === 'constellation';
}
