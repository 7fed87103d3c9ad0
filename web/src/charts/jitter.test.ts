import { describe, expect, it } from 'vitest';
import { withGaps } from './JitterChart';

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
