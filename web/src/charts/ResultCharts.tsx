// The charts of one run, in a grid: for INTCP flows the hop view first (it spans the grid),
// then congestion window, acknowledged data and retransmissions, goodput, for a constellation the
// path (its propagation delay and hops per routing step), delay, the delay CDF, jitter, the bottleneck's queue, for
// several flows the per-flow goodput and Jain's index, and for CTCP flows the network coding
// (decoder rank, loss estimate) and where the bottleneck's capacity went. With a pinned
// baseline, the window, goodput and delay charts draw its lines dashed on the same scales.

import { memo, useMemo } from 'react';
import type { RunResult } from '../sim/results';
import type { Scenario } from '../scenario/types.gen';
import { CapacityChart } from './CapacityChart';
import { CodingChart } from './CodingChart';
import { CwndChart } from './CwndChart';
import { DelayCdfChart } from './DelayCdfChart';
import { DelayChart } from './DelayChart';
import { FairnessChart } from './FairnessChart';
import { GoodputChart } from './GoodputChart';
import { HopView } from './HopView';
import { JitterChart } from './JitterChart';
import { PathChart } from './PathChart';
import { QueueChart } from './QueueChart';
import { SequenceChart, sequenceFlows } from './SequenceChart';
import { fileBase } from './exportChart';
import type { BaselineRun } from './baselineRun';
import './charts.css';

/** The time span every time-series chart starts with: 0 to the end of the run (or the last point). */
function timeDomain(result: RunResult): [number, number] {
  let end = result.summary.end_s;
  if (!(end > 0) && result.traces) {
    for (const f of result.traces.flows) for (const c of [f.sender.t, f.owd.t, f.goodput.t]) if (c.length) end = Math.max(end || 0, c[c.length - 1]);
  }
  return [0, end > 0 ? end : 1];
}

export type { BaselineRun } from './baselineRun';

/** A chart's id, as the lessons and the embedded page name it (lessons/format.ts VIEWS). */
export type ChartId = 'cwnd' | 'sequence' | 'goodput' | 'delay' | 'delay_cdf' | 'jitter' | 'queue' | 'fairness' | 'coding' | 'capacity' | 'hops' | 'path';

/** `only` shows that one chart (an embedded page); nothing when this result has no such chart.
 * Memoised: the page redraws twice a second while a run goes (its progress), and a long run's
 * charts so far (the LEO preset's hop view alone is 24 000 elements) took 20-30 ms of the page's
 * thread each time although nothing they show had changed. */
export const ResultCharts = memo(function ResultCharts({
  result,
  scenario,
  baseline = null,
  only,
}: {
  result: RunResult;
  scenario: Scenario | null;
  baseline?: BaselineRun | null;
  only?: ChartId;
}) {
  // With a baseline the time axis covers both runs, so neither is cut short.
  const xDomain = useMemo((): [number, number] => {
    const own = timeDomain(result);
    return baseline ? [0, Math.max(own[1], timeDomain(baseline.result)[1])] : own;
  }, [result, baseline]);
  const name = fileBase(result.summary.name || scenario?.name || 'orbitcp');
  const multi = result.summary.flows.length > 1;
  // Fairness is about flows that shared a link; flows run alone shared none.
  const shared = multi && !scenario?.flows_alone;
  const coding = result.summary.flows.some((f) => f.coding);
  const show = (id: ChartId) => only === undefined || only === id;
  if (!result.traces) {
    return (
      <div className="charts-grid" data-testid="charts">
        {shared && show('fairness') && <FairnessChart summary={result.summary} scenario={scenario} name={name} />}
        {coding && show('capacity') && <CapacityChart summary={result.summary} name={name} />}
        {show('path') && result.path && <PathChart result={result} xDomain={xDomain} name={name} />}
        <p className="chart-note">This result carries no traces, so there are no time-series charts.</p>
      </div>
    );
  }
  const traces = result.traces;
  return (
    <div className="charts-grid" data-testid="charts">
      {show('hops') && traces.flows.some((f) => f.hops?.length) && <HopView result={result} scenario={scenario} xDomain={xDomain} name={name} />}
      {show('cwnd') && traces.flows.some((f) => f.sender.cols.cwnd) && <CwndChart result={result} scenario={scenario} xDomain={xDomain} name={name} baseline={baseline} />}
      {show('sequence') && sequenceFlows(result).length > 0 && <SequenceChart result={result} xDomain={xDomain} name={name} />}
      {show('coding') && coding && <CodingChart result={result} scenario={scenario} xDomain={xDomain} name={name} />}
      {show('capacity') && coding && <CapacityChart summary={result.summary} name={name} />}
      {show('goodput') && <GoodputChart result={result} scenario={scenario} xDomain={xDomain} name={name} baseline={baseline} />}
      {show('path') && result.path && <PathChart result={result} xDomain={xDomain} name={name} />}
      {show('delay') && <DelayChart result={result} scenario={scenario} xDomain={xDomain} name={name} baseline={baseline} />}
      {show('queue') && <QueueChart result={result} scenario={scenario} xDomain={xDomain} name={name} />}
      {show('delay_cdf') && <DelayCdfChart result={result} scenario={scenario} name={name} />}
      {show('jitter') && <JitterChart result={result} scenario={scenario} xDomain={xDomain} name={name} />}
      {show('fairness') && shared && <FairnessChart summary={result.summary} scenario={scenario} name={name} />}
    </div>
  );
});
