// The pinned baseline: a finished run kept in this tab to compare the next runs with, until it
// is cleared. It is page state: a link may carry its scenario, never its results, and the page
// then runs it again (useLinkedBaseline.ts).

import { useCallback, useMemo, useState } from 'react';
import type { RunResult } from '../sim/results';
import type { Scenario } from '../scenario/types.gen';

export interface Baseline {
  result: RunResult;
  scenario: Scenario | null;
  /** The scenario's name, as the run reported it. */
  name: string;
  /** The legend's entry of its dashed lines. */
  label: string;
}

export function useBaseline() {
  const [baseline, setBaseline] = useState<Baseline | null>(null);
  const pin = useCallback((result: RunResult, scenario: Scenario | null) => {
    const name = result.summary.name || scenario?.name || 'unnamed scenario';
    setBaseline({ result, scenario, name, label: `baseline: ${name}` });
  }, []);
  const clear = useCallback(() => setBaseline(null), []);
  return useMemo(() => ({ baseline, pin, clear }), [baseline, pin, clear]);
}
