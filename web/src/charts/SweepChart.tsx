// PLACEHOLDER (being replaced by the real chart).
import type { SweepRow } from '../sim/client';
import type { Scenario } from '../scenario/types.gen';
export function SweepChart({ rows }: { rows: SweepRow[]; scenario: Scenario | null }) {
  return <p>{rows.length} runs</p>;
}
