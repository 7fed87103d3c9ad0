// The lesson panel: the list of lessons, then one step at a time with its text, what to look at,
// "Run this step" and its question, whose answer can be revealed once the step has run.
// Controlled: the page owns the state (state.ts) and the simulator; the panel asks through
// callbacks. A step counts as run when the page's latest result is of the step's scenario
// (`resultScenario`), so a run started elsewhere with the same scenario counts too.

import { useEffect, useId, useRef, useState } from 'react';
import type { Scenario } from '../scenario/types.gen';
import { VIEWS, type ResolvedLesson, type View } from './format';
import { sameJson } from './resolve';
import { SafeText } from './SafeText';
import { reduce, type LessonAction, type LessonState } from './state';
import './lessons.css';

export interface LessonPanelProps {
  lessons: readonly ResolvedLesson[];
  state: LessonState;
  onStateChange: (next: LessonState) => void;
  /** Put this scenario in the editor (the step's, about to run). */
  onLoadScenario: (scenario: Scenario) => void;
  /** Run the scenario just loaded, once the page has it. */
  onRun: () => void;
  /** Point the learner at a view; null when no lesson step is shown. */
  onHighlight: (view: View | null) => void;
  /** The scenario of the result on the page, if any. */
  resultScenario: Scenario | null;
  /** Whether a run is under way (Run this step waits). */
  running?: boolean;
  /** Whether the list of lessons starts open; it folds away so that the presets below stay in
   * view, and opens by itself when the learner leaves a lesson for the list. */
  listOpen?: boolean;
}

