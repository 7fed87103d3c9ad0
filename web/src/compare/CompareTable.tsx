// This run against the pinned baseline, metric by metric: both values as each run's own summary
// shows them, and the signed difference (this run − baseline), absolute and in percent.

import type { RunSummary } from '../sim/results';
import { compareSummaries, formatValue, signed } from './compare';

export function CompareTable({
  baseline,
  baselineName,
  current,
  changes,
  shared,
}: {
  baseline: RunSummary;
  baselineName: string;
  current: RunSummary;
  changes: string;
  /** Whether the flows shared links (not `flows_alone`): only then is there a fairness index. */
  shared: boolean;
}) {
  const rows = compareSummaries(baseline, current, shared);
  return (
    <div className="summary compare" data-testid="compare">
      <table>
        <caption>
          This run ({current.name}, seed {current.seed}) against the baseline ({baselineName}, seed {baseline.seed}); difference = this run − baseline
          <span className="compare-changes" data-testid="compare-changes">
            {changes ? `What changed from the baseline: ${changes}.` : 'The two runs have the same scenario.'}
          </span>
        </caption>
        <thead>
          <tr>
            <th scope="col">flow</th>
            <th scope="col">metric</th>
            <th scope="col">baseline</th>
            <th scope="col">this run</th>
            <th scope="col">difference</th>
            <th scope="col">difference (%)</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.flow}-${r.key}`} data-testid={`compare-${r.key}`} data-flow={r.flow}>
              <th scope="row">{r.flow}</th>
              <td>
                {r.metric}
                {r.unit && ` (${r.unit})`}
              </td>
              <td data-testid="compare-baseline">{formatValue(r.baseline, r.digits)}</td>
              <td data-testid="compare-current">{formatValue(r.current, r.digits)}</td>
              <td data-testid="compare-diff">{r.diff.abs === null ? '–' : signed(r.diff.abs, (x) => formatValue(x, r.digits))}</td>
              <td data-testid="compare-pct">{r.diff.pct === null ? '–' : `${signed(r.diff.pct, (x) => x.toFixed(1))}%`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
