// PLACEHOLDER (being replaced by the real charts).
import type { RunResult } from '../sim/results';
import type { Scenario } from '../scenario/types.gen';
export function ResultCharts({ result }: { result: RunResult; scenario: Scenario | null }) {
  return <p>{result.traces?.flows.length ?? 0} flows traced</p>;
}
