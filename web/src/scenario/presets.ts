// The presets of scenarios/, bundled as text at build time (no fetch at run time).

import type { Scenario } from './types.gen';

export interface Preset {
  /** File name without `.json`: a stable id, used in links. */
  id: string;
  text: string;
  scenario: Scenario;
}

const files = import.meta.glob('../../../scenarios/*.json', { eager: true, query: '?raw', import: 'default' }) as Record<
  string,
  string
>;

export const PRESETS: Preset[] = Object.entries(files)
  .map(([path, text]) => ({ id: path.replace(/^.*\//, '').replace(/\.json$/, ''), text, scenario: JSON.parse(text) as Scenario }))
  .sort((a, b) => a.id.localeCompare(b.id));

export const DEFAULT_PRESET_ID = 'default';

export function presetById(id: string): Preset | undefined {
  return PRESETS.find((p) => p.id === id);
}
