import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, open, runAndWait, test } from './fixtures';

const root = new URL('..', import.meta.url).pathname;
const cli = process.env.ORBITCP_CLI ?? `${root}target/release/orbitcp`;

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
