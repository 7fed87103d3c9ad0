#!/usr/bin/env node
// The one-way import rule (ARCHITECTURE.md): a module of wasm-core/src or web/src may import only
// modules below it, and no group of modules may import each other in a circle. This reads the
// import lines, builds the graph of files, and fails on
// - every cycle of files (a strongly connected component of two or more), in both trees;
// - every cycle of folders: web/src's top-level folders, and wasm-core/src's top-level modules
//   (a folder, or a file such as simulation.rs), whatever the files inside them do;
// - every import of a wasm-core/src module that does not run down CORE_LAYERS, the order of
//   ARCHITECTURE.md's picture (a cycle of modules always has one), and every module that the
//   order does not place.
//
// Usage: node scripts/check-imports.mjs [--rust] [--web] [--core-src DIR]   (default: both trees).
// --core-src checks another tree in place of wasm-core/src (the tests' fixtures). Exit 1 on a
// failure.
//
// Rust: a file imports the module files that its `crate::…` and `super::…` paths name, in `use`
// lines and inline paths alike (`#[cfg(test)]` modules at the bottom of a file are left out:
// tests may reach anywhere). A path names the longest module prefix that is a file, so
// `crate::net::packet::Packet` is net/packet.rs and `crate::tcp::congestion::CcKind` is
// tcp/congestion/mod.rs. A parent module's `mod child;` declaration is not an import, and lib.rs
// (which declares every module) and bin/ (the CLI, which uses the crate from outside) are left
// out. Web: relative `import … from` and `import(…)` specifiers; type-only imports count too,
// since they couple the files all the same.

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, dirname, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');

/**
 * The core's top-level modules, from the top layer down (ARCHITECTURE.md draws the same order):
 * a module may import the modules of the layers below its own, never its own layer's or one
 * above. A new folder or top-level file of wasm-core/src goes into a layer here, and into the
 * picture.
 */
const CORE_LAYERS = [
  ['api'], // the wasm boundary
  ['runner'],
  ['scenario'],
  ['simulation'],
  ['arq', 'ctcp', 'intcp'],
  ['tcp'], // below the other transports: INTCP's rate control runs TCP's congestion controls
  ['coding'],
  ['orbit'],
  ['engine'],
  ['net'],
  ['content', 'delivery', 'rto'],
  ['csv', 'metrics', 'number_text', 'rtt', 'schema'],
  ['sim'],
];

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

function rustGraph(src) {
  const files = walk(src, ['.rs']).filter((f) => !relative(src, f).startsWith('bin/') && relative(src, f) !== 'lib.rs');
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

/** A graph with each file replaced by its group (`groupOf(file)`); imports within a group vanish. */
function grouped(graph, groupOf) {
  const out = new Map();
  for (const [f, deps] of graph) {
    const from = groupOf(f);
    if (!out.has(from)) out.set(from, new Set());
    for (const d of deps) if (groupOf(d) !== from) out.get(from).add(groupOf(d));
  }
  return out;
}

/** Each top-level folder of web/src as one node (files at the top are their own nodes): sim/ may
 * not import globe/ while globe/ imports sim/, whatever the files. */
function webFolderGraph() {
  const src = join(root, 'web/src');
  return grouped(webGraph(), (f) => join(src, relative(src, f).split('/')[0]));
}

/** The top-level module of a core file: `orbit` for orbit/route/mod.rs, `simulation` for
 * simulation.rs, `metrics` for metrics.rs and metrics/delay.rs alike. */
const coreModule = (src, f) => relative(src, f).split('/')[0].replace(/\.rs$/, '');

/** The imports of the core that do not run down CORE_LAYERS, and the modules it does not place:
 * one line each. */
function layerProblems(src, graph) {
  const layer = new Map();
  CORE_LAYERS.forEach((mods, i) => mods.forEach((m) => layer.set(m, i)));
  const problems = [];
  const unplaced = new Set();
  for (const [f, deps] of graph) {
    const from = coreModule(src, f);
    if (!layer.has(from)) {
      unplaced.add(from);
      continue;
    }
    for (const d of [...deps].sort()) {
      const to = coreModule(src, d);
      if (to === from || !layer.has(to)) continue;
      if (layer.get(to) <= layer.get(from)) {
        const where = layer.get(to) === layer.get(from) ? 'in the same layer as' : 'above';
        problems.push(`${relative(src, f)} imports ${relative(src, d)}: ${to} is ${where} ${from}`);
      }
    }
  }
  for (const m of [...unplaced].sort()) problems.push(`${m} is in no layer of CORE_LAYERS (scripts/check-imports.mjs)`);
  return problems;
}

function main(args) {
  const at = args.indexOf('--core-src');
  const coreSrc = at >= 0 ? resolve(args[at + 1]) : join(root, 'wasm-core/src');
  const flags = args.filter((a, i) => a.startsWith('--') && a !== '--core-src' && i !== at + 1);
  const which = flags.length ? flags : ['--rust', '--web'];
  const show = (f) => relative(root, f);
  let failed = false;
  const report = (name, none, some, problems) => {
    if (problems.length === 0) {
      console.log(`check-imports: ${name}: ${none}`);
      return;
    }
    failed = true;
    console.error(`check-imports: ${name}: ${problems.length} ${some}:`);
    for (const p of problems) console.error(`  - ${p}`);
  };
  const cycle = ['no import cycles', 'import cycle(s); each group imports itself back'];
  const cycleLines = (graph) => cycles(graph).map((c) => c.map(show).join(', '));
  if (which.includes('--rust')) {
    const graph = rustGraph(coreSrc);
    const name = show(coreSrc);
    report(name, ...cycle, cycleLines(graph));
    report(`${name} (modules)`, ...cycle, cycleLines(grouped(graph, (f) => join(coreSrc, coreModule(coreSrc, f)))));
    report(`${name} (layers)`, 'every import runs down CORE_LAYERS', 'import(s) against the layer order', layerProblems(coreSrc, graph));
  }
  if (which.includes('--web')) {
    report('web/src', ...cycle, cycleLines(webGraph()));
    report('web/src (folders)', ...cycle, cycleLines(webFolderGraph()));
  }
  return failed ? 1 : 0;
}

process.exit(main(process.argv.slice(2)));
