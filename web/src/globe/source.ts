// Which scenarios the globe shows. Small and free of three.js: App.tsx imports it into the main
// bundle, and the globe's own chunk loads only when this says yes.

import type { Scenario } from '../scenario/types.gen';

export function isConstellationScenario(s: Scenario | null): boolean {
  return s?.topology.kind === 'constellation';
}
