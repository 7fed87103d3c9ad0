import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['web/dist', 'web/src/wasm/pkg', 'web/src/wasm/pkg-orbit', 'node_modules', 'target', 'test-results', 'playwright-report', 'out', '.venv', 'python/target', 'wasm-core/fuzz/target'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.worker } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // The service worker's source (the build prepends its manifest: web/src/offline/precache.ts).
    files: ['web/src/offline/sw.js'],
    languageOptions: { globals: globals.serviceworker },
  },
  {
    // Playwright fixtures call `use`, which is not a React hook.
    files: ['e2e/**/*.ts'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  {
    files: ['scripts/**/*.mjs', 'wasm-core/tests-node/**/*.mjs', '*.config.{js,ts}', 'web/vite.config.ts'],
    languageOptions: { globals: globals.node },
  },
);
