// The computations behind the sequence chart: where a flow's acknowledged data stood still
// longest, and where its retransmissions happened on the acknowledged-data line.

/** The longest stretch without a new acknowledgement: from the first point at a value to the
 * first point past it (or to `end` when the value never moved again). Null with fewer than two
 * points or no stall at all. */
export function longestStall(t: ArrayLike<number>, acked: ArrayLike<number>, end = t.length ? t[t.length - 1] : 0): { start: number; end: number; seconds: number } | null {
  if (t.length < 2) return null;
  let best: { start: number; end: number; seconds: number } | null = null;
  let from = 0;
  const consider = (i0: number, stop: number) => {
    const seconds = stop - t[i0];
    if (seconds > 0 && (!best || seconds > best.seconds)) best = { start: t[i0], end: stop, seconds };
  };
  for (let i = 1; i < t.length; i++) {
    if (acked[i] > acked[from]) {
      consider(from, t[i]);
      from = i;
    }
  }
  consider(from, Math.max(end, t[t.length - 1]));
  return best;
}

/** The instants at which a cumulative count rose, with the acknowledged-data line's height
 * there (`scale` turns its unit into the chart's). */
export function riseInstants(t: ArrayLike<number>, count: ArrayLike<number>, height: ArrayLike<number>, scale = 1): { x: number[]; y: number[] } {
  const x: number[] = [];
  const y: number[] = [];
  for (let i = 1; i < t.length; i++) {
    if (count[i] > count[i - 1]) {
      x.push(t[i]);
      y.push(height[i] * scale);
    }
  }
  return { x, y };
}
