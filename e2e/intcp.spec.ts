// INTCP in the browser, real wasm in real Chromium: the two-hop preset gives the native CLI's
// summary; the hop view draws every node of the path with its series, marks the re-requests the
// native run made on the hop where they happened (on the lossy two-hop preset: the square-wave one
// is lossless and makes none), and its time cursor moves the bars; on the square wave it reads
// out the midnode's held bytes and its rates in and out in a slow and a fast phase; the
// multicast preset shows each consumer's path; the editor shows the INTCP fields and the core's
// errors beside them.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, open, runAndWait, test } from './fixtures';

const root = new URL('..', import.meta.url).pathname;
const cli = process.env.ORBITCP_CLI ?? `${root}target/release/orbitcp`;

interface NativeHopTrace {
  node: number;
  role: string;
  series: { t: number[] };
  retransmissions: { t: number[]; count: number[] };
}

test('the INTCP two-hop preset gives the native summary and shows every node of the path', async ({ page, consoleErrors }) => {
  await open(page, '#preset=intcp-two-hop-square');
  await runAndWait(page);
  const hops = page.getByTestId('hops-0').locator('tbody tr');
  await expect(hops).toHaveCount(3);
  await expect(hops.nth(1)).toContainText('midnode');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
  const browser = JSON.parse(readFileSync(await download.path(), 'utf8'));
  const native = JSON.parse(execFileSync(cli, ['run', '--summary', `${root}scenarios/intcp-two-hop-square.json`], { encoding: 'utf8' }));
  expect(browser.summary).toEqual(native);
  expect(consoleErrors).toEqual([]);
});