export function LessonPanel({ lessons, state, onStateChange, onLoadScenario, onRun, onHighlight, resultScenario, running = false, listOpen = false }: LessonPanelProps) {
  const uid = useId();
  const [open, setOpen] = useState(listOpen);
  const stepCounts = lessons.map((l) => l.lesson.steps.length);
  const dispatch = (action: LessonAction) => {
    const next = reduce(state, action, stepCounts);
    if (next !== state) onStateChange(next);
  };
  const current = state.lesson !== null ? lessons[state.lesson] : undefined;
  const step = current?.lesson.steps[state.step];
  const scenario = current?.scenarios[state.step];
  const view = step?.look_at ?? null;

  // The highlight follows the step shown; the latest callback is used without re-highlighting
  // on every render of the page.
  const highlight = useRef(onHighlight);
  useEffect(() => {
    highlight.current = onHighlight;
  });
  useEffect(() => {
    highlight.current(view);
  }, [view, state.lesson, state.step]);

  // The result on the page is this step's run: the answer may be revealed.
  const matches = !!scenario && !!resultScenario && sameJson(resultScenario, scenario);

  // Beside its chart the panel stays on screen (sticky, scrolling by itself when taller than the
  // screen): once the step's run is on the page, its question is scrolled into the panel's view,
  // without moving the page away from the chart.
  const panelRef = useRef<HTMLElement>(null);
  const questionRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const panel = panelRef.current;
    const question = questionRef.current;
    if (!matches || !panel || !question || panel.scrollHeight <= panel.clientHeight) return;
    const below = question.getBoundingClientRect().bottom - panel.getBoundingClientRect().bottom;
    if (below > 0) panel.scrollTop += below + 8;
  }, [matches, state.step, state.lesson]);
  const hasRun = !!current && state.ran.includes(state.step);
  useEffect(() => {
    if (matches && !hasRun) onStateChange(reduce(state, { type: 'ran', step: state.step }, stepCounts));
  });

  // After Next, Back or opening a lesson, focus goes to the step's heading, so a screen reader
  // reads the new step rather than staying on a button; after leaving a lesson, to the list's.
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const listHeading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  useEffect(() => {
    if (moved.current) {
      moved.current = false;
      (stepHeading.current ?? listHeading.current)?.focus();
    }
  }, [state.lesson, state.step]);
  const go = (action: LessonAction) => {
    moved.current = true;
    dispatch(action);
  };

  if (!current || !step || !scenario) {
    return (
      <section className="lessons" aria-labelledby={`${uid}-title`} data-testid="lessons">
        <div className="lessons-head">
          <h2 id={`${uid}-title`} ref={listHeading} tabIndex={-1}>
            Lessons
          </h2>
          <button type="button" className="link-button" aria-expanded={open} aria-controls={`${uid}-list`} onClick={() => setOpen(!open)} data-testid="lessons-toggle">
            {open ? 'Hide' : `Show all ${lessons.length}`}
          </button>
        </div>
        <p className="lessons-intro">Guided experiments, a few steps each: run the scenario, look at the chart, answer the question.</p>
        <ol id={`${uid}-list`} className="lesson-list" hidden={!open} data-testid="lesson-list">
          {lessons.map((l, i) => (
            <li key={l.lesson.id}>
              <h3 className="lesson-list-title">
                <button type="button" className="link-button" onClick={() => go({ type: 'open', lesson: i })} data-testid={`open-lesson-${i + 1}`}>
                  {l.lesson.title}
                </button>
              </h3>
              <div className="lesson-list-summary">
                <SafeText text={l.lesson.summary} />
              </div>
              <p className="lesson-list-steps">{l.lesson.steps.length} steps</p>
            </li>
          ))}
        </ol>
      </section>
    );
  }

  const n = current.lesson.steps.length;
  const revealed = state.revealed.includes(state.step);
  const canReveal = hasRun || matches;
  const last = state.step === n - 1;
  return (
    <section className="lessons" aria-labelledby={`${uid}-title`} data-testid="lessons" data-lesson={current.lesson.id} data-step={state.step + 1} ref={panelRef}>
      <h2 id={`${uid}-title`}>Lessons</h2>
      <div className="lesson-bar">
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setOpen(true);
            go({ type: 'close' });
          }}
          data-testid="all-lessons"
        >
          All lessons
        </button>
        <span className="lesson-where">
          Lesson {(state.lesson ?? 0) + 1} of {lessons.length}
        </span>
      </div>
      <h3>{current.lesson.title}</h3>
      <p className="lesson-progress" aria-live="polite" data-testid="lesson-progress">
        Step {state.step + 1} of {n}
      </p>
      <article className="lesson-step" aria-labelledby={`${uid}-step`}>
        <h4 id={`${uid}-step`} ref={stepHeading} tabIndex={-1} data-testid="step-title">
          {step.title}
        </h4>
        <div className="lesson-text" data-testid="step-text">
          <SafeText text={step.text} />
        </div>
        <p className="lesson-look">
          Look at {VIEWS[step.look_at].label}.{' '}
          <button type="button" className="link-button" onClick={() => onHighlight(step.look_at)} data-testid="show-view">
            Show {VIEWS[step.look_at].label}
          </button>
        </p>
        <div className="lesson-actions">
          <button
            type="button"
            className="primary"
            disabled={running}
            onClick={() => {
              onLoadScenario(scenario);
              onRun();
            }}
            data-testid="run-step"
          >
            Run this step
          </button>
          <span className="lesson-scenario">{scenario.name}</span>
        </div>
        <div className="lesson-question" data-testid="step-question" ref={questionRef}>
          <h5>Question</h5>
          <SafeText text={step.question} />
          {revealed ? (
            <div className="lesson-answer" role="region" aria-label="Answer" data-testid="step-answer">
              <h6>Answer</h6>
              <SafeText text={step.answer} />
            </div>
          ) : (
            <p>
              <button type="button" disabled={!canReveal} aria-describedby={canReveal ? undefined : `${uid}-why`} onClick={() => onStateChange(reduce(reduce(state, { type: 'ran', step: state.step }, stepCounts), { type: 'reveal', step: state.step }, stepCounts))} data-testid="reveal">
                Reveal answer
              </button>{' '}
              {!canReveal && (
                <span id={`${uid}-why`} className="lesson-hint">
                  Run this step first: the answer is about its result.
                </span>
              )}
            </p>
          )}
        </div>
      </article>
      <nav className="lesson-nav" aria-label="Lesson steps">
        <button type="button" onClick={() => go({ type: 'back' })} disabled={state.step === 0} data-testid="step-back">
          Back
        </button>
        {last ? (
          <button
            type="button"
            onClick={() => {
              setOpen(true);
              go({ type: 'close' });
            }}
            data-testid="step-finish"
          >
            Finish lesson
          </button>
        ) : (
          <button type="button" onClick={() => go({ type: 'next' })} data-testid="step-next">
            Next
          </button>
        )}
      </nav>
    </section>
  );
}
