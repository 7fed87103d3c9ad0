import { describe, expect, it } from 'vitest';
import type { FlowTraces } from '../sim/results';
import { ARRIVAL_DASH } from './DelayCdfChart';
import { jitterSeries, withGaps } from './JitterChart';

describe('withGaps', () => {
  it('keeps consecutive seconds joined', () => {
    const r = withGaps([1, 2, 3], [0.5, 1, 0]);
    expect(Array.from(r.x)).toEqual([1, 2, 3]);
    expect(Array.from(r.y)).toEqual([0.5, 1, 0]);
  });
  it('breaks the line where a second without deliveries lies between two points', () => {
    const r = withGaps([1, 2, 5], [0.5, 1, 2]);
    expect(Array.from(r.x)).toEqual([1, 2, 3.5, 5]);
    expect(r.y[2]).toBeNaN();
    expect(r.y[3]).toBe(2);
  });
  it('is empty for no points', () => {
    expect(withGaps([], []).x.length).toBe(0);
  });
});

describe('jitterSeries', () => {
  const cols = (t: number[], v: number[]) => ({ t: Float64Array.from(t), cols: { jitter_ms: Float64Array.from(v) } });
  const empty = { t: new Float64Array(0), cols: {} };
  const base = { sender: empty, owd: empty, goodput: empty, owdCdfMs: new Float64Array(0) };
  it('adds a dashed arrival line, with gaps, beside the in-order one of flows that have it', () => {
    const flows: FlowTraces[] = [
      { ...base, id: 0, jitter: cols([1, 2], [3, 4]) },
      { ...base, id: 1, jitter: cols([1, 2], [5, 6]), jitterArrival: cols([1, 3], [1, 2]) },
    ];
    const s = jitterSeries(flows, (id) => `f${id}`);
    expect(s.map((x) => [x.key, x.dash ?? null, x.testid ?? 'series'])).toEqual([
      ['jitter-0', null, 'series'],
      ['jitter-1', null, 'series'],
      ['jitter-arrival-1', ARRIVAL_DASH, 'arrival'],
    ]);
    expect(Array.from(s[2].x)).toEqual([1, 2, 3]);
    expect(s[2].y[1]).toBeNaN();
    expect(s[2].label).toBe('f1 at arrival');
  });
});
