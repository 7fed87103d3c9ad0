// What a run or a sweep gave, under the run controls: where it came from, the sweep's chart, a
// long run's charts so far, or a finished run's baseline bar, figures, comparison and charts.
// The charts and d3 are a chunk of their own, fetched when a run starts (so it is there when the
// result is), not with the page: the first load is what it takes to edit and start a run.

import { lazy, Suspense, useEffect, type ComponentProps } from 'react';
import { FoldChartNumbersContext } from './charts/foldNumbers';
import { BaselineBar } from './compare/BaselineBar';
import { CompareTable } from './compare/CompareTable';
import { ResultOrigin } from './compare/ResultOrigin';
import type { useComparison } from './compare/useComparison';
import { ErrorBoundary } from './ErrorBoundary';
import type { Scenario } from './scenario/types.gen';
import { runStateAttribute, type SimState } from './simulation';
import { SummaryTable } from './SummaryTable';
import { ChartTimeContext, TimeCursorContext, type ChartTime, type TimeCursor } from './timeCursor';

const loadCharts = () => import('./charts/ResultCharts');
const loadSweepChart = () => import('./charts/SweepChart');
const ResultCharts = lazy(() => loadCharts().then((m) => ({ default: m.ResultCharts })));
const SweepChart = lazy(() => loadSweepChart().then((m) => ({ default: m.SweepChart })));

function ChartsLoading() {
  return <p className="status">Loading the charts…</p>;
}

/** What the baseline bar shows and does, but for the result and its scenario. */
export type BaselineControls = Omit<ComponentProps<typeof BaselineBar>, 'result' | 'scenario'>;

export function RunOutput({
  output,
  scenario,
  comparison,
  baselineControls,
  time,
  foldChartNumbers,
}: {
  /** The run or the sweep on screen, or the run under way, and the scenario it came from. */
  output: Pick<SimState, 'phase' | 'result' | 'sweepRows' | 'sweepStats' | 'resultScenario'>;
  /** The editor's scenario: a running run's is the one in the editor. */
  scenario: Scenario | null;
  comparison: ReturnType<typeof useComparison>;
  baselineControls: BaselineControls;
  /** The page's time cursor, and the run's time marks on the charts (timeCursor.ts). */
  time: { cursor: TimeCursor; chartTime: ChartTime | null };
  /** A lesson step's answer is not revealed yet: the charts fold their written numbers. */
  foldChartNumbers: boolean;
}) {
  const { phase, result, sweepRows, sweepStats, resultScenario } = output;
  const starting = phase.kind === 'running' ? phase.what : null;
  useEffect(() => {
    if (starting !== null) void (starting === 'sweep' ? loadSweepChart() : loadCharts());
  }, [starting]);
  /** A long run's result so far: drawn in place of the last result until the run ends. */
  const partial = phase.kind === 'running' ? phase.partial : undefined;
  const { against, editorChanges, stale, baselineChanges, chartBaseline } = comparison;

  return (
    <TimeCursorContext.Provider value={time.cursor}>
      <ChartTimeContext.Provider value={time.chartTime}>
        <FoldChartNumbersContext.Provider value={foldChartNumbers}>
          <div data-testid="results" data-run-state={runStateAttribute(phase)} data-stale={stale}>
            {(result || sweepRows) && !partial && (
              <ResultOrigin scenario={resultScenario} seed={result && !sweepRows ? result.summary.seed : undefined} what={sweepRows ? 'sweep' : 'run'} changes={editorChanges} />
            )}
            {sweepRows && sweepStats && (
              <ErrorBoundary resetKey={sweepRows}>
                <Suspense fallback={<ChartsLoading />}>
                  <SweepChart rows={sweepRows} pointStats={sweepStats} scenario={resultScenario} />
                </Suspense>
              </ErrorBoundary>
            )}
            {partial && (
              <div data-testid="partial-result">
                <p className="partial-note" data-testid="partial-note">
                  Results so far, while the run goes on: the charts fill in as it runs (to {Math.round(partial.summary.end_s)} s
                  simulated{scenario?.flows_alone ? ', as far as the slowest running flow has got' : ''}); the table of figures comes
                  when it ends.
                </p>
                <ErrorBoundary resetKey={partial}>
                  <Suspense fallback={<ChartsLoading />}>
                    <ResultCharts result={partial} scenario={scenario} />
                  </Suspense>
                </ErrorBoundary>
              </div>
            )}
            {result && !sweepRows && !partial && (
              <>
                <BaselineBar result={result} scenario={resultScenario} {...baselineControls} />
                <SummaryTable summary={result.summary} scenario={resultScenario} />
                {against && <CompareTable baseline={against.result.summary} baselineName={against.name} current={result.summary} changes={baselineChanges} shared={!resultScenario?.flows_alone} />}
                <ErrorBoundary resetKey={result}>
                  <Suspense fallback={<ChartsLoading />}>
                    <ResultCharts result={result} scenario={resultScenario} baseline={chartBaseline} />
                  </Suspense>
                </ErrorBoundary>
              </>
            )}
          </div>
        </FoldChartNumbersContext.Provider>
      </ChartTimeContext.Provider>
    </TimeCursorContext.Provider>
  );
}
