// Which scenarios the globe shows. Small and free of three.js: useSimulation.ts imports it into the
// main bundle, and the globe's own chunk loads only when this says yes.

import type { Scenario } from '../scenario/types.gen';

/** A constellation, or a chain placed on the globe (a GEO hop between two ground stations). */
export function hasGlobe(s: Scenario | null): boolean {
  const t = s?.topology;
  return t?.kind === 'constellation' || (t?.kind === 'chain' && !!t.place);
}
