// One sweep-CSV writer: the browser's sweep export (the worker's wasm calls, as SimClient makes
// them) must give the bytes `orbitcp sweep` prints for the same scenario, paper column included.
// The sweep chart's statistics (`sweep_stats`) must be the numbers of `orbitcp sweep --aggregate`.
// Run by scripts/test.sh (node_determinism) after the release CLI and scripts/build-wasm.sh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { wasm } from './wasm.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli =
  process.env.ORBITCP_CLI ??
  join(process.env.CARGO_TARGET_DIR ?? join(root, 'target'), 'release', 'orbitcp');


// Two algorithms × two loss rates × two runs, a label that needs quoting, and the paper's values
// for some points: every kind of cell the writer has.
const SWEEP = {
  version: 1,
  name: 'small sweep',
  seed: 7,
  duration_s: 20,
  topology: { kind: 'chain', links: [{ rate_mbps: 10, delay_ms: 20, loss: { model: 'bernoulli', p: 0.01 } }] },
  flows: [{ transport: 'tcp', cc: 'reno', bytes: 300000 }],
  sweep: {
    grid: { 'flows[0].label': ['a, "quoted" flow'], 'flows[0].cc': ['reno', 'cubic'], 'topology.links[0].loss.p': [0.001, 0.02] },
    runs: 2,
  },
  paper: {
    source: 'a test',
    points: [
      { at: { 'flows[0].cc': 'reno', 'topology.links[0].loss.p': 0.001 }, goodput_mbps: 4.5 },
      { at: { 'flows[0].cc': 'cubic', 'topology.links[0].loss.p': 0.02 }, goodput_mbps: 1.25 },
    ],
  },
};

/** The sweep as the browser runs it: each job by index from the sweep's plan (`SweepRuns`), the
 * summaries kept. */
function browserSummaries(api, text) {
  const jobs = JSON.parse(api.sweep_jobs(text));
  const plan = new api.SweepRuns(text);
  try {
    return jobs.map((_, i) => {
      const run = plan.job(i);
      try {
        while (!run.advance(100000));
        // The summary, as parseResult keeps it: the result without its traces and path.
        const summary = JSON.parse(run.result(false));
        delete summary.traces;
        delete summary.path;
        return summary;
      } finally {
        run.free();
      }
    });
  } finally {
    plan.free();
  }
}

test("the browser's sweep CSV is the CLI's, byte for byte", async () => {
  assert.ok(existsSync(cli), `${cli} is missing: run cargo build --release`);
  const text = JSON.stringify(SWEEP);
  const file = join(mkdtempSync(join(tmpdir(), 'orbitcp-sweep-csv-')), 'sweep.json');
  writeFileSync(file, text);
  const native = execFileSync(cli, ['sweep', '--threads', '2', file], { encoding: 'utf8' });
  // The runs on the first-load core, as the browser runs a chain sweep; the CSV from the orbit
  // core, which the browser loads for the export.
  const summaries = JSON.stringify(browserSummaries(await wasm(), text));
  const api = await wasm('pkg-orbit');
  const browser = api.sweep_csv(text, summaries, false);
  assert.equal(browser, native);
  const nativeAggregate = execFileSync(cli, ['sweep', '--aggregate', '--threads', '2', file], { encoding: 'utf8' });
  assert.equal(api.sweep_csv(text, summaries, true), nativeAggregate);
  const lines = native.trimEnd().split('\n');
  assert.equal(lines.length, 1 + 2 * 2 * 2, 'a header and one row per point, run and flow');
  assert.ok(lines[0].endsWith(',fairness_jain,paper_goodput_mbps,sweep_jobs,core_version,scenario_hash'), lines[0]);
  assert.ok(lines[1].startsWith('"a, ""quoted"" flow",reno,0.001,0,0,'), lines[1]);
  // The paper's value, the sweep's size, the core's version and the scenario's hash, the same
  // on every row.
  const tail = /,(4\.5|),8,([^,]+),(fnv1a64:[0-9a-f]{16})$/;
  const first = lines[1].match(tail);
  assert.ok(first && first[1] === '4.5', lines[1]);
  assert.ok(lines[lines.length - 1].includes(',1.25,8,'), lines[lines.length - 1]);
  for (const l of lines.slice(1)) assert.ok(l.endsWith(`,8,${first[2]},${first[3]}`), l);
});

/** A CSV without quoted cells as objects keyed by the header. */
function csvRecords(text) {
  const [head, ...lines] = text.trimEnd().split('\n');
  const cols = head.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((c, i) => [cols[i], c])));
}

test("the browser's sweep statistics are the numbers of the CLI's aggregate table", async () => {
  assert.ok(existsSync(cli), `${cli} is missing: run cargo build --release`);
  // Two flows, one of them CTCP: metrics some flows do not report, so empty cells too.
  const file = join(root, 'web/src/sim/fixtures/sweep-ci.json');
  const text = readFileSync(file, 'utf8');
  const summaries = JSON.stringify(browserSummaries(await wasm(), text));
  const stats = JSON.parse((await wasm('pkg-orbit')).sweep_stats(text, summaries));
  const table = csvRecords(execFileSync(cli, ['sweep', '--aggregate', '--threads', '2', file], { encoding: 'utf8' }));
  assert.equal(stats.length, table.length, 'one entry per grid point and flow');
  const sixDecimals = (v) => (v === null ? '' : v.toFixed(6));
  let empty = 0;
  stats.forEach((s, i) => {
    const row = table[i];
    assert.equal(String(s.point[0][1]), row['topology.links[1].loss.p']);
    assert.equal(String(s.flow), row.flow);
    assert.equal(s.cc, row.cc);
    for (const m of s.metrics) {
      assert.equal(sixDecimals(m.mean), row[`${m.key}_mean`], `${m.key} mean, row ${i}`);
      assert.equal(m.runs < 2 ? '' : sixDecimals(m.std), row[`${m.key}_std`], `${m.key} std, row ${i}`);
      assert.equal(sixDecimals(m.ci95), row[`${m.key}_ci95`], `${m.key} ci95, row ${i}`);
      if (m.runs === 0) empty++;
    }
    assert.equal(s.metrics.find((m) => m.key === 'goodput_mbps').runs, Number(row.runs));
  });
  assert.ok(empty > 0, 'some metric is reported by no run of some flow');
});
