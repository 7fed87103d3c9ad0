// The page: the lessons, the preset gallery and the editor on the left; run controls, the
// summary and the charts on the right (before anything has run, the landing's cards). The scenario's JSON text is the one piece of state everything derives
// from; the core validates it (in a worker) and the URL can carry it. The state and what moves
// it are useSimulation.ts (over the reducer in simulation.ts); this file only lays them out.

import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { DEFAULT_PRESET_ID, PRESETS, presetById, type Preset } from './scenario/presets';
import { Gallery } from './editor/Gallery';
import { ScenarioEditor } from './editor/ScenarioEditor';
import { LiveSliderContext } from './editor/slider';
import { useLiveSlider } from './editor/useLiveSlider';
import { SummaryTable } from './SummaryTable';
import { ErrorBoundary } from './ErrorBoundary';
import { Notice } from './Notice';
import { CostPrompt, EstimateLine, RunControls, RunProgress } from './RunControls';
import { FoldChartNumbersContext } from './charts/foldNumbers';
import { ChartTimeContext, TimeCursorContext, usePageTime } from './timeCursor';
import { useSimulation } from './useSimulation';
import { runStateAttribute } from './simulation';
import { LessonPanel } from './lessons/LessonPanel';
import { LESSONS } from './lessons/catalog';
import { useLessonUrl } from './lessons/useLessonUrl';
import { useViewHighlight, type HighlightRequest } from './lessons/highlight';
import { VIEWS, type View } from './lessons/format';
import { useBaseline } from './compare/useBaseline';
import { BaselineBar } from './compare/BaselineBar';
import { useLinkedBaseline } from './compare/useLinkedBaseline';
import { CompareTable } from './compare/CompareTable';
import { isStale, ResultOrigin, type EditorChanges } from './compare/ResultOrigin';
import { describeChanges, scenarioChanges, SPELLED_OUT } from './scenario/diff';
import { useScenarioFiles } from './files/useScenarioFiles';
import { FileBar } from './files/FileBar';
import { FileDrop } from './files/FileDrop';
import { ConfirmReplace } from './files/ConfirmReplace';
import { DraftNotice } from './files/DraftNotice';
import { useUrlState } from './share/useUrlState';
import { useRunShortcuts } from './shortcuts';
import { Landing } from './landing/Landing';
import { landingCards } from './landing/cards';
import { reduce as lessonReduce } from './lessons/state';
import { useMediaQuery } from './useMediaQuery';

// three.js, satellite.js and the world atlas: a separate chunk, fetched only for a scenario with a globe.
const Globe = lazy(() => import('./globe/Globe'));

// The charts and d3: a chunk of their own, fetched when a run starts (so it is there when the
// result is), not with the page: the first load is what it takes to edit and start a run.
const loadCharts = () => import('./charts/ResultCharts');
const loadSweepChart = () => import('./charts/SweepChart');
const ResultCharts = lazy(() => loadCharts().then((m) => ({ default: m.ResultCharts })));
const SweepChart = lazy(() => loadSweepChart().then((m) => ({ default: m.SweepChart })));

/** One column (styles.css): a lesson, its run and its chart come first. */
const PHONE_LAYOUT = '(max-width: 900px)';

/** The note that a highlighted view's aria-describedby names. */
const LESSON_NOTE_ID = 'lesson-view-note';

/** `?debug=1` shows the crash tests (used by the e2e tests); nobody else needs them. */
const DEBUG = new URLSearchParams(window.location.search).get('debug') === '1';

const STEP_COUNTS = LESSONS.map((l) => l.lesson.steps.length);

const PRESET_LOOKUP = { text: (id: string) => presetById(id)?.text, defaultId: DEFAULT_PRESET_ID };
const LANDING_CARDS = landingCards(PRESETS, LESSONS);

