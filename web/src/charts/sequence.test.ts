import { describe, expect, it } from 'vitest';
import { longestStall, riseInstants } from './sequence';

describe('longestStall', () => {
  it('finds the longest stretch between two rises of the acknowledged data', () => {
    const t = [0, 1, 2, 3, 7, 8];
    const acked = [0, 10, 20, 20, 30, 40];
    // 20 was reached at 2 s and passed at 7 s.
    expect(longestStall(t, acked)).toEqual({ start: 2, end: 7, seconds: 5 });
  });

  it('counts a stall that lasts to the end of the run', () => {
    expect(longestStall([0, 1, 2], [0, 5, 5], 10)).toEqual({ start: 1, end: 10, seconds: 9 });
  });

  it('has nothing to say about a line with one point', () => {
    expect(longestStall([0], [0])).toBeNull();
  });
});

describe('riseInstants', () => {
  it('marks each rise of the count at the height of the line', () => {
    const t = [0, 1, 2, 3];
    const count = [0, 0, 2, 2];
    const acked = [0, 1e6, 2e6, 3e6];
    expect(riseInstants(t, count, acked, 1e-6)).toEqual({ x: [2], y: [2] });
  });
});
