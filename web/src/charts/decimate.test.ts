import { describe, expect, it } from 'vitest';
import { decimate, lowerBound, upperBound } from './decimate';

const ramp = (n: number) => Float64Array.from({ length: n }, (_, i) => i);

describe('decimate', () => {
  it('keeps every point when there are few', () => {
    const x = ramp(10);
    expect([...decimate(x, x, 0, 9, 100)]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('returns nothing for empty data', () => {
    expect(decimate([], [], 0, 1, 100).length).toBe(0);
  });

  it('keeps about two points per column, in order, and the range neighbours', () => {
    const n = 100_000;
    const x = ramp(n);
    const y = x.map((v) => Math.sin(v / 50));
    const idx = decimate(x, y, 1000, 50_000, 500);
    expect(idx.length).toBeLessThanOrEqual(2 * 500 + 4);
    expect(idx.length).toBeGreaterThan(500);
    for (let i = 1; i < idx.length; i++) expect(idx[i]).toBeGreaterThan(idx[i - 1]);
    expect(idx[0]).toBe(999);
    expect(idx[idx.length - 1]).toBe(50_001);
  });

  it('keeps single-sample spikes and dips', () => {
    const n = 200_000;
    const x = ramp(n);
    const y = new Float64Array(n).fill(1);
    y[123_457] = 1000;
    y[54_321] = -5;
    const idx = decimate(x, y, 0, n - 1, 300);
    expect(idx).toContain(123_457);
    expect(idx).toContain(54_321);
    const ys = [...idx].map((i) => y[i]);
    expect(Math.max(...ys)).toBe(1000);
    expect(Math.min(...ys)).toBe(-5);
  });

  it('keeps gaps (NaN) so a line breaks where the data do', () => {
    const n = 10_000;
    const x = ramp(n);
    const y = x.map((v) => (v >= 4000 && v < 6000 ? NaN : v));
    const idx = decimate(x, y, 0, n - 1, 100);
    expect([...idx].some((i) => Number.isNaN(y[i]))).toBe(true);
    // Columns wholly inside the gap give one NaN point each, nothing else.
    const inGap = [...idx].filter((i) => i > 4100 && i < 5900);
    expect(inGap.every((i) => Number.isNaN(y[i]))).toBe(true);
  });

  it('selects only the visible range when zoomed in', () => {
    const n = 1_000_000;
    const x = Float64Array.from({ length: n }, (_, i) => i * 0.001);
    const idx = decimate(x, x, 500, 501, 800);
    expect(x[idx[0]]).toBeLessThan(500);
    expect(x[idx[idx.length - 1]]).toBeGreaterThan(501);
    expect(idx.length).toBeLessThanOrEqual(2 * 800 + 2);
  });

  it('does not change the data', () => {
    const x = ramp(5000);
    const y = x.map((v) => v % 7);
    const copy = y.slice();
    decimate(x, y, 0, 5000, 10);
    expect(y).toEqual(copy);
  });
});

describe('bounds', () => {
  it('finds first >= and last <=', () => {
    const x = [0, 1, 1, 2, 5];
    expect(lowerBound(x, 1)).toBe(1);
    expect(upperBound(x, 1)).toBe(2);
    expect(lowerBound(x, 6)).toBe(5);
    expect(upperBound(x, -1)).toBe(-1);
  });
});

describe('decimate, awkward inputs', () => {
  it('terminates and stays ordered for irregular, repeated and rounding-prone x', () => {
    const x: number[] = [];
    for (let i = 0; i < 50_000; i++) x.push(Math.floor(i / 7) * 0.1 + (i % 3) * 1e-17);
    x.sort((a, b) => a - b);
    const y = x.map((_, i) => (i * 7919) % 101);
    const idx = decimate(x, y, 0.3, 4000.7, 333);
    for (let i = 1; i < idx.length; i++) expect(idx[i]).toBeGreaterThan(idx[i - 1]);
    expect(idx.length).toBeLessThanOrEqual(3 * 335);
  });
  it('handles a zero-width range', () => {
    const x = ramp(100_000);
    const idx = decimate(x, x, 500, 500, 10);
    expect([...idx]).toContain(500);
  });
});
