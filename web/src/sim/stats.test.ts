import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ci95HalfWidth, meanStd, studentT975 } from './stats';
import { aggregate, reportedMetrics, SWEEP_METRICS } from './sweep';
import type { SweepRow } from './client';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

/** A CSV without quoted cells (the fixtures have none) as objects keyed by the header. */
function parseCsv(text: string): Record<string, string>[] {
  const [head, ...lines] = text.trim().split('\n');
  const cols = head.split(',');
  return lines.map((l) => {
    const cells = l.split(',');
    expect(cells).toHaveLength(cols.length);
    return Object.fromEntries(cols.map((c, i) => [c, cells[i]]));
  });
}

describe('Student t quantile', () => {
  it('matches the tables', () => {
    for (const [df, t] of [
      [1, 12.706],
      [2, 4.303],
      [4, 2.776],
      [9, 2.262],
      [29, 2.045],
      [1000, 1.962],
    ]) {
      expect(studentT975(df)).toBeCloseTo(t, 3);
    }
    // The six-decimal values the core's test uses (wasm-core/src/metrics.rs).
    expect(Math.abs(studentT975(1) - 12.706205)).toBeLessThan(5e-6);
    expect(Math.abs(studentT975(3) - 3.182446)).toBeLessThan(5e-6);
    expect(Math.abs(studentT975(1000) - 1.962339)).toBeLessThan(5e-6);
  });

  it('falls towards the normal quantile as the degrees of freedom grow', () => {
    for (let df = 1; df < 60; df++) expect(studentT975(df + 1)).toBeLessThan(studentT975(df));
    expect(studentT975(100_000)).toBeCloseTo(1.959964, 4);
  });
});

describe('confidence half-width', () => {
  it('is t times s over root n, and undefined below two values', () => {
    expect(ci95HalfWidth([1, 2, 3, 4])).toBeCloseTo((studentT975(3) * Math.sqrt(5 / 3)) / 2, 12);
    expect(ci95HalfWidth([7])).toBeNaN();
    expect(ci95HalfWidth([2, 2, 2])).toBe(0);
    expect(meanStd([2, 4, 4, 4, 5, 5, 7, 9]).mean).toBe(5);
  });
});

describe("the browser's sweep statistics against the core's aggregate table", () => {
  const rows = JSON.parse(fixture('sweep-ci.rows.json')) as SweepRow[];
  const raw = parseCsv(fixture('sweep-ci.raw.csv'));
  const agg = parseCsv(fixture('sweep-ci.aggregate.csv'));
  const xPath = 'topology.links[1].loss.p';

  it('has the runs of the sweep the tables were written from', () => {
    // Every metric of every raw row is the same number in the job's summary.
    expect(raw).toHaveLength(rows.reduce((a, r) => a + r.summary.flows.length, 0));
    for (const cells of raw) {
      const r = rows[Number(cells.job)];
      expect(r.job.seed).toBe(cells.seed);
      const f = r.summary.flows.find((x) => x.id === Number(cells.flow))!;
      for (const m of SWEEP_METRICS) {
        const v = m.get(f, r.summary);
        expect(cells[m.key], `${m.key} of job ${cells.job}`).toBe(v === undefined ? '' : String(v));
      }
    }
  });

  it('gives every mean, deviation and 95 % half-width the core prints', () => {
    // The aggregate prints six decimals, so the browser's numbers must round to its cells.
    const close = (got: number, cell: string, what: string) => {
      if (cell === '') expect(Number.isFinite(got), `${what}: the core leaves it empty`).toBe(false);
      else expect(Math.abs(got - Number(cell)), `${what}: ${got} against ${cell}`).toBeLessThanOrEqual(5e-7 * (1 + 1e-9) + Math.abs(got) * 1e-15);
    };
    let checked = 0;
    for (const m of SWEEP_METRICS) {
      const stats = aggregate(rows, m);
      expect(stats).toHaveLength(agg.length);
      stats.forEach((s, i) => {
        const cells = agg[i];
        expect(s.point[xPath]).toBe(Number(cells[xPath]));
        expect(s.flow).toBe(Number(cells.flow));
        const what = `${m.key} at ${cells[xPath]}, flow ${cells.flow}`;
        close(s.runs > 0 ? s.mean : NaN, cells[`${m.key}_mean`], `${what} mean`);
        close(s.runs > 1 ? s.std : NaN, cells[`${m.key}_std`], `${what} std`);
        close(s.ci95, cells[`${m.key}_ci95`], `${what} ci95`);
        if (cells[`${m.key}_ci95`] !== '') checked++;
      });
    }
    // Most of the 13 metrics × 4 rows have an interval (a Reno completion time with one run does not).
    expect(checked).toBeGreaterThan(40);
  });

  it('offers only the metrics some flow reports', () => {
    const keys = reportedMetrics(rows).map((m) => m.key);
    expect(keys).toContain('coding_overhead');
    expect(keys).toContain('owd_arrival_ms_mean');
    const tcpOnly = rows.map((r) => ({ ...r, summary: { ...r.summary, flows: r.summary.flows.filter((f) => f.transport === 'tcp') } }));
    expect(reportedMetrics(tcpOnly).map((m) => m.key)).not.toContain('coding_overhead');
    const ctcpOnly = rows.map((r) => ({ ...r, summary: { ...r.summary, flows: r.summary.flows.filter((f) => f.transport === 'ctcp') } }));
    expect(reportedMetrics(ctcpOnly).map((m) => m.key)).not.toContain('owd_arrival_ms_mean');
  });
});
