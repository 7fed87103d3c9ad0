import { describe, expect, it } from 'vitest';
import { PartialPacer } from './partials';

describe('PartialPacer', () => {
  it('waits the longer of its gap and ten times what the last result took, from asked to drawn', () => {
    let now = 0;
    const pacer = new PartialPacer(500, 10, () => now);
    expect(pacer.waitMs()).toBe(0);
    // Asked at 0, drawn at 40: 40 ms of work, so the gap decides, 500 ms after it was drawn.
    now = 40;
    pacer.done(0);
    expect(pacer.waitMs()).toBe(500);
    now = 540;
    expect(pacer.waitMs()).toBe(0);
    // Asked at 540, drawn at 740: 200 ms, so ten times that, 2 s after it was drawn.
    now = 740;
    pacer.done(540);
    expect(pacer.waitMs()).toBe(2000);
    now = 2739;
    expect(pacer.waitMs()).toBe(1);
  });
});
