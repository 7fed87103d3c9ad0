// A run of minutes shows how far it is, flow by flow, and about how long is left, real wasm in real Chromium:
// the LEO preset (five flows alone for ten minutes over 1600 satellites, the core's estimate far
// over 10 s in a browser), cancelled as soon as its estimate is on the page.
import { expect, open, test } from './fixtures';

test('a long run shows its progress and the time left as it goes, and is cancelled at once', async ({ page }) => {
  await open(page, '#preset=leo-beijing-newyork-1600');
  await page.getByTestId('run').click();
  const progress = page.getByTestId('progress');
  await expect(progress.locator('progress')).toBeVisible();
  await expect(progress.getByTestId('time-left')).toHaveText(/^, about (\d+ s|\d+ min \d+ s|\d+ h \d+ min) left$/, { timeout: 60_000 });
  // Each flow runs alone: the label counts those done and names each running one by its label.
  await expect(progress).toContainText(/^\d of 5 flows done(; (TCP Reno|TCP Hybla|TCP CUBIC|CTCP v2|INTCP) at \d+ of 600 s)+/);
  const fraction = await progress.locator('progress').evaluate((el) => (el as HTMLProgressElement).value);
  expect(fraction).toBeGreaterThan(0);
  expect(fraction).toBeLessThan(1);
  await page.getByTestId('cancel').click();
  await expect(progress).toHaveCount(0);
});
