import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { fileURLToPath } from 'node:url';
import { precachePlugin } from './src/offline/precache.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The built page's Content-Security-Policy: everything from the page's own origin, nothing
 * inline but styles, WebAssembly compiled from fetched bytes ('wasm-unsafe-eval'), no plugins,
 * no forms, no <base>. Images may be data: or blob: URLs (chart exports). Only the build gets it:
 * the dev server injects inline scripts for hot reloading. Tested by e2e/app.spec.ts.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const contentSecurityPolicy: Plugin = {
  name: 'orbitcp-csp',
  apply: 'build',
  transformIndexHtml: () => [
    { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' },
  ],
};

export default defineConfig({
  root,
  // Relative asset URLs: the built folder works from any static host, under any base path.
  base: './',
  // Static assets live in the repository's top-level public/.
  publicDir: fileURLToPath(new URL('../public', import.meta.url)),
  plugins: [react(), contentSecurityPolicy, precachePlugin()],
  worker: { format: 'es' },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 1024 },
  server: {
    host: '127.0.0.1',
    // The presets live in ../scenarios, outside the web root.
    fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] },
  },
  test: {
    root,
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
