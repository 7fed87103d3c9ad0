// Comparing runs: a pinned baseline is drawn dashed under the next run's lines and the summary
// shows both runs' numbers, as each run's own summary gives them, with the difference.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, open, runAndWait, test } from './fixtures';

/** The first flow's numbers in the run's own summary table. */
async function ownNumbers(page: Page) {
  return {
    goodput: (await page.getByTestId('goodput-0').innerText()).trim(),
    delivered: (await page.getByTestId('delivered-0').innerText()).trim(),
  };
}

/** A comparison row's cells for metric `key`. */
async function compareRow(page: Page, key: string) {
  const row = page.getByTestId(`compare-${key}`).first();
  return {
    baseline: (await row.getByTestId('compare-baseline').innerText()).trim(),
    current: (await row.getByTestId('compare-current').innerText()).trim(),
    diff: (await row.getByTestId('compare-diff').innerText()).trim(),
    pct: (await row.getByTestId('compare-pct').innerText()).trim(),
  };
}

const num = (s: string) => Number(s.replace(/,/g, '').replace('−', '-').replace('%', ''));

test('a pinned run is compared with the next one, in the charts and the summary', async ({ page, consoleErrors }) => {
  await open(page, '#preset=default');
  await runAndWait(page);
  const first = await ownNumbers(page);
  const name = (await page.getByTestId('summary').locator('caption').innerText()).split(':')[0];
  await page.getByTestId('pin-baseline').click();
  await expect(page.getByTestId('baseline-name')).toContainText(name);
  await expect(page.getByTestId('pin-baseline')).toHaveAttribute('title', /"Copy link with baseline" makes a link that carries it/);
  // Against itself there is nothing to compare yet.
  await expect(page.getByTestId('compare')).toHaveCount(0);

  // "What if the loss doubles?"
  await page.getByTestId('editor-tab-json').click();
  const text = await page.locator('#scenario-json').inputValue();
  expect(text).toContain('"p": 0.01');
  await page.locator('#scenario-json').fill(text.replace('"p": 0.01', '"p": 0.02'));
  await runAndWait(page);
  const second = await ownNumbers(page);
  expect(second.goodput).not.toEqual(first.goodput);
  // The comparison says what differs between the two runs, not just the preset's name twice.
  await expect(page.getByTestId('compare-changes')).toHaveText('What changed from the baseline: link 2 loss: 1 % → 2 %.');

  // Each chart with a baseline: this run's line solid, the baseline's dashed, and its legend entry.
  for (const chart of ['chart-goodput', 'chart-cwnd', 'chart-delay']) {
    const c = page.getByTestId(chart);
    await expect(c.getByTestId('series-baseline').first()).toHaveAttribute('stroke-dasharray', /\d/);
    // Named by what it had that this run changed, not by the name both runs share.
    await expect(c.locator('.legend-text', { hasText: 'baseline: link 2 loss 1 %' })).toHaveCount(1);
  }
  const goodput = page.getByTestId('chart-goodput');
  await expect(goodput.getByTestId('series')).toHaveCount(1);
  await expect(goodput.getByTestId('series-baseline')).toHaveCount(1);
  expect(await goodput.getByTestId('series').getAttribute('stroke-dasharray')).toBeNull();

  // The summary's numbers are the two runs' own, and the difference is this run − baseline.
  const g = await compareRow(page, 'goodput');
  expect(g.baseline).toBe(first.goodput);
  expect(g.current).toBe(second.goodput);
  // The three numbers are shown rounded to 3 decimals, each from the unrounded goodputs, so the
  // shown difference and the difference of the shown goodputs may part by up to 0.0015.
  expect(Math.abs(num(g.diff) - (num(second.goodput) - num(first.goodput)))).toBeLessThanOrEqual(0.0015 + 1e-9);
  expect(num(g.pct)).toBeCloseTo(((num(second.goodput) - num(first.goodput)) / num(first.goodput)) * 100, 0);
  const d = await compareRow(page, 'delivered');
  expect(d.baseline).toBe(first.delivered);
  expect(d.current).toBe(second.delivered);

  const axe = await new AxeBuilder({ page }).include('[data-testid="baseline-bar"]').include('[data-testid="compare"]').include('[data-testid="chart-goodput"]').analyze();
  const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);

  // The baseline survives a further run until it is cleared.
  await runAndWait(page);
  await expect(page.getByTestId('compare')).toHaveCount(1);
  await page.getByTestId('clear-baseline').click();
  await expect(page.getByTestId('compare')).toHaveCount(0);
  await expect(page.getByTestId('chart-goodput').getByTestId('series-baseline')).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test("a baseline and a run whose windows differ a hundredfold share a log axis, said so, and the reader's choice stands", async ({ page }) => {
  await open(page, '#preset=default');
  await runAndWait(page);
  await page.getByTestId('pin-baseline').click();
  await page.getByTestId('editor-tab-json').click();
  const text = await page.locator('#scenario-json').inputValue();
  await page.locator('#scenario-json').fill(text.replace('"cc": "cubic"', '"cc": "hybla"'));
  await runAndWait(page);
  const cwnd = page.getByTestId('chart-cwnd');
  // Hybla's 65 535 packets against CUBIC's 111.
  await expect(cwnd.getByTestId('cwnd-log')).toBeChecked();
  await expect(cwnd.getByTestId('cwnd-log-note')).toContainText(/differ \d+-fold/);
  await expect(cwnd.locator('.legend-text', { hasText: 'baseline: cc cubic' })).toHaveCount(1);
  await cwnd.getByTestId('cwnd-log').uncheck();
  await expect(cwnd.getByTestId('cwnd-log')).not.toBeChecked();
  await expect(cwnd.getByTestId('cwnd-log-note')).toHaveCount(0);
});

test('a link can carry the baseline: it opens on the same comparison, and Clear takes the baseline out of the address bar', async ({ page, consoleErrors }) => {
  await open(page, '#preset=default');
  await runAndWait(page);
  const baselineGoodput = (await page.getByTestId('goodput-0').innerText()).trim();
  await page.getByTestId('pin-baseline').click();
  // Pinned against itself, there is nothing to carry yet.
  await expect(page.getByTestId('copy-link-baseline')).toHaveCount(0);
  await page.getByTestId('editor-tab-json').click();
  const text = await page.locator('#scenario-json').inputValue();
  await page.locator('#scenario-json').fill(text.replace('"p": 0.01', '"p": 0.02'));
  await runAndWait(page);
  const goodput = (await page.getByTestId('goodput-0').innerText()).trim();
  await page.getByTestId('copy-link-baseline').click();
  await expect(page.getByTestId('status')).toHaveText(/Link (copied to the clipboard|is in the address bar)/);
  const link = page.url();
  expect(link).toMatch(/[#&]base=/);
  // A plain "Copy link" drops it again.
  await page.getByTestId('share').click();
  expect(page.url()).not.toMatch(/[#&]base=/);

  const other = await page.context().newPage();
  await open(other, link.slice(link.indexOf('#')));
  await expect(other.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 60_000 });
  await expect(other.getByTestId('baseline-name')).toContainText('seed 1', { timeout: 60_000 });
  await expect(other.getByTestId('compare-changes')).toHaveText('What changed from the baseline: link 2 loss: 1 % → 2 %.');
  const row = other.getByTestId('compare-goodput').first();
  await expect(row.getByTestId('compare-baseline')).toHaveText(baselineGoodput);
  await expect(row.getByTestId('compare-current')).toHaveText(goodput);
  await expect(other.getByTestId('chart-goodput').getByTestId('series-baseline')).toHaveCount(1);
  await other.getByTestId('clear-baseline').click();
  expect(other.url()).not.toMatch(/[#&]base=/);
  await other.close();
  expect(consoleErrors).toEqual([]);
});
