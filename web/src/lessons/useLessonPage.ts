// The page's side of the lessons: their place in the URL (useLessonUrl.ts), the view the shown
// step points at (highlight.ts), whether the charts fold the numbers that may give an answer
// away, and how a step's scenario reaches the editor: through the page's question before unsaved
// edits are replaced (files/), so a lesson never silently takes a user's work away.

import { useCallback, useEffect, useRef, useState } from 'react';
import type { AutoRunSource } from '../simulation';
import { LESSONS } from './catalog';
import { VIEWS, type View } from './format';
import { useViewHighlight, type HighlightRequest } from './highlight';
import { reduce } from './state';
import { useLessonUrl } from './useLessonUrl';

const STEP_COUNTS = LESSONS.map((l) => l.lesson.steps.length);

/** The note that a highlighted view's aria-describedby names. */
export const LESSON_NOTE_ID = 'lesson-view-note';

/** What a lesson needs of the scenario files: whether the text has unsaved edits, and the
 * question asked before replacing them (files/useScenarioFiles.ts). */
export interface LessonFiles {
  dirty: boolean;
  markLoaded: (text: string) => void;
  guard: (what: string, replace: () => void) => void;
  afterGuard: (then: () => void) => void;
}

/** What a lesson asks of the simulator (useSimulation's actions). */
export interface LessonActions {
  load: (text: string) => void;
  runWhenValid: (source?: AutoRunSource) => void;
}

export function useLessonPage({
  text,
  shownOutput,
  files,
  actions,
}: {
  /** The editor's text. */
  text: string;
  /** What the results pane shows (a run or a sweep): a new one moves the highlight's note. */
  shownOutput: unknown;
  files: LessonFiles;
  actions: LessonActions;
}) {
  const lessons = useLessonUrl(STEP_COUNTS);
  const { state } = lessons;
  const [highlight, setHighlight] = useState<HighlightRequest | null>(null);
  const highlightSeq = useRef(0);
  const onHighlight = useCallback((v: View | null) => setHighlight(v ? { view: v, seq: ++highlightSeq.current } : null), []);
  useViewHighlight(highlight, shownOutput, LESSON_NOTE_ID);
  const shown = state.lesson !== null ? LESSONS[state.lesson] : undefined;
  const shownStep = shown?.lesson.steps[state.step];
  // A step's answer not yet revealed: the charts' written numbers, which may state it, fold.
  const foldChartNumbers = shownStep !== undefined && !state.revealed.includes(state.step);
  /** The note's sentence: which view the shown step is about. */
  const viewNote = shown && shownStep && highlight ? `Step ${state.step + 1} of the lesson "${shown.lesson.title}" is about ${VIEWS[highlight.view].label}.` : '';

  const loadScenario = (s: object) =>
    files.guard("this lesson step's scenario", () => {
      const t = JSON.stringify(s, null, 2);
      files.markLoaded(t);
      actions.load(t);
    });
  const runStep = () => files.afterGuard(actions.runWhenValid);

  // A lesson opened from the list puts its step's scenario in the editor, which takes the last
  // result and globe away: the step's text never sits beside another lesson's run. Unsaved edits
  // stay (the step's Run asks before replacing them); so does what the page opened with.
  const openedLesson = useRef(state.lesson);
  useEffect(() => {
    const lesson = state.lesson;
    if (lesson === openedLesson.current) return;
    openedLesson.current = lesson;
    if (lesson === null || files.dirty) return;
    const t = JSON.stringify(LESSONS[lesson].scenarios[state.step], null, 2);
    if (t === text) return;
    files.markLoaded(t);
    actions.load(t);
  }, [state.lesson, state.step, files, actions, text]);

  /** Opens lesson `i` at its first step and runs it; the focus goes to the step's heading. */
  const startLesson = (i: number) => {
    lessons.setState(reduce(state, { type: 'open', lesson: i }, STEP_COUNTS));
    loadScenario(LESSONS[i].scenarios[0]);
    runStep();
    requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="step-title"]')?.focus());
  };

  return { ...lessons, open: state.lesson !== null, foldChartNumbers, viewNote, onHighlight, loadScenario, runStep, startLesson };
}
