// The hover read-out: under the pointer, a vertical rule, a dot on each line and a box with
// every mark's value at that x. It is drawn through refs on pointer events, so moving the
// pointer never re-renders the chart.

import { useEffect } from 'react';
import type { ScaleLinear } from 'd3-scale';
import { pointer, select } from 'd3-selection';
import { upperBound } from '../decimate';
import { fmt } from '../palette';
import type { ChartRefs } from './refs';
import { valueAt, type YScale } from './scales';
import { MARGIN, type FnSeries, type LineSeries, type RibbonSpec } from './types';

export interface HoverData {
  xs: ScaleLinear<number, number>;
  ys: YScale;
  ys2: YScale;
  series: LineSeries[];
  lowerSeries: LineSeries[];
  /** The lower panel's top, from the main panel's. */
  lowerTop: number;
  fns: FnSeries[];
  ribbons?: RibbonSpec;
  xName: string;
  xUnit: string;
  /** The chart's width, and the plot's top in it (to place the box). */
  width: number;
  top: number;
}

export function useHover(refs: ChartRefs, d: HoverData): void {
  const { xs, ys, ys2, series, lowerSeries, lowerTop, fns, ribbons, xName, xUnit, width, top } = d;
  useEffect(() => {
    const el = refs.overlay.current;
    const g = refs.hover.current;
    const tip = refs.tip.current;
    if (!el || !g || !tip) return;
    const hide = () => {
      g.setAttribute('visibility', 'hidden');
      tip.style.display = 'none';
    };
    const move = (event: PointerEvent) => {
      const [mx] = pointer(event, el);
      const x = xs.invert(mx);
      g.setAttribute('visibility', 'visible');
      const rule = g.querySelector('line');
      rule?.setAttribute('x1', String(mx));
      rule?.setAttribute('x2', String(mx));
      const dots = g.querySelectorAll('circle');
      tip.replaceChildren();
      const head = document.createElement('div');
      head.className = 'tip-head';
      head.textContent = `${xName} = ${fmt(x, 4)} ${xUnit}`;
      tip.appendChild(head);
      const row = (color: string, label: string, value: string, swatch = false) => {
        const r = document.createElement('div');
        const sw = document.createElement('span');
        sw.className = swatch ? 'tip-swatch box' : 'tip-swatch';
        sw.style.background = color;
        r.appendChild(sw);
        r.appendChild(document.createTextNode(`${label}: ${value}`));
        tip.appendChild(r);
      };
      const readOut = (list: LineSeries[], first: number, y: (v: number) => number) =>
        list.forEach((s, k) => {
          const v = valueAt(s, x);
          const dot = dots[first + k];
          if (!v || !Number.isFinite(v.y)) {
            dot?.setAttribute('visibility', 'hidden');
            if (v && Number.isNaN(v.y)) row(s.color, s.label, '–');
            return;
          }
          dot?.setAttribute('visibility', 'visible');
          dot?.setAttribute('cx', String(s.step ? mx : xs(s.x[v.i])));
          dot?.setAttribute('cy', String(y(v.y)));
          row(s.color, s.label, `${fmt(v.y, 4)}${s.unit ? ` ${s.unit}` : ''}`);
        });
      readOut(series, 0, ys);
      readOut(lowerSeries, series.length, (v) => lowerTop + ys2(v));
      for (const f of fns) {
        const y = f.fn(x);
        if (Number.isFinite(y)) row(f.color, f.label, `${fmt(y, 4)}${f.unit ? ` ${f.unit}` : ''}`);
      }
      if (ribbons)
        for (const r of ribbons.rows) {
          const i = upperBound(r.x, x);
          const s = i >= 0 ? r.v[i] : NaN;
          if (s >= 0) row(ribbons.colors[s] ?? '#999', `${r.name} state`, ribbons.names[s] ?? String(s), true);
        }
      tip.style.display = 'block';
      const box = tip.getBoundingClientRect();
      const left = MARGIN.left + mx + 14 + box.width > width ? MARGIN.left + mx - 14 - box.width : MARGIN.left + mx + 14;
      tip.style.left = `${Math.max(0, left)}px`;
      tip.style.top = `${top + 4}px`;
    };
    const sel = select(el);
    sel.on('pointermove.hover', move).on('pointerleave.hover', hide);
    return () => {
      sel.on('.hover', null);
    };
  }, [refs, xs, ys, ys2, series, lowerSeries, lowerTop, fns, ribbons, xName, xUnit, width, top]);
}
