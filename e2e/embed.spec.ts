// The embedded page (`?embed=1`, web/src/embed/): only its view, a Run button and the status
// line; Run shows the view; the embed code from the full page opens a frame that runs by itself
// and fills its width; and no serious or critical accessibility violations.
import type { Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';

/** The views' elements: a chart, the summary or the globe (each chart also holds a `chart-summary`). */
const VIEWS_SHOWN = '[data-testid^="chart-"]:not([data-testid="chart-summary"]), [data-testid="summary"], [data-testid="globe"]';

async function openEmbed(page: Page, hash: string) {
  // A new fragment alone would not reload the page.
  await page.goto('about:blank');
  await page.goto(`./?embed=1${hash}`);
  await expect(page.locator('body[data-ready="true"]')).toHaveCount(1, { timeout: 60_000 });
}

test('embed mode shows only its view and a Run button; Run makes the view appear', async ({ page, consoleErrors }) => {
  await openEmbed(page, '#preset=default&view=cwnd');
  await expect(page.getByTestId('embed')).toHaveAttribute('data-view', 'cwnd');
  // No editor, no gallery, no lessons.
  await expect(page.locator('#scenario-json')).toHaveCount(0);
  await expect(page.getByTestId('preset-default')).toHaveCount(0);
  await expect(page.getByTestId('lessons')).toHaveCount(0);
  await expect(page.getByTestId('share')).toHaveCount(0);
  await expect(page.getByTestId('chart-cwnd')).toHaveCount(0);

  await page.getByTestId('run').click();
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
  await expect(page.getByTestId('chart-cwnd')).toBeVisible();
  await expect(page.locator(VIEWS_SHOWN)).toHaveCount(1);
  await expect(page.getByTestId('status')).toContainText('Run finished');
  // The page's address is left alone: in a frame, a write would be the host page's history.
  expect(new URL(page.url()).hash).toBe('#preset=default&view=cwnd');

  const axe = await new AxeBuilder({ page }).analyze();
  const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test('the embed code opens a frame that runs by itself, shows the chosen view and fills its width', async ({ page, context }) => {
  await page.goto('./#preset=istn-window-reno');
  await expect(page.locator('body[data-ready="true"]')).toHaveCount(1, { timeout: 60_000 });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('embed-code').locator('summary').click();
  await page.getByTestId('embed-view').selectOption('delay');
  await page.getByTestId('copy-embed').click();
  const code = await page.getByTestId('embed-code-text').inputValue();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
  const m = code.match(/^<iframe src="([^"]+)" width="(\d+)" height="(\d+)" title="([^"]+)"/);
  expect(m).not.toBeNull();
  const [, src, width, height, title] = m as RegExpMatchArray;
  expect(title).toContain('the delay chart');

  // The snippet in a host page of its own.
  const host = await context.newPage();
  await host.setContent(`<!doctype html><html lang="en"><title>host</title><body style="margin:0">${code}</body></html>`);
  const frame = host.frameLocator('iframe');
  await expect(frame.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
  await expect(frame.getByTestId('chart-delay')).toBeVisible();
  await expect(frame.locator(VIEWS_SHOWN)).toHaveCount(1);
  const box = await frame.getByTestId('chart-delay').boundingBox();
  expect(box?.width).toBeGreaterThan(Number(width) * 0.85);
  expect(box?.width).toBeLessThanOrEqual(Number(width));
  expect(Number(height)).toBeGreaterThan(300);
  expect(src.replace(/&amp;/g, '&')).toContain('?embed=1#s=');
});

test('an unknown view is named, a link from another core says so, and the globe view shows the globe', async ({ page }) => {
  await openEmbed(page, '#preset=default&view=nope');
  await expect(page.getByRole('alert')).toContainText('view: "nope" is not a view; use one of');
  await expect(page.getByTestId('run')).toBeDisabled();
  await openEmbed(page, '#preset=default&v=0.0.1&view=summary');
  await expect(page.getByTestId('url-notice')).toContainText('made with orbitcp core 0.0.1');
  await openEmbed(page, '#preset=leo-beijing-newyork-1600&view=globe');
  await expect(page.getByTestId('globe')).toBeVisible({ timeout: 60_000 });
  await expect(page.locator(VIEWS_SHOWN)).toHaveCount(1);
});

/** The bottom of what `locator` shows, in the frame's pixels (the frame sits at the host's top left). */
async function bottom(locator: ReturnType<Page['locator']>): Promise<number> {
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  return box!.y + box!.height;
}

for (const [view, preset, shown] of [
  ['cwnd', 'istn-window-reno', 'chart-cwnd'],
  ['globe', 'leo-beijing-newyork-1600', 'globe'],
] as const) {
  test(`the ${view} embed fits a 16:9 slide's 800 × 450 frame with nothing cut`, async ({ page }) => {
    await page.goto('./');
    const src = new URL(`./?embed=1#preset=${preset}&run=1&view=${view}`, page.url()).toString();
    await page.setContent(`<!doctype html><html lang="en"><title>slide</title><body style="margin:0"><iframe src="${src}" width="800" height="450" style="border:0" title="slide"></iframe></body></html>`);
    const frame = page.frameLocator('iframe');
    if (view === 'cwnd') {
      await expect(frame.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
      const chart = frame.getByTestId(shown);
      await expect(chart).toBeVisible();
      // The figure, its plot and its time axis's title all end inside the frame.
      expect(await bottom(chart)).toBeLessThanOrEqual(450);
      expect(await bottom(chart.locator('svg.chart-svg'))).toBeLessThanOrEqual(450);
      expect(await bottom(chart.locator('.axis-label').first())).toBeLessThanOrEqual(450);
    } else {
      await expect(frame.getByTestId('globe-canvas')).toHaveAttribute('data-satellites', '1600', { timeout: 60_000 });
      expect(await bottom(frame.getByTestId('globe-canvas'))).toBeLessThanOrEqual(450);
      const legend = frame.locator('.globe-legend');
      expect(await bottom(legend)).toBeLessThanOrEqual(450);
      // One line, not wrapped under the frame's edge.
      expect((await legend.boundingBox())!.height).toBeLessThan(30);
    }
  });
}
