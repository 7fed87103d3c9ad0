// Constellations as Hypatia and Starlink model them, in the browser on the real wasm core:
// Starlink's 15 s scheduler with gateways and a PoP (starlink-liege-frankfurt), and Hypatia's
// Kuiper-630 moved by SGP4 (hypatia-kuiper-630). The globe draws the gateways and the PoP as
// their own markers and names them on hover; the path chart marks each slot boundary and tells
// the scheduler's handovers apart by cause; the form shows the scheduler and keeps the
// gateways; lesson 6's scheduler step runs as the panel runs it. Each test records how long the
// run took in the browser (test-results/*/timing.txt).
import { readFileSync, writeFileSync } from 'node:fs';
import type { Page, TestInfo } from '@playwright/test';
import { VIEWS, type Lesson } from '../web/src/lessons/format';
import { expect, open, runAndWait, test } from './fixtures';

/** Runs and returns the wall-clock seconds the run took, from the click to the result. */
async function timedRun(page: Page): Promise<number> {
  const start = Date.now();
  await runAndWait(page);
  return (Date.now() - start) / 1000;
}

async function keep(testInfo: TestInfo, name: string, png: Buffer) {
  const path = testInfo.outputPath(`${name}.png`);
  writeFileSync(path, png);
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** Page position of route node `id` (a ground station is −(g + 1)) on the globe, if in view. */
async function nodeOnScreen(page: Page, id: number): Promise<{ x: number; y: number } | null> {
  const host = page.getByTestId('globe-canvas');
  const box = (await host.boundingBox())!;
  const p = await host.evaluate((el, node) => {
    type Scene = { screenPositionOf(id: number): { x: number; y: number } | null };
    return (el as HTMLElement & { globeScene: Scene }).globeScene.screenPositionOf(node);
  }, id);
  return p ? { x: box.x + p.x, y: box.y + p.y } : null;
}

test("Starlink's scheduler: gateways and the PoP on the globe, slot boundaries on the path chart", async ({ page, consoleErrors }, testInfo) => {
  void consoleErrors;
  test.setTimeout(240_000);
  await open(page, '#preset=starlink-liege-frankfurt');
  const form = page.getByTestId('editor-form');
  // The form shows the scheduler (an object in the JSON) and its fields.
  await expect(form.getByLabel('Attachment')).toHaveValue('scheduler');
  await expect(form.getByLabel('Slot period')).toHaveValue('15');
  await expect(form.getByLabel('Slot offset')).toHaveValue('12');
  await expect(form.getByTestId('form-kept-json')).toContainText('gateways (Usingen gateway, Aerzen gateway)');
  // One minute, enough for four slot boundaries; the gateways are kept through the form's edit.
  await form.getByLabel('Duration').fill('60');
  await page.getByTestId('editor-tab-json').click();
  const edited = JSON.parse(await page.locator('#scenario-json').inputValue());
  expect(edited.duration_s).toBe(60);
  expect(edited.topology.gateways.pop).toBe('Frankfurt PoP');
  expect(edited.topology.attachment).toEqual({ scheduler: { period_s: 15, offset_s: 12 } });
  await page.getByTestId('editor-tab-form').click();

  const seconds = await timedRun(page);
  testInfo.annotations.push({ type: 'browser run', description: `starlink-liege-frankfurt, 60 s: ${seconds.toFixed(1)} s` });
  writeFileSync(testInfo.outputPath('timing.txt'), `starlink-liege-frankfurt 60 s: ${seconds.toFixed(1)} s\n`);

  // The globe: the route runs Liège → satellite → gateway → PoP → server.
  const canvas = page.getByTestId('globe-canvas');
  await expect(canvas).toHaveAttribute('data-satellites', '1584');
  await expect(canvas).toHaveAttribute('data-route-nodes', '5');
  const globe = page.getByTestId('globe');
  await expect(globe.locator('.globe-legend')).toContainText('gateways');
  await expect(globe.locator('.globe-legend')).toContainText('point of presence');
  await expect(globe.locator('.globe-legend')).toContainText('terrestrial fibre');
  // Hovering a gateway and the PoP names them.
  const info = page.getByTestId('globe-info');
  for (const [id, title] of [
    [-3, 'Usingen gateway (gateway)'],
    // The server sits at the PoP: one point, both named.
    [-5, 'Frankfurt PoP (destination and point of presence)'],
  ] as const) {
    const at = await nodeOnScreen(page, id);
    expect(at, `station ${id} in view`).not.toBeNull();
    await page.mouse.move(at!.x, at!.y);
    await expect(info.locator('.globe-info-title')).toHaveText(title);
  }
  await page.mouse.move(0, 0);

  // The slot read-out and the flash: scrubbing across the boundary at 12 s.
  const slot = page.getByTestId('globe-slot');
  await page.getByTestId('globe-scrub').fill('10');
  await expect(slot).toContainText('next boundary at 12.0 s (in 2.0 s)');
  const flashes = Number((await canvas.getAttribute('data-slot-flashes')) ?? '0');
  await page.getByTestId('globe-scrub').fill('13');
  await expect(slot).toContainText('slot 1 of');
  await expect(canvas).toHaveAttribute('data-slot-flashes', String(flashes + 1));
  await keep(testInfo, 'starlink-globe', await globe.screenshot());

  // The path chart: a dashed rule per slot boundary, the handovers at boundaries, a legend.
  const chart = page.getByTestId('chart-path');
  await chart.scrollIntoViewIfNeeded();
  await expect(chart.getByTestId('slot-marks')).toHaveAttribute('data-drawn', '4');
  await expect(chart.locator('[data-testid="time-marks"][data-kind="slot_handover"]')).toHaveAttribute('data-drawn', /^[1-9]\d*$/);
  await expect(chart.locator('.legend-text', { hasText: /^slot boundary$/ })).toHaveCount(1);
  await expect(chart.locator('.legend-text', { hasText: 'handover at a slot boundary' })).toHaveCount(1);
  await expect(chart.getByTestId('chart-summary')).toContainText("The scheduler's slot boundaries (dashed) fall at 12, 27, 42, 57 s.");
  // The delay chart carries the same rules (the claims are about its steps).
  await expect(page.getByTestId('chart-delay').getByTestId('slot-marks')).toHaveAttribute('data-drawn', '4');
  await keep(testInfo, 'starlink-path-chart', await chart.screenshot());
});

test('Hypatia Kuiper-630 (SGP4) loads and runs in the browser', async ({ page, consoleErrors }, testInfo) => {
  void consoleErrors;
  test.setTimeout(240_000);
  await open(page, '#preset=hypatia-kuiper-630');
  const canvas = page.getByTestId('globe-canvas');
  await expect(canvas).toHaveAttribute('data-satellites', '1156', { timeout: 60_000 });
  const form = page.getByTestId('editor-form');
  await expect(form.getByLabel('Attachment')).toHaveValue('shortest_path');
  await expect(form.getByLabel('Earth')).toHaveValue('wgs72');
  await expect(form.getByLabel('Longest ground–satellite link')).toHaveValue('1260');
  // The whole preset, 200 s at 0.1 s steps, two flows one after the other: about 13 s here.
  const seconds = await timedRun(page);
  testInfo.annotations.push({ type: 'browser run', description: `hypatia-kuiper-630, 200 s: ${seconds.toFixed(1)} s` });
  writeFileSync(testInfo.outputPath('timing.txt'), `hypatia-kuiper-630 200 s: ${seconds.toFixed(1)} s\n`);
  await expect(canvas).toHaveAttribute('data-route-nodes', /^[1-9]\d*$/);
  const chart = page.getByTestId('chart-path');
  await expect(chart).toBeVisible();
  await expect(chart.getByTestId('slot-marks')).toHaveCount(0);
  // St Petersburg has no satellite in reach for about ten seconds from 155 s: a gap in the path.
  await expect(chart.getByTestId('chart-summary')).toContainText('(2,001 steps)');
  await expect(chart.getByTestId('chart-summary')).toContainText(/no path in 97 steps/);
  // The route in that gap is empty; after it, back.
  await page.getByTestId('globe-scrub').fill('160');
  await expect(canvas).toHaveAttribute('data-route-nodes', '0');
  await page.getByTestId('globe-scrub').fill('190');
  await expect(canvas).toHaveAttribute('data-route-nodes', /^[1-9]\d*$/);
  await keep(testInfo, 'kuiper-globe', await page.getByTestId('globe').screenshot());

  // The form writes the scheduler as the object the core reads, and back to a rule.
  const json = async () => {
    await page.getByTestId('editor-tab-json').click();
    const t = JSON.parse(await page.locator('#scenario-json').inputValue()).topology;
    await page.getByTestId('editor-tab-form').click();
    return t;
  };
  await form.getByLabel('Attachment').selectOption('scheduler');
  await expect(form.getByLabel('Slot period')).toHaveValue('15');
  await form.getByLabel('Slot rule').selectOption('shortest_path');
  await form.getByLabel('Reassignment gap').fill('50');
  expect((await json()).attachment).toEqual({ scheduler: { period_s: 15, offset_s: 12, rule: 'shortest_path', reassign_gap_ms: 50 } });
  await expect(page.getByTestId('run')).toBeEnabled();
  await form.getByLabel('Attachment').selectOption('shortest_path');
  await expect(form.getByLabel('Slot period')).toHaveCount(0);
  expect((await json()).attachment).toBe('shortest_path');
});

test("lesson 6's scheduler step runs in a few seconds and shows what its answer states", async ({ page, consoleErrors }, testInfo) => {
  void consoleErrors;
  test.setTimeout(180_000);
  const lesson = JSON.parse(readFileSync(new URL('../lessons/06-leo-paths.json', import.meta.url), 'utf8')) as Lesson;
  const n = lesson.steps.findIndex((s) => s.scenario.preset === 'starlink-liege-frankfurt');
  expect(n).toBeGreaterThan(0);
  const step = lesson.steps[n];
  await open(page, `#lesson=6&step=${n + 1}`);
  await expect(page.getByTestId('step-title')).toHaveText(step.title);
  const start = Date.now();
  await page.getByTestId('run-step').click();
  await expect(page.getByTestId('reveal')).toBeEnabled({ timeout: 110_000 });
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done');
  writeFileSync(testInfo.outputPath('timing.txt'), `lesson 6 step ${n + 1}: ${((Date.now() - start) / 1000).toFixed(1)} s\n`);
  // The path chart is the view the step is about; its marks are the checks' numbers.
  const chart = page.getByTestId(VIEWS[step.look_at].testid);
  await expect(chart).toHaveClass(/lesson-highlight/);
  const check = (path: string) => step.checks!.find((c) => c.result === path)!.approx;
  await expect(chart.getByTestId('slot-marks')).toHaveAttribute('data-drawn', String(check('path.slot_boundaries_s')));
  await expect(chart.locator('[data-testid="time-marks"][data-kind="slot_handover"]')).toHaveAttribute('data-drawn', String(check('path.events')));
  await expect(chart.getByTestId('chart-summary')).toContainText('fall at 12, 27, 42, 57, 72, 87 s');
  await page.getByTestId('reveal').click();
  await expect(page.getByTestId('step-answer')).toContainText('6 boundaries');
  await keep(testInfo, 'lesson6-scheduler', await page.screenshot({ fullPage: true }));
});
