// A `flows_alone` scenario in the browser: its flows' simulations run on several workers of the
// pool at once, and the core joins them into exactly the summary `orbitcp run` prints, and the
// one a single-worker page shows.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { encodeScenario } from '../web/src/share/share';
import { expect, open, summaryText, test } from './fixtures';

const root = new URL('..', import.meta.url).pathname;
const cli = process.env.ORBITCP_CLI ?? `${root}target/release/orbitcp`;

/** Three transports alone on a short lossy chain: a few seconds of simulation each (the
 * scenario wasm-core/tests-node/flows-alone.test.mjs runs in Node). */
const ALONE = JSON.stringify(JSON.parse(readFileSync(`${root}wasm-core/tests-node/fixtures/three-flows-alone.json`, 'utf8')));

/** Gives the page `cores` cores (the pool's size) and records, per worker created, the
 * simulations it was asked to run alone (`run` requests with a `part`). */
async function withCores(page: Page, cores: number) {
  await page.addInitScript((n) => {
    Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => n });
    const parts: [number, number][] = [];
    (window as unknown as { __parts: typeof parts }).__parts = parts;
    let made = 0;
    const Base = window.Worker;
    window.Worker = class extends Base {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        const me = made++;
        const post = this.postMessage.bind(this) as (m: unknown, t?: Transferable[] | StructuredSerializeOptions) => void;
        this.postMessage = (m: unknown, t?: Transferable[] | StructuredSerializeOptions) => {
          const msg = m as { type?: string; part?: number };
          if (msg.type === 'runPart' && msg.part !== undefined) parts.push([me, msg.part]);
          post(m, t);
        };
      }
    };
  }, cores);
}

async function runShared(page: Page) {
  // A shared link runs by itself.
  await open(page, `#s=${encodeScenario(ALONE)}`);
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
}

test('flows alone run on several workers and give the CLI summary and the single-worker one', async ({ page, context, consoleErrors }) => {
  await withCores(page, 2);
  await runShared(page);
  const parts = await page.evaluate(() => (window as unknown as { __parts: [number, number][] }).__parts);
  expect(parts.map(([, k]) => k).sort()).toEqual([0, 1, 2]);
  expect(new Set(parts.map(([w]) => w)).size).toBe(2);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
  const browser = JSON.parse(readFileSync(await download.path(), 'utf8'));
  const file = join(mkdtempSync(join(tmpdir(), 'orbitcp-e2e-alone-')), 'alone.json');
  writeFileSync(file, ALONE);
  const native = JSON.parse(execFileSync(cli, ['run', '--summary', file], { encoding: 'utf8' }));
  expect(browser.summary).toEqual(native);

  const single = await context.newPage();
  await withCores(single, 1);
  await runShared(single);
  expect(await single.evaluate(() => (window as unknown as { __parts: unknown[] }).__parts)).toEqual([]);
  expect(await summaryText(single)).toEqual(await summaryText(page));
  expect(consoleErrors).toEqual([]);
});
