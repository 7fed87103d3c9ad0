// Where a CTCP flow's bottleneck capacity went: the Fig. 4 presets draw one stacked
// bar with its seven segments in order, whose shares are the core's packet slots over their sum
// (as the native CLI reports them), and the summary table gives the same shares.
import { execFileSync } from 'node:child_process';
import AxeBuilder from '@axe-core/playwright';
import type { CapacitySummary } from '../web/src/sim/results.gen';
import { expect, open, runAndWait, test } from './fixtures';

const root = new URL('..', import.meta.url).pathname;
const cli = process.env.ORBITCP_CLI ?? `${root}target/release/orbitcp`;
const KEYS = ['innovative', 'redundant', 'non_innovative', 'lost', 'in_flight', 'other', 'idle'];

function nativeShares(preset: string): { link: number; shares: number[] } {
  const native = JSON.parse(execFileSync(cli, ['run', '--summary', `${root}scenarios/${preset}.json`], { encoding: 'utf8' }));
  const c: CapacitySummary = native.flows[0].coding.capacity;
  const parts = [c.innovative_pkts, c.redundant_needed_pkts, c.non_innovative_pkts, c.lost_pkts, c.in_flight_pkts, c.other_pkt_slots, c.idle_pkt_slots];
  const total = parts.reduce((a, b) => a + b, 0);
  return { link: c.link, shares: parts.map((p) => p / total) };
}

for (const preset of ['ctcp-fig4-per0.5', 'ctcp-fig4-per20']) {
  test(`${preset}: the capacity bar has its seven segments, in order, with the core's shares`, async ({ page, consoleErrors }) => {
    test.setTimeout(60_000);
    await open(page, `#preset=${preset}`);
    await runAndWait(page);
    const want = nativeShares(preset);

    const chart = page.getByTestId('chart-capacity');
    await expect(chart).toBeVisible();
    const svg = chart.locator('svg.chart-svg');
    await expect(svg).toHaveAttribute('role', 'img');
    expect(await svg.getAttribute('aria-label')).toMatch(/innovative \d+\.\d%, redundant, needed \d+\.\d%/);
    const bar = chart.getByTestId('capacity-bar');
    await expect(bar).toHaveCount(1);
    const segments = bar.getByTestId('capacity-segment');
    await expect(segments).toHaveCount(7);
    const keys = await segments.evaluateAll((els) => els.map((e) => e.getAttribute('data-key')));
    expect(keys).toEqual(KEYS);
    const shares = await segments.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-share'))));
    shares.forEach((s, i) => expect(s).toBeCloseTo(want.shares[i], 9));
    expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    // The segments tile the bar: each starts where the one before it ends.
    const boxes = await segments.evaluateAll((els) => els.map((e) => [Number(e.getAttribute('x')), Number(e.getAttribute('width'))]));
    for (let i = 1; i < boxes.length; i++) expect(boxes[i][0]).toBeCloseTo(boxes[i - 1][0] + boxes[i - 1][1], 6);
    // Most of the link carried innovative packets; at PER 20 % coded packets replaced the losses.
    expect(shares[0]).toBeGreaterThan(0.6);
    if (preset.endsWith('per20')) expect(shares[1]).toBeGreaterThan(0.1);

    await expect(chart.getByTestId('capacity-summary')).toContainText(`link ${want.link}`);
    await expect(chart.getByTestId('capacity-summary')).toContainText(/innovative \d+\.\d%.*idle \d+\.\d%/);
    const row = page.getByTestId('summary').getByTestId('capacity-0');
    await expect(row).toBeVisible();
    const cells = (await row.locator('td').allInnerTexts()).slice(1, 8).map((t) => Number(t.replace('%', '')));
    expect(cells).toHaveLength(7);
    expect(Math.round(cells.reduce((a, b) => a + b, 0) * 10)).toBe(1000);
    cells.forEach((p, i) => expect(Math.abs(p - want.shares[i] * 100)).toBeLessThanOrEqual(0.1));

    await chart.screenshot({ path: test.info().outputPath(`${preset}-capacity.png`) });
    const axe = await new AxeBuilder({ page }).include('[data-testid="chart-capacity"]').include('[data-testid="capacity-table"]').analyze();
    const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
}
