// A paper's statement judged against a run: a claim with a `check` (the scenario format's
// `paper.claims[].check`) is measured on the run's result and holds or does not, with the value
// measured; one without a check, or whose run lacks what it measures, stays unjudged.

import type { ClaimCheck, PaperClaim } from '../scenario/types.gen';
import type { Columns, FlowTraces, RunResult } from '../sim/results';
import { fmt } from './palette';

export interface Verdict {
  holds: boolean;
  measured: number;
  /** "measured 113 ms; the statement needs at most 100 ms". */
  words: string;
}

/** The value `q` of the way through evenly spaced quantiles (the core's `cdf`: element i is
 * quantile i / (n − 1)). */
function quantile(cdf: Float64Array, q: number): number {
  if (cdf.length === 0) return NaN;
  return cdf[Math.round(q * (cdf.length - 1))];
}

/** The value of a binned series at time `t`: the bin that holds it. */
function binAt(c: Columns, name: string, t: number): number {
  const y = c.cols[name];
  if (!y || c.t.length === 0) return NaN;
  let i = 0;
  while (i + 1 < c.t.length && c.t[i + 1] <= t) i++;
  return c.t[i] <= t ? y[i] : NaN;
}

/** The mean of the numbers present (a routing step without a route has none). */
function meanOf(values: readonly (number | null)[]): number {
  const present = values.filter((v): v is number => v !== null && Number.isFinite(v));
  return present.length ? present.reduce((a, b) => a + b, 0) / present.length : NaN;
}

const UNITS: Record<ClaimCheck['measure'], string> = {
  owd_quantile_ms: 'ms',
  owd_mean_over_propagation: '×',
  jitter_share_below: '',
  goodput_over_tcp: '×',
  goodput_at_mbps: 'Mbit/s',
};

function withUnit(v: number, unit: string): string {
  if (unit === '×') return `${fmt(v, 3)}×`;
  if (unit === '') return `${fmt(v * 100, 3)} %`;
  return `${fmt(v, 4)} ${unit}`;
}

/** What the check measures in `result`, NaN when the run does not have it. */
export function measure(check: ClaimCheck, flow: number | null | undefined, result: RunResult): number {
  const flows = result.summary.flows;
  const summary = flow == null ? undefined : flows.find((f) => f.id === flow);
  const traces: FlowTraces | undefined = flow == null ? undefined : result.traces?.flows.find((f) => f.id === flow);
  switch (check.measure) {
    case 'owd_quantile_ms': {
      const cdf = check.at_arrival ? traces?.owdArrivalCdfMs : traces?.owdCdfMs;
      return cdf ? quantile(cdf, check.q ?? NaN) : NaN;
    }
    case 'owd_mean_over_propagation': {
      const cdf = check.at_arrival ? traces?.owdArrivalCdfMs : traces?.owdCdfMs;
      const mean = (check.at_arrival ? summary?.owd_arrival_ms : summary?.owd_ms)?.mean;
      const propagation = result.path ? meanOf(result.path.steps.owd_ms) : cdf && cdf.length > 0 ? cdf[0] : NaN;
      return mean !== undefined && propagation > 0 ? mean / propagation : NaN;
    }
    case 'jitter_share_below': {
      const jitter = check.at_arrival ? traces?.jitterArrival : traces?.jitter;
      const values = jitter?.cols.jitter_ms?.filter((v) => Number.isFinite(v));
      return values && values.length > 0 ? values.filter((v) => v < (check.threshold_ms ?? NaN)).length / values.length : NaN;
    }
    case 'goodput_over_tcp': {
      const others = flows.filter((f) => f.id !== flow && f.transport === 'tcp').map((f) => f.goodput_mbps);
      return summary && others.length > 0 ? summary.goodput_mbps / Math.max(...others) : NaN;
    }
    case 'goodput_at_mbps': {
      const at = check.at_s ?? NaN;
      const all = result.traces?.flows ?? [];
      const which = flow == null ? all : all.filter((f) => f.id === flow);
      return which.length > 0 ? which.reduce((sum, f) => sum + binAt(f.goodput, 'mbps', at), 0) : NaN;
    }
  }
}

/** The claim judged against the run; null when it has no check or the run lacks what it needs. */
export function judgeClaim(claim: PaperClaim, result: RunResult): Verdict | null {
  const check = claim.check;
  if (!check) return null;
  const measured = measure(check, claim.flow, result);
  if (!Number.isFinite(measured)) return null;
  const unit = UNITS[check.measure];
  const said = (v: number) => withUnit(v, unit);
  let holds: boolean;
  let needs: string;
  if (check.at_most != null) {
    holds = measured <= check.at_most;
    needs = `at most ${said(check.at_most)}`;
  } else if (check.at_least != null) {
    holds = measured >= check.at_least;
    needs = `at least ${said(check.at_least)}`;
  } else {
    const about = check.about ?? NaN;
    const tolerance = check.tolerance ?? 0;
    holds = Math.abs(measured - about) <= tolerance * Math.abs(about);
    needs = `${said(about)} ± ${fmt(tolerance * 100, 3)} %`;
  }
  return { holds, measured, words: `measured ${said(measured)}; the statement needs ${needs}` };
}
