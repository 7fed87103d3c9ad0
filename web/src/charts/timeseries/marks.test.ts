import { describe, expect, it } from 'vitest';
import { scaleLinear } from 'd3-scale';
import { baselineLegend, baselineSeries, BASELINE_DASH } from './baseline';
import { legendItems } from './legend';
import { markerPaths } from './markers';
import { ribbonRects, stateRuns } from './ribbons';
import { valueAt, yScale } from './scales';
import { slotRulePath, timeMarkPaths } from './timeMarks';
import { markKind } from '../../timeCursor';
import { zoomAccepts } from './useZoom';
import type { LineSeries } from './types';

const line = (over: Partial<LineSeries> = {}): LineSeries => ({ key: 'a', label: 'a', color: '#000', x: [0, 1, 2, 3], y: [10, 20, 30, 40], ...over });

describe('zoom', () => {
  it('lets a scroll down over an unzoomed chart scroll the page', () => {
    expect(zoomAccepts({ type: 'wheel', deltaY: 100 }, 1)).toBe(false);
    expect(zoomAccepts({ type: 'wheel', deltaY: -100 }, 1)).toBe(true);
    // Zoomed in, scrolling down zooms out.
    expect(zoomAccepts({ type: 'wheel', deltaY: 100 }, 4)).toBe(true);
  });

  it("leaves Ctrl (the browser's zoom) and other buttons than the main one alone", () => {
    expect(zoomAccepts({ type: 'wheel', deltaY: -100, ctrlKey: true }, 2)).toBe(false);
    expect(zoomAccepts({ type: 'mousedown', button: 0 }, 1)).toBe(true);
    expect(zoomAccepts({ type: 'mousedown', button: 2 }, 1)).toBe(false);
    expect(zoomAccepts({ type: 'mousedown', button: 0, ctrlKey: true }, 1)).toBe(false);
  });
});

describe('values and scales', () => {
  it('reads the held value of a step line and the nearest point of a plain one', () => {
    expect(valueAt(line({ step: true }), 1.9)).toEqual({ i: 1, y: 20 });
    expect(valueAt(line(), 1.9)).toEqual({ i: 2, y: 30 });
    expect(valueAt(line({ step: true }), -1)).toBeNull();
    // A step line ends where its last bin ends.
    expect(valueAt(line({ step: true, extendTo: 3.5 }), 3.4)).toEqual({ i: 3, y: 40 });
    expect(valueAt(line({ step: true, extendTo: 3.5 }), 3.6)).toBeNull();
  });

  it('fits y to the points in view, from zero for positive values', () => {
    const s = line();
    const ys = yScale([s], [Uint32Array.from([0, 1, 2, 3])], [], { va: 0, vb: 1, yZero: true, yLog: false, h: 100 });
    expect(ys.domain()[0]).toBe(0);
    expect(ys.domain()[1]).toBeGreaterThanOrEqual(20);
    expect(ys.domain()[1]).toBeLessThan(30);
  });

  it('draws floating-point noise as a flat line on a plain axis, not ticks of 1e-7', () => {
    const noise = line({ y: [0, 4.5e-7, 1e-7, 0] });
    const ys = yScale([noise], [Uint32Array.from([0, 1, 2, 3])], [], { va: 0, vb: 3, yZero: true, yLog: false, h: 100 });
    expect(ys.domain()).toEqual([0, 1.1]);
    expect(ys.ticks().every((t) => t === 0 || Math.abs(t) >= 0.1)).toBe(true);
  });
});

