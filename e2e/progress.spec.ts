// A run of minutes shows how far it is, flow by flow, and about how long is left, real wasm in real Chromium:
// the LEO preset (five flows alone for ten minutes over 1600 satellites, the core's estimate far
// over 10 s in a browser), cancelled as soon as its estimate is on the page.
import { expect, open, runAndWait, test } from './fixtures';

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

test("the cost estimate is in plain words and within a factor of 2 of the run's events", async ({ page }) => {
  // Lesson 1's Reno over a 1.9 s RTT: its window, not the link, limits it (the old packets × hops
  // model said 22 million events for its 6 711).
  await open(page, '#preset=istn-window-reno');
  const estimate = page.getByTestId('estimate');
  await expect(estimate).toContainText(/Estimated cost: [\d,.]+( million| billion)? events, about \d+ s in this browser\./);
  const text = await estimate.innerText();
  const [, n, unit] = /cost: ([\d,.]+)( million| billion)? events/.exec(text)!;
  const estimated = Number(n.replace(/,/g, '')) * (unit === ' million' ? 1e6 : unit === ' billion' ? 1e9 : 1);
  await runAndWait(page);
  const caption = await page.getByTestId('summary').locator('caption').innerText();
  const ran = Number(/([\d,]+) events/.exec(caption)![1].replace(/,/g, ''));
  expect(estimated / ran).toBeGreaterThan(0.5);
  expect(estimated / ran).toBeLessThan(2);
});
