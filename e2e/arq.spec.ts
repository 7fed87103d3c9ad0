// ARQ in the browser: the loss preset gives exactly the native CLI's summary and draws its
// acknowledged data with the retransmissions marked, and the form turns a TCP flow into a
// stop-and-wait flow that runs at one packet per round trip.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, open, runAndWait, summaryText, test } from './fixtures';

const root = new URL('..', import.meta.url).pathname;
const cli = process.env.ORBITCP_CLI ?? `${root}target/release/orbitcp`;

test('the ARQ loss preset gives exactly the summary the native CLI gives', async ({ page, consoleErrors }) => {
  test.setTimeout(90_000);
  await open(page, '#preset=arq-geo-loss');
  await runAndWait(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
  const browser = JSON.parse(readFileSync(await download.path(), 'utf8'));
  const native = JSON.parse(execFileSync(cli, ['run', '--summary', `${root}scenarios/arq-geo-loss.json`], { encoding: 'utf8' }));
  expect(native.flows.map((f: { cc: string }) => f.cc)).toEqual(['stop-and-wait', 'go-back-n', 'selective-repeat']);
  expect(browser.summary).toEqual(native);
  const rows = await summaryText(page);
  expect(rows).toHaveLength(3);
  expect(rows[2]).toContain('selective-repeat');

  const chart = page.getByTestId('chart-sequence');
  await expect(chart).toBeVisible();
  await expect(chart.getByTestId('series-acked')).toHaveCount(3);
  await expect(chart.getByTestId('series-inflight')).toHaveCount(3);
  const said = chart.getByTestId('sequence-summary');
  await expect(said).toHaveCount(3);
  for (const [i, f] of native.flows.entries()) {
    await expect(said.nth(i)).toContainText(`sent ${f.retransmissions.toLocaleString('en')} retransmissions`);
  }
  // Go-back-N resends windows at 1 % loss: its marks are on the chart.
  expect(native.flows[1].retransmissions).toBeGreaterThan(100);
  const marks = chart.getByTestId('retransmission-marks');
  expect(Math.max(...(await marks.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-points') ?? 0)))))).toBeGreaterThan(10);
  expect(consoleErrors).toEqual([]);
});

test('switching a flow to stop-and-wait ARQ in the form makes a valid scenario that runs', async ({ page, consoleErrors }) => {
  test.setTimeout(60_000);
  await open(page, '#preset=default');
  const form = page.getByTestId('editor-form');
  const flow = form.getByRole('group', { name: 'Flow 1' });
  await flow.getByLabel('Transport').selectOption('arq');
  await expect(flow.getByLabel('Congestion control')).toHaveCount(0);
  await flow.getByLabel('ARQ protocol').selectOption('go-back-n');
  await flow.getByLabel('Window').fill('8');
  // Stop-and-wait takes no window: choosing it clears the one set for go-back-N.
  await flow.getByLabel('ARQ protocol').selectOption('stop-and-wait');
  await flow.getByLabel('Bytes to send').fill('146000');
  await page.getByTestId('editor-tab-json').click();
  const scenario = JSON.parse(await page.locator('#scenario-json').inputValue());
  expect(scenario.flows).toEqual([{ transport: 'arq', mode: 'stop-and-wait', bytes: 146000 }]);
  await expect(page.getByTestId('editor-error-count')).toHaveCount(0);

  await runAndWait(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
  const summary = JSON.parse(readFileSync(await download.path(), 'utf8')).summary;
  const f = summary.flows[0];
  expect(f.cc).toBe('stop-and-wait');
  expect(f.completed).toBe(true);
  expect(f.delivered_bytes).toBe(146000);
  // 100 packets, one per round trip: the wire shows no more than one in flight.
  expect(f.wire.max_inflight_pkts).toBe(1);
  expect(consoleErrors).toEqual([]);
});
