import { defineConfig } from 'vitest/config';
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

/**
 * The app is written against React's API and ships on Preact (`preact/compat`), which is about a
 * tenth of react-dom's size on the first load. The code and its types keep importing
 * 'react' and 'react-dom' (tsc checks them with @types/react); these aliases swap the runtime for
 * the build, the dev server and vitest alike, so the unit tests render what ships. JSX compiles
 * to 'react/jsx-runtime' (tsconfig's "jsx": "react-jsx"), which lands here too.
 */
const PREACT_ALIASES = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  // renderToStaticMarkup in the unit tests: preact-render-to-string, a dev dependency.
  { find: /^react-dom\/server$/, replacement: 'preact/compat/server' },
];

export default defineConfig({
  root,
  // Relative asset URLs: the built folder works from any static host, under any base path.
  base: './',
  // Static assets live in the repository's top-level public/.
  publicDir: fileURLToPath(new URL('../public', import.meta.url)),
  plugins: [contentSecurityPolicy, precachePlugin()],
  resolve: { alias: PREACT_ALIASES },
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
