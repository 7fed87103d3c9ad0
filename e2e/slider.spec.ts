// Drag a number, see the run: a scenario cheap enough to run at each move gets sliders for its
// link numbers; each move runs it again (real wasm in real Chromium) and the charts draw the run
// before dashed, named by what it had. Lesson 2's "four times the loss" step has one.
import { expect, open, runAndWait, test } from './fixtures';
import type { Page } from '@playwright/test';

/** The goodput chart's legend entry for the run before, once it names `had`. */
async function previousRunIs(page: Page, had: string) {
  await expect(page.getByTestId('chart-goodput').locator('.legend-text', { hasText: `previous run: ${had}` })).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 30_000 });
}

test('dragging the loss slider runs again at each move, the run before drawn dashed', async ({ page, consoleErrors }) => {
  await open(page, '#preset=default');
  const slider = page.getByTestId('slider-topology.links[1].loss.p');
  await expect(slider).toBeVisible();
  // A sweep, or a scenario too costly to run at each move, has none.
  await expect(page.getByTestId('slider-topology.links[1].delay_ms')).toBeVisible();
  await runAndWait(page);
  const goodput = async () => Number((await page.getByTestId('goodput-0').innerText()).replace(/,/g, ''));
  const at1 = await goodput();

  const started = Date.now();
  const steps = [0.02, 0.04, 0.08, 0.16];
  let had = '1 %';
  const seen = [at1];
  for (const p of steps) {
    await slider.fill(String(p));
    await previousRunIs(page, `link 2 loss ${had}`);
    await expect(page.getByTestId('result-origin')).not.toContainText('out of date');
    seen.push(await goodput());
    had = `${p * 100} %`;
  }
  const perMove = (Date.now() - started) / steps.length;
  console.log(`slider: ${steps.length} moves, ${perMove.toFixed(0)} ms from a move to its redrawn charts`);
  // Goodput falls as the loss rises, each run after the one before.
  for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeLessThan(seen[i - 1]);
  const dashed = page.getByTestId('chart-goodput').getByTestId('series-baseline');
  await expect(dashed.first()).toHaveAttribute('stroke-dasharray', /\d/);
  // The text follows the slider.
  await page.getByTestId('editor-tab-json').click();
  await expect(page.locator('#scenario-json')).toHaveValue(/"p": 0\.16/);
  expect(consoleErrors).toEqual([]);
});

test('a sweep gets no sliders, and lesson 2 offers the loss slider where it asks about four times the loss', async ({ page }) => {
  await open(page, '#preset=ctcp-fig2-tcp');
  await expect(page.getByTestId('estimate')).toBeVisible();
  await expect(page.getByTestId('slider-topology.links[1].loss.p')).toHaveCount(0);
  await open(page, '#lesson=2&step=4');
  await expect(page.getByTestId('slider-topology.links[1].loss.p')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Or drag it:')).toBeVisible();
});
