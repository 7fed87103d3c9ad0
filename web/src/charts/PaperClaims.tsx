// The paper's statements about a chart (a preset's `paper.claims`): listed under the chart,
// labelled "Paper:", and where a statement names a point, drawn on the chart in the paper colour
// (a point; a horizontal line when it gives only y, a vertical one when it gives only x). Marks
// are numbered as the list is, so "paper 2" on the plot is the second statement below it. A
// statement with a check is judged against the run (claimVerdict.ts): holds or does not, with
// the value measured; not while a lesson keeps the chart's numbers folded.

import { useContext } from 'react';
import type { ClaimChart, PaperClaim, Scenario } from '../scenario/types.gen';
import type { RunResult } from '../sim/results';
import { judgeClaim } from './claimVerdict';
import { FoldChartNumbersContext } from './foldNumbers';
import { fmt } from './palette';

/** A statement of the paper about one chart, with its number in that chart's list (from 1). */
export interface NumberedClaim {
  n: number;
  claim: PaperClaim;
}

/** A claim drawn on a chart, in the chart's units. */
export type ClaimMark =
  | { kind: 'point'; key: string; n: number; label: string; x: number; y: number }
  | { kind: 'hline'; key: string; n: number; label: string; y: number }
  | { kind: 'vline'; key: string; n: number; label: string; x: number };

/** The units of each chart's x and y, as the format gives them. */
export const CLAIM_UNITS: Record<ClaimChart, { x: string; y: string }> = {
  delay_cdf: { x: 'ms', y: '' },
  delay: { x: 's', y: 'ms' },
  jitter: { x: 's', y: 'ms' },
  goodput: { x: 's', y: 'Mbit/s' },
};

/** The scenario's claims about `chart`, numbered in their order. */
export function claimsFor(scenario: Scenario | null | undefined, chart: ClaimChart): NumberedClaim[] {
  // A claim about a flow the user has removed is left out, not an error.
  const flows = scenario?.flows?.length ?? 0;
  return (scenario?.paper?.claims ?? [])
    .filter((c) => c.chart === chart && (c.flow == null || c.flow < flows))
    .map((claim, i) => ({ n: i + 1, claim }));
}

const num = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

const withUnit = (v: number, unit: string) => (unit ? `${fmt(v, 4)} ${unit}` : fmt(v, 4));

/** The marks of the claims that name a point or a line; claims with neither draw nothing. */
export function claimMarks(claims: NumberedClaim[], chart: ClaimChart): ClaimMark[] {
  const u = CLAIM_UNITS[chart];
  return claims.flatMap(({ n, claim: c }): ClaimMark[] => {
    const key = `claim-${n}`;
    if (num(c.x) && num(c.y)) return [{ kind: 'point', key, n, label: `paper ${n}: ${withUnit(c.x, u.x)}, ${withUnit(c.y, u.y)}`, x: c.x, y: c.y }];
    if (num(c.y)) return [{ kind: 'hline', key, n, label: `paper ${n}: ${withUnit(c.y, u.y)}`, y: c.y }];
    if (num(c.x)) return [{ kind: 'vline', key, n, label: `paper ${n}: ${withUnit(c.x, u.x)}`, x: c.x }];
    return [];
  });
}

/** The x values the marks need in view (points and vertical lines). */
export function claimXs(marks: ClaimMark[]): number[] {
  return marks.flatMap((m) => (m.kind === 'hline' ? [] : [m.x]));
}

/** What a mark says in words, after the claim's text. */
function markWords(m: ClaimMark | undefined, chart: ClaimChart): string {
  if (!m) return '';
  const u = CLAIM_UNITS[chart];
  if (m.kind === 'point') return chart === 'delay_cdf' ? ` (marked at ${withUnit(m.y, '')} of packets ≤ ${withUnit(m.x, u.x)})` : ` (marked at ${withUnit(m.x, u.x)}, ${withUnit(m.y, u.y)})`;
  if (m.kind === 'hline') return ` (marked as a line at ${withUnit(m.y, u.y)})`;
  return ` (marked as a line at ${withUnit(m.x, u.x)})`;
}

/** The list of a chart's claims, under the chart; `note` (the preset's `paper.note`) once. */
export function PaperClaims({
  claims,
  chart,
  nameOf,
  note,
  result,
}: {
  claims: NumberedClaim[];
  chart: ClaimChart;
  nameOf: (id: number) => string;
  note?: string | null;
  /** The run to judge the claims against. */
  result?: RunResult;
}) {
  const folded = useContext(FoldChartNumbersContext);
  if (!claims.length && !note) return null;
  const marks = claimMarks(claims, chart);
  return (
    <div className="paper-claims" data-testid="paper-claims">
      {claims.length > 0 && (
        <>
          <span className="paper-claims-label">Paper:</span>
          <ol>
            {claims.map(({ n, claim }) => (
              <li key={n} data-testid="paper-claim" data-flow={claim.flow ?? undefined}>
                {claim.text}
                {num(claim.flow) ? ` [${nameOf(claim.flow)}]` : ''}
                {markWords(
                  marks.find((m) => m.n === n),
                  chart,
                )}
                {result && !folded && <ClaimVerdict claim={claim} result={result} />}
              </li>
            ))}
          </ol>
        </>
      )}
      {note && (
        <p className="paper-note" data-testid="paper-note">
          {note}
        </p>
      )}
    </div>
  );
}

function ClaimVerdict({ claim, result }: { claim: PaperClaim; result: RunResult }) {
  const verdict = judgeClaim(claim, result);
  if (!verdict) return null;
  return (
    <>
      {' '}
      <span className={verdict.holds ? 'claim-verdict claim-holds' : 'claim-verdict claim-fails'} data-testid="claim-verdict" data-holds={verdict.holds}>
        {verdict.holds ? 'Holds' : 'Does not hold'}: {verdict.words}.
      </span>
    </>
  );
}
