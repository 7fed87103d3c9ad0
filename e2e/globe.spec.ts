// The globe of a constellation: it renders, tells what is under the pointer, highlights
// the run's route, and shares its time cursor with the charts, where route changes and handovers
// are marked. Real wasm, no mocks: the Beijing-New York preset, shortened to its first minute
// (two handovers, at 40 s and 53 s, the native CLI says).
import { test, expect, open, runAndWait } from './fixtures';
import type { Page, TestInfo } from '@playwright/test';
import { writeFileSync } from 'node:fs';

const PRESET = 'leo-beijing-newyork-1600';
const CLEAR = [5, 7, 13];

/** The share of the globe canvas's pixels that are not the background. */
async function litFraction(page: Page): Promise<number> {
  return page.evaluate((clear) => {
    const gl = document.querySelector<HTMLCanvasElement>('[data-testid="globe-canvas"] canvas')!;
    const c = document.createElement('canvas');
    c.width = gl.width;
    c.height = gl.height;
    const ctx = c.getContext('2d')!;
    ctx.drawImage(gl, 0, 0);
    const px = ctx.getImageData(0, 0, c.width, c.height).data;
    let lit = 0;
    for (let i = 0; i < px.length; i += 4) if (Math.abs(px[i] - clear[0]) + Math.abs(px[i + 1] - clear[1]) + Math.abs(px[i + 2] - clear[2]) > 24) lit++;
    return lit / (px.length / 4);
  }, CLEAR);
}

/** Screen position (page pixels) of some satellite in front of the Earth. */
async function visibleSatellite(page: Page): Promise<{ id: number; x: number; y: number }> {
  const host = page.getByTestId('globe-canvas');
  const box = (await host.boundingBox())!;
  const p = await host.evaluate((el) => {
    type Scene = { screenPositionOf(id: number): { x: number; y: number } | null; propagator: { count: number } };
    const scene = (el as HTMLElement & { globeScene: Scene }).globeScene;
    // The middle of the constellation's index range tends to sit mid-screen, away from the limb.
    for (let k = 0; k < scene.propagator.count; k++) {
      const id = (k * 7919) % scene.propagator.count;
      const q = scene.screenPositionOf(id);
      if (q && q.x > 60 && q.y > 60 && q.x < el.clientWidth - 60 && q.y < el.clientHeight - 60) return { id, ...q };
    }
    return null;
  });
  expect(p, 'a satellite in front of the Earth').not.toBeNull();
  return { id: p!.id, x: box.x + p!.x, y: box.y + p!.y };
}

