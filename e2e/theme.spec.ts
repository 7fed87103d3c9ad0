// The dark theme follows the system (prefers-color-scheme, web/src/styles.css): the page, the
// charts' axes and text and the hop view change colour, and axe finds no serious or critical
// violation (contrast included) in either scheme with a result on screen.
import type { Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { expect, open, runAndWait, test } from './fixtures';

async function seriousViolations(page: Page): Promise<string[]> {
  const axe = await new AxeBuilder({ page }).analyze();
  return axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body.parentElement as Element).backgroundColor);
const axisText = (page: Page) => page.locator('[data-testid="chart-goodput"] .axis text').first().evaluate((e) => getComputedStyle(e).fill);

test('the dark scheme: dark page and charts, light axis text, no serious accessibility violation', async ({ page, consoleErrors }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await open(page, '#preset=default');
  await runAndWait(page);
  expect(await background(page)).toBe('rgb(13, 17, 23)');
  expect(await axisText(page)).toBe('rgb(201, 209, 217)');
  await expect(page.getByTestId('chart-goodput')).toHaveCSS('background-color', 'rgb(13, 17, 23)');
  expect(await seriousViolations(page)).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test('the light scheme keeps its colours, and passes the same check', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await open(page, '#preset=default');
  await runAndWait(page);
  expect(await background(page)).toBe('rgb(255, 255, 255)');
  expect(await axisText(page)).toBe('rgb(61, 68, 77)');
  expect(await seriousViolations(page)).toEqual([]);
});

test('the hop view and the embedded page in the dark scheme', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await open(page, '#preset=intcp-two-hop-square');
  await runAndWait(page);
  await expect(page.getByTestId('chart-hops')).toBeVisible();
  expect(await page.locator('.hop-node-id').first().evaluate((e) => getComputedStyle(e).fill)).toBe('rgb(230, 237, 243)');
  expect(await seriousViolations(page)).toEqual([]);

  await page.goto('about:blank');
  await page.goto('./?embed=1#preset=default&run=1&view=delay');
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
  expect(await background(page)).toBe('rgb(13, 17, 23)');
  expect(await seriousViolations(page)).toEqual([]);
});
