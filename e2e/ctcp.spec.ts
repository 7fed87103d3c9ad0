// Network-coded TCP in the browser: the CTCP paper's Fig. 4 preset gives the native CLI's
// summary exactly, the coding chart draws the decoder rank and the loss estimate, and the form
// turns a TCP flow into a CTCP flow that runs.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, open, runAndWait, summaryText, test } from './fixtures';

const root = new URL('..', import.meta.url).pathname;
const cli = process.env.ORBITCP_CLI ?? `${root}target/release/orbitcp`;
const FIG4 = 'ctcp-fig4-per0.5';

test('the Fig. 4 preset gives exactly the summary the native CLI gives', async ({ page, consoleErrors }) => {
  test.setTimeout(60_000);
  await open(page, `#preset=${FIG4}`);
  const started = Date.now();
  await runAndWait(page);
  test.info().annotations.push({ type: 'fig4-run-ms', description: String(Date.now() - started) });
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
  const browser = JSON.parse(readFileSync(await download.path(), 'utf8'));
  const native = JSON.parse(execFileSync(cli, ['run', '--summary', `${root}scenarios/${FIG4}.json`], { encoding: 'utf8' }));
  expect(native.flows[0].coding.blocks_decoded).toBeGreaterThan(1000);
  expect(browser.summary).toEqual(native);
  expect(consoleErrors).toEqual([]);
});

test('the coding chart draws the decoder rank, decode events and the loss estimate against the true PER', async ({ page, consoleErrors }) => {
  test.setTimeout(60_000);
  await open(page, `#preset=${FIG4}`);
  await runAndWait(page);
  const chart = page.getByTestId('chart-coding');
  await expect(chart).toBeVisible();
  const rank = chart.getByTestId('series-rank');
  await expect(rank).toHaveCount(1);
  expect(Number(await rank.getAttribute('data-points'))).toBeGreaterThan(1000);
  expect((await rank.getAttribute('d'))?.length ?? 0).toBeGreaterThan(1000);
  const loss = chart.getByTestId('series-loss-estimate');
  await expect(loss).toHaveCount(1);
  expect(Number(await loss.getAttribute('data-points'))).toBeGreaterThan(100);
  expect((await loss.getAttribute('d'))?.length ?? 0).toBeGreaterThan(100);
  const decodes = chart.getByTestId('decode-events');
  expect(Number(await decodes.getAttribute('data-points'))).toBeGreaterThan(1000);
  expect(Number(await decodes.getAttribute('data-drawn'))).toBeGreaterThan(50);
  await expect(chart.locator('svg.chart-svg')).toContainText('true PER 0.5% (link 2)');
  // The figures the native CLI gives for the same run, as the summary words them.
  const native = JSON.parse(execFileSync(cli, ['run', '--summary', `${root}scenarios/${FIG4}.json`], { encoding: 'utf8' }));
  const coding = native.flows[0].coding;
  const text = chart.getByTestId('coding-summary');
  await expect(text).toContainText(`coded overhead of ${coding.coded_overhead.toFixed(3)} packets sent per source packet`);
  await expect(text).toContainText(`${coding.blocks_decoded.toLocaleString('en')} blocks decoded`);
  await expect(text).toContainText(`${coding.non_innovative.toLocaleString('en')} receptions were non-innovative`);
  await expect(text).toContainText('true PER of the bottleneck is 0.5%');
  await expect(chart.getByTestId('export-svg')).toBeVisible();
  await expect(chart.getByTestId('export-png')).toBeVisible();
  await expect(page.getByTestId('chart-cwnd').getByTestId('chart-summary')).toContainText('packets sent per source packet delivered');
  // Zoomed in, the sawtooth and its decode events resolve.
  await chart.getByRole('button', { name: 'Zoom in on the network coding chart' }).click();
  await chart.getByRole('button', { name: 'Zoom in on the network coding chart' }).click();
  await expect(chart.getByText(/\(×4\)/)).toBeVisible();
  await chart.screenshot({ path: test.info().outputPath('coding-chart-zoomed.png') });
  await chart.getByRole('button', { name: 'Reset the zoom of the network coding chart' }).click();
  await chart.screenshot({ path: test.info().outputPath('coding-chart.png') });
  await page.screenshot({ path: test.info().outputPath('fig4-page.png'), fullPage: true });
  const axe = await new AxeBuilder({ page }).include('[data-testid="chart-coding"]').include('[data-testid="editor-form"]').analyze();
  const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test('switching a flow to CTCP in the form makes a valid scenario that runs', async ({ page, consoleErrors }) => {
  test.setTimeout(60_000);
  await open(page, '#preset=default');
  const form = page.getByTestId('editor-form');
  const flow = form.getByRole('group', { name: 'Flow 1' });
  await flow.getByLabel('Transport').selectOption('ctcp');
  await expect(flow.getByLabel('Congestion control')).toHaveCount(0);
  await flow.getByLabel('CTCP variant').selectOption('v1');
  await flow.getByLabel('Coding').selectOption('rank-only');
  await flow.getByLabel('Block size').fill('16');
  await flow.getByLabel('Window of blocks').fill('50');
  await flow.getByLabel('Bytes to send').fill('5000000');
  const link = form.getByRole('group', { name: 'Link 2' });
  await link.getByLabel('Loss acts').selectOption('ingress');

  await page.getByTestId('editor-tab-json').click();
  const scenario = JSON.parse(await page.locator('#scenario-json').inputValue());
  expect(scenario.flows).toEqual([{ transport: 'ctcp', variant: 'v1', coding: 'rank-only', bytes: 5000000, block_pkts: 16, max_blocks: 50 }]);
  expect(scenario.topology.links[1].loss_at).toBe('ingress');
  await expect(page.getByTestId('editor-error-count')).toHaveCount(0);

  await runAndWait(page);
  const rows = await summaryText(page);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toContain('ctcp-v1');
  await expect(page.getByTestId('chart-coding')).toBeVisible();
  await expect(page.getByTestId('chart-coding').getByTestId('coding-summary')).toContainText('blocks decoded');

  // And back to TCP: the CTCP fields go, bytes stay.
  await page.getByTestId('editor-tab-form').click();
  await flow.getByLabel('Transport').selectOption('tcp');
  await page.getByTestId('editor-tab-json').click();
  expect(JSON.parse(await page.locator('#scenario-json').inputValue()).flows).toEqual([{ transport: 'tcp', cc: 'cubic', bytes: 5000000 }]);
  expect(consoleErrors).toEqual([]);
});
