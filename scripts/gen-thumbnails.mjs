// Generates web/src/landing/thumbnails.gen.json: for every preset in scenarios/, the chart its
// landing card shows in miniature, from a real run of the CLI. A preset with a sweep is what the
// card's one click runs, the sweep (`orbitcp sweep --aggregate`: mean goodput against the swept
// value, one line per series, or one bar per grid point when nothing swept is a number); any
// other preset is a run (`orbitcp run`: each flow's goodput over time). Each entry keeps a hash
// of the preset file's text, so a preset edited since is caught without running anything.
//
// Usage: node scripts/gen-thumbnails.mjs [--check] [--force] [ID...]
//   (no flag)  generates the presets whose entry is missing or stale (or the IDs given)
//   --force    regenerates every preset (or the IDs given) whatever their hash
//   --check    fails if a preset has no entry or its hash differs; runs nothing, so it is fast
// The long presets (10-minute LEO runs, sweeps of a thousand runs and more) take a minute or
// two each; their entries are written as each finishes, so an interrupted run keeps its work.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = 'web/src/landing/thumbnails.gen.json';
/** Points per time series after downsampling: enough for the shape at a card's size. */
const TIME_POINTS = 40;
/** More sweep series than this: the other numeric swept paths are fixed to their first value,
 * as the sweep chart does before the user picks. */
const MAX_SERIES = 8;