describe('marks', () => {
  it('finds the runs of equal state', () => {
    const r = stateRuns([0, 1, 2, 3, 4, 5], [0, 0, 1, 1, -1, 0]);
    expect(Array.from(r.x)).toEqual([0, 2, 4, 5]);
    expect(Array.from(r.s)).toEqual([0, 1, -1, 0]);
  });

  it('gives a pixel column to the state of highest priority in it', () => {
    // State 1 lasts 0.1 of 100 s on a 10-pixel ribbon: a tenth of a column, drawn anyway.
    const runs = stateRuns([0, 50, 50.1], [0, 1, 0]);
    const xs = scaleLinear().domain([0, 100]).range([0, 10]);
    const d = ribbonRects(runs, 100, xs, 10, [0, 1]);
    expect(d[1]).toBe('M5,0h1v10h-1Z');
    expect(d[0]).toBe('M0,0h5v10h-5ZM6,0h4v10h-4Z');
  });

  it('draws at most one event marker per two pixel columns', () => {
    const x = Array.from({ length: 1000 }, (_, i) => i / 1000);
    const xs = scaleLinear().domain([0, 1]).range([0, 100]);
    const ys = scaleLinear().domain([0, 1]).range([100, 0]);
    const [m] = markerPaths([{ key: 'm', label: 'm', color: '#000', x, y: 0.5 }], xs, ys);
    expect(m.count).toBe(50);
  });

  it('places route events in view, one path per kind', () => {
    const xs = scaleLinear().domain([10, 20]).range([0, 100]);
    const p = timeMarkPaths([{ t: 5, kind: 'handover' }, { t: 15, kind: 'handover' }, { t: 12, kind: 'route_change' }], xs, 200);
    expect(p.map((m) => [m.kind, m.count])).toEqual([
      ['handover', 1],
      ['route_change', 1],
    ]);
    expect(p[0].d).toBe('M50.0,200l4,7h-8Z');
  });

  it("tells a scheduled terminal's handovers apart by cause, in shape and colour", () => {
    const kinds = [
      { t_s: 12, kind: 'handover' as const, cause: 'slot_boundary' },
      { t_s: 20, kind: 'handover' as const, cause: 'lost_mid_slot' },
      { t_s: 30, kind: 'handover' as const },
      { t_s: 30, kind: 'route_change' as const },
    ].map(markKind);
    expect(kinds).toEqual(['slot_handover', 'lost_handover', 'handover', 'route_change']);
    const xs = scaleLinear().domain([0, 100]).range([0, 100]);
    const p = timeMarkPaths(
      kinds.map((kind, i) => ({ t: [12, 20, 30, 30][i], kind })),
      xs,
      50,
    );
    expect(p.map((m) => m.kind)).toEqual(['handover', 'slot_handover', 'lost_handover', 'route_change']);
    const d = Object.fromEntries(p.map((m) => [m.kind, m.d]));
    expect(d.slot_handover).toBe('M12.0,50l4,7h-8Z');
    expect(d.lost_handover).toBe('M20.0,50l4,4l-4,4l-4,-4Z');
    const items = legendItems({ series: [], extra: [], markers: [], paper: [], fns: [], refs: [], lowerSeries: [], lowerRefs: [], timeMarks: [{ t: 12, kind: 'slot_handover' }, { t: 20, kind: 'lost_handover' }], slots: [12, 27] });
    expect(items.map((i) => i.label)).toEqual(['handover at a slot boundary', 'handover: satellite lost mid-slot', 'slot boundary']);
    expect(items[0].color).not.toBe(items[1].color);
    expect(items[0].glyph).not.toBe(items[1].glyph);
  });

  it('draws a rule per slot boundary in view, across both panels', () => {
    const xs = scaleLinear().domain([10, 40]).range([0, 300]);
    expect(slotRulePath([12, 27, 42], xs, 330)).toEqual({ d: 'M20.0,0v330M170.0,0v330', count: 2 });
    expect(slotRulePath([], xs, 330)).toEqual({ d: '', count: 0 });
  });

  it('names each label once in the legend, and the route events only when there are some', () => {
    const items = legendItems({
      series: [line({ key: 'a1' }), line({ key: 'a2' }), line({ key: 'b', label: 'b', noLegend: true })],
      extra: [],
      markers: [],
      paper: [],
      fns: [],
      refs: [{ key: 'r', label: 'buffer', y: 1, color: '#f00' }],
      lowerSeries: [line({ key: 'a3' })],
      lowerRefs: [],
      timeMarks: [{ t: 1, kind: 'route_change' }],
    });
    expect(items.map((i) => i.label)).toEqual(['a', 'buffer', 'route change']);
  });
});

describe('the baseline mark', () => {
  it('draws the pinned lines dashed, each in its own colour, behind one legend entry', () => {
    const b = { label: 'baseline: GEO', series: [line({ key: 'g0', label: 'flow 0', color: '#0072B2' }), line({ key: 'g1', label: 'flow 1', color: '#D55E00', width: 2 })] };
    const out = baselineSeries(b);
    expect(out.map((s) => s.key)).toEqual(['baseline-g0', 'baseline-g1']);
    expect(out.every((s) => s.dash === BASELINE_DASH && s.noLegend && s.testid === 'series-baseline')).toBe(true);
    expect(out.map((s) => s.color)).toEqual(['#0072B2', '#D55E00']);
    expect(out[0].label).toBe('baseline: GEO: flow 0');
    expect(baselineLegend(b)).toEqual([{ label: 'baseline: GEO', color: 'currentColor', dash: BASELINE_DASH }]);
    const items = legendItems({ series: [line({ label: 'flow 0' })], extra: baselineLegend(b), markers: [], paper: [], fns: [], refs: [], lowerSeries: [], lowerRefs: [] });
    expect(items.map((i) => i.label)).toEqual(['flow 0', 'baseline: GEO']);
  });

  it('has no lines and no legend entry without a baseline', () => {
    expect(baselineSeries(undefined)).toEqual([]);
    expect(baselineLegend(undefined)).toEqual([]);
  });

  it('widens the y scale to the baseline when its lines are drawn with this run', () => {
    const cur = line({ y: [1, 2, 3, 4] });
    const [base] = baselineSeries({ label: 'b', series: [line({ y: [10, 20, 30, 80] })] });
    const all = [cur, base];
    const ys = yScale(all, all.map(() => Uint32Array.from([0, 1, 2, 3])), [], { va: 0, vb: 3, yZero: true, yLog: false, h: 100 });
    expect(ys.domain()[1]).toBeGreaterThanOrEqual(80);
  });
});
