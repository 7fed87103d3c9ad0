// Browser benchmarks of the built site, printed for BENCHMARKS.md:
//  1. gzipped bytes of what the first load fetches (HTML, JS, CSS, worker, wasm);
//  2. time from navigation to the first chart of the default preset (headless Chromium);
//  3. wall time of the CTCP paper Fig. 2 TCP sweep in the browser, against the native CLI;
//  4. with --leo, wall time of the LEO preset's run (five flows alone, 600 s over the 1600
//     satellites) in the browser, against `orbitcp run` (minutes each).
// The browser and the CLI take turns, each pair in the same minutes: on a busy machine only the
// ratio within a pair means much.
// Usage: npm run build && node scripts/bench-web.mjs [--skip-sweep] [--only-sweep] [--leo] [--repeat N]
// BENCH_DIST: another built site to serve (a copy of web/dist from before a change, to compare).
import { chromium } from '@playwright/test';
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = process.env.ORBITCP_CLI ?? join(root, 'target', 'release', 'orbitcp');
// BENCH_PORT: another checkout's benchmark may hold the default port. (Not 4190: fetch refuses it,
// as one of the ports browsers block.)
const port = Number(process.env.BENCH_PORT ?? 4180);
const dist = process.env.BENCH_DIST ?? join(root, 'web', 'dist');
const skipSweep = process.argv.includes('--skip-sweep');
/** Only the sweep (and --leo): no first-load sizes or first-chart times. */
const onlySweep = process.argv.includes('--only-sweep');
const leo = process.argv.includes('--leo');
const repeatAt = process.argv.indexOf('--repeat');
const repeat = repeatAt > 0 ? Math.max(1, Number(process.argv[repeatAt + 1]) || 1) : 1;

function distFiles() {
  const files = [];
  const walk = (d) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(html|js|css|wasm)$/.test(f)) files.push(p);
    }
  };
  walk(dist);
  return files;
}

/** Raw and gzipped sizes of the built files, split into what the first load fetches (as the
 * browser requested it, `fetched`: paths relative to dist) and what only later views load (the
 * globe's chunk, route examples, satellite.js's WASM propagator). */
function sizes(fetched) {
  let raw = 0;
  let gz = 0;
  const first = [];
  const later = [];
  for (const f of distFiles()) {
    const rel = f.slice(dist.length + 1);
    const b = readFileSync(f);
    const g = gzipSync(b, { level: 9 }).length;
    const row = `  ${rel}: ${(b.length / 1024).toFixed(1)} KiB, gzip ${(g / 1024).toFixed(1)} KiB`;
    if (fetched.has(rel)) {
      raw += b.length;
      gz += g;
      first.push(row);
    } else later.push(row);
  }
  console.log("first load (what the default preset's page fetched before it was ready):");
  for (const r of first) console.log(r);
  console.log(`  total: ${(raw / 1024).toFixed(1)} KiB, gzip ${(gz / 1024).toFixed(1)} KiB`);
  console.log('loaded later, on demand (the globe and what it needs):');
  for (const r of later) console.log(r);
}

