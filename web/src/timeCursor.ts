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

/** An instant marked on the charts' time axis. */
export interface TimeMark {
  t: number;
  kind: 'handover' | 'route_change';
}

export interface ChartTime {
  cursor: TimeCursor;
  marks: TimeMark[];
}

/** A page's one cursor, and what its charts get when the globe shares their time axis (`shared`:
 * a globe is shown) with the run's route events as marks. */
export function usePageTime(shared: boolean, events: readonly { t_s: number; kind: TimeMark['kind'] }[] | undefined): { cursor: TimeCursor; chartTime: ChartTime | null } {
  const cursor = useMemo(() => new TimeCursor(), []);
  const chartTime = useMemo<ChartTime | null>(() => {
    if (!shared) return null;
    return { cursor, marks: (events ?? []).map((e) => ({ t: e.t_s, kind: e.kind })) };
  }, [shared, events, cursor]);
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
