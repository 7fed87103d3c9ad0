// PLACEHOLDER (being replaced by the real gallery).
import type { Preset } from '../scenario/presets';
export function Gallery({ presets, selectedId, onPick }: { presets: Preset[]; selectedId?: string; onPick: (p: Preset) => void }) {
  return (
    <select aria-label="Preset" value={selectedId ?? ''} onChange={(e) => { const p = presets.find((x) => x.id === e.target.value); if (p) onPick(p); }}>
      {presets.map((p) => <option key={p.id} value={p.id}>{p.scenario.name}</option>)}
    </select>
  );
}
