// The address bar is the page's state (web/src/share/urlState.ts): Back after a preset change
// restores the previous scenario, a reload restores the same screen (scenario text, lesson step,
// results), an edit is written into the URL without a new history entry, and a link pasted
// into the tab (a new fragment) loads, with a notice when another core made it.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { decodeScenario, encodeScenario } from '../web/src/share/share';
import { expect, open, runAndWait, summaryText, test } from './fixtures';

const root = new URL('..', import.meta.url).pathname;
const preset = (id: string) => readFileSync(`${root}scenarios/${id}.json`, 'utf8');

const params = (page: Page) => new URLSearchParams(new URL(page.url()).hash.slice(1));

async function editorText(page: Page): Promise<string> {
  return page.locator('#scenario-json').inputValue();
}

test('Back after a preset change restores the previous scenario, Forward the next', async ({ page, consoleErrors }) => {
  await open(page, '#preset=default');
  await page.getByTestId('editor-tab-json').click();
  await expect.poll(() => editorText(page)).toBe(preset('default'));
  await page.getByTestId('preset-ctcp-fig2-tcp').click();
  await expect.poll(() => editorText(page)).toBe(preset('ctcp-fig2-tcp'));
  // The address bar is written by an effect, which may run a frame after the editor shows the text.
  await expect.poll(() => params(page).get('preset')).toBe('ctcp-fig2-tcp');

  await page.goBack();
  await expect.poll(() => editorText(page)).toBe(preset('default'));
  expect(params(page).get('preset')).toBe('default');
  await expect(page.getByTestId('preset-default')).toHaveAttribute('aria-pressed', 'true');
  await page.goForward();
  await expect.poll(() => editorText(page)).toBe(preset('ctcp-fig2-tcp'));
  await expect(page.getByTestId('preset-ctcp-fig2-tcp')).toHaveAttribute('aria-pressed', 'true');
  expect(consoleErrors).toEqual([]);
});

test('an edit is written into the URL in place, without a new history entry', async ({ page }) => {
  await open(page, '#preset=default&lesson=2&step=3');
  await page.getByTestId('editor-tab-json').click();
  const before = await page.evaluate(() => history.length);
  const edited = preset('default').replace(/"name": "[^"]*"/, '"name": "edited in class"');
  expect(edited).not.toBe(preset('default'));
  await page.locator('#scenario-json').fill(edited);
  await expect.poll(() => decodeScenario(params(page).get('s') ?? '')).toEqual({ ok: true, text: edited });
  expect(params(page).has('preset')).toBe(false);
  // The lesson's parameters stay, and the version of the core that wrote the text is recorded.
  expect(params(page).get('lesson')).toBe('2');
  expect(params(page).get('step')).toBe('3');
  expect(params(page).get('v')).toMatch(/^\d+\.\d+\.\d+/);
  expect(await page.evaluate(() => history.length)).toBe(before);
});

test('a reload restores the same screen: scenario text, lesson step and results', async ({ page }) => {
  test.setTimeout(240_000);
  await open(page, '#lesson=1&step=2');
  await page.getByTestId('run-step').click();
  await expect(page.getByTestId('reveal')).toBeEnabled({ timeout: 110_000 });
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done');
  await expect.poll(() => params(page).get('run')).toBe('1');
  await page.getByTestId('editor-tab-json').click();
  const text = await editorText(page);
  const rows = await summaryText(page);

  await page.reload();
  await expect(page.locator('body[data-ready="true"]')).toHaveCount(1, { timeout: 60_000 });
  await expect(page.getByTestId('lessons')).toHaveAttribute('data-step', '2');
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
  await page.getByTestId('editor-tab-json').click();
  expect(await editorText(page)).toBe(text);
  expect(await summaryText(page)).toEqual(rows);
  // The step counts as run again: its answer may be revealed.
  await expect(page.getByTestId('reveal')).toBeEnabled();
});

test('a run is a history entry: Back returns to the screen before it', async ({ page }) => {
  await open(page, '#preset=default');
  await runAndWait(page);
  await expect.poll(() => params(page).get('run')).toBe('1');
  await page.goBack();
  await expect.poll(() => params(page).has('run')).toBe(false);
  await page.goForward();
  await expect.poll(() => params(page).get('run')).toBe('1');
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done');
});

test('a link pasted into the tab loads, runs with run=1, and names another core', async ({ page }) => {
  await open(page, '#preset=default');
  await page.getByTestId('editor-tab-json').click();
  await page.evaluate(() => (window.location.hash = '#preset=istn-window-reno&run=1'));
  await expect.poll(() => editorText(page)).toBe(preset('istn-window-reno'));
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
  expect((await summaryText(page))[0]).toMatch(/reno/i);
  await expect(page.getByTestId('url-notice')).toHaveCount(0);

  const other = preset('default').replace(/"name": "[^"]*"/, '"name": "from an older core"');
  await page.evaluate((h) => (window.location.hash = h), `#s=${encodeScenario(other)}&v=0.0.1`);
  await expect.poll(() => editorText(page)).toBe(other);
  await expect(page.getByTestId('url-notice')).toContainText('made with orbitcp core 0.0.1');
  await expect(page.getByTestId('url-notice')).toContainText('numbers may differ');

  await page.evaluate(() => (window.location.hash = '#preset=no-such-preset'));
  await expect(page.getByTestId('url-notice')).toContainText('There is no preset called "no-such-preset"');
  await expect(page.getByTestId('run')).toBeEnabled();
});
