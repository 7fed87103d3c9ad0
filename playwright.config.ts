// End-to-end tests of the built site (web/dist, served by `vite preview`) in Debian's Chromium:
// `npx playwright install` downloads a browser and fails on our machines, so the system one is
// used. The flags keep headless Chromium quiet on a closed network and give it software WebGL.
import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 4173);

export default defineConfig({
  testDir: 'e2e',
  timeout: 120_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  // One worker per core: a test spends much of its time waiting on a run or a page load, and the
  // spec files share nothing (each test has its own browser context). E2E_WORKERS=1 runs them
  // one at a time, to tell a race between tests from a bug.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${PORT}/`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--use-angle=swiftshader',
        '--enable-unsafe-swiftshader',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    viewport: { width: 1400, height: 1000 },
    acceptDownloads: true,
  },
  webServer: {
    command: `npx vite preview --config web/vite.config.ts --configLoader runner --host 127.0.0.1 --port ${PORT} --strictPort`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
