// The page: the lessons, the preset gallery and the editor on the left; run controls, the
// summary and the charts on the right (before anything has run, the landing's cards). The
// scenario's JSON text is the one piece of state everything derives from; the core validates it
// (in a worker) and the URL can carry it. The state and what moves it are useSimulation.ts (over
// the reducer in simulation.ts); this file lays the columns out and joins what they share: the
// files' question before unsaved edits are replaced, the address bar, the lesson and the live
// slider.

import { useCallback, useRef } from 'react';
import { useLiveSlider } from './editor/useLiveSlider';
import { ConfirmReplace } from './files/ConfirmReplace';
import { useScenarioFiles } from './files/useScenarioFiles';
import { LessonBlock } from './lessons/LessonBlock';
import { useLessonPage } from './lessons/useLessonPage';
import { ResultsPane } from './ResultsPane';
import { ScenarioPane } from './ScenarioPane';
import { DEFAULT_PRESET_ID, presetById, type Preset } from './scenario/presets';
import { useUrlState } from './share/useUrlState';
import { useRunShortcuts } from './shortcuts';
import { SkipToRun } from './SkipToRun';
import { useMediaQuery } from './useMediaQuery';
import { useSimulation } from './useSimulation';

/** One column (styles.css): a lesson, its run and its chart come first. */
const PHONE_LAYOUT = '(max-width: 900px)';

const PRESET_LOOKUP = { text: (id: string) => presetById(id)?.text, defaultId: DEFAULT_PRESET_ID };

export function App() {
  const sim = useSimulation();
  const { state, valid, running, scenario, hasSweep, actions } = sim;
  const { text, presetId, errors, validated, estimate, coreVersion, phase, result, sweepRows, resultScenario, costPrompt } = state;

  useRunShortcuts({ canRun: valid, running, run: actions.run, cancel: actions.cancel });

  // Files, the draft, and a question before a preset or a lesson step replaces unsaved edits.
  const files = useScenarioFiles({ text, presetId, load: actions.load, pickPreset: actions.pick, edit: actions.edit });
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
  const lessons = useLessonPage({ text, shownOutput: result ?? sweepRows, files, actions });
  const lessonFirst = useMediaQuery(PHONE_LAYOUT) && lessons.open;

  const onPick = (p: Preset) =>
    files.guard(`the preset "${p.id}"`, () => {
      files.markLoaded(p.text);
      actions.pick(p);
    });
  const runAfterSlide = useCallback(() => actions.runWhenValid('slider'), [actions]);
  const live = useLiveSlider({ valid, validated, estimate, workers: state.workers, hasSweep, phase, result, resultScenario, runWhenValid: runAfterSlide });

  // The landing's cards: a preset runs (its sweep if it has one, as a shared link does); a lesson
  // opens at its first step and runs it. The card goes with the landing, so the focus moves to
  // the results pane or to the step's heading.
  const resultsPane = useRef<HTMLElement>(null);
  const onCardPreset = (p: Preset) => {
    onPick(p);
    files.afterGuard(() => actions.runWhenValid('preset'));
    resultsPane.current?.focus();
  };
  const showLanding = !result && !sweepRows && !running && !lessons.open && state.autoRun === null && !costPrompt;

  // On a phone with a lesson open, the lesson comes first, then the run and its chart, and the
  // scenario folds away below them.
  const lessonBlock = (
    <LessonBlock lessons={lessons} resultScenario={resultScenario} running={running}>
      {files.pending && <ConfirmReplace pending={files.pending} onAnswer={files.answer} />}
    </LessonBlock>
  );
  const scenarioPane = <ScenarioPane text={text} scenario={scenario} errors={errors} presetId={presetId} files={files} slider={live.slider} onPick={onPick} onEdit={actions.edit} />;

  return (
    <div className="app">
      <SkipToRun />
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
              {scenarioPane}
            </details>
          ) : (
            scenarioPane
          )}
        </section>
        <ResultsPane
          sim={sim}
          url={url}
          previousRun={live.previousRun}
          foldChartNumbers={lessons.foldChartNumbers}
          landing={showLanding ? { onRunPreset: onCardPreset, onStartLesson: lessons.startLesson } : null}
          paneRef={resultsPane}
        />
      </main>
    </div>
  );
}
