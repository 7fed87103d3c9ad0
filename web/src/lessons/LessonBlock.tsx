// The open lesson as the page shows it: why a linked lesson could not be opened, the panel, and
// the note a highlighted view's aria-describedby names. In the left column, or on a phone with a
// lesson open, a column of its own above the results. `children` follows the note (the page's
// question before the step's scenario replaces unsaved edits).

import type { ReactNode } from 'react';
import { Notice } from '../Notice';
import type { Scenario } from '../scenario/types.gen';
import { LESSONS } from './catalog';
import { LessonPanel } from './LessonPanel';
import { LESSON_NOTE_ID, type useLessonPage } from './useLessonPage';

export function LessonBlock({
  lessons,
  resultScenario,
  running,
  children,
}: {
  lessons: ReturnType<typeof useLessonPage>;
  resultScenario: Scenario | null;
  running: boolean;
  children?: ReactNode;
}) {
  return (
    <>
      <Notice message={lessons.error} onDismiss={lessons.dismissError} testid="lesson-notice" />
      <LessonPanel
        lessons={LESSONS}
        state={lessons.state}
        onStateChange={lessons.setState}
        onLoadScenario={lessons.loadScenario}
        onRun={lessons.runStep}
        onHighlight={lessons.onHighlight}
        resultScenario={resultScenario}
        running={running}
      />
      <p id={LESSON_NOTE_ID} className="lesson-view-note">
        {lessons.viewNote}
      </p>
      {children}
    </>
  );
}
