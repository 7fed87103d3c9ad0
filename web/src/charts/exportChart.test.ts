import { describe, expect, it } from 'vitest';
import { pngScale } from './exportChart';

describe('pngScale', () => {
  it('keeps the scale asked for a chart of ordinary size', () => {
    expect(pngScale(900, 360, 2)).toBe(2);
    expect(pngScale(1800, 900, 2)).toBe(2);
  });

  it('shrinks a drawing too wide or too large for a canvas to the largest that fits', () => {
    // The INTCP hop view of a 10-minute constellation run: 230 columns of 150 px and a gutter.
    const [w, h] = [92 + 230 * 150, 760];
    const s = pngScale(w, h, 2);
    expect(s).toBeLessThan(2);
    expect(w * s).toBeLessThanOrEqual(32_767);
    expect(w * s * h * s).toBeLessThanOrEqual(4096 * 4096 * (1 + 1e-12));
    // As large as the area allows: a hair more would not fit.
    expect(w * (s * 1.001) * h * (s * 1.001)).toBeGreaterThan(4096 * 4096);
    // A long thin strip is held by its side, not its area.
    const thin = pngScale(40_000, 10, 2);
    expect(40_000 * thin).toBeCloseTo(32_767, 6);
  });

  it('leaves an empty drawing alone', () => {
    expect(pngScale(0, 100, 2)).toBe(2);
  });
});