export function App() {
  const { state, valid, running, globeSpanS, scenario, hasSweep, actions } = useSimulation();
  const { text, presetId, errors, validated, estimate, coreVersion, phase, result, sweepRows, sweepStats, resultScenario, notice, status, costPrompt, view } = state;
  const starting = phase.kind === 'running' ? phase.what : null;
  /** A long run's result so far: drawn in place of the last result until the run ends. */
  const partial = phase.kind === 'running' ? phase.partial : undefined;
  useEffect(() => {
    if (starting !== null) void (starting === 'sweep' ? loadSweepChart() : loadCharts());
  }, [starting]);
  // One time cursor for the globe, the hop view and the charts (an external store: see timeCursor.ts).
  const { cursor, chartTime } = usePageTime(Boolean(view), result?.path);

  useRunShortcuts({ canRun: valid, running, run: actions.run, cancel: actions.cancel });


  // The lessons: their place in the URL, and the view the current step points at.
  const lessons = useLessonUrl(STEP_COUNTS);
  const [highlight, setHighlight] = useState<HighlightRequest | null>(null);
  const highlightSeq = useRef(0);
  const onHighlight = useCallback((v: View | null) => setHighlight(v ? { view: v, seq: ++highlightSeq.current } : null), []);
  useViewHighlight(highlight, result ?? sweepRows, LESSON_NOTE_ID);
  const shown = lessons.state.lesson !== null ? LESSONS[lessons.state.lesson] : undefined;
  const lessonFirst = useMediaQuery(PHONE_LAYOUT) && lessons.state.lesson !== null;
  const shownStep = shown?.lesson.steps[lessons.state.step];
  // A lesson step's answer not yet revealed: the charts' written numbers, which may state it, fold.
  const foldChartNumbers = shownStep !== undefined && !lessons.state.revealed.includes(lessons.state.step);
  // Files, the draft, and a question before a preset or a lesson step replaces unsaved edits.
  const files = useScenarioFiles({
    text,
    presetId,
    load: actions.load,
    pickPreset: actions.pick,
    edit: actions.edit,
  });
  const url = useUrlState({
    text,
    presetId,
    coreVersion,
    resultScenario: result || sweepRows ? resultScenario : null,
    pending: running || state.autoRun !== null || costPrompt !== null,
    presets: PRESET_LOOKUP,
    // What the address bar brings back counts as loaded, not as unsaved edits.
    pick: (id: string) => {
      const p = presetById(id);
      if (p) {
        files.markLoaded(p.text);
        actions.pick(p);
      }
    },
    edit: (t: string) => {
      files.markLoaded(t);
      actions.edit(t);
    },
    runLink: () => actions.runWhenValid('link'),
  });

  const onLoadScenario = (s: object) =>
    files.guard("this lesson step's scenario", () => {
      const t = JSON.stringify(s, null, 2);
      files.markLoaded(t);
      actions.load(t);
    });
  const onLessonRun = () => files.afterGuard(actions.runWhenValid);
  // A lesson opened from the list puts its step's scenario in the editor, which takes the last
  // result and globe away: the step's text never sits beside another lesson's run. Unsaved edits
  // stay (the step's Run asks before replacing them); so does what the page opened with.
  const openedLesson = useRef(lessons.state.lesson);
  useEffect(() => {
    const lesson = lessons.state.lesson;
    if (lesson === openedLesson.current) return;
    openedLesson.current = lesson;
    if (lesson === null || files.dirty) return;
    const t = JSON.stringify(LESSONS[lesson].scenarios[lessons.state.step], null, 2);
    if (t === text) return;
    files.markLoaded(t);
    actions.load(t);
  }, [lessons.state.lesson, lessons.state.step, files, actions, text]);
  const onPick = (p: Preset) =>
    files.guard(`the preset "${p.id}"`, () => {
      files.markLoaded(p.text);
      actions.pick(p);
    });

  // The landing's cards: a preset runs (its sweep if it has one, as a shared link does); a lesson
  // opens at its first step and runs it. The card goes with the landing, so the focus moves to
  // the results pane or to the step's heading.
  const resultsPane = useRef<HTMLElement>(null);
  const onCardPreset = (p: Preset) => {
    onPick(p);
    files.afterGuard(() => actions.runWhenValid('preset'));
    resultsPane.current?.focus();
  };
  const onCardLesson = (i: number) => {
    lessons.setState(lessonReduce(lessons.state, { type: 'open', lesson: i }, STEP_COUNTS));
    onLoadScenario(LESSONS[i].scenarios[0]);
    onLessonRun();
    requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="step-title"]')?.focus());
  };
  const showLanding = !result && !sweepRows && !running && lessons.state.lesson === null && state.autoRun === null && !costPrompt;

  // The pinned run the next runs are compared with (not against itself).
  const compare = useBaseline();
  const runAfterSlide = useCallback(() => actions.runWhenValid('slider'), [actions]);
  const live = useLiveSlider({
    valid,
    validated,
    estimate,
    workers: state.workers,
    hasSweep,
    phase,
    result,
    resultScenario,
    runWhenValid: runAfterSlide,
  });
  const linkedBaseline = useLinkedBaseline({ coreVersion, runAside: actions.runAside, pin: compare.pin, clear: compare.clear });
  const baselineText = compare.baseline?.scenario ? JSON.stringify(compare.baseline.scenario, null, 2) : null;
  const against = compare.baseline && result && compare.baseline.result !== result ? compare.baseline : null;

  // What the editor holds against the scenario the result on screen came from.
  const shownOutput = result || sweepRows;
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
    if (!against || baselineDiff.length === 0 || baselineDiff.length > SPELLED_OUT) return against ?? live.previousRun;
    return { ...against, label: `baseline: ${baselineDiff.map((c) => `${c.label} ${c.from}`).join(', ')}` };
  }, [against, baselineDiff, live.previousRun]);

  // The open lesson, and the scenario's presets, files and editor: on a phone with a lesson open,
  // the lesson comes first, then the run and its chart, and the scenario folds away below them.
  const lessonBlock = (
    <>
      <Notice message={lessons.error} onDismiss={lessons.dismissError} testid="lesson-notice" />
      <LessonPanel
        lessons={LESSONS}
        state={lessons.state}
        onStateChange={lessons.setState}
        onLoadScenario={onLoadScenario}
        onRun={onLessonRun}
        onHighlight={onHighlight}
        resultScenario={resultScenario}
        running={running}
      />
      <p id={LESSON_NOTE_ID} className="lesson-view-note">
        {shown && shownStep && highlight ? `Step ${lessons.state.step + 1} of the lesson "${shown.lesson.title}" is about ${VIEWS[highlight.view].label}.` : ''}
      </p>
      {files.pending && <ConfirmReplace pending={files.pending} onAnswer={files.answer} />}
    </>
  );
  const scenarioBlock = (
    <>
      <Gallery presets={PRESETS} selectedId={presetId} onPick={onPick} />
      {files.draftNotice && (
        <DraftNotice notice={files.draftNotice} onDiscard={files.discardDraft} onRestore={files.restoreDraft} onDismiss={files.dismissDraftNotice} />
      )}
      <FileBar
        constellation={scenario?.topology?.kind === 'constellation'}
        dirty={files.dirty}
        message={files.message}
        draftFailed={files.draftFailed}
        onOpen={files.openText}
        onSave={files.save}
        onElements={files.loadElements}
        onFail={files.fileFailed}
        onDismiss={files.dismissMessage}
      />
      <FileDrop onScenario={files.openText} onElements={files.loadElements} onFail={files.fileFailed}>
        <LiveSliderContext.Provider value={live.slider}>
          <ScenarioEditor text={text} errors={errors} onChange={actions.edit} />
        </LiveSliderContext.Provider>
      </FileDrop>
    </>
  );

  return (
    <div className="app">
      <a
        href="#run-controls"
        className="skip-link"
        data-testid="skip-to-run"
        onClick={(e) => {
          e.preventDefault();
          // Run, or while it cannot be pressed (the scenario is being checked), its group.
          const run = document.querySelector<HTMLButtonElement>('[data-testid="run"]');
          if (run && !run.disabled) run.focus();
          else document.getElementById('run-controls')?.focus();
        }}
      >
        Skip to Run
      </a>
      <header className="app-header">
        <h1>orbitcp</h1>
        <p className="tagline">Transport protocols over satellite networks, simulated in your browser.</p>
        {coreVersion && <span className="core-version">core {coreVersion}</span>}
      </header>
      <main className={lessonFirst ? 'layout lesson-first' : 'layout'}>
        {lessonFirst && (
          <section className="lesson-column" aria-label="Lesson">
            {lessonBlock}
          </section>
        )}
        <section className="left" aria-label="Scenario">
          {!lessonFirst && lessonBlock}
          {lessonFirst ? (
            <details className="scenario-fold" data-testid="scenario-fold">
              <summary>The scenario: presets, files and editor</summary>
              {scenarioBlock}
            </details>
          ) : (
            scenarioBlock
          )}
        </section>
        <section className="right" aria-label="Results" ref={resultsPane} tabIndex={-1}>
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
          {showLanding && <Landing cards={LANDING_CARDS} onRunPreset={onCardPreset} onStartLesson={onCardLesson} />}
          {view && (
            <ErrorBoundary resetKey={view}>
              <Suspense fallback={<p className="status">Loading the globe…</p>}>
                <Globe view={view.view} path={stale ? undefined : result?.path} durationS={globeSpanS} cursor={cursor} />
              </Suspense>
            </ErrorBoundary>
          )}
          <TimeCursorContext.Provider value={cursor}>
          <ChartTimeContext.Provider value={chartTime}>
          <FoldChartNumbersContext.Provider value={foldChartNumbers}>
          <div data-testid="results" data-run-state={runStateAttribute(phase)} data-stale={stale}>
            {shownOutput && !partial && <ResultOrigin scenario={resultScenario} seed={result && !sweepRows ? result.summary.seed : undefined} what={sweepRows ? 'sweep' : 'run'} changes={editorChanges} />}
            {sweepRows && sweepStats && (
              <ErrorBoundary resetKey={sweepRows}>
                <Suspense fallback={<p className="status">Loading the charts…</p>}>
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
                  <Suspense fallback={<p className="status">Loading the charts…</p>}>
                    <ResultCharts result={partial} scenario={scenario} />
                  </Suspense>
                </ErrorBoundary>
              </div>
            )}
            {result && !sweepRows && !partial && (
              <>
                <BaselineBar
                  result={result}
                  scenario={resultScenario}
                  baseline={compare.baseline}
                  onPin={compare.pin}
                  onClear={linkedBaseline.clear}
                  onCopyLink={baselineText === null ? undefined : () => void actions.share(url.shareUrl(baselineText))}
                />
                <SummaryTable summary={result.summary} scenario={resultScenario} />
                {against && <CompareTable baseline={against.result.summary} baselineName={against.name} current={result.summary} changes={baselineChanges} shared={!resultScenario?.flows_alone} />}
                <ErrorBoundary resetKey={result}>
                  <Suspense fallback={<p className="status">Loading the charts…</p>}>
                    <ResultCharts result={result} scenario={resultScenario} baseline={chartBaseline} />
                  </Suspense>
                </ErrorBoundary>
              </>
            )}
          </div>
          </FoldChartNumbersContext.Provider>
          </ChartTimeContext.Provider>
          </TimeCursorContext.Provider>
        </section>
      </main>
    </div>
  );
}
