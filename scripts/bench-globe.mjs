// Browser benchmark of the globe: CPU milliseconds per frame for propagation
// plus buffer updates at 10,000 satellites, Walker (the core's closed form) and SGP4
// (satellite.js, its JS propagator and its WASM bulk propagator), in headless Debian Chromium
// with software WebGL. Builds scripts/bench-globe/ (the real GlobeScene on synthetic
// constellations) into out/bench-globe, serves it and prints the figures for BENCHMARKS.md.
// Timing is printed, never asserted. Usage: node scripts/bench-globe.mjs
import { chromium } from '@playwright/test';
import { build } from 'vite';
import { createServer } from 'node:http';
import { readFileSync, existsSync } from 'node:fs';
import { extname, join, dirname, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpus, loadavg } from 'node:os';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'out', 'bench-globe');

await build({
  root: join(root, 'scripts', 'bench-globe'),
  base: './',
  logLevel: 'warn',
  worker: { format: 'es' },
  build: { outDir, emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 4096 },
});

const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json' };
const server = createServer((req, res) => {
  const path = normalize(join(outDir, decodeURIComponent(new URL(req.url, 'http://x').pathname)));
  const file = path.endsWith('/') ? join(path, 'index.html') : path;
  if (!file.startsWith(outDir) || !existsSync(file)) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const port = server.address().port;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForFunction(() => globalThis.benchResult || globalThis.benchError, null, { timeout: 300_000 });
  const error = await page.evaluate(() => globalThis.benchError);
  if (error) throw new Error(error);
  const results = await page.evaluate(() => globalThis.benchResult);
  const version = browser.version();
  console.log(`globe, ${results[0].frames} frames each, Chromium ${version} (SwiftShader WebGL), ${cpus()[0].model}, load average ${loadavg()[0].toFixed(1)}:`);
  console.log('| satellites | propagation | speed (at 60 frames/s) | CPU ms/frame (propagation + buffers), mean | p95 | with software render, mean |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const r of results)
    console.log(`| ${r.satellites.toLocaleString('en')} | ${r.engine} | ${r.speed}× | ${r.cpuMeanMs.toFixed(2)} | ${r.cpuP95Ms.toFixed(2)} | ${r.frameWithRenderMeanMs.toFixed(1)} |`);
} finally {
  await browser.close();
  server.close();
}
