// The exports a user asks for after a run come from the orbit build of the core, which the page
// fetches for them (the first-load build has neither writer): a run's pcap files and a sweep's
// CSV are the CLI's bytes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, open, runAndWait, test } from './fixtures';

const root = new URL('..', import.meta.url).pathname;
const cli = process.env.ORBITCP_CLI ?? `${root}target/release/orbitcp`;

test("a run's pcap download is the CLI's capture", async ({ page, consoleErrors }) => {
  test.setTimeout(90_000);
  await open(page, '#preset=arq-geo-loss');
  await runAndWait(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-pcap').click()]);
  const browser = readFileSync(await download.path());
  const out = mkdtempSync(join(tmpdir(), 'orbitcp-pcap-'));
  execFileSync(cli, ['run', '--summary', '--pcap', out, `${root}scenarios/arq-geo-loss.json`], { encoding: 'utf8' });
  const files = readdirSync(out).filter((f) => f.endsWith('.pcap'));
  // One link: one file, downloaded as it is.
  expect(files).toHaveLength(1);
  expect(download.suggestedFilename()).toMatch(/\.pcap$/);
  expect(browser.equals(readFileSync(join(out, files[0])))).toBe(true);
  expect(consoleErrors).toEqual([]);
});

test("a sweep's CSV export is what orbitcp sweep prints", async ({ page, consoleErrors }) => {
  test.setTimeout(90_000);
  await open(page, '#preset=arq-geo-window');
  await page.getByTestId('run-sweep').click();
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  const browser = readFileSync(await download.path(), 'utf8');
  const native = execFileSync(cli, ['sweep', '--threads', '2', `${root}scenarios/arq-geo-window.json`], { encoding: 'utf8' });
  expect(browser.split('\n').length).toBe(12 + 1);
  expect(browser).toBe(native);
  expect(consoleErrors).toEqual([]);
});
