// The hop view's time controls: a slider over the run (keyboard: arrows, Page Up/Down,
// Home/End), its read-out and Play. They move the page's shared cursor (timeCursor.ts) and follow
// it imperatively, so a cursor moving 60 times a second re-renders none of them.

import { useEffect, useId, useRef } from 'react';
import type { TimeCursor } from '../timeCursor';
import { fmt } from './palette';

/** Play runs through the whole run in this many seconds of wall time. */
const PLAY_S = 20;

export function clamp(t: number, [a, b]: [number, number]): number {
  return Math.min(b, Math.max(a, t));
}

/** The time slider (keyboard: arrows, Page Up/Down, Home/End) and a Play button. The slider
 * and its read-out follow the cursor imperatively, so playing re-renders nothing. */
export function TimeControls({
  domain,
  cursor,
  playing,
  setPlaying,
  byHand,
}: {
  domain: [number, number];
  cursor: TimeCursor;
  playing: boolean;
  setPlaying: (playing: boolean) => void;
  /** Shows a move made by hand at once (see useThrottledCursor). */
  byHand: () => void;
}) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const outputRef = useRef<HTMLOutputElement>(null);
  useEffect(() => {
    const show = (raw: number) => {
      const t = clamp(raw, domain);
      if (inputRef.current) {
        inputRef.current.value = String(t);
        inputRef.current.setAttribute('aria-valuetext', `${fmt(t, 4)} seconds`);
      }
      if (outputRef.current) outputRef.current.textContent = `t = ${fmt(t, 4)} s`;
    };
    show(cursor.get());
    return cursor.subscribe(show);
  }, [cursor, domain]);
  useEffect(() => {
    if (!playing) return;
    const [a, b] = domain;
    let last = performance.now();
    let frame = requestAnimationFrame(function tick(now) {
      const next = clamp(cursor.get(), domain) + ((now - last) / 1000 / PLAY_S) * (b - a);
      last = now;
      if (next >= b) {
        cursor.set(b, 'chart');
        setPlaying(false);
        return;
      }
      cursor.set(next, 'chart');
      frame = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(frame);
  }, [playing, domain, cursor, setPlaying]);
  const span = domain[1] - domain[0];
  return (
    <div className="hop-cursor">
      <label htmlFor={id}>Time</label>
      <input
        ref={inputRef}
        id={id}
        type="range"
        min={domain[0]}
        max={domain[1]}
        step={span / 1000}
        defaultValue={clamp(cursor.get(), domain)}
        onChange={(e) => {
          cursor.set(Number(e.target.value), 'chart');
          byHand();
        }}
        data-testid="hop-cursor"
      />
      <output ref={outputRef} htmlFor={id} data-testid="hop-cursor-value" />
      <button
        type="button"
        className="small"
        onClick={() => {
          if (!playing && clamp(cursor.get(), domain) >= domain[1]) {
            cursor.set(domain[0], 'chart');
            byHand();
          }
          setPlaying(!playing);
        }}
        aria-pressed={playing}
      >
        {playing ? '❚❚ Pause' : '▶ Play'}
      </button>
    </div>
  );
}
