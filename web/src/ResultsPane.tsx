// The right column: the run controls and the cost estimate, the prompt that holds a costly run
// back, the progress, the page's notices and status line, then the landing's cards (before
// anything has run), the globe, and what the run gave (RunOutput.tsx), compared with the
// pinned baseline (compare/).

import { lazy, Suspense, type Ref } from 'react';
import { useBaseline } from './compare/useBaseline';
import { useComparison } from './compare/useComparison';
import { useLinkedBaseline } from './compare/useLinkedBaseline';
import type { BaselineRun } from './charts/baselineRun';
import { ErrorBoundary } from './ErrorBoundary';
import { landingCards } from './landing/cards';
import { Landing, type LandingProps } from './landing/Landing';
import { LESSONS } from './lessons/catalog';
import { Notice } from './Notice';
import { CostPrompt, EstimateLine, RunControls, RunProgress } from './RunControls';
import { RunOutput, type BaselineControls } from './RunOutput';
import { PRESETS } from './scenario/presets';
import { isDebug } from './share/query';
import type { UrlState } from './share/useUrlState';
import { usePageTime } from './timeCursor';
import type { Simulation } from './useSimulation';

// three.js, satellite.js and the world atlas: a separate chunk, fetched only for a scenario with a globe.
const Globe = lazy(() => import('./globe/Globe'));

const LANDING_CARDS = landingCards(PRESETS, LESSONS);

/** `?debug=1` shows the crash tests (used by the e2e tests); nobody else needs them. */
const DEBUG = isDebug(window.location.search);

export function ResultsPane({
  sim,
  url,
  previousRun,
  foldChartNumbers,
  landing,
  paneRef,
}: {
  sim: Simulation;
  url: UrlState;
  /** The run before a slider's run, drawn dashed when no baseline is pinned. */
  previousRun: BaselineRun | null;
  foldChartNumbers: boolean;
  /** The landing's cards and what they do, while the page has nothing else to show. */
  landing: Pick<LandingProps, 'onRunPreset' | 'onStartLesson'> | null;
  /** The pane takes the focus when a landing card has started a run. */
  paneRef: Ref<HTMLElement>;
}) {
  const { state, valid, running, globeSpanS, scenario, hasSweep, actions } = sim;
  const { text, validated, estimate, coreVersion, phase, result, sweepRows, resultScenario, notice, status, costPrompt, view } = state;
  // One time cursor for the globe, the hop view and the charts (an external store: see timeCursor.ts).
  const pageTime = usePageTime(Boolean(view), result?.path);

  // The pinned run the next runs are compared with (not against itself).
  const compare = useBaseline();
  const linkedBaseline = useLinkedBaseline({ coreVersion, runAside: actions.runAside, pin: compare.pin, clear: compare.clear });
  const baselineText = compare.baseline?.scenario ? JSON.stringify(compare.baseline.scenario, null, 2) : null;
  const baselineControls: BaselineControls = {
    baseline: compare.baseline,
    onPin: compare.pin,
    onClear: linkedBaseline.clear,
    onCopyLink: baselineText === null ? undefined : () => void actions.share(url.shareUrl(baselineText)),
  };
  const comparison = useComparison({ result, shownOutput: result || sweepRows, resultScenario, scenario, baseline: compare.baseline, previousRun });

  return (
    <section className="right" aria-label="Results" ref={paneRef} tabIndex={-1}>
      <RunControls
        valid={valid}
        running={running}
        hasSweep={hasSweep}
        actions={actions}
        onShare={() => void actions.share(url.shareUrl())}
        text={text}
        scenario={scenario}
        coreVersion={coreVersion}
        result={result}
        sweepRows={sweepRows}
        debug={DEBUG}
      />
      {valid && estimate && <EstimateLine estimate={estimate} workers={state.workers} />}
      {costPrompt && <CostPrompt prompt={costPrompt} workers={state.workers} onAnswer={actions.answerCostPrompt} />}
      {!valid && validated && <p className="hint">Fix the scenario's errors to run it.</p>}
      {phase.kind === 'running' && <RunProgress phase={phase} />}
      <Notice message={url.notice} onDismiss={url.dismissNotice} testid="url-notice" />
      <Notice message={notice} onDismiss={actions.dismissNotice} testid="notice" />
      <Notice message={linkedBaseline.notice} onDismiss={linkedBaseline.dismissNotice} testid="baseline-notice" />
      {linkedBaseline.running && (
        <p className="status" data-testid="baseline-running">
          Running the baseline this link carries, to compare with…
        </p>
      )}
      <p className="status" role="status" data-testid="status">
        {status}
      </p>
      {landing && <Landing cards={LANDING_CARDS} onRunPreset={landing.onRunPreset} onStartLesson={landing.onStartLesson} />}
      {view && (
        <ErrorBoundary resetKey={view}>
          <Suspense fallback={<p className="status">Loading the globe…</p>}>
            <Globe view={view.view} path={comparison.stale ? undefined : result?.path} durationS={globeSpanS} cursor={pageTime.cursor} />
          </Suspense>
        </ErrorBoundary>
      )}
      <RunOutput output={state} scenario={scenario} comparison={comparison} baselineControls={baselineControls} time={pageTime} foldChartNumbers={foldChartNumbers} />
    </section>
  );
}
