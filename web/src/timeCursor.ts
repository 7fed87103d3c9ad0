// The one time cursor of a run, in simulation seconds, shared by the globe and the charts.
// It is a tiny external store rather than React state: while the globe plays it moves 60 times a
// second, and every chart would re-render on each move. Subscribers (the charts' cursor line,
// the globe's scrub bar, the hop view) apply a move imperatively; React only holds the store
// itself.

import { createContext, useCallback, useEffect, useMemo, useRef, useState } from 'react';

/** Who moved the cursor, so a view can ignore its own echo. */
export type CursorSource = 'globe' | 'chart' | 'app';

export class TimeCursor {
  private t = 0;
  private listeners = new Set<(t: number, source: CursorSource) => void>();

  get(): number {
    return this.t;
  }

  set(t: number, source: CursorSource): void {
    if (!Number.isFinite(t) || t === this.t) return;
    this.t = t;
    for (const fn of this.listeners) fn(t, source);
  }

  /** Calls `fn` on every move; returns the unsubscribe function. */
  subscribe(fn: (t: number, source: CursorSource) => void): () => void {
    this.listeners.add(fn);
    return () => {
      this.listeners.delete(fn);
    };
  }
}

/** The kinds of instants marked on the charts' time axis: a handover (a scheduled terminal's
 * split by cause: at a slot boundary, or its satellite lost mid-slot) or a route change. */
export type TimeMarkKind = 'handover' | 'slot_handover' | 'lost_handover' | 'route_change';

/** An instant marked on the charts' time axis. */
export interface TimeMark {
  t: number;
  kind: TimeMarkKind;
}

export interface ChartTime {
  cursor: TimeCursor;
  marks: TimeMark[];
  /** The scheduler's slot boundaries, simulation s (thin rules across the plots); empty without
   * a scheduler. */
  slots: readonly number[];
}

/** What of a run's path the charts mark (`PathTimeline`'s events and slot boundaries). */
export interface PathMarks {
  events: readonly { t_s: number; kind: 'handover' | 'route_change'; cause?: string | null }[];
  slot_boundaries_s?: readonly number[] | null;
}

/** The mark of a path event: handovers by cause where the core gives one. */
export function markKind(e: PathMarks['events'][number]): TimeMarkKind {
  if (e.kind !== 'handover') return e.kind;
  return e.cause === 'slot_boundary' ? 'slot_handover' : e.cause === 'lost_mid_slot' ? 'lost_handover' : 'handover';
}

const NO_SLOTS: readonly number[] = [];

/** A page's one cursor, and what its charts get when the globe shares their time axis (`shared`:
 * a globe is shown) with the run's route events and slot boundaries as marks. */
export function usePageTime(shared: boolean, path: PathMarks | null | undefined): { cursor: TimeCursor; chartTime: ChartTime | null } {
  const cursor = useMemo(() => new TimeCursor(), []);
  const chartTime = useMemo<ChartTime | null>(() => {
    if (!shared) return null;
    return { cursor, marks: (path?.events ?? []).map((e) => ({ t: e.t_s, kind: markKind(e) })), slots: path?.slot_boundaries_s ?? NO_SLOTS };
  }, [shared, path, cursor]);
  return { cursor, chartTime };
}

/** The page's one cursor, always there: the globe and the hop view move and follow it whether
 * or not the time-series charts show it. App provides its own; the default serves a view
 * rendered on its own. */
export const TimeCursorContext = createContext<TimeCursor>(new TimeCursor());

/** Given to the charts of a run whose time axis the globe shares (the cursor drawn on them,
 * with the route's events); absent elsewhere. */
export const ChartTimeContext = createContext<ChartTime | null>(null);

/**
 * The cursor's time as React state, updated at most once per `minIntervalMs` (the first move at
 * once, the last one always): for views that must re-render to follow the cursor (the hop
 * view's strip), while the cursor's fast-moving parts follow it through `subscribe`. `now()`
 * catches up at once, for a move the user made by hand (a key, a click), which should show
 * without waiting.
 */
export function useThrottledCursor(cursor: TimeCursor, minIntervalMs: number): { t: number; now: () => void } {
  const [t, setT] = useState(() => cursor.get());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const last = useRef(-Infinity);
  const now = useCallback(() => {
    if (timer.current !== undefined) clearTimeout(timer.current);
    timer.current = undefined;
    last.current = performance.now();
    setT(cursor.get());
  }, [cursor]);
  useEffect(() => {
    setT(cursor.get());
    const off = cursor.subscribe(() => {
      if (timer.current !== undefined) return;
      const wait = last.current + minIntervalMs - performance.now();
      if (wait <= 0) now();
      else timer.current = setTimeout(now, wait);
    });
    return () => {
      off();
      if (timer.current !== undefined) clearTimeout(timer.current);
      timer.current = undefined;
    };
  }, [cursor, minIntervalMs, now]);
  return { t, now };
}
