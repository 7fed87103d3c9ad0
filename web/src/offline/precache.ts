// The build's half of offline use: after vite has written the site, list every file it wrote
// (chunks, CSS, the wasm modules, the globe's chunk and atlas, the public files) and write
// sw.js, the service worker (sw.js beside this file), with that list and a version that is the
// hash of every file's bytes. So each deploy precaches exactly what it serves, and a new deploy
// replaces the last one's cache. Runs in Node, from web/vite.config.ts.

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

export const SW_FILE = 'sw.js';
const TEMPLATE = fileURLToPath(new URL('./sw.js', import.meta.url));

export interface Precache {
  version: string;
  /** URLs relative to the service worker, `./` and `./index.html` first. */
  files: string[];
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** What the service worker precaches from a built folder: every file but itself and source
 * maps (no page fetches them), in a stable order; the version hashes names and bytes. */
export function precacheOf(outDir: string): Precache {
  const names = walk(outDir)
    .map((p) => relative(outDir, p).split('\\').join('/'))
    .filter((n) => n !== SW_FILE && !n.endsWith('.map'))
    .sort();
  const hash = createHash('sha256');
  for (const n of names) hash.update(n).update('\0').update(readFileSync(join(outDir, n))).update('\0');
  const rest = names.filter((n) => n !== 'index.html').map((n) => `./${n}`);
  return { version: hash.digest('hex').slice(0, 16), files: ['./', './index.html', ...rest] };
}

/** The service worker's text: the manifest, then the worker itself. */
export function serviceWorkerText(precache: Precache, template = readFileSync(TEMPLATE, 'utf8')): string {
  return `self.__ORBITCP_PRECACHE = ${JSON.stringify(precache)};\n${template}`;
}

/** Writes sw.js into the build's folder once the build is written. */
export function precachePlugin(): Plugin {
  let outDir = '';
  return {
    name: 'orbitcp-precache',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      // Only the site's build has an index.html (not a worker's nested build).
      if (!existsSync(join(outDir, 'index.html'))) return;
      const precache = precacheOf(outDir);
      writeFileSync(join(outDir, SW_FILE), serviceWorkerText(precache));
      this.info?.(`precache: ${precache.files.length} files, version ${precache.version}`);
    },
  };
}
