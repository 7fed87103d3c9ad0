// The landing's markup, rendered on the server (the unit tests run without a DOM; the clicks
// are e2e/offline.spec.ts's).
import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { PRESETS } from '../scenario/presets';
import { LESSONS } from '../lessons/catalog';
import { landingCards } from './cards';
import { Landing } from './Landing';

const noop = () => {};
const cards = landingCards(PRESETS, LESSONS);
const html = renderToStaticMarkup(createElement(Landing, { cards, onRunPreset: noop, onStartLesson: noop }));
const buttons = [...html.matchAll(/<button([^>]*)>(.*?)<\/button>/g)].map((m) => ({ label: /aria-label="([^"]*)"/.exec(m[1])?.[1] ?? '', text: m[2] }));
const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&amp;/g, '&');

describe('Landing', () => {
  it('has one button per card, named by its action and its title, the visible text first', () => {
    expect(buttons).toHaveLength(cards.length);
    for (const [i, c] of cards.entries()) {
      const b = buttons[i];
      expect(unescape(b.label)).toBe(`${b.text}: ${c.title}`);
      expect(b.text).toBe(c.kind === 'lesson' ? 'Start lesson' : c.sweep ? 'Run sweep' : 'Run');
    }
  });

  it('draws a thumbnail on every card, named by what it shows', () => {
    const svgs = [...html.matchAll(/<svg[^>]*data-testid="thumbnail"[^>]*>/g)];
    expect(svgs).toHaveLength(cards.length);
    for (const s of svgs) expect(s[0]).toMatch(/role="img" aria-label="(Goodput over time|Mean goodput)/);
  });

  it('keeps headings in order under one h2', () => {
    const levels = [...html.matchAll(/<h([1-6])/g)].map((m) => Number(m[1]));
    expect(levels[0]).toBe(2);
    expect(levels.filter((l) => l === 2)).toHaveLength(1);
    for (let i = 1; i < levels.length; i++) expect(levels[i] - levels[i - 1]).toBeLessThanOrEqual(1);
  });
});
