// Every number a lesson's answer states is what the simulator produces (docs/lessons.md §5): each
// step's `checks` name a value of the run's summary, and this runs the step's scenario with the
// native CLI and compares. The steps' scenarios are built by the web app's own resolver
// (web/src/lessons/resolve.ts, transpiled with the project's `typescript`), so the scenario
// checked is the one the panel runs. Run by scripts/test.sh (node_determinism); about 10 s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = process.env.ORBITCP_CLI ?? join(process.env.CARGO_TARGET_DIR ?? join(root, 'target'), 'release', 'orbitcp');

/** Transpiles the lesson modules into node_modules/.cache and imports resolve.ts. */
async function lessonModules() {
  const out = join(root, 'node_modules', '.cache', 'orbitcp-lessons');
  mkdirSync(out, { recursive: true });
  for (const name of ['format', 'resolve']) {
    const src = readFileSync(join(root, 'web', 'src', 'lessons', `${name}.ts`), 'utf8');
    const js = ts.transpileModule(src, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
    }).outputText;
    writeFileSync(join(out, `${name}.mjs`), js.replace(/from '(\.\/[^']+)'/g, "from '$1.mjs'"));
  }
  return {
    format: await import(pathToFileURL(join(out, 'format.mjs')).href),
    resolve: await import(pathToFileURL(join(out, 'resolve.mjs')).href),
  };
}

const presets = readdirSync(join(root, 'scenarios'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ id: f.replace(/\.json$/, ''), scenario: JSON.parse(readFileSync(join(root, 'scenarios', f), 'utf8')) }));

const lessonFiles = readdirSync(join(root, 'lessons'))
  .filter((f) => f.endsWith('.json') && !f.endsWith('.schema.json'))
  .sort();

/** The value at `path` in a run's summary; a list or object counts as its number of elements. */
function valueAt(format, summary, path) {
  const parsed = format.parsePath(path);
  assert.ok(parsed.ok, `${path}: ${parsed.error}`);
  let v = summary;
  for (const t of parsed.tokens) {
    assert.ok(v !== null && typeof v === 'object', `${path}: the summary has nothing at ${t.kind === 'key' ? t.key : `[${t.index}]`}`);
    v = t.kind === 'key' ? v[t.key] : v[t.index];
  }
  if (Array.isArray(v)) return v.length;
  if (v !== null && typeof v === 'object') return Object.keys(v).length;
  assert.equal(typeof v, 'number', `${path} is ${JSON.stringify(v)}, not a number`);
  return v;
}

test('the lessons state the numbers the simulator produces', async () => {
  assert.ok(existsSync(cli), `${cli} is missing: run cargo build --release`);
  assert.ok(lessonFiles.length > 0, 'lessons/ has no lesson');
  const { format, resolve } = await lessonModules();
  const dir = mkdtempSync(join(tmpdir(), 'orbitcp-lessons-'));
  let checked = 0;
  // Every mismatch is collected, so that a change to the core that moves several numbers names
  // them all in one run.
  const wrong = [];
  for (const file of lessonFiles) {
    const lesson = JSON.parse(readFileSync(join(root, 'lessons', file), 'utf8'));
    const { resolved, errors } = resolve.resolveLesson(lesson, presets);
    assert.deepEqual(errors, [], `${file}: the steps' scenarios cannot be made`);
    for (const [i, step] of lesson.steps.entries()) {
      if (!step.checks?.length) continue;
      const path = join(dir, `${file}-${i}.json`);
      writeFileSync(path, JSON.stringify(resolved.scenarios[i]));
      const summary = JSON.parse(execFileSync(cli, ['run', '--summary', path], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }));
      for (const c of step.checks) {
        const got = valueAt(format, summary, c.result);
        if (!(Math.abs(got - c.approx) <= c.tolerance)) {
          wrong.push(`${file} step ${i + 1} ("${step.title}"): ${c.result} is ${got}, the lesson says ${c.approx} ± ${c.tolerance}`);
        }
        checked++;
      }
    }
  }
  assert.deepEqual(wrong, [], `${wrong.length} of ${checked} checked numbers differ from what the simulator produces`);
  // Every lesson states numbers; a lesson without checks would pass unverified.
  for (const file of lessonFiles) {
    const lesson = JSON.parse(readFileSync(join(root, 'lessons', file), 'utf8'));
    assert.ok(lesson.steps.some((s) => s.checks?.length), `${file} has no checked step`);
  }
  assert.ok(checked >= 30, `only ${checked} checks ran`);
});
