// A result on screen always says which scenario produced it: it is marked out of date, with what
// changed, once the editor holds something else; another preset or lesson takes it away; a
// lesson played yesterday leaves no "unsaved edits" behind; a costly run's question comes into
// view; the page never scrolls sideways; and one Tab reaches Run.
import { expect, open, runAndWait, test } from './fixtures';
import type { Page } from '@playwright/test';

/** Opens lesson `n` from the list and runs its first step to the end. */
async function playFirstStep(page: Page, n: number) {
  await page.getByTestId('lessons-toggle').click();
  await page.getByTestId(`open-lesson-${n}`).click();
  await page.getByTestId('run-step').click();
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
}

async function editJson(page: Page, edit: (text: string) => string) {
  await page.getByTestId('editor-tab-json').click();
  const json = page.locator('#scenario-json');
  await json.fill(edit(await json.inputValue()));
}

test('a result names its scenario, and once the editor changes says it is out of date and what changed', async ({ page, consoleErrors }) => {
  await open(page, '#preset=default');
  await runAndWait(page);
  const origin = page.getByTestId('result-origin');
  const name = (await page.getByTestId('summary').locator('caption').innerText()).split(': per-flow results')[0];
  await expect(origin).toContainText(`Run of “${name}”, seed 1.`);
  await expect(origin).toHaveAttribute('data-stale', 'false');

  await editJson(page, (t) => t.replace('"cc": "cubic"', '"cc": "hybla"').replace('"p": 0.01', '"p": 0.02'));
  await expect(page.getByTestId('results')).toHaveAttribute('data-stale', 'true');
  await expect(page.getByTestId('result-stale')).toContainText('cc: cubic → hybla');
  await expect(page.getByTestId('result-stale')).toContainText('link 2 loss: 1 % → 2 %');

  // Run again: the result is the editor's once more.
  await runAndWait(page);
  await expect(origin).toHaveAttribute('data-stale', 'false');
  await expect(page.getByTestId('summary')).toContainText('hybla');

  // Another preset takes the result away rather than leaving it beside the new text.
  await page.getByTestId('preset-ns3-dumbbell').click();
  await page.getByTestId('confirm-replace-yes').click();
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'idle');
  await expect(origin).toHaveCount(0);
  await expect(page.getByTestId('summary')).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test("a lesson opened from the list replaces the last lesson's result and globe with its own scenario", async ({ page }) => {
  await open(page);
  await playFirstStep(page, 3);
  await page.getByTestId('all-lessons').click();
  await page.getByTestId('open-lesson-6').click();
  await expect(page.getByTestId('summary')).toHaveCount(0);
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'idle');
  // The globe that appears is lesson 6's constellation, not the WINDS satellite.
  await expect(page.getByTestId('globe-canvas')).toHaveAttribute('data-satellites', /^\d{3,}$/, { timeout: 60_000 });
});

test('a lesson played, the tab closed and reopened: the next lesson starts without asking about edits never made', async ({ page }) => {
  await open(page);
  await playFirstStep(page, 1);
  // Longer than the draft's debounce: anything the page would store is stored.
  await page.waitForTimeout(1500);
  await open(page);
  await expect(page.getByTestId('draft-notice')).toHaveCount(0);
  await playFirstStep(page, 2);
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
});

test("on a phone, a costly preset's question comes into view with Run it focused", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page);
  // The 1600-satellite preset: about half a minute in a browser, even with its flows on two workers.
  await page.getByTestId('landing-run-leo-beijing-newyork-1600').click();
  await expect(page.getByTestId('cost-prompt')).toContainText('This preset was not started');
  await expect(page.getByTestId('cost-run')).toBeInViewport();
  await expect(page.getByTestId('cost-run')).toBeFocused();
});

for (const [width, height] of [
  [1024, 768],
  [390, 844],
  [360, 740],
] as const) {
  test(`no sideways scroll at ${width} px: wide tables scroll in their own box`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    for (const preset of ['default', 'intcp-two-hop-square']) {
      await open(page, `#preset=${preset}`);
      await runAndWait(page);
      await expect(page.getByTestId('charts')).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      // What sticks out, to name in the failure.
      const wide = await page.evaluate(() => {
        const w = document.documentElement.clientWidth;
        return [...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > w + 1 && (e.parentElement?.getBoundingClientRect().right ?? 0) <= w + 1)
          .slice(0, 5)
          .map((e) => `${e.tagName.toLowerCase()}.${e.className} in ${e.parentElement?.tagName.toLowerCase()}.${e.parentElement?.className} (${Math.round(e.getBoundingClientRect().right)} px)`);
      });
      expect(overflow, `${preset}: the page is wider than the screen by ${overflow} px: ${wide.join(', ')}`).toBeLessThanOrEqual(0);
    }
  });
}

test('the first Tab stop skips to Run', async ({ page }) => {
  await open(page, '#preset=default');
  // Run can take the focus once the core has checked the scenario.
  await expect(page.getByTestId('run')).toBeEnabled();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('skip-to-run')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('run')).toBeFocused();
});
