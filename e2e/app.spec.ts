import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { encodeScenario } from '../web/src/share/share';
import { expect, open, runAndWait, summaryText, test } from './fixtures';

const root = new URL('..', import.meta.url).pathname;
const cli = process.env.ORBITCP_CLI ?? `${root}target/release/orbitcp`;
const preset = (id: string) => readFileSync(`${root}scenarios/${id}.json`, 'utf8');

test('the app loads with a clean console and shows the preset gallery', async ({ page, consoleErrors }) => {
  await open(page);
  await expect(page.getByRole('heading', { name: 'orbitcp' })).toBeVisible();
  await expect(page.getByTestId('run')).toBeEnabled();
  expect(consoleErrors).toEqual([]);
});

test('the default page runs without fetching the orbit module; a constellation preset fetches it', async ({ page, consoleErrors }) => {
  void consoleErrors;
  const fetched: string[] = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname.split('/').pop() ?? ''));
  const wasm = (name: RegExp) => fetched.filter((f) => name.test(f) && f.endsWith('.wasm'));
  await open(page, '#preset=default');
  await runAndWait(page);
  // Once per worker of the pool.
  expect(wasm(/^orbitcp_core_bg/).length).toBeGreaterThan(0);
  expect(wasm(/^orbitcp_core_orbit/), 'the orbit module, on a chain without a place').toEqual([]);

  await page.goto('about:blank');
  await open(page, '#preset=leo-beijing-newyork-1600');
  await expect(page.getByTestId('globe-canvas')).toHaveAttribute('data-satellites', '1600', { timeout: 60_000 });
  await expect.poll(() => wasm(/^orbitcp_core_orbit_bg/).length).toBeGreaterThan(0);
});

test('a two-flow preset charts one line per flow with plausible point counts', async ({ page, consoleErrors }) => {
  await open(page, '#preset=winds-table5-reno-x2');
  await runAndWait(page);
  expect(await summaryText(page)).toHaveLength(2);
  const lines = page.getByTestId('chart-cwnd').getByTestId('series');
  await expect(lines).toHaveCount(2);
  for (const line of await lines.all()) {
    const n = Number(await line.getAttribute('data-points'));
    // A 120 s run traces every ACK, then decimates to at most 2000 points per flow.
    expect(n).toBeGreaterThan(200);
    expect(n).toBeLessThanOrEqual(2000);
  }
  await expect(page.getByTestId('chart-fairness')).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test('a small sweep reaches the end of its progress bar and plots a point per variant and PER', async ({ page }) => {
  const sweep = JSON.parse(preset('ctcp-fig2-tcp'));
  sweep.name = 'small sweep';
  sweep.flows[0].bytes = 2_000_000;
  sweep.sweep = { grid: { 'flows[0].cc': ['reno', 'cubic', 'hybla'], 'topology.links[1].loss.p': [0, 0.01, 0.05] }, runs: 2 };
  await open(page, `#s=${encodeScenario(JSON.stringify(sweep))}`);
  // The shared link runs by itself; the progress bar counts runs.
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
  await expect(page.getByTestId('status')).toContainText('18 runs');
  const points = page.getByTestId('chart-sweep').getByTestId('sweep-point');
  await expect(points).toHaveCount(9);
  const xs = new Set(await points.evaluateAll((els) => els.map((e) => `${e.getAttribute('data-series')}@${e.getAttribute('data-x')}`)));
  expect(xs.size).toBe(9);
  // Series named in words ("cc reno"), not "cc=reno", and no interval reaching below zero.
  expect(new Set(await points.evaluateAll((els) => els.map((e) => e.getAttribute('data-series'))))).toEqual(new Set(['cc reno', 'cc cubic', 'cc hybla']));
  // Two runs make wide 95 % intervals; goodput cannot go below 0, and neither does the axis.
  const ticks = await page.getByTestId('chart-sweep').locator('.axis-y .tick text').allTextContents();
  expect(ticks.length).toBeGreaterThan(1);
  for (const t of ticks) expect(Number(t.replace('−', '-').replace(/,/g, ''))).toBeGreaterThanOrEqual(0);
});

test('a shared link reopens the scenario and gives identical numbers', async ({ page, context }) => {
  await open(page, '#preset=default');
  await runAndWait(page);
  const first = await summaryText(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('share').click();
  await expect(page.getByTestId('status')).toContainText('Link');
  const url = page.url();
  expect(url).toContain('#s=');
  const other = await context.newPage();
  await other.goto(url);
  await expect(other.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
  expect(await summaryText(other)).toEqual(first);
});

test('a malformed link shows a clear message and leaves the app usable', async ({ page }) => {
  await open(page, '#s=1not-a-valid-payload!!');
  await expect(page.getByTestId('notice')).toContainText('could not be opened');
  await runAndWait(page);
  expect(await summaryText(page)).toHaveLength(1);
});

test('the crash tests are there only with ?debug=1', async ({ page }) => {
  await open(page);
  await expect(page.getByTestId('run')).toBeVisible();
  await expect(page.locator('details.crash-tests')).toHaveCount(0);
  await open(page, '', { debug: true });
  await expect(page.locator('details.crash-tests')).toHaveCount(1);
});

test('a crash in the worker surfaces in the UI and the app recovers', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await open(page, '', { debug: true });
  await page.locator('details.crash-tests > summary').click();
  await page.getByTestId('crash').click();
  await expect(page.getByTestId('notice')).toContainText('crashed and was restarted');
  await expect(page.getByTestId('notice')).toContainText('deliberate panic');
  await runAndWait(page);
  expect(await summaryText(page)).toHaveLength(1);
});

test('the browser gives exactly the summary the native CLI gives', async ({ page }) => {
  await open(page, '#preset=default');
  await runAndWait(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
  const browser = JSON.parse(readFileSync(await download.path(), 'utf8'));
  const native = JSON.parse(execFileSync(cli, ['run', '--summary', `${root}scenarios/default.json`], { encoding: 'utf8' }));
  expect(browser.summary).toEqual(native);
});

test('no serious or critical accessibility violations', async ({ page }) => {
  await open(page, '#preset=default');
  await runAndWait(page);
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
});
