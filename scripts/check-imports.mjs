#!/usr/bin/env node
// The one-way import rule (ARCHITECTURE.md): no module of wasm-core/src or web/src may import
// one that imports it back, directly or through others. This reads the import lines, builds the
// graph of files, and prints every cycle (a strongly connected component of two or more files).
//
// Usage: node scripts/check-imports.mjs [--rust] [--web]   (default: both). Exit 1 on a cycle.
//
// Rust: a file imports the module files that its `crate::…` and `super::…` paths name, in `use`
// lines and inline paths alike (`#[cfg(test)]` modules at the bottom of a file are left out:
// tests may reach anywhere). A path names the longest module prefix that is a file, so
// `crate::tcp::rtt::RttEstimator` is tcp/rtt.rs and `crate::tcp::Foo` is tcp/mod.rs. A parent
// module's `mod child;` declaration is not an import. Web: relative `import … from` and
// `import(…)` specifiers; type-only imports count too, since they couple the files all the same.
// The web side is checked twice: file by file, and folder by folder (web/src's top-level
// folders are its modules).

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, dirname, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');

function walk(dir, ext) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p, ext));
    else if (ext.some((e) => name.endsWith(e))) out.push(p);
  }
  return out;
}

/** Tarjan's strongly connected components; those of two or more nodes are cycles. */
function cycles(graph) {
  let index = 0;
  const stack = [];
  const on = new Set();
  const idx = new Map();
  const low = new Map();
  const out = [];
  const strong = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
  return out;
}

function rustGraph() {
  const src = join(root, 'wasm-core/src');
  const files = walk(src, ['.rs']).filter((f) => !f.includes('/bin/'));
  // Module path (['tcp', 'sender']) → file.
  const modFile = new Map();
  for (const f of files) {
    const rel = relative(src, f).replace(/\.rs$/, '').split('/');
    if (rel[rel.length - 1] === 'mod' || (rel.length === 1 && rel[0] === 'lib')) rel.pop();
    modFile.set(rel.join('::'), f);
  }
  const modOf = (f) => {
    const rel = relative(src, f).replace(/\.rs$/, '').split('/');
    if (rel[rel.length - 1] === 'mod' || (rel.length === 1 && rel[0] === 'lib')) rel.pop();
    return rel;
  };
  const target = (segments) => {
    for (let n = segments.length; n >= 1; n--) {
      const f = modFile.get(segments.slice(0, n).join('::'));
      if (f) return f;
    }
    return null;
  };
  const graph = new Map();
  for (const f of files) {
    let text = readFileSync(f, 'utf8');
    const tests = text.search(/^#\[cfg\(test\)\]\s*\nmod tests/m);
    if (tests >= 0) text = text.slice(0, tests);
    text = text.replace(/\/\/.*$/gm, '');
    const here = modOf(f);
    const deps = new Set();
    const add = (segments) => {
      const t = target(segments);
      if (t && t !== f) deps.add(t);
    };
    // Expand `use a::{b, c::d}` groups one level deep, which is all the code base uses.
    const paths = [];
    for (const m of text.matchAll(/\buse\s+([^;]+);/g)) {
      const body = m[1].replace(/\s+/g, '');
      const g = body.match(/^(.*?)::\{(.*)\}$/);
      if (!g) paths.push(body);
      else for (const part of g[2].split(/,(?![^{]*\})/)) paths.push(`${g[1]}::${part}`);
    }
    for (const m of text.matchAll(/\b((?:crate|super)(?:::[A-Za-z_][A-Za-z0-9_]*)+)/g)) paths.push(m[1]);
    for (const p of paths) {
      const seg = p.split('::').map((s) => s.replace(/[{}].*$/, '')).filter(Boolean);
      if (seg[0] === 'crate') add(seg.slice(1));
      else if (seg[0] === 'super') {
        // `super` is the parent of this file's module (a mod.rs file is its folder's module).
        let i = 0;
        while (seg[i] === 'super') i++;
        const base = here.slice(0, Math.max(0, here.length - i));
        add([...base, ...seg.slice(i)]);
      }
    }
    graph.set(f, deps);
  }
  return graph;
}

function webGraph() {
  const src = join(root, 'web/src');
  const files = walk(src, ['.ts', '.tsx']).filter((f) => !/\.test\.tsx?$/.test(f) && !f.includes('/wasm/'));
  const known = new Set(files);
  const resolveSpec = (from, spec) => {
    const base = resolve(dirname(from), spec);
    for (const c of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) if (known.has(c)) return c;
    return null;
  };
  const graph = new Map();
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    const deps = new Set();
    for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*)['"](\.[^'"]+)['"]/g)) {
      const t = resolveSpec(f, m[1]);
      if (t && t !== f) deps.add(t);
    }
    graph.set(f, deps);
  }
  return graph;
}

/** The same graph with each top-level folder of web/src as one node (files at the top are their
 * own nodes): sim/ may not import globe/ while globe/ imports sim/, whatever the files. */
function webFolderGraph() {
  const src = join(root, 'web/src');
  const folder = (f) => {
    const rel = relative(src, f).split('/');
    return join(src, rel[0]);
  };
  const graph = new Map();
  for (const [f, deps] of webGraph()) {
    const from = folder(f);
    if (!graph.has(from)) graph.set(from, new Set());
    for (const d of deps) if (folder(d) !== from) graph.get(from).add(folder(d));
  }
  return graph;
}

const args = process.argv.slice(2);
const which = args.length ? args : ['--rust', '--web'];
let failed = false;
for (const [flag, name, build] of [
  ['--rust', 'wasm-core/src', rustGraph],
  ['--web', 'web/src', webGraph],
  ['--web', 'web/src (folders)', webFolderGraph],
]) {
  if (!which.includes(flag)) continue;
  const found = cycles(build());
  if (found.length === 0) {
    console.log(`check-imports: ${name}: no import cycles`);
    continue;
  }
  failed = true;
  console.error(`check-imports: ${name}: ${found.length} import cycle(s); each group imports itself back:`);
  for (const c of found) console.error(`  - ${c.map((f) => relative(root, f)).join(', ')}`);
}
process.exit(failed ? 1 : 0);
