// Display decimation: which points of a (sorted-by-x) series to draw at a given width. The data
// are never changed: the result is a list of indices into them. Per pixel column it keeps the
// points with the smallest and the largest value (in their order), so spikes and dips survive
// at any zoom, plus the first NaN (a gap in the line) if the column has one.

/** First index i with x[i] >= v (x sorted ascending); x.length if none. */
export function lowerBound(x: ArrayLike<number>, v: number): number {
  let lo = 0;
  let hi = x.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (x[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Last index i with x[i] <= v; -1 if none. */
export function upperBound(x: ArrayLike<number>, v: number): number {
  let lo = 0;
  let hi = x.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (x[mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/**
 * Indices of the points of (x, y) to draw for the x range [x0, x1] over `columns` pixel columns:
 * at most about two per column (min and max), plus one point either side of the range so the
 * line runs to the plot's edges. Returns every index in the range when there are few enough.
 * `x` must be sorted ascending; `y` may hold NaN (drawn as a gap).
 */
export function decimate(x: ArrayLike<number>, y: ArrayLike<number>, x0: number, x1: number, columns: number): Uint32Array {
  const n = Math.min(x.length, y.length);
  if (n === 0 || !(x1 >= x0)) return new Uint32Array(0);
  const lo = Math.max(0, lowerBound(x, x0) - 1);
  const hi = Math.min(n - 1, upperBound(x, x1) + 1);
  if (hi < lo) return new Uint32Array(0);
  const cols = Math.max(1, Math.floor(columns));
  const count = hi - lo + 1;
  if (count <= 2 * cols) {
    const all = new Uint32Array(count);
    for (let i = 0; i < count; i++) all[i] = lo + i;
    return all;
  }
  const out = new Uint32Array(Math.min(count, 3 * (cols + 2)));
  let len = 0;
  const w = x1 > x0 ? (x1 - x0) / cols : 1;
  // Walk the points column by column (no closures in the hot loop: it runs over every point).
  let i = lo;
  while (i <= hi) {
    // The out-of-range neighbours get columns of their own (-1 and cols).
    const xi = x[i];
    const col = xi < x0 ? -1 : xi > x1 ? cols : Math.min(cols - 1, Math.floor((xi - x0) / w));
    // The column's right edge in x; points up to it share the column.
    const edge = col < 0 ? x0 : col >= cols ? Infinity : col === cols - 1 ? x1 : x0 + (col + 1) * w;
    let minI = -1;
    let maxI = -1;
    let nanI = -1;
    let minV = Infinity;
    let maxV = -Infinity;
    // The first point always belongs to the column (so rounding can never stall the walk).
    for (let first = true; i <= hi; i++, first = false) {
      const xj = x[i];
      if (!first && (col < 0 ? xj >= x0 : col < cols - 1 ? xj >= edge : col === cols - 1 ? xj > x1 : false)) break;
      const v = y[i];
      if (v !== v) {
        if (nanI < 0) nanI = i;
      } else {
        if (v < minV) {
          minV = v;
          minI = i;
        }
        if (v > maxV) {
          maxV = v;
          maxI = i;
        }
      }
    }
    // The (up to three) kept indices of the column, in data order, each once.
    let a = nanI;
    let b = minI;
    let c = maxI;
    if (a > b) [a, b] = [b, a];
    if (b > c) [b, c] = [c, b];
    if (a > b) [a, b] = [b, a];
    if (a >= 0) out[len++] = a;
    if (b >= 0 && b !== a) out[len++] = b;
    if (c >= 0 && c !== b) out[len++] = c;
  }
  return out.slice(0, len);
}