/** Sizes of the first load, and the time to the default preset's first chart. */
async function firstLoad(page) {
  const fetched = new Set();
  const record = (req) => {
    const path = new URL(req.url()).pathname.replace(/^\//, '');
    fetched.add(path === '' ? 'index.html' : path);
  };
  page.on('request', record);
  await page.goto(`http://127.0.0.1:${port}/#preset=default`);
  await page.waitForSelector('body[data-ready="true"]');
  page.off('request', record);
  sizes(fetched);
  const firstChart = [];
  for (let i = 0; i < 5; i++) {
    await page.goto(`http://127.0.0.1:${port}/?bench=${i}#preset=default`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.getByTestId('run').click();
    await page.waitForSelector('[data-testid="chart-cwnd"] [data-testid="series"]', { timeout: 60_000 });
    firstChart.push(await page.evaluate(() => performance.now()));
  }
  firstChart.sort((a, b) => a - b);
  console.log(`navigation to first chart, default preset: median ${firstChart[2].toFixed(0)} ms (min ${firstChart[0].toFixed(0)}, max ${firstChart[4].toFixed(0)}) over 5 loads`);
}

/** Seconds from clicking `button` on a fresh page of the preset to its results, measured here
 * and in the page (from the click event it received). The clock starts once the button can be
 * clicked: `data-ready` says the core has loaded, and the button waits for the scenario's
 * validation and cost estimate after that (0.8 s for the LEO preset, its estimate a pilot run),
 * which a click made earlier waited for inside the measured time. */
async function browserRun(page, preset, button) {
  await page.goto(`http://127.0.0.1:${port}/?t=${Date.now()}#preset=${preset}`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForSelector(`[data-testid="${button}"]:not([disabled])`);
  const workers = await page.evaluate(() => Math.min(8, Math.max(1, navigator.hardwareConcurrency || 2)));
  // page.evaluate's functions run in the page, with its globals.
  /* global window, document, MutationObserver */
  await page.evaluate(() => {
    const marks = (window.__benchMarks = {});
    document.addEventListener('click', () => (marks.click ??= performance.now()), { capture: true });
    new MutationObserver(() => {
      if (marks.done === undefined && document.querySelector('[data-testid="results"][data-run-state="done"]')) marks.done = performance.now();
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-run-state'] });
  });
  const t0 = Date.now();
  await page.getByTestId(button).click();
  await page.waitForSelector('[data-testid="results"][data-run-state="done"]', { timeout: 1_800_000 });
  const browserS = (Date.now() - t0) / 1000;
  const marks = await page.evaluate(() => window.__benchMarks);
  return { browserS, pageS: (marks.done - marks.click) / 1000, workers };
}

/** Seconds the native CLI takes for `args` (on every core, as the browser has its workers). */
function timeCli(args) {
  const t = Date.now();
  execFileSync(cli, args, { stdio: ['ignore', 'ignore', 'ignore'] });
  return (Date.now() - t) / 1000;
}

async function main() {
  const server = spawn('npx', ['vite', 'preview', '--config', 'web/vite.config.ts', '--configLoader', 'runner', '--host', '127.0.0.1', '--port', String(port), '--strictPort', '--outDir', dist], {
    cwd: root,
    stdio: 'ignore',
    detached: true,
  });
  try {
    // Until the server answers: on a loaded machine vite takes more than a few seconds to start.
    for (let waited = 0; ; waited += 250) {
      const up = await fetch(`http://127.0.0.1:${port}/`).then((r) => r.ok, () => false);
      if (up) break;
      if (waited > 60_000) throw new Error(`vite preview did not answer on port ${port} within 60 s`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-quic'],
    });
    const page = await browser.newPage();
    if (!onlySweep) await firstLoad(page);
    if (!skipSweep) {
      for (let i = 0; i < repeat; i++) {
        const { browserS, workers } = await browserRun(page, 'ctcp-fig2-tcp', 'run-sweep');
        const nativeS = timeCli(['sweep', join(root, 'scenarios', 'ctcp-fig2-tcp.json')]);
        console.log(`Fig. 2 TCP sweep (1540 runs): browser ${browserS.toFixed(2)} s on ${workers} workers, native CLI ${nativeS.toFixed(2)} s: ratio ${(browserS / nativeS).toFixed(2)}`);
      }
    }
    if (leo) {
      for (let i = 0; i < repeat; i++) {
        const { browserS, pageS, workers } = await browserRun(page, 'leo-beijing-newyork-1600', 'run');
        const nativeS = timeCli(['run', join(root, 'scenarios', 'leo-beijing-newyork-1600.json')]);
        console.log(
          `LEO preset run (5 flows alone, traces included): browser ${browserS.toFixed(2)} s on ${workers} workers ` +
            `(${pageS.toFixed(2)} s from the page's click event), native CLI ${nativeS.toFixed(2)} s: ratio ${(browserS / nativeS).toFixed(2)}`,
        );
      }
    }
    await browser.close();
  } finally {
    // The whole group: killing npx alone left vite serving on the port.
    process.kill(-server.pid);
  }
}

await main();
