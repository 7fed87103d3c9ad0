import { describe, expect, it } from 'vitest';
import { progressReporter, secondsLeft, timeLeftText, type Progress } from './progress';

describe('secondsLeft', () => {
  it('scales the time so far by the work left', () => {
    expect(secondsLeft(0.25, 10_000)).toBe(30);
    expect(secondsLeft(0.5, 4_000)).toBe(4);
  });

  it('tells nothing in the first second, before any progress, or once done', () => {
    expect(secondsLeft(0.5, 900)).toBeNull();
    expect(secondsLeft(0, 5_000)).toBeNull();
    expect(secondsLeft(1, 5_000)).toBeNull();
  });
});

describe('timeLeftText', () => {
  it('reads in seconds, minutes or hours', () => {
    expect(timeLeftText(44.6)).toBe('about 45 s left');
    expect(timeLeftText(0.2)).toBe('about 1 s left');
    expect(timeLeftText(130)).toBe('about 2 min 10 s left');
    expect(timeLeftText(3900)).toBe('about 1 h 5 min left');
  });
});

describe('progressReporter', () => {
  it('passes on the first report, at most two a second after it, and the last', () => {
    let t = 0;
    const seen: Progress[] = [];
    const report = progressReporter((p) => seen.push(p), () => t);
    for (let i = 1; i <= 100; i++) {
      t = i * 10;
      report(i / 100, `${i} of 100`);
    }
    // Reports every 10 ms for 1 s: the first, one each 500 ms, and the finished one.
    expect(seen.map((p) => p.label)).toEqual(['1 of 100', '51 of 100', '100 of 100']);
    expect(seen.at(-1)?.timeLeft).toBeUndefined();
  });

  it('adds the time left once a second has gone by', () => {
    let t = 0;
    const seen: Progress[] = [];
    const report = progressReporter((p) => seen.push(p), () => t);
    t = 500;
    report(0.05, 'early');
    t = 2_000;
    report(0.1, 'later');
    expect(seen[0].timeLeft).toBeUndefined();
    expect(seen[1].timeLeft).toBe('about 18 s left');
  });

  it('takes the time left from the caller when it knows better, and says none once done', () => {
    let t = 0;
    const seen: Progress[] = [];
    const report = progressReporter((p) => seen.push(p), () => t);
    t = 5_000;
    report(0.5, 'half', 42);
    t = 6_000;
    report(0.6, 'more', null);
    t = 7_000;
    report(1, 'done', 42);
    expect(seen.map((p) => p.timeLeft)).toEqual(['about 42 s left', undefined, undefined]);
  });
});
