// What a user must be able to rely on when things go wrong: a crash inside a run, a core that
// runs out of memory, a cancelled run, a sweep whose job fails, an expensive shared link, and a
// page whose Content-Security-Policy holds while it runs the core and draws the globe.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { encodeScenario } from '../web/src/share/share';
import { expect, open, runAndWait, summaryText, test } from './fixtures';

const root = new URL('..', import.meta.url).pathname;
const preset = (id: string) => JSON.parse(readFileSync(`${root}scenarios/${id}.json`, 'utf8')) as Record<string, unknown>;

async function crashTest(page: Page, testId: string) {
  await page.locator('details.crash-tests > summary').click();
  await page.getByTestId(testId).click();
}

/** A run long enough to be caught in the middle: an hour of a 100 Mbit/s chain. */
function longRun(): Record<string, unknown> {
  return {
    version: 1,
    name: 'long run',
    duration_s: 3600,
    topology: { kind: 'chain', links: [{ rate_mbps: 100, delay_ms: 20, buffer_pkts: 500 }] },
    flows: [{ transport: 'tcp', cc: 'cubic' }],
  };
}

async function setEditorText(page: Page, text: string) {
  await page.getByTestId('editor-tab-json').click();
  await page.locator('#scenario-json').fill(text);
}

test('a panic inside a run is reported with its message, and the next run works', async ({ page }) => {
  await open(page, '#preset=default', { debug: true });
  await crashTest(page, 'crash-next-run');
  await page.getByTestId('run').click();
  await expect(page.getByTestId('notice')).toContainText('crashed and was restarted', { timeout: 60_000 });
  await expect(page.getByTestId('notice')).toContainText('deliberate panic inside a run');
  // Not the borrow error that freeing a trapped object throws over the real one.
  await expect(page.getByTestId('notice')).not.toContainText('borrowed');
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'idle');
  await runAndWait(page);
  expect(await summaryText(page)).toHaveLength(1);
});

test('a core that runs out of memory says so, and the next run works', async ({ page }) => {
  await open(page, '#preset=default', { debug: true });
  await crashTest(page, 'crash-oom');
  await expect(page.getByTestId('notice')).toContainText('needed more memory than this tab has', { timeout: 90_000 });
  await runAndWait(page);
  expect(await summaryText(page)).toHaveLength(1);
});

test('cancel stops a run at once, and the next run works', async ({ page }) => {
  await open(page, '#preset=default');
  await setEditorText(page, JSON.stringify(longRun(), null, 2));
  await expect(page.getByTestId('run')).toBeEnabled();
  await page.getByTestId('run').click();
  await expect(page.getByTestId('progress')).toBeVisible();
  await page.getByTestId('cancel').click();
  await expect(page.getByTestId('status')).toContainText('Run cancelled.');
  await expect(page.getByTestId('progress')).toHaveCount(0);
  await setEditorText(page, JSON.stringify(preset('default'), null, 2));
  await runAndWait(page);
  expect(await summaryText(page)).toHaveLength(1);
});

test('a sweep whose job fails stops, names the job, and cancels the rest', async ({ page }) => {
  const sweep = preset('ctcp-fig2-tcp');
  sweep.name = 'failing sweep';
  (sweep.flows as Record<string, unknown>[])[0].bytes = 20_000_000;
  sweep.sweep = { grid: { 'flows[0].cc': ['reno', 'cubic', 'hybla', 'vegas'] }, runs: 3 };
  await open(page, '#preset=default', { debug: true });
  await setEditorText(page, JSON.stringify(sweep, null, 2));
  await expect(page.getByTestId('run-sweep')).toBeEnabled();
  // The first job (on the first worker) panics inside its run.
  await crashTest(page, 'crash-next-run');
  await page.getByTestId('run-sweep').click();
  await expect(page.getByTestId('notice')).toContainText('Sweep stopped: run 1 of 12', { timeout: 60_000 });
  await expect(page.getByTestId('notice')).toContainText('The other runs were cancelled');
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'idle');
  await expect(page.getByTestId('progress')).toHaveCount(0);
  // Every worker is free again: the whole sweep now runs to the end.
  await page.getByTestId('run-sweep').click();
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
  await expect(page.getByTestId('status')).toContainText('12 runs');
});

test('an expensive shared link is not run on open: the page shows the estimate and asks', async ({ page }) => {
  await open(page, `#s=${encodeScenario(JSON.stringify(longRun()))}`);
  await expect(page.getByTestId('cost-prompt')).toContainText('was not started');
  await expect(page.getByTestId('cost-prompt')).toContainText('events');
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'idle');
  await expect(page.getByTestId('progress')).toHaveCount(0);
  await page.getByTestId('cost-run').click();
  await expect(page.getByTestId('progress')).toBeVisible();
  await page.getByTestId('cancel').click();
  await expect(page.getByTestId('status')).toContainText('Run cancelled.');
});

