// The sweep chart's text summary: a sentence on the series and a table of each point's mean ±
// the chosen spread and the runs n, for the metric shown (with the full numbers as attributes,
// so tests can compare them with `orbitcp sweep --aggregate`).

import { shortPath, valueLabel, type PointStats, type Series, type SweepMetric } from '../sim/sweep';
import { fmt } from './palette';

/** What the error bars span: the 95 % confidence interval of the mean, or ±1 sample std. */
export type Spread = 'ci' | 'std';
export const SPREAD_NAME: Record<Spread, string> = { ci: '95 % CI', std: '1 std' };

/** The half-length of a point's bar; 0 where it is undefined (one run). */
export function spreadOf(p: { std: number; ci95: number }, spread: Spread): number {
  const v = spread === 'ci' ? p.ci95 : p.std;
  return Number.isFinite(v) ? v : 0;
}

export const capitalize = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);

interface SummaryProps {
  /** The visible series. */
  infos: { s: Series }[];
  xPath: string | undefined;
  stats: PointStats[];
  paper: unknown[];
  metric: SweepMetric;
  spread: Spread;
}

/** A table cell: mean ± spread and the runs it is over, with the full numbers as attributes. */
function StatCell({ p, spread, label }: { p: { mean: number; std: number; ci95: number; runs: number }; spread: Spread; label?: string }) {
  return (
    <td data-testid="sweep-cell" data-series={label} data-mean={p.mean} data-std={p.std} data-ci95={p.ci95} data-runs={p.runs}>
      {p.runs ? `${fmt(p.mean, 4)} ± ${fmt(spreadOf(p, spread), 2)} (n = ${p.runs})` : '–'}
    </td>
  );
}

export function SweepSummary({ infos, xPath, stats, paper, metric, spread }: SummaryProps) {
  const runs = infos[0]?.s.points[0]?.runs;
  const unit = metric.unit ? ` (${metric.unit})` : '';
  const caption = `Mean ${metric.name}${unit} ± ${SPREAD_NAME[spread]}, and the runs n it is over`;
  const inUnit = (v: number) => `${fmt(v)}${metric.unit ? ` ${metric.unit}` : ''}`;
  if (!xPath) {
    return (
      <div className="sweep-table-wrap" tabIndex={0} role="region" aria-label={`Table of mean ${metric.name} per sweep point`}>
        <table className="sweep-table" data-testid="sweep-table">
          <caption>{caption} per grid point and flow</caption>
          <thead>
            <tr>
              <th scope="col">point</th>
              <th scope="col">flow</th>
              <th scope="col">{metric.name}</th>
            </tr>
          </thead>
          <tbody>
            {stats.map((s, k) => (
              <tr key={k}>
                <th scope="row">{Object.entries(s.point).map(([p, v]) => `${shortPath(p)}=${valueLabel(v)}`).join(', ')}</th>
                <td>{s.flow}</td>
                <StatCell p={s} spread={spread} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }
  const xsAll = [...new Set(infos.flatMap((i) => i.s.points.map((p) => p.x)))].sort((a, b) => a - b);
  const best = (x: number) => {
    let b: { label: string; mean: number } | null = null;
    for (const i of infos) {
      const p = i.s.points.find((q) => q.x === x);
      if (p && Number.isFinite(p.mean) && (!b || p.mean > b.mean)) b = { label: i.s.label, mean: p.mean };
    }
    return b;
  };
  const lo = xsAll.length ? best(xsAll[0]) : null;
  const hi = xsAll.length ? best(xsAll[xsAll.length - 1]) : null;
  return (
    <>
      <p>
        {capitalize(metric.name)} against {xPath}: {infos.length} series, {xsAll.length} values of {shortPath(xPath)}
        {runs ? `, ${runs} run${runs === 1 ? '' : 's'} per point` : ''}; bars show the {spread === 'ci' ? '95 % confidence interval of the mean' : 'standard deviation'}.
        {lo && ` At ${shortPath(xPath)} = ${fmt(xsAll[0])} the highest mean is ${lo.label} (${inUnit(lo.mean)})`}
        {hi && xsAll.length > 1 && `; at ${fmt(xsAll[xsAll.length - 1])} it is ${hi.label} (${inUnit(hi.mean)})`}
        {lo ? '.' : ''}
        {paper.length > 0 && ` ${paper.length} paper value${paper.length === 1 ? '' : 's'} shown as hollow diamonds.`}
      </p>
      <div className="sweep-table-wrap" tabIndex={0} role="region" aria-label={`Table of mean ${metric.name} per sweep point`}>
        <table className="sweep-table" data-testid="sweep-table">
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">{shortPath(xPath)}</th>
              {infos.map((i) => (
                <th scope="col" key={i.s.label}>
                  {i.s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {xsAll.map((x) => (
              <tr key={x} data-x={x}>
                <th scope="row">{fmt(x, 4)}</th>
                {infos.map((i) => {
                  const p = i.s.points.find((q) => q.x === x);
                  return p ? <StatCell key={i.s.label} p={p} spread={spread} label={i.s.label} /> : <td key={i.s.label}>–</td>;
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
