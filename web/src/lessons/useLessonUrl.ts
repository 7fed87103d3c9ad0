// The learner's place in the lessons, kept in the URL fragment beside whatever else it holds
// (`#s=…&lesson=2&step=3&revealed=1,2`; docs/lessons.md §7), so that a teacher can link to a
// step. A move to another step (or lesson, or the list) is a new history entry, so the
// browser's Back returns to the previous step; revealing an answer only rewrites the current
// entry. Steps that have run are not in the URL, but survive Back and Forward within a lesson.

import { useCallback, useEffect, useState } from 'react';
import { withParams } from '../share/fragment';
import { fragmentParams, LANDING, parse, sameStep, type LessonState } from './state';

export interface LessonUrl {
  state: LessonState;
  setState: (next: LessonState) => void;
  /** Why the lesson in the URL could not be opened (a bad `step=` in a link), until dismissed. */
  error: string | null;
  dismissError: () => void;
}

function read(stepCounts: readonly number[]): { state: LessonState; error: string | null } {
  const r = parse(window.location.hash, stepCounts);
  return r.ok ? { state: r.state, error: null } : { state: LANDING, error: `This link's lesson could not be opened: ${r.error}.` };
}

function write(next: LessonState, push: boolean) {
  const url = new URL(window.location.href);
  const hash = withParams(url.hash, fragmentParams(next));
  if (hash === url.hash.replace(/^#/, '')) return;
  url.hash = hash;
  if (push) window.history.pushState(null, '', url);
  else window.history.replaceState(null, '', url);
}

export function useLessonUrl(stepCounts: readonly number[]): LessonUrl {
  const [{ state, error }, set] = useState(() => read(stepCounts));
  // The counts come from the bundled lessons; a key keeps the effect from rerunning on a new array.
  const countsKey = stepCounts.join(',');

  // Back, Forward and an edited fragment: the URL is the truth. Runs of the same lesson are kept.
  useEffect(() => {
    const counts = countsKey === '' ? [] : countsKey.split(',').map(Number);
    const onPop = () => {
      const next = read(counts);
      set((prev) => ({
        state: next.state.lesson !== null && next.state.lesson === prev.state.lesson ? { ...next.state, ran: prev.state.ran } : next.state,
        error: next.error,
      }));
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [countsKey]);

  const setState = useCallback(
    (next: LessonState) => {
      write(next, !sameStep(state, next));
      set({ state: next, error: null });
    },
    [state],
  );
  const dismissError = useCallback(() => set((prev) => ({ ...prev, error: null })), []);
  return { state, setState, error, dismissError };
}
