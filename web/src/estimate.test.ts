import { describe, expect, it } from 'vitest';
import { aboutCount, aboutDuration } from './estimate';

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
});
