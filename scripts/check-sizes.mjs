#!/usr/bin/env node
// File sizes: a source file of wasm-core/src or web/src over 600 lines is usually several
// concepts in one file, and should be split into files named after them (ARCHITECTURE.md).
//
// Usage: node scripts/check-sizes.mjs   Exit 1 when a file is over the limit.
//
// What counts: the lines of a .rs, .ts or .tsx file, less a Rust file's `#[cfg(test)] mod tests`
// block (unit tests sit at the bottom of the file they test, and may be long). Not counted at
// all: `*.test.ts(x)` files, generated `*.gen.ts` files and the wasm-pack output (web/src/wasm/pkg, pkg-orbit).
// A file that is long for a reason says so in a comment starting `size:` within its first 10
// lines (`// size: one state machine, its steps share every field`); the reason is then printed.

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, dirname, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const LIMIT = 600;

// Files allowed over the limit while another branch splits them; empty since web-split landed.
// An entry names the file and the branch ("being split on branch NAME"), and goes at its merge.
const BEING_SPLIT = new Set([]);

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (!['web/src/wasm/pkg', 'web/src/wasm/pkg-orbit'].includes(relative(root, p))) out.push(...walk(p));
    } else if (/\.(rs|ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.gen.ts')) {
      out.push(p);
    }
  }
  return out;
}

/**
 * The lines of a Rust file outside its `#[cfg(test)] mod tests { ... }` block. The block is
 * found by its opening line and closed at the first line that is a lone `}` at the same indent,
 * which is how rustfmt writes it.
 */
export function countedLines(text, isRust) {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (!isRust) return lines.length;
  let counted = 0;
  for (let i = 0; i < lines.length; i++) {
    const attr = lines[i].match(/^(\s*)#\[cfg\(test\)\]\s*$/);
    const next = lines[i + 1] ?? '';
    if (attr && new RegExp(`^${attr[1]}(pub(\\([^)]*\\))? )?mod tests \\{`).test(next)) {
      let j = i + 2;
      while (j < lines.length && lines[j] !== `${attr[1]}}`) j++;
      i = j;
      continue;
    }
    counted++;
  }
  return counted;
}

/** The reason a file gives for its size: a comment starting `size:` in its first 10 lines. */
export function sizeReason(text) {
  for (const line of text.split('\n').slice(0, 10)) {
    const m = line.match(/^\s*(?:\/\/[/!]?|\/\*+|\*)\s*size:\s*(.+)$/);
    if (m) return m[1].trim();
  }
  return null;
}

function main() {
  const files = [...walk(join(root, 'wasm-core/src')), ...walk(join(root, 'web/src'))];
  const over = [];
  for (const file of files.sort()) {
    const rel = relative(root, file);
    const text = readFileSync(file, 'utf8');
    const n = countedLines(text, file.endsWith('.rs'));
    if (n <= LIMIT) continue;
    const reason = sizeReason(text);
    if (reason) console.log(`check-sizes: ${rel}: ${n} lines (size: ${reason})`);
    else if (BEING_SPLIT.has(rel)) console.log(`check-sizes: ${rel}: ${n} lines (being split on another branch)`);
    else over.push(`  - ${rel}: ${n} lines`);
  }
  if (over.length > 0) {
    console.error(
      `check-sizes: ${over.length} file(s) over ${LIMIT} lines (tests and generated files not counted):\n` +
        `${over.join('\n')}\n` +
        'Split each into files named after the concepts it holds, or say why it is long in a ' +
        '`size:` comment within its first 10 lines.',
    );
    process.exit(1);
  }
  console.log(`check-sizes: ${files.length} files, none over ${LIMIT} lines without a stated reason`);
}

if (resolve(process.argv[1] ?? '') === resolve(new URL(import.meta.url).pathname)) main();
