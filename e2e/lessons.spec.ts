// The guided lessons on the page, real wasm in real Chromium: a lesson walked from its first
// step to its last, each step run through the editor and the normal run path, its view
// highlighted, every number its answer states (its `checks`) read from the browser's own
// result, and the answer revealed; the lesson's place in the URL (a link to a step, Back to the
// previous step, a bad link named); and the lesson view's accessibility.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { VIEWS, type Lesson } from '../web/src/lessons/format';
import { expect, open, test } from './fixtures';

const root = new URL('..', import.meta.url).pathname;
const lessonFile = (name: string) => JSON.parse(readFileSync(`${root}lessons/${name}.json`, 'utf8')) as Lesson;

/** The value at a summary path (`flows[0].hops[1].data_sent`), as lessons.test.mjs reads it. */
function valueAt(summary: unknown, path: string): number {
  let v: unknown = summary;
  for (const m of path.matchAll(/([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/g)) {
    v = (v as Record<string, unknown>)[m[2] !== undefined ? Number(m[2]) : m[1]];
  }
  if (Array.isArray(v)) return v.length;
  if (v !== null && typeof v === 'object') return Object.keys(v).length;
  return v as number;
}

/** The summary of the result on the page, through Export JSON. */
async function pageSummary(page: Page): Promise<unknown> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
  return JSON.parse(readFileSync(await download.path(), 'utf8')).summary;
}

const params = (page: Page) => new URLSearchParams(new URL(page.url()).hash.slice(1));

/** Opens the app afresh: going to a URL that differs only in its fragment would not reload it. */
async function reopen(page: Page, hash: string) {
  await page.goto('about:blank');
  await open(page, hash);
}

test('a lesson walked from its first step to its last: each step runs, shows its view and reveals an answer true of the run', async ({ page, consoleErrors }) => {
  test.setTimeout(300_000);
  const lesson = lessonFile('05-intcp-hop-by-hop');
  await open(page);
  const panel = page.getByTestId('lessons');

  // The entry in the left column: the list folds open and names every lesson.
  await page.getByTestId('lessons-toggle').click();
  await expect(page.getByTestId('lesson-list')).toBeVisible();
  await page.getByTestId('open-lesson-5').click();
  await expect(panel).toHaveAttribute('data-lesson', lesson.id);
  await expect(page.getByTestId('step-title')).toBeFocused();

  for (const [i, step] of lesson.steps.entries()) {
    await expect(panel).toHaveAttribute('data-step', String(i + 1));
    await expect(page.getByTestId('step-title')).toHaveText(step.title);
    expect(params(page).get('lesson')).toBe('5');
    expect(params(page).get('step')).toBe(String(i + 1));

    await page.getByTestId('run-step').click();
    // Reveal is enabled once the result on the page is this step's run.
    await expect(page.getByTestId('reveal')).toBeEnabled({ timeout: 110_000 });
    await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
    await expect(page.getByTestId('run-step')).toBeEnabled();

    // The view the step is about: outlined, described by the note, in view.
    const view = page.getByTestId(VIEWS[step.look_at].testid);
    await expect(view).toHaveClass(/lesson-highlight/);
    await expect(view).toHaveAttribute('aria-describedby', /(^|\s)lesson-view-note(\s|$)/);
    await expect(page.locator('#lesson-view-note')).toHaveText(`Step ${i + 1} of the lesson "${lesson.title}" is about ${VIEWS[step.look_at].label}.`);
    await expect(view).toBeInViewport();

    // The numbers the answer states are the browser's (Export JSON scrolls the page to its button).
    const summary = await pageSummary(page);
    for (const c of step.checks ?? []) {
      expect(Math.abs(valueAt(summary, c.result) - c.approx), `step ${i + 1}: ${c.result}`).toBeLessThanOrEqual(c.tolerance);
    }

    await page.getByTestId('reveal').click();
    await expect(page.getByTestId('step-answer')).toBeVisible();
    expect(params(page).get('revealed')?.split(',')).toContain(String(i + 1));

    if (i < lesson.steps.length - 1) await page.getByTestId('step-next').click();
  }
  // Only one view is marked at a time.
  await expect(page.locator('.lesson-highlight')).toHaveCount(1);
  await page.getByTestId('step-finish').click();
  await expect(page.getByTestId('lesson-list')).toBeVisible();
  await expect(page.locator('.lesson-highlight')).toHaveCount(0);
  expect(params(page).has('lesson')).toBe(false);
  expect(consoleErrors).toEqual([]);
});

test('a link to a step opens that step, Back returns to the previous step, and a bad link is named', async ({ page }) => {
  const lesson = lessonFile('02-random-loss');
  await open(page, '#lesson=2&step=3');
  const panel = page.getByTestId('lessons');
  await expect(panel).toHaveAttribute('data-lesson', lesson.id);
  await expect(panel).toHaveAttribute('data-step', '3');
  await expect(page.getByTestId('step-title')).toHaveText(lesson.steps[2].title);
  await expect(page.getByTestId('lesson-progress')).toHaveText(`Step 3 of ${lesson.steps.length}`);
  // Not run yet: the answer waits.
  await expect(page.getByTestId('reveal')).toBeDisabled();

  await page.getByTestId('step-next').click();
  await expect(panel).toHaveAttribute('data-step', '4');
  expect(params(page).get('step')).toBe('4');
  await page.goBack();
  await expect(panel).toHaveAttribute('data-step', '3');
  await expect(page.getByTestId('step-title')).toHaveText(lesson.steps[2].title);
  await page.goForward();
  await expect(panel).toHaveAttribute('data-step', '4');

  // A lesson beside a preset: both are read, and a step change keeps the preset's parameter.
  await reopen(page, '#preset=ctcp-fig2-tcp&lesson=1&step=2&revealed=1');
  await expect(panel).toHaveAttribute('data-step', '2');
  await expect(page.getByTestId('preset-ctcp-fig2-tcp')).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('step-back').click();
  await expect(panel).toHaveAttribute('data-step', '1');
  expect(new URL(page.url()).hash).toBe('#preset=ctcp-fig2-tcp&lesson=1&step=1&revealed=1');
  // Revealed in the link: the answer shows without a run.
  await expect(page.getByTestId('step-answer')).toBeVisible();

  await reopen(page, '#lesson=2&step=9');
  await expect(page.getByTestId('lesson-notice')).toContainText(`step: "9" is not a step of lesson 2, which has steps 1 to ${lesson.steps.length}`);
  await expect(page.getByTestId('lesson-list')).toBeAttached();
});

test('the lesson view has no serious or critical accessibility violations', async ({ page }) => {
  await open(page, '#lesson=1&step=1');
  await page.getByTestId('run-step').click();
  await expect(page.getByTestId('reveal')).toBeEnabled({ timeout: 110_000 });
  await page.getByTestId('reveal').click();
  await expect(page.getByTestId('step-answer')).toBeVisible();
  const testid = VIEWS[lessonFile('01-geo-window').steps[0].look_at].testid;
  await expect(page.getByTestId(testid)).toHaveClass(/lesson-highlight/);
  const axe = await new AxeBuilder({ page }).include('[data-testid="lessons"]').include('#lesson-view-note').include(`[data-testid="${testid}"]`).analyze();
  const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
  // The list of lessons too, unfolded.
  await page.getByTestId('all-lessons').click();
  await expect(page.getByTestId('lesson-list')).toBeVisible();
  const list = await new AxeBuilder({ page }).include('[data-testid="lessons"]').analyze();
  expect(list.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
});

const ALL_LESSONS = ['01-geo-window', '02-random-loss', '03-hybla-fairness', '04-network-coding', '05-intcp-hop-by-hop', '06-leo-paths', '07-arq-windows'];

test("on a projector's 1280 × 720, every step of every lesson shows its question and its view on one screen", async ({ page }) => {
  test.setTimeout(600_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  for (const [n, name] of ALL_LESSONS.entries()) {
    const lesson = lessonFile(name);
    await reopen(page, `#lesson=${n + 1}&step=1`);
    for (const [i, step] of lesson.steps.entries()) {
      await expect(page.getByTestId('lessons')).toHaveAttribute('data-step', String(i + 1));
      await page.getByTestId('run-step').click();
      await expect(page.getByTestId('reveal')).toBeEnabled({ timeout: 110_000 });
      await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
      const view = page.getByTestId(VIEWS[step.look_at].testid);
      await expect(view, `${name} step ${i + 1}: its view`).toBeInViewport({ ratio: 0.3 });
      await expect(page.getByTestId('step-question'), `${name} step ${i + 1}: its question`).toBeInViewport();
      // The result is named for what ran: lesson 6's first step runs one of the preset's five flows.
      if (name === '06-leo-paths' && i === 0) await expect(page.getByTestId('summary').locator('caption')).toContainText('TCP Reno alone, 2 minutes');
      if (i < lesson.steps.length - 1) await page.getByTestId('step-next').click();
    }
  }
});

test('on a phone, an open lesson comes first, then its run and chart, and the scenario folds away below', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, '#lesson=1&step=1');
  const top = async (testid: string) => (await page.getByTestId(testid).boundingBox())!.y;
  await expect(page.getByTestId('scenario-fold')).not.toHaveAttribute('open', '');
  await page.getByTestId('run-step').click();
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
  expect(await top('lessons')).toBeLessThan(await top('run'));
  expect(await top('run')).toBeLessThan(await top('chart-cwnd'));
  expect(await top('chart-cwnd')).toBeLessThan(await top('scenario-fold'));
  // Unfolded, the editor is there as it was.
  await page.getByTestId('scenario-fold').locator('summary').click();
  await expect(page.getByTestId('editor-tab-json')).toBeVisible();
});

test("a chart's written numbers stay folded until the step's answer is revealed", async ({ page }) => {
  await open(page, '#lesson=1&step=1');
  await page.getByTestId('run-step').click();
  await expect(page.getByTestId('reveal')).toBeEnabled({ timeout: 110_000 });
  const cwnd = page.getByTestId('chart-cwnd');
  // The caption would say the answer ("peaks at 152 packets at 61.9 s").
  await expect(cwnd.getByTestId('chart-summary-fold')).not.toHaveAttribute('open', '');
  await expect(cwnd.getByTestId('chart-summary')).toBeHidden();
  await page.getByTestId('reveal').click();
  await expect(cwnd.getByTestId('chart-summary-fold')).toHaveCount(0);
  await expect(cwnd.getByTestId('chart-summary')).toBeVisible();
  await expect(cwnd.getByTestId('chart-summary')).toContainText('peaks at 152 packets');
});