/** Saves a screenshot under test-results/ (kept as a CI artifact) and attaches it to the report. */
async function keep(testInfo: TestInfo, name: string, png: Buffer) {
  const path = testInfo.outputPath(`${name}.png`);
  writeFileSync(path, png);
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

test('the globe renders the constellation, names what is under the pointer, and shares the time cursor with the charts', async ({ page, consoleErrors }, testInfo) => {
  void consoleErrors;
  test.setTimeout(180_000);
  await open(page, `#preset=${PRESET}`);
  await page.getByTestId('editor-form').getByLabel('Duration').fill('60');
  const globe = page.getByTestId('globe');
  await expect(page.getByTestId('globe-canvas')).toHaveAttribute('data-satellites', '1600', { timeout: 30_000 });
  await expect(page.getByTestId('globe-clock')).toContainText('t = 0.0 s');
  await expect.poll(() => litFraction(page), { message: 'the globe canvas is blank' }).toBeGreaterThan(0.2);
  await keep(testInfo, 'globe', await globe.screenshot());

  // ISLs and orbit tracks on demand.
  await page.getByTestId('globe-isls').check();
  await page.getByTestId('globe-tracks').check();
  await keep(testInfo, 'globe-isls-tracks', await globe.screenshot());

  // Hover: the read-out names the satellite and gives its altitude, plane, elevations and links.
  const sat = await visibleSatellite(page);
  await page.mouse.move(sat.x, sat.y);
  const info = page.getByTestId('globe-info');
  await expect(info).toBeVisible();
  await expect(info).toContainText(`(satellite ${sat.id})`);
  await expect(info).toContainText('1150 km');
  await expect(info).toContainText('plane');
  await expect(info).toContainText('elevation from Beijing');
  await expect(info).toContainText('+Grid links');
  await keep(testInfo, 'globe-hover', await globe.screenshot());

  // The time cursor: the globe's scrub bar moves the charts' cursor, and a click on a chart
  // moves the globe's clock.
  await runAndWait(page);
  // The run's route is drawn, and its changes are marked on the charts' time axis.
  await expect(page.getByTestId('globe-canvas')).toHaveAttribute('data-route-nodes', /^[1-9][0-9]*$/);
  await keep(testInfo, 'globe-route', await globe.screenshot());
  await expect(page.getByTestId('chart-cwnd').locator('[data-testid="time-marks"][data-kind="handover"]')).toHaveAttribute('data-drawn', '2');
  const cursor = page.getByTestId('chart-cwnd').getByTestId('time-cursor');
  await page.getByTestId('globe-scrub').fill('20');
  await expect(cursor).toHaveAttribute('data-t', '20');
  await expect(cursor).toBeVisible();
  await expect(page.getByTestId('globe-clock')).toContainText('t = 20.0 s');
  const overlay = page.getByTestId('chart-goodput').locator('rect.overlay');
  await overlay.scrollIntoViewIfNeeded();
  const ob = (await overlay.boundingBox())!;
  await overlay.click({ position: { x: ob.width * 0.75, y: ob.height / 2 } });
  const t = Number(await cursor.getAttribute('data-t'));
  expect(t).toBeGreaterThan(20);
  await expect(page.getByTestId('globe-clock')).toContainText(`t = ${t.toFixed(1)} s`);
  expect(Number(await page.getByTestId('globe-scrub').inputValue())).toBeCloseTo(t, 6);

  // Playing moves the cursor forward.
  await globe.scrollIntoViewIfNeeded();
  await page.getByTestId('globe-speed').selectOption('100');
  await page.getByTestId('globe-scrub').fill('0');
  await page.getByTestId('globe-play').click();
  await expect.poll(async () => Number(await cursor.getAttribute('data-t'))).toBeGreaterThan(5);
  await page.getByTestId('globe-play').click();
  await keep(testInfo, 'globe-with-charts', await page.screenshot({ fullPage: true }));
});

test('a GEO preset shows its satellite and ground stations on the globe, and the run its hop', async ({ page, consoleErrors }, testInfo) => {
  void consoleErrors;
  test.setTimeout(120_000);
  await open(page, '#preset=winds-table4-51mbps');
  const canvas = page.getByTestId('globe-canvas');
  await expect(canvas).toHaveAttribute('data-satellites', '1', { timeout: 30_000 });
  await page.getByTestId('editor-form').getByLabel('Duration').fill('5');
  await runAndWait(page);
  await expect(canvas).toHaveAttribute('data-route-nodes', '3');
  // Seen from outside the GEO orbit (2.2 orbit radii out), the Earth fills about 2 % of the frame:
  // far from a blank canvas (0).
  await expect.poll(() => litFraction(page), { message: 'the globe canvas is blank' }).toBeGreaterThan(0.01);
  // The satellite itself is in the frame (it was behind a camera placed inside its orbit).
  const onScreen = await canvas.evaluate((el) => {
    const scene = (el as HTMLElement & { globeScene: { screenPositionOf(id: number): { x: number; y: number } | null } }).globeScene;
    const q = scene.screenPositionOf(0);
    return q !== null && q.x >= 0 && q.y >= 0 && q.x <= el.clientWidth && q.y <= el.clientHeight;
  });
  expect(onScreen, 'the GEO satellite is in the frame').toBe(true);
  await keep(testInfo, 'globe-geo', await page.getByTestId('globe').screenshot());
});
