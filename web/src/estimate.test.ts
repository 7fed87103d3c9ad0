import { describe, expect, it } from 'vitest';
import { aboutCount, aboutDuration, inThisBrowser, wallSeconds } from './estimate';
import type { CostEstimate } from './sim/protocol';

describe('an estimate in words', () => {
  it('gives counts in plain numbers to two digits, never in scientific notation', () => {
    expect(aboutCount(2.6e8)).toBe('260 million');
    expect(aboutCount(3.24e6)).toBe('3.2 million');
    expect(aboutCount(1.27e10)).toBe('13 billion');
    expect(aboutCount(7015)).toBe('7,015');
  });

  it('rounds a duration to what people say', () => {
    expect(aboutDuration(0.2)).toBe('about 1 s');
    expect(aboutDuration(88)).toBe('about 88 s');
    expect(aboutDuration(277)).toBe('about 5 minutes');
    expect(aboutDuration(7200)).toBe('about 2 hours');
  });

  it("shares a scenario's runs among the workers, waiting for the costliest", () => {
    const leo = { runs: 5, events: 1.3e8, browser_seconds: 30, longest_run_seconds: 26, memory_bytes: 0 } as CostEstimate;
    expect(wallSeconds(leo, 1)).toBe(30);
    expect(wallSeconds(leo, 2)).toBe(26);
    const sweep = { runs: 1540, events: 5e7, browser_seconds: 16, longest_run_seconds: 0.01, memory_bytes: 0 } as CostEstimate;
    expect(wallSeconds(sweep, 2)).toBe(8);
    expect(inThisBrowser(sweep, 2)).toBe('about 8 s in this browser on 2 workers');
    expect(inThisBrowser({ ...sweep, runs: 1, longest_run_seconds: 16 }, 2)).toBe('about 16 s in this browser');
  });
});
