// The panel's markup in each state, rendered on the server (the unit tests run without a DOM;
// clicks are the state model's, tested in state.test.ts).
import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LESSONS } from './catalog';
import { LessonPanel, type LessonPanelProps } from './LessonPanel';
import { LANDING, type LessonState } from './state';

const noop = () => {};
const render = (over: Partial<LessonPanelProps>) =>
  renderToStaticMarkup(
    createElement(LessonPanel, { lessons: LESSONS, state: LANDING, onStateChange: noop, onLoadScenario: noop, onRun: noop, onHighlight: noop, resultScenario: null, ...over }),
  );
const at = (lesson: number, step: number, revealed: number[] = [], ran: number[] = []): LessonState => ({ lesson, step, revealed, ran });

const headings = (html: string) => [...html.matchAll(/<h([1-6])[^>]*>/g)].map((m) => Number(m[1]));
// A boolean attribute: Preact's serializer writes it bare (`disabled`), React's as `disabled=""`.
const hasFlag = (attrs: string, name: string) => new RegExp(`\\s${name}(=""|\\s|$)`).test(attrs);
const buttons = (html: string) =>
  [...html.matchAll(/<button([^>]*)>(.*?)<\/button>/g)].map((m) => ({ attrs: m[1], name: m[2].replace(/<[^>]+>/g, '').trim(), disabled: hasFlag(m[1], 'disabled') }));
const button = (html: string, testid: string) => buttons(html).find((b) => b.attrs.includes(`data-testid="${testid}"`));

/** Headings never skip a level going down (axe's heading-order). */
function inOrder(levels: number[]) {
  for (let i = 1; i < levels.length; i++) expect(levels[i] - levels[i - 1]).toBeLessThanOrEqual(1);
}

describe('LessonPanel', () => {
  it('lists every lesson with a named button, under one h2', () => {
    const html = render({ listOpen: true });
    expect(headings(html)).toEqual([2, ...LESSONS.map(() => 3)]);
    expect(buttons(html).map((b) => b.name)).toEqual(['Hide', ...LESSONS.map((l) => l.lesson.title)]);
    expect(html).not.toMatch(/<ol[^>]*hidden/);
  });

  it('folds the list away by default behind a button that says what it shows and controls', () => {
    const html = render({});
    const toggle = button(html, 'lessons-toggle');
    expect(toggle?.name).toBe(`Show all ${LESSONS.length}`);
    expect(toggle?.attrs).toContain('aria-expanded="false"');
    const list = /<ol id="([^"]+)"([^>]*)>/.exec(html);
    expect(list).not.toBeNull();
    expect(hasFlag(list![2], 'hidden')).toBe(true);
    expect(toggle?.attrs).toContain(`aria-controls="${list![1]}"`);
  });

  it('shows a step with its headings in order and every button named', () => {
    for (let l = 0; l < LESSONS.length; l++) {
      const html = render({ state: at(l, 0) });
      const levels = headings(html);
      expect(levels.slice(0, 4)).toEqual([2, 3, 4, 5]);
      inOrder(levels);
      for (const b of buttons(html)) expect(b.name.length).toBeGreaterThan(0);
      expect(html).toContain(LESSONS[l].lesson.steps[0].title);
    }
  });

  it('keeps the answer hidden, and Reveal disabled with the reason, until the step has run', () => {
    const html = render({ state: at(0, 1) });
    const reveal = button(html, 'reveal');
    expect(reveal?.disabled).toBe(true);
    expect(reveal?.attrs).toMatch(/aria-describedby="([^"]+)"/);
    const id = /aria-describedby="([^"]+)"/.exec(reveal!.attrs)![1];
    expect(html).toContain(`id="${id}"`);
    expect(html).not.toContain('data-testid="step-answer"');
  });

  it('enables Reveal when the result on the page is the step\'s own run', () => {
    // Lesson 1: step 3 runs the CTCP testbed, step 1 the ISTN path.
    const step = LESSONS[0].scenarios[2];
    expect(button(render({ state: at(0, 2), resultScenario: JSON.parse(JSON.stringify(step)) }), 'reveal')?.disabled).toBe(false);
    // Another step's result does not count.
    expect(button(render({ state: at(0, 2), resultScenario: LESSONS[0].scenarios[0] }), 'reveal')?.disabled).toBe(true);
    expect(button(render({ state: at(0, 2, [], [2]) }), 'reveal')?.disabled).toBe(false);
  });

  it('shows a revealed answer in a labelled region', () => {
    const html = render({ state: at(0, 0, [0], [0]) });
    expect(html).toMatch(/role="region" aria-label="Answer" data-testid="step-answer"/);
    expect(button(html, 'reveal')).toBeUndefined();
    expect(html).toContain('152 segments');
  });

  it('disables Back on the first step and offers Finish on the last', () => {
    const first = render({ state: at(2, 0) });
    expect(button(first, 'step-back')?.disabled).toBe(true);
    expect(button(first, 'step-next')?.disabled).toBe(false);
    const n = LESSONS[2].lesson.steps.length;
    const last = render({ state: at(2, n - 1) });
    expect(button(last, 'step-next')).toBeUndefined();
    expect(button(last, 'step-finish')?.name).toBe('Finish lesson');
    expect(last).toContain(`Step ${n} of ${n}`);
  });

  it('disables Run this step while a run is under way', () => {
    expect(button(render({ state: at(0, 0) }), 'run-step')?.disabled).toBe(false);
    expect(button(render({ state: at(0, 0), running: true }), 'run-step')?.disabled).toBe(true);
  });

  it('names the view to look at', () => {
    expect(button(render({ state: at(0, 0) }), 'show-view')?.name).toBe('Show the congestion window chart');
  });

  it('never renders lesson text as HTML', () => {
    const dir = fileURLToPath(new URL('.', import.meta.url));
    for (const f of readdirSync(dir).filter((n) => /\.tsx?$/.test(n) && !n.endsWith('.test.ts'))) {
      expect(readFileSync(`${dir}/${f}`, 'utf8'), f).not.toMatch(/dangerouslySetInnerHTML|innerHTML/);
    }
  });
});