test('the built page carries a Content-Security-Policy that the app runs under', async ({ page, consoleErrors }) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective}: ${e.blockedURI}`));
  });
  await open(page, '#preset=leo-beijing-newyork-starlink');
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(csp).toContain("object-src 'none'");
  await expect(page.getByTestId('globe-canvas').locator('canvas')).toBeVisible({ timeout: 60_000 });
  await setEditorText(page, JSON.stringify(preset('default'), null, 2));
  await runAndWait(page);
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test('the hardening reproductions, opened from shared links, give a clear error at once', async ({ page }) => {
  const leo = preset('leo-beijing-newyork-starlink');
  const huge = structuredClone(leo) as { topology: { constellation: { walker: Record<string, number> } } };
  huge.topology.constellation.walker.planes = 3000;
  huge.topology.constellation.walker.sats_per_plane = 3000;
  const base = preset('default') as { flows: Record<string, unknown>[]; topology: { links: Record<string, unknown>[] } };
  const tinyBins = { ...structuredClone(base), trace: { goodput_interval_s: 1e-9 } };
  const badKey = structuredClone(base);
  badKey.flows = [{ transport: 'intcp', node_cache_bytes: { '01': 0 } }];
  const values = Array.from({ length: 256 }, (_, k) => k + 1);
  const bigGrid = {
    ...structuredClone(base),
    sweep: { grid: { 'topology.links[0].delay_ms': values, 'topology.links[1].delay_ms': values, 'flows[0].start_s': values } },
  };
  const cases: [string, unknown, RegExp][] = [
    ['3000 × 3000 Walker shell', huge, /9000000|9 000 000|satellites/],
    ['a goodput bin of 1 ns', tinyBins, /goodput_interval_s/],
    ['a node cache keyed "01"', badKey, /node_cache_bytes/],
    ['a sweep grid of 256³ runs', bigGrid, /16777216|at most 100000/],
  ];
  for (const [what, scenario, message] of cases) {
    // A new document each time: a change of fragment alone does not reload the app.
    await page.goto('about:blank');
    await open(page, `#s=${encodeScenario(JSON.stringify(scenario))}`);
    await expect(page.getByTestId('editor-error-count'), what).toBeVisible({ timeout: 10_000 });
    await page.getByTestId('editor-tab-json').click();
    await expect(page.getByTestId('editor-json'), what).toContainText(message, { timeout: 10_000 });
    await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'idle');
    await expect(page.getByTestId('notice')).toHaveCount(0);
  }
});

test('a short link that nests 5000 objects says so, and the page stays usable', async ({ page }) => {
  // 119 characters of link inflate to 5000 nested objects: enough to overflow a recursive reader.
  const text = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
  await open(page, `#s=${encodeScenario(text)}`);
  await expect(page.getByTestId('notice')).toContainText('5,000 levels deep');
  await setEditorText(page, JSON.stringify(preset('default'), null, 2));
  await runAndWait(page);
  await expect(page.getByTestId('summary')).toContainText('cubic');
});

test('a sweep with a 64-bit seed above 2^53 runs every job in the browser', async ({ page }) => {
  const sweep = preset('ctcp-fig2-tcp');
  sweep.name = 'big seed';
  sweep.seed = '18446744073709551557';
  (sweep.flows as Record<string, unknown>[])[0].bytes = 1_000_000;
  sweep.sweep = { grid: { 'flows[0].cc': ['reno', 'cubic'] }, runs: 2 };
  // A seed above 2^53 must stay exact: it is written into the JSON text unquoted.
  const text = JSON.stringify(sweep).replace('"18446744073709551557"', '18446744073709551557');
  await open(page, `#s=${encodeScenario(text)}`);
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
  await expect(page.getByTestId('status')).toContainText('4 runs');
  await expect(page.getByTestId('notice')).toHaveCount(0);
});

test('letters in a number field get a sentence, not a parser message', async ({ page }) => {
  await open(page, '#preset=default');
  await page.getByTestId('editor-form').getByLabel('Duration').fill('abc');
  const errors = page.getByTestId('editor-form').locator('.field-errors');
  await expect(errors).toContainText('must be a number, not the text "abc"');
  await expect(errors).not.toContainText('invalid type');
  await expect(page.getByTestId('run')).toBeDisabled();
});

test("a loss-free path's jitter chart has a plain axis, not floating-point noise", async ({ page }) => {
  // The ISTN window preset: one flow, no loss, a constant delay: its jitter is 4.3e-7 ms of rounding.
  await open(page, '#preset=istn-window-reno');
  await runAndWait(page);
  const tickLabels = page.getByTestId('chart-jitter').locator('.axis-y .tick text');
  // The chart draws its axes after the run's result arrives; wait for them rather than read once.
  await expect.poll(async () => (await tickLabels.allTextContents()).length).toBeGreaterThan(1);
  const ticks = await tickLabels.allTextContents();
  for (const t of ticks) expect(t, 'a tick label').not.toMatch(/e-|0\.0000/);
});
