// The paper's statements on the charts and the at-arrival delay figures, real wasm, no mocks: the
// Beijing-New York preset over 1600 satellites, shortened to 20 s. The delay CDF draws a dashed
// arrival CDF beside the in-order one for every TCP flow and for INTCP (not for CTCP), the
// jitter chart the same; each of the preset's four claims is listed under its chart, and the two
// that name a point are marked on the delay CDF (the jitter claim as a line).
import { readFileSync } from 'node:fs';
import { test, expect, open, runAndWait } from './fixtures';

const PRESET = 'leo-beijing-newyork-1600';
const ARRIVAL = ['TCP Reno at arrival', 'TCP Hybla at arrival', 'TCP CUBIC at arrival', 'INTCP at arrival'];

test('the LEO preset shows arrival CDFs and jitter dashed, and the paper claims on their charts', async ({ page, consoleErrors }, testInfo) => {
  test.setTimeout(180_000);
  await open(page, `#preset=${PRESET}`);
  await page.getByTestId('editor-form').getByLabel('Duration').fill('20');
  await runAndWait(page);

  // The flows ran alone: no fairness index over them, and INTCP's table of every node it used
  // is folded, so the charts follow the summary instead of a page of rows.
  await expect(page.getByTestId('fairness')).toContainText('there is no fairness index');
  await expect(page.getByTestId('chart-fairness')).toHaveCount(0);
  await expect(page.getByTestId('hops-fold-4')).not.toHaveAttribute('open', '');
  await expect(page.getByTestId('hops-4')).toBeHidden();
  const summaryBottom = await page.getByTestId('summary').evaluate((e) => e.getBoundingClientRect().bottom);
  const chartsTop = await page.getByTestId('charts').evaluate((e) => e.getBoundingClientRect().top);
  expect(chartsTop - summaryBottom).toBeLessThan(100);

  // Delay CDF: a solid in-order line per flow, a dashed arrival line for the TCPs and INTCP.
  const cdf = page.getByTestId('chart-cdf');
  await expect(cdf.getByTestId('series')).toHaveCount(5);
  const arrival = cdf.getByTestId('arrival');
  await expect(arrival).toHaveCount(4);
  expect(await arrival.evaluateAll((els) => els.map((e) => e.getAttribute('data-series')))).toEqual(ARRIVAL);
  for (const line of await arrival.all()) {
    expect(await line.getAttribute('stroke-dasharray')).toBeTruthy();
    expect(Number(await line.getAttribute('data-points'))).toBeGreaterThan(10);
    expect((await line.getAttribute('d'))?.length ?? 0).toBeGreaterThan(20);
  }
  await expect(cdf.locator('.legend-text', { hasText: 'at arrival' })).toHaveCount(1);
  await expect(cdf.locator('.legend-text', { hasText: 'in order' })).toHaveCount(1);
  await expect(cdf.getByTestId('chart-summary')).toContainText('INTCP in order median');
  await expect(cdf.getByTestId('chart-summary')).toContainText('; at arrival median');

  // The claims, each under its own chart, and the note once, under the delay CDF.
  const claims = (chart: string) => page.getByTestId(chart).getByTestId('paper-claim');
  await expect(claims('chart-cdf')).toHaveCount(2);
  await expect(claims('chart-cdf').nth(0)).toContainText("Reno's one-way delay reaches about 300 ms");
  await expect(claims('chart-cdf').nth(1)).toContainText("80 % of INTCP's one-way delay is below 180 ms");
  await expect(claims('chart-jitter')).toHaveCount(1);
  await expect(claims('chart-jitter')).toContainText("INTCP's jitter is almost always below 100 ms");
  await expect(claims('chart-goodput')).toHaveCount(1);
  await expect(claims('chart-goodput')).toContainText("INTCP's throughput is clearly higher than the TCPs'");
  await expect(claims('chart-delay')).toHaveCount(0);
  await expect(page.getByTestId('chart-cdf').getByTestId('paper-claims')).toContainText('Paper:');
  await expect(page.getByTestId('paper-note')).toHaveCount(1);
  await expect(cdf.getByTestId('paper-note')).toContainText('timed INTCP');

  // The two CDF claims as points, inside the plot, at their place on the axes.
  const marks = cdf.getByTestId('paper-claim-mark');
  await expect(marks).toHaveCount(2);
  expect(await marks.evaluateAll((els) => els.map((e) => [e.getAttribute('data-kind'), e.getAttribute('data-x'), e.getAttribute('data-y')]))).toEqual([
    ['point', '300', '0.95'],
    ['point', '180', '0.8'],
  ]);
  const plot = (await cdf.locator('rect.overlay').boundingBox())!;
  const boxes = await Promise.all((await marks.all()).map(async (m) => (await m.locator('path').boundingBox())!));
  for (const b of boxes) {
    const cx = b.x + b.width / 2;
    const cy = b.y + b.height / 2;
    expect(cx).toBeGreaterThan(plot.x);
    expect(cx).toBeLessThan(plot.x + plot.width);
    expect(cy).toBeGreaterThan(plot.y);
    expect(cy).toBeLessThan(plot.y + plot.height);
  }
  // 300 ms lies right of 180 ms; 0.95 above 0.8.
  expect(boxes[0].x).toBeGreaterThan(boxes[1].x);
  expect(boxes[0].y).toBeLessThan(boxes[1].y);
  await expect(cdf.locator('.legend-text', { hasText: /^paper$/ })).toHaveCount(1);

  // Jitter: dashed arrival lines too, and the claim as a horizontal line at 100 ms.
  const jitter = page.getByTestId('chart-jitter');
  await expect(jitter.getByTestId('arrival')).toHaveCount(4);
  await expect(jitter.getByTestId('paper-claim-mark')).toHaveCount(1);
  await expect(jitter.getByTestId('paper-claim-mark')).toHaveAttribute('data-kind', 'hline');
  await expect(jitter.getByTestId('paper-claim-mark')).toHaveAttribute('data-y', '100');
  // The goodput claim names no point: listed, not drawn.
  await expect(page.getByTestId('chart-goodput').getByTestId('paper-claim-mark')).toHaveCount(0);

  // INTCP's table of every node it used is built when its fold opens: a row per node.
  const fold = page.getByTestId('hops-fold-4');
  const tableRows = Number(/its (\d+) nodes/.exec(await fold.locator('summary').innerText())![1]);
  await fold.locator('summary').click();
  await expect(page.getByTestId('hops-4').locator('tbody tr')).toHaveCount(tableRows);

  // The hop view draws the columns in view of the route's every node (the strip and the small
  // multiples), the others once scrolled to; an export carries them all.
  const hopView = page.getByTestId('chart-hops');
  const drawing = hopView.locator('svg.hop-svg');
  const nodes = Number(await drawing.getAttribute('data-nodes'));
  const scroller = hopView.locator('.hop-scroll');
  const viewWidth = await scroller.evaluate((e) => e.clientWidth);
  expect(await drawing.evaluate((e) => e.getBoundingClientRect().width)).toBeGreaterThan(2 * viewWidth);
  const drawnRange = async () => [Number(await drawing.getAttribute('data-drawn-from')), Number(await drawing.getAttribute('data-drawn-to'))];
  const [first, last] = await drawnRange();
  expect(first).toBe(0);
  expect(last).toBeLessThan(nodes - 1);
  await expect(hopView.getByTestId('hop-node')).toHaveCount(last + 1);
  await expect(hopView.getByTestId('hop-queue')).toHaveCount(last + 1);
  await expect(hopView.getByTestId('hop-rate')).toHaveCount(last + 1);
  await scroller.evaluate((e) => {
    e.scrollLeft = e.scrollWidth;
  });
  await expect(drawing).toHaveAttribute('data-drawn-to', String(nodes - 1));
  const [firstAtEnd] = await drawnRange();
  expect(firstAtEnd).toBeGreaterThan(0);
  await expect(hopView.getByTestId('hop-node')).toHaveCount(nodes - firstAtEnd);
  // Every drawn node sits in the view or within a column of it.
  const view = (await scroller.boundingBox())!;
  for (const dot of await hopView.locator('.hop-node-dot').all()) {
    const b = (await dot.boundingBox())!;
    expect(b.x + b.width).toBeGreaterThan(view.x - 2 * 150);
    expect(b.x).toBeLessThan(view.x + view.width + 2 * 150);
  }
  const [download] = await Promise.all([page.waitForEvent('download'), hopView.getByTestId('export-svg').click()]);
  const exported = readFileSync(await download.path(), 'utf8');
  expect(exported.match(/data-testid="hop-node"/g)?.length).toBe(nodes);
  expect(exported.match(/data-testid="hop-cache"/g)?.length).toBe(nodes);
  expect(exported.match(/data-testid="hop-rate"/g)?.length).toBe(nodes - 1);
  await expect(hopView.getByTestId('hop-node')).toHaveCount(nodes - firstAtEnd);
  // SVG and PNG asked for in the same instant: both wait for the whole drawing, and both come.
  const files: string[] = [];
  page.on('download', (d) => files.push(d.suggestedFilename()));
  await hopView.evaluate((chart) => {
    for (const format of ['svg', 'png']) chart.querySelector<HTMLButtonElement>(`[data-testid="export-${format}"]`)!.click();
  });
  await expect.poll(() => files.map((f) => f.split('.').pop()).sort()).toEqual(['png', 'svg']);
  await expect(hopView.getByRole('alert')).toHaveCount(0);

  // Kept on disk (test-results/) as well as attached, to look at after a run.
  const shot = testInfo.outputPath('charts.png');
  await page.getByTestId('charts').screenshot({ path: shot });
  await testInfo.attach('charts', { path: shot, contentType: 'image/png' });
  for (const chart of ['chart-cdf', 'chart-jitter']) {
    const path = testInfo.outputPath(`${chart}.png`);
    await page.getByTestId(chart).screenshot({ path });
    await testInfo.attach(chart, { path, contentType: 'image/png' });
  }
  expect(consoleErrors).toEqual([]);
});

test("a preset's paper claims with a check are judged against the run, with the value measured", async ({ page }) => {
  // The Hypatia Kuiper preset: NewReno's delay lifted well above propagation, Vegas's near it,
  // and both flows stalled while no satellite reaches Saint Petersburg.
  await open(page, '#preset=hypatia-kuiper-630');
  await runAndWait(page);
  const verdicts = page.getByTestId('claim-verdict');
  await expect(verdicts).toHaveCount(3);
  for (const text of await verdicts.allTextContents()) expect(text).toMatch(/^(Holds|Does not hold): measured [\d.,]+ ?(×|ms|Mbit\/s|%); the statement needs (at most|at least) [\d.,]+ ?(×|ms|Mbit\/s|%)\.$/);
  const stall = page.getByTestId('chart-goodput').getByTestId('claim-verdict');
  await expect(stall).toHaveText('Holds: measured 0 Mbit/s; the statement needs at most 0.01 Mbit/s.');
  const newReno = page.getByTestId('chart-delay').getByTestId('paper-claim').first();
  const lifted = Number(/measured ([\d.]+)×/.exec(await newReno.innerText())![1]);
  expect(lifted).toBeGreaterThan(1);
});
