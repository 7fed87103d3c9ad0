// The embedded page (`?embed=1`, embed.ts): one view of the scenario in the address, a Run
// button, the status line, and a link to the full page. No editor, gallery or lessons, and no
// writes to the address: in an iframe they would add entries to the host page's history. The
// view fills the frame; the charts measure their width as on the full page.

import { lazy, Suspense, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode, type RefObject } from 'react';
import { inThisBrowser } from '../estimate';
import { useSimulation } from '../useSimulation';
import { runStateAttribute } from '../simulation';
import { ResultCharts, type ChartId } from '../charts/ResultCharts';
import { SweepChart } from '../charts/SweepChart';
import { SummaryTable } from '../SummaryTable';
import { ErrorBoundary } from '../ErrorBoundary';
import { ChartTimeContext, TimeCursorContext, usePageTime } from '../timeCursor';
import { VIEWS } from '../lessons/format';
import { CANCEL_KEYS, RUN_KEYS, useRunShortcuts } from '../shortcuts';
import { readFragment, versionNotice } from '../share/urlState';
import { DEFAULT_PRESET_ID, presetById } from '../scenario/presets';
import { EMBED_PARAM } from '../share/query';
import { embedView } from './embed';
import { ChartFitContext } from '../charts/fit';
import './embed.css';

const Globe = lazy(() => import('../globe/Globe'));

/** The full page for this scenario: the same fragment without `?embed=1`. */
function fullPageUrl(): string {
  const url = new URL(window.location.href);
  url.searchParams.delete(EMBED_PARAM);
  return url.toString();
}

/** The height left in the frame below `ref`'s top, kept as the frame is resized. */
function useHeightBelow(ref: RefObject<HTMLElement | null>): number | null {
  const [height, setHeight] = useState<number | null>(null);
  useLayoutEffect(() => {
    const measure = () => {
      const top = ref.current?.getBoundingClientRect().top;
      if (top !== undefined) setHeight(Math.max(0, window.innerHeight - top - 8));
    };
    measure();
    window.addEventListener('resize', measure);
    const observer = new ResizeObserver(measure);
    if (ref.current?.parentElement) observer.observe(ref.current.parentElement);
    return () => {
      window.removeEventListener('resize', measure);
      observer.disconnect();
    };
  }, [ref]);
  return height;
}

export function Embed() {
  const { state, valid, running, globeSpanS, scenario, hasSweep, actions } = useSimulation();
  const { coreVersion, phase, result, sweepRows, sweepStats, resultScenario, notice, status, costPrompt, view } = state;
  const chosen = useMemo(() => embedView(window.location.search, window.location.hash, hasSweep), [hasSweep]);
  const { cursor, chartTime } = usePageTime(Boolean(view), result?.path);
  // The core that made the link, read once: the embedded page never rewrites its address.
  const linkVersion = useMemo(() => readFragment(window.location.hash, { text: (id) => presetById(id)?.text, defaultId: DEFAULT_PRESET_ID }).version, []);
  const versionNote = versionNotice(linkVersion, coreVersion);
  const sweepView = chosen.ok && chosen.view === 'sweep';
  const run = sweepView && hasSweep ? actions.runSweep : actions.run;
  useRunShortcuts({ canRun: valid && chosen.ok, running, run, cancel: actions.cancel });

  const title = scenario?.name ?? 'orbitcp';
  // The view fills what the frame has left under the bar: a chart shrinks its plot to fit.
  const viewRef = useRef<HTMLDivElement>(null);
  const fit = useHeightBelow(viewRef);
  let body: ReactNode = null;
  if (!chosen.ok) body = <p className="notice" role="alert">{chosen.error}</p>;
  else if (chosen.view === 'globe') {
    body = view ? (
      <ErrorBoundary resetKey={view}>
        <Suspense fallback={<p className="status">Loading the globe…</p>}>
          <Globe view={view.view} path={result?.path} durationS={globeSpanS} cursor={cursor} />
        </Suspense>
      </ErrorBoundary>
    ) : (
      <p className="embed-empty">{coreVersion ? 'This scenario has no globe: it is not placed on the Earth.' : ''}</p>
    );
  } else if (chosen.view === 'sweep') {
    body = sweepRows && sweepStats ? (
      <ErrorBoundary resetKey={sweepRows}>
        <SweepChart rows={sweepRows} pointStats={sweepStats} scenario={resultScenario} />
      </ErrorBoundary>
    ) : (
      <p className="embed-empty">{hasSweep ? 'Run the sweep to see its chart.' : 'This scenario has no sweep.'}</p>
    );
  } else if (!result || sweepRows) {
    body = <p className="embed-empty">Run the scenario to see {VIEWS[chosen.view].label}.</p>;
  } else if (chosen.view === 'summary') {
    body = <SummaryTable summary={result.summary} scenario={resultScenario} />;
  } else {
    body = (
      <ErrorBoundary resetKey={result}>
        <ResultCharts result={result} scenario={resultScenario} only={chosen.view as ChartId} />
      </ErrorBoundary>
    );
  }

  return (
    <main className="embed" data-testid="embed" data-view={chosen.ok ? chosen.view : undefined}>
      <div className="embed-bar">
        <h1 className="embed-title" title={title}>
          {title}
        </h1>
        <button type="button" onClick={run} disabled={!valid || running || !chosen.ok} data-testid="run" title="Run (Ctrl+Enter or ⌘+Enter)" aria-keyshortcuts={RUN_KEYS}>
          {sweepView && hasSweep ? 'Run sweep' : 'Run'}
        </button>
        {running && (
          <button type="button" className="quiet" onClick={actions.cancel} data-testid="cancel" title="Cancel (Esc)" aria-keyshortcuts={CANCEL_KEYS}>
            Cancel
          </button>
        )}
        <a className="embed-open" href={fullPageUrl()} target="_blank" rel="noopener">
          Open in orbitcp
        </a>
      </div>
      {phase.kind === 'running' && (
        <progress className="embed-progress" max={1} value={phase.progress.fraction} aria-label={phase.what === 'sweep' ? 'Sweep progress' : 'Simulated time'} />
      )}
      {costPrompt && (
        <div className="notice" role="alertdialog" aria-labelledby="embed-cost-text" data-testid="cost-prompt">
          <span id="embed-cost-text">This scenario would take {inThisBrowser(costPrompt.estimate, state.workers)}. Run it anyway?</span>{' '}
          <button type="button" data-testid="cost-run" onClick={() => actions.answerCostPrompt(true)}>
            Run it
          </button>{' '}
          <button type="button" className="quiet" onClick={() => actions.answerCostPrompt(false)}>
            Not now
          </button>
        </div>
      )}
      {versionNote && (
        <p className="embed-version" data-testid="url-notice">
          {versionNote}
        </p>
      )}
      {notice && (
        <div className="notice" role="alert" data-testid="notice">
          {notice}
        </div>
      )}
      <p className="status" role="status" data-testid="status">
        {status}
      </p>
      <TimeCursorContext.Provider value={cursor}>
        <ChartTimeContext.Provider value={chartTime}>
          <ChartFitContext.Provider value={fit}>
            <div className="embed-view" data-testid="results" data-run-state={runStateAttribute(phase)} ref={viewRef} style={fit === null ? undefined : ({ '--embed-fit': `${fit}px` } as CSSProperties)}>
              {body}
            </div>
          </ChartFitContext.Provider>
        </ChartTimeContext.Provider>
      </TimeCursorContext.Provider>
    </main>
  );
}
