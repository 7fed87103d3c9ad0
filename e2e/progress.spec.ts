// A run of minutes shows how far it is, flow by flow, and about how long is left, real wasm in real Chromium:
// the LEO preset (five flows alone for ten minutes over 1600 satellites, the core's estimate far
// over 10 s in a browser), cancelled as soon as its estimate is on the page.
import { readFileSync } from 'node:fs';
import { expect, open, runAndWait, test } from './fixtures';
import { encodeScenario } from '../web/src/share/share';

const root = new URL('../', import.meta.url).pathname;

test('a long run shows its progress and the time left as it goes, and is cancelled at once', async ({ page }) => {
  await open(page, '#preset=leo-beijing-newyork-1600');
  await page.getByTestId('run').click();
  const progress = page.getByTestId('progress');
  await expect(progress.locator('progress')).toBeVisible();
  await expect(progress.getByTestId('time-left')).toHaveText(/^, about (\d+ s|\d+ min \d+ s|\d+ h \d+ min) left$/, { timeout: 60_000 });
  // Each flow runs alone: the label counts those done and names each running one by its label.
  await expect(progress).toContainText(/^\d of 5 flows done(; (TCP Reno|TCP Hybla|TCP CUBIC|CTCP v2|INTCP) at \d+ of 600 s( \(about [^)]+ left\))?)+/);
  // Each running flow's time left, from its own pace, once it has run a second.
  await expect(progress).toContainText(/INTCP at \d+ of 600 s \(about (\d+ s|\d+ min \d+ s) left\)/, { timeout: 60_000 });
  // The charts of the flows so far, joined as the final result will be, while the run goes on.
  const partial = page.getByTestId('partial-result');
  await expect(partial.getByTestId('partial-note')).toContainText(/Results so far, while the run goes on/, { timeout: 60_000 });
  await expect(partial.locator('svg path').first()).toBeVisible();
  await expect(page.getByTestId('summary')).toHaveCount(0);
  const fraction = await progress.locator('progress').evaluate((el) => (el as HTMLProgressElement).value);
  expect(fraction).toBeGreaterThan(0);
  expect(fraction).toBeLessThan(1);
  await page.getByTestId('cancel').click();
  await expect(progress).toHaveCount(0);
  await expect(partial).toHaveCount(0);
});

test("a long run's charts fill in while it runs, then give way to its result", async ({ page }) => {
  // The default preset's CUBIC download for two hours at 0.01 % loss, the link kept full:
  // 23 million events, under 3 s natively, several seconds in a browser on the build made for speed,
  // which shows a result so far after 1 s and then every half second or so.
  const long = JSON.parse(readFileSync(`${root}scenarios/default.json`, 'utf8'));
  long.name = 'a longer download';
  long.flows[0].bytes = 16_000_000_000;
  long.duration_s = 7200;
  long.topology.links[1].loss.p = 0.0001;
  await open(page, `#s=${encodeScenario(JSON.stringify(long, null, 2))}&v=0`);
  await page.getByTestId('run').click();
  const note = page.getByTestId('partial-note');
  await expect(note).toBeVisible({ timeout: 30_000 });
  const reached = async () => Number(/to (\d+) s\s+simulated/.exec(await note.innerText())?.[1]);
  const first = await reached();
  await expect.poll(reached, { timeout: 30_000 }).toBeGreaterThan(first);
  await expect(page.getByTestId('partial-result').locator('svg path').first()).toBeVisible();
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 120_000 });
  await expect(page.getByTestId('partial-result')).toHaveCount(0);
  await expect(page.getByTestId('summary')).toBeVisible();
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

test("a sweep's estimate shares its runs among the page's workers", async ({ page }) => {
  // The CTCP Fig. 2 TCP sweep: 1540 short runs, spread over every worker the page has (two
  // here, whatever the machine: the page makes one worker per core).
  await page.addInitScript(() => Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => 2 }));
  await open(page, '#preset=ctcp-fig2-tcp');
  await expect(page.getByTestId('estimate')).toContainText(/over 1,540 runs, about \d+ s in this browser on 2 workers\./);
});
