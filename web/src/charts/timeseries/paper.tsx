// The paper mark: the paper's statements on the plot (PaperClaims' claimMarks) in the paper
// colour: a diamond with its number for a point, a labelled line for a value or an instant.

import type { ScaleLinear } from 'd3-scale';
import { PAPER_COLOR } from '../palette';
import type { ClaimMark } from '../PaperClaims';
import type { YScale } from './scales';

export const PAPER_DASH = '4 3';

/** The y values the paper's marks need in view. */
export function paperHeights(paper: ClaimMark[]): number[] {
  const out: number[] = [];
  for (const p of paper) if (p.kind !== 'vline') out.push(p.y);
  return out;
}

/** A claim of the paper on the plot: a diamond with its number, or a labelled line. */
export function PaperMark({ mark: m, xs, ys, innerW, plotH }: { mark: ClaimMark; xs: ScaleLinear<number, number>; ys: YScale; innerW: number; plotH: number }) {
  const common = { 'data-testid': 'paper-claim-mark', 'data-kind': m.kind, 'data-n': m.n, 'data-x': m.kind === 'hline' ? undefined : m.x, 'data-y': m.kind === 'vline' ? undefined : m.y };
  if (m.kind === 'hline') {
    const y = ys(m.y);
    return (
      <g {...common}>
        <line className="ref-line" x1={0} x2={innerW} y1={y} y2={y} stroke={PAPER_COLOR} strokeDasharray={PAPER_DASH} />
        <text className="ref-label" x={4} y={y - 4} fill={PAPER_COLOR}>
          {m.label}
        </text>
      </g>
    );
  }
  if (m.kind === 'vline') {
    const x = xs(m.x);
    return (
      <g {...common}>
        <line className="ref-line" x1={x} x2={x} y1={0} y2={plotH} stroke={PAPER_COLOR} strokeDasharray={PAPER_DASH} />
        <text className="ref-label" x={x + 4} y={12} fill={PAPER_COLOR}>
          {m.label}
        </text>
      </g>
    );
  }
  const x = xs(m.x);
  const y = ys(m.y);
  const r = 6;
  // The label goes left of a point in the right third, so it stays inside the plot.
  const left = x > (innerW * 2) / 3;
  return (
    <g {...common}>
      <path d={`M${x},${y - r}l${r},${r}l${-r},${r}l${-r},${-r}Z`} style={{ fill: 'var(--chart-bg)' }} stroke={PAPER_COLOR} strokeWidth={2} />
      <text className="ref-label" x={left ? x - r - 3 : x + r + 3} y={y + 4} textAnchor={left ? 'end' : 'start'} fill={PAPER_COLOR}>
        {m.label}
      </text>
    </g>
  );
}
