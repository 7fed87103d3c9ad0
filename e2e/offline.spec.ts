// The landing and offline use, on the built site: the landing's cards (one per lesson and per
// paper preset, each with its thumbnail) start a run or a lesson in one click and pass axe; and
// after a first visit the service worker has every built file cached, so with the network off
// the page reloads, runs the default preset and runs a lesson step.
import { readdirSync, readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, open, runAndWait, summaryText, test } from './fixtures';

const root = new URL('..', import.meta.url).pathname;
const scenario = (id: string) => JSON.parse(readFileSync(`${root}scenarios/${id}.json`, 'utf8'));
const paperPresets = readdirSync(`${root}scenarios`)
  .filter((f) => f.endsWith('.json') && scenario(f.replace(/\.json$/, '')).paper)
  .map((f) => f.replace(/\.json$/, ''));
const lessonCount = readdirSync(`${root}lessons`).filter((f) => /^\d+-.*\.json$/.test(f)).length;

/** The files the built service worker precaches (the manifest the build put in front of it). */
function precached(): string[] {
  const first = readFileSync(`${root}web/dist/sw.js`, 'utf8').split('\n')[0];
  const json = first.replace(/^self\.__ORBITCP_PRECACHE = /, '').replace(/;$/, '');
  return (JSON.parse(json) as { files: string[] }).files;
}

/** Waits until the service worker is active, controls the page and holds every precached file. */
async function waitForOffline(page: Page, files: string[]) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 30_000 }).toBe(true);
  const missing = await page.evaluate(async (urls) => {
    const out: string[] = [];
    for (const u of urls) if (!(await caches.match(new URL(u, document.baseURI).href))) out.push(u);
    return out;
  }, files);
  expect(missing).toEqual([]);
}

test('the landing shows a card per lesson and paper preset, each with a thumbnail, and one click on a preset card runs it', async ({ page, consoleErrors }) => {
  await open(page);
  const landing = page.getByTestId('landing');
  await expect(landing).toBeVisible();
  expect(paperPresets.length).toBeGreaterThan(10);
  await expect(landing.locator('[data-testid^="card-lesson-"]')).toHaveCount(lessonCount);
  await expect(landing.locator('[data-testid^="card-preset-"]')).toHaveCount(paperPresets.length);
  for (const id of paperPresets) {
    const card = page.getByTestId(`card-preset-${id}`);
    await expect(card.getByRole('heading')).toHaveText(scenario(id).name);
    // A drawn chart: lines with points, or bars with height.
    await expect(card.getByTestId('thumbnail').locator('path.spark-line[d^="M"], rect.spark-bar')).not.toHaveCount(0);
  }
  await expect(page.getByTestId('card-lesson-geo-window').getByTestId('thumbnail')).toBeVisible();

  // One click anywhere on the card (here its middle, over the thumbnail) runs the preset.
  const id = 'winds-table5-reno-x2';
  await page.getByTestId(`card-preset-${id}`).click();
  // The card goes with the landing; the focus goes to the results, not to the page's start.
  await expect(page.getByRole('region', { name: 'Results' })).toBeFocused();
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
  expect(await summaryText(page)).toHaveLength(scenario(id).flows.length);
  await expect(page.getByTestId('chart-goodput')).toBeVisible();
  await expect(landing).toHaveCount(0);
  await expect(page.getByTestId(`preset-${id}`)).toHaveAttribute('aria-pressed', 'true');
  expect(consoleErrors).toEqual([]);
});

test("a lesson card is a named button that opens the lesson at its first step and runs it", async ({ page }) => {
  await open(page);
  const start = page.getByRole('button', { name: /^Start lesson: Why TCP is slow over GEO/ });
  await start.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('lessons')).toHaveAttribute('data-step', '1');
  await expect(page.getByTestId('step-title')).toBeFocused();
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
  await expect(page.getByTestId('reveal')).toBeEnabled();
  await expect(page.getByTestId('landing')).toHaveCount(0);
});

test('a costly preset card asks before running, and the landing comes back on Not now', async ({ page }) => {
  await open(page);
  // The 1600-satellite preset: about half a minute in a browser, even with its flows on two workers.
  await page.getByTestId('landing-run-leo-beijing-newyork-1600').click();
  await expect(page.getByTestId('cost-prompt')).toContainText('This preset was not started');
  await expect(page.getByTestId('landing')).toHaveCount(0);
  await page.getByRole('button', { name: 'Not now' }).click();
  await expect(page.getByTestId('landing')).toBeVisible();
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'idle');
});

test('no serious or critical accessibility violations on the landing', async ({ page }) => {
  await open(page);
  await expect(page.getByTestId('landing')).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
});

test('after the first visit the page works offline: it reloads, runs the default preset and a lesson step', async ({ page, context }) => {
  test.setTimeout(240_000);
  const files = precached();
  expect(files).toContain('./index.html');
  expect(files.some((f) => f.endsWith('.wasm'))).toBe(true);
  expect(files.some((f) => /Globe-.*\.js$/.test(f))).toBe(true);
  await open(page);
  await waitForOffline(page, files);

  await context.setOffline(true);
  await page.reload();
  await expect(page.locator('body[data-ready="true"]')).toHaveCount(1, { timeout: 60_000 });
  await expect(page.getByTestId('landing')).toBeVisible();
  await runAndWait(page);
  expect(await summaryText(page)).toHaveLength(1);

  await page.getByTestId('lessons-toggle').click();
  await page.getByTestId('open-lesson-1').click();
  await page.getByTestId('run-step').click();
  await expect(page.getByTestId('reveal')).toBeEnabled({ timeout: 110_000 });
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done');
  await context.setOffline(false);
});
