// The page: the preset gallery and the editor on the left; run controls, the summary and the
// charts on the right. The scenario's JSON text is the one piece of state everything derives
// from; the core validates it (in a worker) and the URL can carry it.

import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { CancelledError, CoreError, CrashError, SimClient, type Progress, type SweepRow } from './sim/client';
import type { CostEstimate, FieldError } from './sim/protocol';
import type { RunResult } from './sim/results';
import type { Scenario } from './scenario/types.gen';
import { DEFAULT_PRESET_ID, PRESETS, presetById, type Preset } from './scenario/presets';
import { Gallery } from './editor/Gallery';
import { ScenarioEditor } from './editor/ScenarioEditor';
import { decodeScenario, encodeScenario, SHARE_PARAM } from './share/share';
import { downloadText, resultCsv } from './export/export';
import { ResultCharts } from './charts/ResultCharts';
import { SweepChart } from './charts/SweepChart';
import { SummaryTable } from './SummaryTable';
import { ErrorBoundary } from './ErrorBoundary';
import { ChartTimeContext, TimeCursor, type ChartTime, type TimeMark } from './timeCursor';
import type { ConstellationView } from './sim/constellation';
import { hasGlobe } from './globe/source';

// three.js, satellite.js and the world atlas: a separate chunk, fetched only for a scenario with a globe.
const Globe = lazy(() => import('./globe/Globe'));

/** A shared link whose estimated cost is above this many seconds in the browser is not run on
 * open: the page shows the estimate and asks. */
export const COST_PROMPT_S = 20;

/** "about 2 minutes": a duration for people. */
function aboutDuration(s: number): string {
  if (s < 90) return `about ${Math.max(1, Math.round(s))} s`;
  if (s < 5400) return `about ${Math.round(s / 60)} minutes`;
  return `about ${Math.round(s / 3600)} hours`;
}

/** "3.2 million": a count for people. */
function aboutCount(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toPrecision(2)} billion`;
  if (n >= 1e6) return `${(n / 1e6).toPrecision(2)} million`;
  return Math.round(n).toLocaleString('en');
}

/** The globe's time span when no run says it: the scenario's duration, else ten minutes. */
const DEFAULT_GLOBE_SPAN_S = 600;

type RunState =
  | { kind: 'idle' }
  | { kind: 'running'; what: 'run' | 'sweep'; progress: Progress; cancel: () => void }
  | { kind: 'done' };

function parseOrNull(text: string): Scenario | null {
  try {
    return JSON.parse(text) as Scenario;
  } catch {
    return null;
  }
}

/** What the page opens with: a scenario from the URL fragment, or the default preset. */
function initialState(): { text: string; presetId?: string; notice?: string; fromUrl: boolean } {
  const fallback = presetById(DEFAULT_PRESET_ID) ?? PRESETS[0];
  const hash = new URLSearchParams(window.location.hash.slice(1));
  const shared = hash.get(SHARE_PARAM);
  if (shared !== null) {
    const decoded = decodeScenario(shared);
    if (decoded.ok) return { text: decoded.text, fromUrl: true };
    return { text: fallback.text, presetId: fallback.id, notice: `This link's scenario could not be opened: ${decoded.error}. The default scenario is loaded instead.`, fromUrl: false };
  }
  const presetId = hash.get('preset');
  if (presetId !== null) {
    const p = presetById(presetId);
    if (p) return { text: p.text, presetId: p.id, fromUrl: false };
    return { text: fallback.text, presetId: fallback.id, notice: `There is no preset called "${presetId}". The default scenario is loaded instead.`, fromUrl: false };
  }
  return { text: fallback.text, presetId: fallback.id, fromUrl: false };
}

