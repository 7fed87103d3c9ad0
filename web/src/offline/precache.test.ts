import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { precacheOf, serviceWorkerText } from './precache';

function site(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'orbitcp-precache-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const BUILT = { 'index.html': '<html>', 'assets/index-abc.js': 'js', 'assets/orbitcp_core_bg-def.wasm': 'wasm', 'assets/index-abc.js.map': '{}', 'favicon.svg': '<svg>', 'sw.js': 'old' };

describe('precacheOf', () => {
  it('lists every built file relative to the worker, the page first, without itself or source maps', () => {
    const p = precacheOf(site(BUILT));
    expect(p.files).toEqual(['./', './index.html', './assets/index-abc.js', './assets/orbitcp_core_bg-def.wasm', './favicon.svg']);
  });

  it('has a version that changes with any byte of the site, not with the old worker', () => {
    const a = precacheOf(site(BUILT)).version;
    expect(precacheOf(site({ ...BUILT, 'sw.js': 'other' })).version).toBe(a);
    expect(precacheOf(site({ ...BUILT, 'assets/orbitcp_core_bg-def.wasm': 'wasm2' })).version).not.toBe(a);
    expect(precacheOf(site({ ...BUILT, 'assets/new.js': '' })).version).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('serviceWorkerText', () => {
  it('puts the manifest where the worker reads it, before the worker', () => {
    const text = serviceWorkerText({ version: 'v1', files: ['./'] });
    expect(text.startsWith('self.__ORBITCP_PRECACHE = {"version":"v1","files":["./"]};\n')).toBe(true);
    expect(text).toContain('const MANIFEST = self.__ORBITCP_PRECACHE');
    expect(text).toContain("addEventListener('fetch'");
  });
});
