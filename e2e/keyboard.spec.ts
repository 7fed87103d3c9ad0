// Keyboard shortcuts (web/src/shortcuts.ts): Ctrl+Enter runs from anywhere on the page, the
// editor included; Esc cancels a run under way; the buttons name their keys.
import { readFileSync } from 'node:fs';
import { encodeScenario } from '../web/src/share/share';
import { expect, open, test } from './fixtures';

const root = new URL('..', import.meta.url).pathname;

test('Ctrl+Enter runs from the editor, and the buttons name their shortcuts', async ({ page, consoleErrors }) => {
  await open(page, '#preset=default');
  await expect(page.getByTestId('run')).toHaveAttribute('aria-keyshortcuts', 'Control+Enter Meta+Enter');
  await expect(page.getByTestId('run')).toHaveAttribute('title', /Ctrl\+Enter/);
  await expect(page.getByTestId('cancel')).toHaveAttribute('aria-keyshortcuts', 'Escape');
  await page.getByTestId('editor-tab-json').click();
  const editor = page.locator('#scenario-json');
  const before = await editor.inputValue();
  await editor.focus();
  await expect(page.getByTestId('run')).toBeEnabled();
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
  // The shortcut ran the scenario; it did not type into it.
  expect(await editor.inputValue()).toBe(before);
  // Cmd+Enter too: count the runs that start.
  await page.evaluate(() => {
    const w = window as unknown as { runsStarted: number };
    w.runsStarted = 0;
    const results = document.querySelector('[data-testid="results"]') as Element;
    new MutationObserver(() => results.getAttribute('data-run-state') === 'running' && w.runsStarted++).observe(results, { attributes: true });
  });
  await page.keyboard.press('Meta+Enter');
  await expect.poll(() => page.evaluate(() => (window as unknown as { runsStarted: number }).runsStarted)).toBe(1);
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
  expect(consoleErrors).toEqual([]);
});

test('Esc cancels a run under way; Ctrl+Enter does nothing while the scenario is invalid', async ({ page }) => {
  const long = JSON.parse(readFileSync(`${root}scenarios/default.json`, 'utf8'));
  long.name = 'a long download';
  long.flows[0].bytes = 4_000_000_000;
  long.duration_s = 3000;
  // v= without run=: the page opens the scenario without running it.
  await open(page, `#s=${encodeScenario(JSON.stringify(long, null, 2))}&v=0`);
  await expect(page.getByTestId('run')).toBeEnabled();
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('progress')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('status')).toHaveText('Run cancelled.');
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'idle');

  await page.getByTestId('editor-tab-json').click();
  await page.locator('#scenario-json').fill('{"version": 1, "name": "broken"');
  await expect(page.getByTestId('run')).toBeDisabled();
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('progress')).toHaveCount(0);
});
