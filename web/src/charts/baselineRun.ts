// A pinned run that the charts draw dashed under the current one (timeseries/baseline.ts).

import type { RunResult } from '../sim/results';
import type { Scenario } from '../scenario/types.gen';

export interface BaselineRun {
  result: RunResult;
  scenario: Scenario | null;
  /** The legend's entry: "baseline: <scenario name>". */
  label: string;
}
