// What the results on screen are compared with: the editor's text (has it changed since the run?
// ResultOrigin.tsx says how) and the pinned baseline (not the run against itself), with the
// baseline's differences in words for the Compare table and the charts' legend.

import { useMemo } from 'react';
import type { BaselineRun } from '../charts/baselineRun';
import { describeChanges, scenarioChanges, SPELLED_OUT } from '../scenario/diff';
import type { Scenario } from '../scenario/types.gen';
import type { RunResult } from '../sim/results';
import { isStale, type EditorChanges } from './ResultOrigin';
import type { Baseline } from './useBaseline';

export function useComparison({
  result,
  shownOutput,
  resultScenario,
  scenario,
  baseline,
  previousRun,
}: {
  result: RunResult | null;
  /** The run or the sweep on screen, if any. */
  shownOutput: unknown;
  /** The scenario the output on screen came from. */
  resultScenario: Scenario | null;
  /** The editor's scenario, or null while its text is not JSON. */
  scenario: Scenario | null;
  baseline: Baseline | null;
  /** The run before a slider's run (useLiveSlider.ts), drawn when no baseline is pinned. */
  previousRun: BaselineRun | null;
}) {
  const against = baseline && result && baseline.result !== result ? baseline : null;

  // What the editor holds against the scenario the result on screen came from.
  const editorChanges: EditorChanges = useMemo(
    () => (shownOutput && resultScenario ? (scenario ? scenarioChanges(resultScenario, scenario) : null) : []),
    [shownOutput, resultScenario, scenario],
  );
  const stale = !!shownOutput && isStale(editorChanges);
  // What the run on screen changed from the pinned baseline, in words (Compare names runs by it).
  const baselineDiff = useMemo(() => (against?.scenario && resultScenario ? scenarioChanges(against.scenario, resultScenario) : []), [against, resultScenario]);
  const baselineChanges = describeChanges(baselineDiff);
  // The charts' legend names the baseline by what it had that this run changed ("baseline: cc
  // cubic, link 2 loss 1 %"), not by the preset's name both runs share.
  const chartBaseline = useMemo(() => {
    if (!against || baselineDiff.length === 0 || baselineDiff.length > SPELLED_OUT) return against ?? previousRun;
    return { ...against, label: `baseline: ${baselineDiff.map((c) => `${c.label} ${c.from}`).join(', ')}` };
  }, [against, baselineDiff, previousRun]);

  return { against, editorChanges, stale, baselineChanges, chartBaseline };
}
