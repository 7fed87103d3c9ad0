// Shared helpers: every test fails on any console error, and waits for the app's readiness flag
// (the worker has loaded the wasm core) before it acts.
import { test as base, expect, type Page } from '@playwright/test';

export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    await use(errors);
    expect(errors, 'console errors').toEqual([]);
  },
});

export { expect };

/** Opens the app at a fragment; `debug` adds `?debug=1`, which shows the crash tests. */
export async function open(page: Page, hash = '', { debug = false }: { debug?: boolean } = {}) {
  await page.goto(`./${debug ? '?debug=1' : ''}${hash}`);
  await expect(page.locator('body[data-ready="true"]')).toHaveCount(1, { timeout: 60_000 });
}

/** Clicks Run and waits until the run is done. */
export async function runAndWait(page: Page) {
  await expect(page.getByTestId('run')).toBeEnabled();
  await page.getByTestId('run').click();
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
}

/** The summary table's flow rows, row by row: what a user reads (the per-flow tables below it,
 * hops and capacity shares, are left out). */
export async function summaryText(page: Page): Promise<string[]> {
  return page.getByTestId('summary').locator('tr[data-testid^="flow-row-"]').allInnerTexts();
}