/** The preset's hash, as the check compares it: sha256 of the file's text. */
export function presetHash(text) {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** Three significant digits: the thumbnail is a shape, and the file stays small. */
function round(v) {
  return v === 0 || !Number.isFinite(v) ? 0 : Number(v.toPrecision(3));
}

/** Means of `n` equal bins of x (time), keeping the shape of a long trace in few points. */
export function downsample(t, y, n = TIME_POINTS) {
  if (t.length <= n) return t.map((x, i) => [round(x), round(y[i])]);
  const out = [];
  for (let b = 0; b < n; b++) {
    const lo = Math.floor((b * t.length) / n);
    const hi = Math.floor(((b + 1) * t.length) / n);
    let sx = 0;
    let sy = 0;
    for (let i = lo; i < hi; i++) {
      sx += t[i];
      sy += y[i];
    }
    out.push([round(sx / (hi - lo)), round(sy / (hi - lo))]);
  }
  return out;
}

/** RFC 4180 CSV (the CLI quotes JSON values of swept objects). */
export function parseCsv(text) {
  const rows = [];
  let row = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else if (c !== '\r') cell += c;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** A run's thumbnail: each flow's goodput over time. */
export function runThumbnail(result) {
  const flows = result.traces?.flows ?? [];
  return {
    kind: 'time',
    x: 'time (s)',
    y: 'goodput (Mbit/s)',
    series: flows.map((f) => ({ label: `flow ${f.id}`, points: downsample(f.goodput.t, f.goodput.mbps) })),
  };
}

/** The label of a swept value in a series name: a path's last part, an object's transport and cc. */
function valueLabel(path, v) {
  if (v.startsWith('{') || v.startsWith('[')) {
    try {
      const o = JSON.parse(v);
      const one = (x) => x.label ?? [x.transport, x.cc ?? x.variant].filter(Boolean).join(' ');
      return Array.isArray(o) ? `${o.length} flows` : one(o);
    } catch {
      return v;
    }
  }
  return `${path.replace(/^.*[.\]]/, '')}=${v}`;
}

/** A sweep's thumbnail from `orbitcp sweep --aggregate`: mean goodput against the swept number
 * (a loss probability first, as the sweep chart picks), or one bar per grid point and flow. */
export function sweepThumbnail(csv) {
  const [head, ...body] = parseCsv(csv.trim());
  const flowAt = head.indexOf('flow');
  const meanAt = head.indexOf('goodput_mbps_mean');
  if (flowAt < 0 || meanAt < 0) throw new Error('sweep CSV without flow or goodput_mbps_mean');
  const paths = head.slice(0, flowAt);
  const numeric = paths.filter((_, i) => body.every((r) => r[i] !== '' && Number.isFinite(Number(r[i]))));
  const xPath = numeric.find((p) => p.endsWith('loss.p')) ?? numeric[0];
  const multiFlow = new Set(body.map((r) => r[flowAt])).size > 1;
  if (xPath === undefined) {
    return {
      kind: 'bars',
      x: paths.join(', '),
      y: 'mean goodput (Mbit/s)',
      series: [
        {
          label: 'grid points',
          points: body.map((r, i) => [i, round(Number(r[meanAt]))]),
          names: body.map((r) => [...paths.map((p, j) => valueLabel(p, r[j])), ...(multiFlow ? [`flow ${r[flowAt]}`] : [])].join(', ')),
        },
      ],
    };
  }
  const xi = paths.indexOf(xPath);
  const key = (r, fixed) =>
    [...paths.map((p, j) => (j === xi || (fixed && numeric.includes(p)) ? null : valueLabel(p, r[j]))).filter((s) => s !== null), ...(multiFlow ? [`flow ${r[flowAt]}`] : [])].join(', ') ||
    'goodput';
  const group = (rows, fixed) => {
    const m = new Map();
    for (const r of rows) {
      const k = key(r, fixed);
      if (!m.has(k)) m.set(k, []);
      m.get(k).push([Number(r[xi]), round(Number(r[meanAt]))]);
    }
    return [...m].map(([label, points]) => ({ label, points: points.sort((a, b) => a[0] - b[0]) }));
  };
  let series = group(body, false);
  if (series.length > MAX_SERIES) {
    // Fix every other numeric path to its first value (the grid's first row has them).
    const firsts = numeric.filter((p) => p !== xPath).map((p) => [paths.indexOf(p), body[0][paths.indexOf(p)]]);
    series = group(body.filter((r) => firsts.every(([j, v]) => r[j] === v)), true);
    const fixedNote = firsts.map(([j, v]) => valueLabel(paths[j], v)).join(', ');
    return { kind: 'sweep', x: xPath, y: 'mean goodput (Mbit/s)', fixed: fixedNote, series };
  }
  return { kind: 'sweep', x: xPath, y: 'mean goodput (Mbit/s)', series };
}

function presets() {
  return readdirSync(join(root, 'scenarios'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const text = readFileSync(join(root, 'scenarios', f), 'utf8');
      return { id: f.replace(/\.json$/, ''), file: join(root, 'scenarios', f), text, hash: presetHash(text), sweep: !!JSON.parse(text).sweep };
    });
}

function load() {
  const out = join(root, OUT);
  return existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : {};
}

function save(all) {
  // One preset a line: small, and a regenerated preset is a one-line diff.
  const lines = Object.keys(all)
    .sort()
    .map((k) => `  ${JSON.stringify(k)}: ${JSON.stringify(all[k])}`);
  writeFileSync(join(root, OUT), `{\n${lines.join(',\n')}\n}\n`);
}

function main() {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const force = args.includes('--force');
  const ids = args.filter((a) => !a.startsWith('--'));
  const all = load();
  const list = presets();
  if (check) {
    let bad = 0;
    for (const p of list) {
      const t = all[p.id];
      if (!t) {
        console.error(`gen-thumbnails: ${p.id} has no thumbnail; run node scripts/gen-thumbnails.mjs`);
        bad++;
      } else if (t.hash !== p.hash) {
        console.error(`gen-thumbnails: ${p.id} changed since its thumbnail; run node scripts/gen-thumbnails.mjs ${p.id}`);
        bad++;
      }
    }
    for (const id of Object.keys(all)) {
      if (!list.some((p) => p.id === id)) {
        console.error(`gen-thumbnails: ${id} has a thumbnail but no preset; run node scripts/gen-thumbnails.mjs`);
        bad++;
      }
    }
    if (bad > 0) process.exit(1);
    console.log(`gen-thumbnails: ${OUT} is up to date (${list.length} presets)`);
    return;
  }
  const cli = process.env.ORBITCP_CLI ?? join(process.env.CARGO_TARGET_DIR ?? join(root, 'target'), 'release', 'orbitcp');
  if (!existsSync(cli)) {
    console.error(`gen-thumbnails: ${cli} is missing; run cargo build --release first (or set ORBITCP_CLI)`);
    process.exit(1);
  }
  for (const id of ids) if (!list.some((p) => p.id === id)) throw new Error(`gen-thumbnails: no preset ${id}`);
  for (const id of Object.keys(all)) if (!list.some((p) => p.id === id)) delete all[id];
  for (const p of list) {
    // Named presets are regenerated whatever their hash; otherwise only missing or stale ones.
    const wanted = ids.length ? ids.includes(p.id) : force || all[p.id]?.hash !== p.hash;
    if (!wanted) continue;
    const t0 = Date.now();
    const opts = { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'inherit'] };
    const thumb = p.sweep ? sweepThumbnail(execFileSync(cli, ['sweep', '--aggregate', p.file], opts)) : runThumbnail(JSON.parse(execFileSync(cli, ['run', p.file], opts)));
    all[p.id] = { hash: p.hash, ...thumb };
    save(all);
    console.log(`gen-thumbnails: ${p.id} (${p.sweep ? 'sweep' : 'run'}) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  save(all);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
