import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  // Relative asset URLs: the built folder works from any static host, under any base path.
  base: './',
  // Static assets live in the repository's top-level public/.
  publicDir: fileURLToPath(new URL('../public', import.meta.url)),
  plugins: [react()],
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
