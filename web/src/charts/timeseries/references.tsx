// The reference mark: a labelled horizontal line across the plot (a paper's value, a buffer
// size).

import type { YScale } from './scales';
import { REF_DASH, type RefLine } from './types';

export function References({ refs, ys, width }: { refs: RefLine[]; ys: YScale; width: number }) {
  return (
    <>
      {refs.map((r) => (
        <g key={r.key}>
          <line className="ref-line" x1={0} x2={width} y1={ys(r.y)} y2={ys(r.y)} stroke={r.color} strokeDasharray={r.dash ?? REF_DASH} />
          <text className="ref-label" x={width - 4} y={ys(r.y) - 4} textAnchor="end" fill={r.color}>
            {r.label}
          </text>
        </g>
      ))}
    </>
  );
}
