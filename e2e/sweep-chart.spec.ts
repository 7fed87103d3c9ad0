// The sweep chart's metric and error-bar choices, checked against the core's aggregate table
// (`orbitcp sweep --aggregate`), and a sweep over whole flows (no numeric x axis).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeScenario } from '../web/src/share/share';
import { expect, open, test } from './fixtures';

const root = new URL('..', import.meta.url).pathname;
const cli = process.env.ORBITCP_CLI ?? `${root}target/release/orbitcp`;
const FIXTURE = `${root}web/src/sim/fixtures/sweep-ci.json`;

/** `orbitcp sweep --aggregate` of a file, as objects keyed by the header (no quoted cells). */
function coreAggregate(file: string): Record<string, string>[] {
  const [head, ...lines] = execFileSync(cli, ['sweep', '--aggregate', '--threads', '1', file], { encoding: 'utf8' }).trim().split('\n');
  const cols = head.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((c, i) => [cols[i], c])));
}

test('the sweep chart plots one-way delay with 95 % intervals equal to the core aggregate', async ({ page, consoleErrors }) => {
  void consoleErrors;
  await open(page, `#s=${encodeScenario(readFileSync(FIXTURE, 'utf8'))}`);
  await page.getByTestId('run-sweep').click();
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
  const chart = page.getByTestId('chart-sweep');
  await expect(chart.getByTestId('sweep-y-label')).toHaveText('goodput (Mbit/s)');
  // The swept field in words, not its JSON path.
  await expect(chart.getByTestId('sweep-x-label')).toHaveText('link 2 loss (packet loss probability)');

  // CTCP codes and TCP reports the delay at arrival, so both are offered.
  const options = await chart.getByTestId('sweep-metric').locator('option').allInnerTexts();
  expect(options).toContain('coding overhead');
  expect(options).toContain('one-way delay at arrival, mean');

  await chart.getByTestId('sweep-spread').selectOption('std');
  await chart.getByTestId('sweep-metric').selectOption('owd_ms_mean');
  await chart.getByTestId('sweep-spread').selectOption('ci');
  await expect(chart.getByTestId('sweep-y-label')).toHaveText('one-way delay, mean (ms)');
  await expect(chart.locator('caption')).toContainText('Mean one-way delay, mean (ms) ± 95 % CI');

  const core = coreAggregate(FIXTURE).find((r) => r['topology.links[1].loss.p'] === '0.05' && r.flow === '1')!;
  const cell = chart.locator('tr[data-x="0.05"]').locator('td[data-series="flow 1"]');
  const num = async (attr: string) => Number(await cell.getAttribute(attr));
  expect(await num('data-runs')).toBe(Number(core.runs));
  // The core prints six decimals.
  expect(Math.abs((await num('data-mean')) - Number(core.owd_ms_mean_mean))).toBeLessThanOrEqual(5e-7);
  expect(Math.abs((await num('data-std')) - Number(core.owd_ms_mean_std))).toBeLessThanOrEqual(5e-7);
  expect(Math.abs((await num('data-ci95')) - Number(core.owd_ms_mean_ci95))).toBeLessThanOrEqual(5e-7);
  await expect(cell).toContainText(`n = ${core.runs}`);
  // The bars drawn are the intervals: on one linear y scale, their lengths are in the ratio of
  // the core's half-widths.
  const barLength = async (x: string) => {
    const d = (await chart.locator(`[data-testid="sweep-point"][data-series="flow 1"][data-x="${x}"] [data-testid="error-bar"]`).getAttribute('d'))!;
    const m = /^M[^,]+,([-\d.e]+)V([-\d.e]+)/.exec(d)!;
    return Math.abs(Number(m[2]) - Number(m[1]));
  };
  const other = coreAggregate(FIXTURE).find((r) => r['topology.links[1].loss.p'] === '0.01' && r.flow === '1')!;
  const ratio = (await barLength('0.05')) / (await barLength('0.01'));
  expect(ratio).toBeCloseTo(Number(core.owd_ms_mean_ci95) / Number(other.owd_ms_mean_ci95), 4);
});

test('a sweep over whole flows tabulates them by name, without a React error', async ({ page, consoleErrors }) => {
  const sc = JSON.parse(readFileSync(`${root}scenarios/intcp-two-hop-square.json`, 'utf8'));
  sc.duration_s = 4;
  await open(page, `#s=${encodeScenario(JSON.stringify(sc))}`);
  await page.getByTestId('run-sweep').click();
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
  const table = page.getByTestId('chart-sweep').getByTestId('sweep-table');
  await expect(table).toContainText('tcp reno');
  await expect(table).toContainText('intcp');
  await expect(table).not.toContainText('[object Object]');
  const filter = page.getByTestId('chart-sweep').locator('select[data-testid^="sweep-filter-"]');
  // The swept flows are also the filter's choices, where an object once broke React (#31).
  await expect(filter).toHaveCount(1);
  expect(await filter.locator('option').allInnerTexts()).toContain('tcp cubic');
  expect(consoleErrors).toEqual([]);
});

test("a sweep point with no value says so: completion times where no run finished", async ({ page }) => {
  // The default preset's 20 MB download at 1 % and at 30 % loss: at 30 % it never finishes in 600 s.
  const sc = JSON.parse(readFileSync(`${root}scenarios/default.json`, 'utf8'));
  sc.sweep = { grid: { 'topology.links[1].loss.p': [0.01, 0.3] }, runs: 2 };
  const file = join(mkdtempSync(join(tmpdir(), 'orbitcp-e2e-missing-')), 'sweep.json');
  writeFileSync(file, JSON.stringify(sc));
  // The core's table agrees: no completion time at 30 %, one at 1 %.
  const native = coreAggregate(file);
  expect(native.find((r) => r['topology.links[1].loss.p'] === '0.3')!.completion_s_mean).toBe('');
  expect(Number(native.find((r) => r['topology.links[1].loss.p'] === '0.01')!.completion_s_mean)).toBeGreaterThan(0);
  await open(page, `#s=${encodeScenario(JSON.stringify(sc))}`);
  await page.getByTestId('run-sweep').click();
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
  const chart = page.getByTestId('chart-sweep');
  await expect(chart.getByTestId('sweep-missing')).toHaveCount(0);
  await chart.getByTestId('sweep-metric').selectOption('completion_s');
  await expect(chart.getByTestId('sweep-missing')).toHaveText(/^No point where no run finished its transfer within the run’s time: .* at link 2 loss 30 %\.$/);
});
