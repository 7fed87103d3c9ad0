import { describe, expect, it } from 'vitest';
import { PRESETS } from '../scenario/presets';
import { LESSONS } from '../lessons/catalog';
import { landingCards, paperLine, plainText } from './cards';

describe('landingCards', () => {
  const cards = landingCards(PRESETS, LESSONS);

  it('has every lesson first, in order, then every preset that reproduces a paper and no other', () => {
    const lessons = cards.filter((c) => c.kind === 'lesson');
    expect(lessons.map((c) => c.title)).toEqual(LESSONS.map((l) => l.lesson.title));
    expect(cards.slice(0, LESSONS.length).every((c) => c.kind === 'lesson')).toBe(true);
    const presetIds = cards.flatMap((c) => (c.kind === 'preset' ? [c.preset.id] : []));
    expect(presetIds).toEqual(PRESETS.filter((p) => p.scenario.paper).map((p) => p.id));
    expect(presetIds).not.toContain('default');
    expect(presetIds).toContain('ctcp-fig2');
  });

  it("gives a lesson its first step's preset for the thumbnail and the paper", () => {
    const geo = cards.find((c) => c.kind === 'lesson' && c.lesson === 0);
    expect(geo?.thumbnailOf).toBe(LESSONS[0].lesson.steps[0].scenario.preset);
    expect(geo?.paper).toMatch(/ISTN paper/);
  });

  it('says one plain sentence per card and marks sweeps', () => {
    for (const c of cards) {
      expect(c.line.length).toBeGreaterThan(10);
      expect(c.line).not.toMatch(/\*|\^\{|_\{/);
    }
    const fig2 = cards.find((c) => c.kind === 'preset' && c.preset.id === 'ctcp-fig2');
    expect(fig2?.kind === 'preset' && fig2.sweep).toBe(true);
    const fig4 = cards.find((c) => c.kind === 'preset' && c.preset.id === 'ctcp-fig4-per20');
    expect(fig4?.kind === 'preset' && fig4.sweep).toBe(false);
  });
});

describe('paperLine and plainText', () => {
  it("keeps a paper source's name and figure, not the setup after a colon", () => {
    expect(paperLine('The WINDS paper, Table 4 (24 Mb/s row): average throughput of ten TCPs')).toBe('the WINDS paper, Table 4 (24 Mb/s row)');
    expect(paperLine('INTCP: Information-centric TCP for satellite network (HotICN 2021), Fig. 7')).toBe('INTCP: Information-centric TCP for satellite network (HotICN 2021), Fig. 7');
    expect(paperLine('Cloud, Leith, Medard, SPACOMM 2014, Fig. 3')).toBe('Cloud, Leith, Medard, SPACOMM 2014, Fig. 3');
    expect(paperLine(undefined)).toBeUndefined();
  });

  it("drops safe text's marks and keeps their words", () => {
    expect(plainText('at most *W/RTT*, **not** `cwnd`, 2^{7} and log_{2}')).toBe('at most W/RTT, not cwnd, 27 and log2');
  });
});
