// The Beijing-New York tables of scenarios/README.md from a run of a LEO preset: each flow's
// goodput, one-way delay percentiles in order (p5 / p80 / p95, from the result's delay CDF) and
// at first arrival (p80), and the share of seconds whose jitter (the change of per-second mean
// delay, as the INTCP paper defines it) is under 100 ms, in order and at arrival.
//
// Usage: orbitcp run --threads 1 scenarios/leo-beijing-newyork-1600.json > run.json
//        node scripts/leo-table.mjs run.json

import { readFileSync } from 'node:fs';

const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/leo-table.mjs RUN.json (the output of orbitcp run, with traces)');
  process.exit(2);
}
const run = JSON.parse(readFileSync(file, 'utf8'));
const flows = run.summary?.flows ?? run.flows;
const traces = run.traces?.flows ?? [];

/** The value at quantile q of a CDF given as evenly spaced quantiles (`owd_cdf_ms`). */
const quantile = (cdf, q) => (cdf && cdf.length ? cdf[Math.round(q * (cdf.length - 1))] : NaN);
const ms = (v) => (Number.isFinite(v) ? v.toFixed(1) : '-');
const share = (cols) => {
  const j = cols?.jitter_ms ?? [];
  return j.length ? `${Math.round((100 * j.filter((x) => x < 100).length) / j.length)} %` : '-';
};

console.log('| flow | goodput Mbit/s | in order p5 / p80 / p95 | arrival p80 | jitter < 100 ms in order | at arrival |');
console.log('|---|---|---|---|---|---|');
for (const f of flows) {
  const t = traces.find((x) => x.id === f.id) ?? {};
  const name = f.label ?? f.cc;
  const inOrder = [0.05, 0.8, 0.95].map((q) => ms(quantile(t.owd_cdf_ms, q))).join(' / ');
  console.log(`| ${name} | ${f.goodput_mbps.toFixed(2)} | ${inOrder} | ${ms(quantile(t.owd_arrival_cdf_ms, 0.8))} | ${share(t.jitter)} | ${share(t.jitter_arrival)} |`);
}
