// The shared time cursor (timeCursor.ts) on a chart over simulation time: a rule placed
// imperatively on every move, whoever moved it, never through React state; a click on the plot
// puts the cursor there, and dragging the rule's handle moves it.

import { useEffect } from 'react';
import type { ScaleLinear } from 'd3-scale';
import { pointer, select } from 'd3-selection';
import type { ChartTime } from '../../timeCursor';
import type { ChartRefs } from './refs';

export function useTimeCursor(
  refs: ChartRefs,
  time: ChartTime | null,
  xs: ScaleLinear<number, number>,
  /** The whole x domain: the cursor is never moved outside it. */
  domain: [number, number],
): void {
  const [lo, hi] = domain;
  useEffect(() => {
    const g = refs.cursor.current;
    if (!time || !g) return;
    const [, width] = xs.range();
    const place = (t: number) => {
      const px = xs(t);
      const inside = px >= 0 && px <= width;
      g.setAttribute('visibility', inside ? 'visible' : 'hidden');
      g.setAttribute('transform', `translate(${inside ? px : 0},0)`);
      g.dataset.t = String(t);
    };
    place(time.cursor.get());
    return time.cursor.subscribe(place);
  }, [refs, time, xs]);

  useEffect(() => {
    const el = refs.overlay.current;
    const handle = refs.cursor.current?.querySelector<SVGRectElement>('.time-cursor-handle');
    if (!time || !el || !handle) return;
    const toTime = (event: PointerEvent | MouseEvent) => Math.min(hi, Math.max(lo, xs.invert(pointer(event, el)[0])));
    const sel = select(el);
    // d3-zoom swallows the click that ends a pan, so only a click without a drag lands here.
    sel.on('click.cursor', (event: MouseEvent) => time.cursor.set(toTime(event), 'chart'));
    const down = (event: PointerEvent) => {
      handle.setPointerCapture(event.pointerId);
      event.preventDefault();
    };
    const move = (event: PointerEvent) => {
      if (handle.hasPointerCapture(event.pointerId)) time.cursor.set(toTime(event), 'chart');
    };
    handle.addEventListener('pointerdown', down);
    handle.addEventListener('pointermove', move);
    return () => {
      sel.on('click.cursor', null);
      handle.removeEventListener('pointerdown', down);
      handle.removeEventListener('pointermove', move);
    };
  }, [refs, time, xs, lo, hi]);
}