test('the hop view draws the two-hop path over time, marks the native re-requests per hop, and scrubs', async ({ page, consoleErrors }) => {
  // 5 % loss on the GSL: re-requests on the hop into the consumer.
  const native = JSON.parse(execFileSync(cli, ['run', `${root}scenarios/intcp-loss-delay.json`], { encoding: 'utf8', maxBuffer: 1 << 28 }));
  const nativeHops: NativeHopTrace[] = native.traces.flows[0].hops;
  // Re-requests per hop as the native run made them: hop k's are those of node k + 1.
  const nativeRtx = nativeHops.slice(1).map((h) => h.retransmissions.count.at(-1) ?? 0);
  expect(nativeRtx.reduce((a, b) => a + b, 0), 'the preset makes re-requests').toBeGreaterThan(0);

  await open(page, '#preset=intcp-loss-delay');
  await runAndWait(page);
  const view = page.getByTestId('chart-hops');
  await expect(view).toBeVisible();

  const nodes = view.getByTestId('hop-node');
  await expect(nodes).toHaveCount(3);
  expect(await nodes.evaluateAll((els) => els.map((e) => [e.getAttribute('data-node'), e.getAttribute('data-role')]))).toEqual([
    ['0', 'producer'],
    ['1', 'midnode'],
    ['2', 'consumer'],
  ]);
  await expect(view.getByTestId('hop-link')).toHaveCount(2);

  // Every small multiple has a drawn line: 2 rates per hop, a queue, a cache and held bytes per node.
  const series = view.getByTestId('hop-series');
  await expect(series).toHaveCount(2 * 2 + 3 * 3);
  for (const s of await series.all()) {
    expect(Number(await s.getAttribute('data-points'))).toBeGreaterThan(10);
    expect((await s.getAttribute('d'))?.length ?? 0).toBeGreaterThan(20);
  }
  // Each node's series has as many points as the native trace.
  const queues = view.locator('[data-testid="hop-series"][data-series="queue"]');
  expect(await queues.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-points'))))).toEqual(nativeHops.map((h) => h.series.t.length));

  // Re-requests are ticked on the hop where they happened, as many as the native run made.
  const markers = view.getByTestId('rtx-marker');
  await expect(markers).toHaveCount(2);
  expect(await markers.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-total'))))).toEqual(nativeRtx);
  for (const [k, total] of nativeRtx.entries()) {
    if (total > 0) {
      expect(Number(await markers.nth(k).getAttribute('data-points'))).toBeGreaterThan(0);
      expect((await markers.nth(k).getAttribute('d'))?.length ?? 0).toBeGreaterThan(5);
    }
  }

  // Scrubbing: at t = 0 the midnode's cache is empty; at the end it holds data.
  const slider = view.getByTestId('hop-cursor');
  const cacheBar = view.locator('[data-testid="hop-node"][data-node="1"] [data-testid="hop-cache-bar"]');
  await slider.focus();
  await page.keyboard.press('Home');
  await expect(view.getByTestId('hop-cursor-value')).toHaveText('t = 0 s');
  await expect(cacheBar).toHaveAttribute('data-value', '0');
  const heightAtStart = Number(await cacheBar.getAttribute('height'));
  await page.keyboard.press('End');
  await expect(view.getByTestId('hop-cursor-value')).toHaveText('t = 60 s');
  await expect(cacheBar).not.toHaveAttribute('data-value', '0');
  expect(Number(await cacheBar.getAttribute('height'))).toBeGreaterThan(heightAtStart);
  await expect(view.locator('[data-testid="hop-link"][data-hop="1"] [data-testid="hop-link-rtx"]')).toHaveText(`${nativeRtx[1].toLocaleString('en')} re-requests`);
  // The link thickness follows the paced rate at the cursor.
  const link0 = view.locator('[data-testid="hop-link"][data-hop="0"]');
  const rates = new Set<string | null>();
  for (let k = 0; k < 8; k++) {
    await page.keyboard.press('PageDown');
    rates.add(await link0.getAttribute('data-rate'));
  }
  expect(rates.size).toBeGreaterThan(1);
  await expect(view.getByTestId('hop-readout')).toContainText('node 1 (midnode) queue');

  // A press on a small multiple moves the cursor there: the start of the first hop's plot.
  const plot = view.locator('[data-testid="hop-rate"][data-hop="0"]');
  const box = (await plot.boundingBox())!;
  await page.mouse.click(box.x + 40, box.y + 40);
  const t = Number((await view.getByTestId('hop-cursor-value').textContent())!.replace(/[^0-9.]/g, ''));
  expect(t).toBeGreaterThan(0);
  expect(t).toBeLessThan(30);

  // Play runs the cursor forward on its own; Pause stops it.
  await page.keyboard.press('Home');
  await view.getByRole('button', { name: 'Play' }).click();
  await expect(view.getByTestId('hop-cursor-value')).not.toHaveText('t = 0 s');
  await view.getByRole('button', { name: 'Pause' }).click();
  // A frame already under way when Pause lands may still move the cursor once: read it after the
  // button has turned back into Play and that frame has been drawn.
  await expect(view.getByRole('button', { name: 'Play' })).toBeVisible();
  await page.waitForTimeout(100);
  const paused = await view.getByTestId('hop-cursor-value').textContent();
  await page.waitForTimeout(200);
  await expect(view.getByTestId('hop-cursor-value')).toHaveText(paused!);

  await expect(view.getByTestId('chart-summary')).toContainText(`${nativeRtx[1].toLocaleString('en')} re-requests`);
  await view.screenshot({ path: test.info().outputPath('hop-view.png') });
  const axe = await new AxeBuilder({ page }).include('[data-testid="chart-hops"]').include('[data-testid="chart-jitter"]').analyze();
  const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);

  // The jitter chart has a line for the flow.
  const jitter = page.getByTestId('chart-jitter');
  expect(Number(await jitter.getByTestId('series').first().getAttribute('data-points'))).toBeGreaterThan(50);
  expect(consoleErrors).toEqual([]);
});

test("the hop view reads out what the midnode holds and its rates in and out, filling while the GSL is slow and draining while it is fast", async ({ page, consoleErrors }) => {
  await open(page, '#preset=intcp-two-hop-square');
  await runAndWait(page);
  const view = page.getByTestId('chart-hops');
  const midnode = view.locator('[data-testid="hop-node"][data-node="1"]');
  const slider = view.getByTestId('hop-cursor');
  const rates = async () => {
    const m = /^in ([\d.]+) \| out ([\d.]+) Mbit\/s$/.exec((await midnode.getByTestId('hop-rates').textContent()) ?? '');
    expect(m, 'the midnode shows both rates').not.toBeNull();
    return { in: Number(m![1]), out: Number(m![2]) };
  };
  // The GSL is 5 Mbit/s from 40 to 45 s: the ground link's 20 Mbit/s goes in, 5 out, the rest is
  // held. (The slider moves in steps of 0.12 s, a thousandth of the run.)
  await slider.fill('43.2');
  await expect(view.getByTestId('hop-cursor-value')).toHaveText('t = 43.2 s');
  await expect(midnode.getByTestId('hop-held')).toHaveText(/^holds \d+(\.\d+)? MB$/);
  expect(Number(await midnode.getByTestId('hop-held-bar').getAttribute('data-value'))).toBeGreaterThan(1e6);
  const slow = await rates();
  expect(slow.in).toBeGreaterThan(2 * slow.out);
  // 35 Mbit/s from 115 to 120 s: the held data leaves faster than the ground link refills it.
  await slider.fill('118.8');
  await expect(view.getByTestId('hop-cursor-value')).toHaveText('t = 118.8 s');
  const fast = await rates();
  expect(fast.out).toBeGreaterThan(fast.in);
  // The screen-reader read-out says the same in words.
  await expect(view.getByTestId('hop-readout')).toContainText(/node 1 \(midnode\) queue [^;]*, holds \d+(\.\d+)? MB, in [\d.]+, out [\d.]+ Mbit\/s/);
  expect(consoleErrors).toEqual([]);
});

test('the multicast preset shows the path of each consumer of the shared content', async ({ page, consoleErrors }) => {
  await open(page, '#preset=intcp-multicast');
  await runAndWait(page);
  const view = page.getByTestId('chart-hops');
  const select = view.getByTestId('hop-flow');
  // The charts are a chunk of their own, drawn once it has loaded: wait for the options.
  await expect(select.locator('option')).toHaveCount(4);
  const options = await select.locator('option').allTextContents();
  for (const [k, consumer] of [5, 4, 3, 2].entries()) {
    expect(options[k]).toContain(`consumer at node ${consumer}`);
    expect(options[k]).toContain('content "video"');
    await select.selectOption({ index: k });
    const nodes = view.getByTestId('hop-node');
    await expect(nodes).toHaveCount(consumer + 1);
    await expect(nodes.last()).toHaveAttribute('data-node', String(consumer));
    await expect(nodes.last()).toHaveAttribute('data-role', 'consumer');
    await expect(nodes.first()).toHaveAttribute('data-role', 'producer');
    await expect(view.getByTestId('hop-series')).toHaveCount(2 * consumer + 3 * (consumer + 1));
    // The other three consumers are named as sharing the content.
    await expect(view.getByTestId('hop-sharing')).toContainText('Content "video" is also requested by');
    for (const other of [5, 4, 3, 2].filter((c) => c !== consumer)) await expect(view.getByTestId('hop-sharing')).toContainText(`consumer at node ${other}`);
  }
  expect(consoleErrors).toEqual([]);
});

test("the form shows an INTCP flow's content name and rate control, with the core's errors beside them", async ({ page, consoleErrors }) => {
  await open(page, '#preset=intcp-multicast');
  const form = page.getByTestId('editor-form');
  await expect(form.getByLabel('Content name').first()).toHaveValue('video');
  await form.getByRole('button', { name: /Rate control, nodes, label/ }).first().click();
  const factor = form.getByLabel('Decrease factor').first();
  await factor.fill('2');
  await expect(form.getByText('must be more than 0 and at most 1 (got 2)')).toBeVisible();
  // Beside the field: the input is described by the list that holds the error.
  const describedBy = (await factor.getAttribute('aria-describedby')) ?? '';
  const errorsId = describedBy.split(' ').find((id) => id.endsWith('-errors'));
  expect(errorsId).toBeDefined();
  await expect(page.locator(`[id="${errorsId}"]`)).toHaveText('must be more than 0 and at most 1 (got 2)');
  await expect(page.getByTestId('run')).toBeDisabled();
  await factor.fill('0.9');
  await expect(form.getByText('must be more than 0 and at most 1 (got 2)')).toHaveCount(0);
  await expect(page.getByTestId('run')).toBeEnabled();
  expect(consoleErrors).toEqual([]);
});

test("the hop view's legend and its plots' titles never overlap, at any width", async ({ page }) => {
  for (const [width, height] of [[1440, 900], [1024, 768], [390, 844]]) {
    await page.setViewportSize({ width, height });
    await open(page, '#preset=intcp-handover-outages');
    await runAndWait(page);
    const hops = page.getByTestId('chart-hops');
    const boxes = async (selector: string) =>
      (await hops.locator(selector).evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))).filter((b) => b.width > 0);
    // The chart draws after the run's result arrives: wait for its legend and titles, not one read.
    await expect.poll(async () => (await boxes('.legend-text')).length).toBeGreaterThan(3);
    await expect.poll(async () => (await boxes('.hop-plot-title')).length).toBeGreaterThan(3);
    const legend = await boxes('.legend-text');
    const titles = await boxes('.hop-plot-title');
    for (const t of titles)
      for (const l of legend) {
        const overlap = t.left < l.right && l.left < t.right && t.top < l.bottom && l.top < t.bottom;
        expect(overlap, `at ${width} px, the title at (${t.left}, ${t.top}) overlaps the legend's text at (${l.left}, ${l.top})`).toBe(false);
      }
  }
});