export function App() {
  const init = useMemo(initialState, []);
  const [text, setText] = useState(init.text);
  const [presetId, setPresetId] = useState<string | undefined>(init.presetId);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [validated, setValidated] = useState(false);
  const [runState, setRunState] = useState<RunState>({ kind: 'idle' });
  const [result, setResult] = useState<RunResult | null>(null);
  const [resultScenario, setResultScenario] = useState<Scenario | null>(null);
  const [sweepRows, setSweepRows] = useState<SweepRow[] | null>(null);
  /** The scenario text `sweepRows` ran, which the core's CSV writer expands again. */
  const [sweepText, setSweepText] = useState('');
  const [notice, setNotice] = useState<string | null>(init.notice ?? null);
  const [status, setStatus] = useState<string>('');
  const [coreVersion, setCoreVersion] = useState<string>('');
  const [estimate, setEstimate] = useState<CostEstimate | null>(null);
  /** A shared link too expensive to run unasked: its estimate, until the user decides. */
  const [costPrompt, setCostPrompt] = useState<CostEstimate | null>(null);
  const clientRef = useRef<SimClient | null>(null);
  const autoRun = useRef(init.fromUrl);
  const [view, setView] = useState<{ view: ConstellationView; spanS: number } | null>(null);
  // One time cursor for the globe and the charts (an external store: see timeCursor.ts).
  const cursor = useMemo(() => new TimeCursor(), []);

  const scenario = useMemo(() => parseOrNull(text), [text]);
  const hasSweep = !!scenario?.sweep;
  const constellation = hasGlobe(scenario);

  useEffect(() => {
    const client = new SimClient();
    clientRef.current = client;
    client.onCrash = (message) => {
      setNotice(`The simulator crashed and was restarted: ${message}`);
      setRunState({ kind: 'idle' });
    };
    void client.ready().then((v) => {
      setCoreVersion(v);
      document.body.dataset.ready = 'true';
    });
    return () => client.dispose();
  }, []);

  // Validate in the core (debounced), so the editor shows the same errors the CLI would.
  useEffect(() => {
    setValidated(false);
    const handle = setTimeout(() => {
      const client = clientRef.current;
      if (!client) return;
      client
        .validate(text)
        .then(async (errs) => {
          setErrors(errs);
          setEstimate(errs.length === 0 ? await client.estimate(text) : null);
          setValidated(true);
        })
        // The core's refusal names its field, so the editor places it like a validation problem.
        .catch((e: Error) => setErrors([e instanceof CoreError ? e.problem : { path: '', message: e.message }]));
    }, 150);
    return () => clearTimeout(handle);
  }, [text]);

  const valid = validated && errors.length === 0;
  const running = runState.kind === 'running';

  // The globe's constellation: the scenario's own. Keyed by its text; undefined while a
  // constellation scenario is being edited into validity, so the globe keeps the last good one
  // instead of flickering away.
  const globeSource = constellation ? (valid ? text : undefined) : null;
  useEffect(() => {
    const client = clientRef.current;
    if (globeSource === undefined) return;
    if (!client || !coreVersion || globeSource === null) {
      setView(null);
      return;
    }
    let cancelled = false;
    const load = async () => {
      const spanS = (JSON.parse(globeSource) as { duration_s?: number }).duration_s ?? DEFAULT_GLOBE_SPAN_S;
      return { view: await client.view(globeSource), spanS };
    };
    load()
      .then((v) => !cancelled && setView(v))
      .catch((e: Error) => {
        if (cancelled) return;
        setView(null);
        setNotice(`The globe cannot show this constellation: ${e.message}`);
      });
    return () => {
      cancelled = true;
    };
  }, [globeSource, coreVersion]);

  const globeSpanS = result && result.summary.end_s > 0 ? result.summary.end_s : (view?.spanS ?? DEFAULT_GLOBE_SPAN_S);
  const chartTime = useMemo<ChartTime | null>(() => {
    if (!view) return null;
    const marks: TimeMark[] = (result?.path?.events ?? []).map((e) => ({ t: e.t_s, kind: e.kind }));
    return { cursor, marks };
  }, [view, result, cursor]);

  const run = useCallback(() => {
    const client = clientRef.current;
    if (!client || !valid) return;
    setNotice(null);
    setStatus('');
    const job = client.run(text, (progress) => setRunState((s) => (s.kind === 'running' ? { ...s, progress } : s)));
    setRunState({ kind: 'running', what: 'run', progress: { fraction: 0, label: 'starting' }, cancel: job.cancel });
    const sc = parseOrNull(text);
    job.promise
      .then((r) => {
        setResult(r);
        setResultScenario(sc);
        setSweepRows(null);
        setRunState({ kind: 'done' });
        setStatus(`Run finished: ${r.summary.flows.length} flow(s), ${r.summary.events.toLocaleString('en')} events.`);
      })
      .catch((e: Error) => {
        setRunState({ kind: 'idle' });
        if (e instanceof CancelledError) setStatus('Run cancelled.');
        // A crash has its notice already (onCrash).
        else if (!(e instanceof CrashError)) setNotice(e.message);
      });
  }, [text, valid]);

  const runSweep = useCallback(() => {
    const client = clientRef.current;
    if (!client || !valid) return;
    setNotice(null);
    setStatus('');
    const job = client.sweep(text, (progress) => setRunState((s) => (s.kind === 'running' ? { ...s, progress } : s)));
    setRunState({ kind: 'running', what: 'sweep', progress: { fraction: 0, label: 'expanding the sweep' }, cancel: job.cancel });
    const sc = parseOrNull(text);
    job.promise
      .then((rows) => {
        setSweepRows(rows);
        setSweepText(text);
        setResultScenario(sc);
        setRunState({ kind: 'done' });
        setStatus(`Sweep finished: ${rows.length} runs on ${client.size} workers.`);
      })
      .catch((e: Error) => {
        setRunState({ kind: 'idle' });
        if (e instanceof CancelledError) setStatus('Sweep cancelled.');
        else if (e instanceof CrashError) setNotice(`The simulator crashed and was restarted. ${e.message}`);
        else setNotice(e.message);
      });
  }, [text, valid]);

  // A shared link runs as soon as its scenario is known to be valid, unless it would take long:
  // a link can carry anything, and opening one must not take the tab away.
  useEffect(() => {
    if (autoRun.current && valid && coreVersion && estimate) {
      autoRun.current = false;
      if (estimate.browser_seconds > COST_PROMPT_S) setCostPrompt(estimate);
      else if (hasSweep) runSweep();
      else run();
    }
  }, [valid, coreVersion, estimate, hasSweep, run, runSweep]);

  const pick = (p: Preset) => {
    setText(p.text);
    setPresetId(p.id);
    setNotice(null);
  };

  const share = async () => {
    const url = new URL(window.location.href);
    url.hash = `${SHARE_PARAM}=${encodeScenario(text)}`;
    window.history.replaceState(null, '', url);
    try {
      await navigator.clipboard.writeText(url.toString());
      setStatus('Link copied to the clipboard.');
    } catch {
      setStatus('Link is in the address bar (the clipboard was not available).');
    }
  };

  const base = (scenario?.name ?? 'orbitcp').replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60);

  return (
    <div className="app">
      <header className="app-header">
        <h1>orbitcp</h1>
        <p className="tagline">Transport protocols over satellite networks, simulated in your browser.</p>
        {coreVersion && <span className="core-version">core {coreVersion}</span>}
      </header>
      <main className="layout">
        <section className="left" aria-label="Scenario">
          <Gallery presets={PRESETS} selectedId={presetId} onPick={pick} />
          <ScenarioEditor
            text={text}
            errors={errors}
            onChange={(t) => {
              setText(t);
              setPresetId(undefined);
            }}
          />
        </section>
        <section className="right" aria-label="Results">
          <div className="controls" role="group" aria-label="Run controls">
            <button type="button" onClick={run} disabled={!valid || running} data-testid="run">
              Run
            </button>
            {hasSweep && (
              <button type="button" onClick={runSweep} disabled={!valid || running} data-testid="run-sweep">
                Run sweep
              </button>
            )}
            <button type="button" onClick={() => runState.kind === 'running' && runState.cancel()} disabled={!running} data-testid="cancel">
              Cancel
            </button>
            <button type="button" onClick={() => void share()} disabled={!scenario} data-testid="share">
              Copy link
            </button>
            <button type="button" disabled={!result} onClick={() => result && downloadText(`${base}.json`, JSON.stringify({ summary: result.summary }, null, 2), 'application/json')}>
              Export JSON
            </button>
            <button type="button" disabled={!result && !sweepRows} onClick={() => {
              if (sweepRows) {
                void clientRef.current
                  ?.sweepCsv(sweepText, sweepRows)
                  .then((csv) => downloadText(`${base}-sweep.csv`, csv, 'text/csv'))
                  .catch((e: Error) => setNotice(e.message));
              } else if (result) downloadText(`${base}.csv`, resultCsv(result), 'text/csv');
            }}>
              Export CSV
            </button>
            <details className="crash-tests">
              <summary>Crash tests</summary>
              <button type="button" className="quiet" onClick={() => void clientRef.current?.crash('now')} data-testid="crash">
                Panic now
              </button>
              <button type="button" className="quiet" onClick={() => void clientRef.current?.crash('next-run')} data-testid="crash-next-run">
                Panic during the next run
              </button>
              <button type="button" className="quiet" onClick={() => void clientRef.current?.crash('oom')} data-testid="crash-oom">
                Run out of memory
              </button>
            </details>
          </div>
          {valid && estimate && (
            <p className="hint" data-testid="estimate">
              Estimated cost: {aboutCount(estimate.events)} events{estimate.runs > 1 ? ` over ${estimate.runs.toLocaleString('en')} runs` : ''},{' '}
              {aboutDuration(estimate.browser_seconds)} in this browser.
            </p>
          )}
          {costPrompt && (
            <div className="notice" role="alertdialog" aria-labelledby="cost-prompt-text" data-testid="cost-prompt">
              <span id="cost-prompt-text">
                This shared scenario was not started: it would take {aboutDuration(costPrompt.browser_seconds)} in this browser (
                {aboutCount(costPrompt.events)} events{costPrompt.runs > 1 ? `, ${costPrompt.runs.toLocaleString('en')} runs` : ''}). Run it
                anyway?
              </span>{' '}
              <button
                type="button"
                data-testid="cost-run"
                onClick={() => {
                  setCostPrompt(null);
                  if (hasSweep) runSweep();
                  else run();
                }}
              >
                Run it
              </button>{' '}
              <button type="button" className="quiet" onClick={() => setCostPrompt(null)}>
                Not now
              </button>
            </div>
          )}
          {!valid && validated && <p className="hint">Fix the scenario's errors to run it.</p>}
          {running && (
            <div className="progress" data-testid="progress">
              <progress max={1} value={runState.progress.fraction} aria-label={runState.what === 'sweep' ? 'Sweep progress' : 'Simulated time'} />
              <span>{runState.progress.label}</span>
            </div>
          )}
          {notice && (
            <div className="notice" role="alert" data-testid="notice">
              {notice}
              <button type="button" className="quiet" onClick={() => setNotice(null)} aria-label="Dismiss">
                ×
              </button>
            </div>
          )}
          <p className="status" role="status" data-testid="status">
            {status}
          </p>
          {view && (
            <ErrorBoundary resetKey={view}>
              <Suspense fallback={<p className="status">Loading the globe…</p>}>
                <Globe view={view.view} path={result?.path} durationS={globeSpanS} cursor={cursor} />
              </Suspense>
            </ErrorBoundary>
          )}
          <ChartTimeContext.Provider value={chartTime}>
          <div data-testid="results" data-run-state={runState.kind}>
            {sweepRows && (
              <ErrorBoundary resetKey={sweepRows}>
                <SweepChart rows={sweepRows} scenario={resultScenario} />
              </ErrorBoundary>
            )}
            {result && !sweepRows && (
              <>
                <SummaryTable summary={result.summary} scenario={resultScenario} />
                <ErrorBoundary resetKey={result}>
                  <ResultCharts result={result} scenario={resultScenario} />
                </ErrorBoundary>
              </>
            )}
          </div>
          </ChartTimeContext.Provider>
        </section>
      </main>
    </div>
  );
}
