// The queue (packets waiting for the transmitter) of a data-direction link: by default the
// bottleneck, the data-direction link with the lowest rate. Link 2i is chain link i's data
// direction, 2i + 1 its reverse.

import { useId, useMemo, useState } from 'react';
import type { LinkTraces, RunResult } from '../sim/results';
import type { Scenario } from '../scenario/types.gen';
import { ChartFrame } from './ChartFrame';
import { fmt } from './palette';
import { TimeSeriesChart, type LineSeries, type RefLine } from './timeseries/TimeSeriesChart';
import { chainLinks } from '../scenario/topology';

const QUEUE_COLOR = '#4a4a4a';
const BUFFER_COLOR = '#b3261e';

/** The data-direction link trace to show first: lowest rate; without a scenario, the fullest queue. */
export function bottleneckLink(links: LinkTraces[], scenario: Scenario | null): number | undefined {
  const data = links.filter((l) => l.id % 2 === 0);
  if (!data.length) return links[0]?.id;
  const rate = (id: number) => chainLinks(scenario)[id / 2]?.rate_mbps;
  if (scenario && data.every((l) => typeof rate(l.id) === 'number')) {
    let best = data[0];
    for (const l of data) if ((rate(l.id) as number) < (rate(best.id) as number)) best = l;
    return best.id;
  }
  let best = data[0];
  let bestPeak = -Infinity;
  for (const l of data) {
    const q = l.queue.cols.queue_pkts ?? new Float64Array(0);
    let peak = -Infinity;
    for (let i = 0; i < q.length; i++) if (q[i] > peak) peak = q[i];
    if (peak > bestPeak) {
      bestPeak = peak;
      best = l;
    }
  }
  return best.id;
}

function describeLink(id: number, scenario: Scenario | null): string {
  const spec = chainLinks(scenario)[Math.floor(id / 2)];
  const dir = id % 2 === 0 ? '' : ', reverse';
  if (!spec) return `link ${Math.floor(id / 2)}${dir}`;
  const rate = id % 2 === 1 && spec.reverse_rate_mbps ? spec.reverse_rate_mbps : spec.rate_mbps;
  return `link ${Math.floor(id / 2)}${dir} (${fmt(rate)} Mbit/s, ${fmt(spec.delay_ms)} ms)`;
}

export function QueueChart({ result, scenario, xDomain, name }: { result: RunResult; scenario: Scenario | null; xDomain: [number, number]; name: string }) {
  const links = useMemo(() => (result.traces?.links ?? []).filter((l) => l.queue.cols.queue_pkts), [result]);
  const dataLinks = links.filter((l) => l.id % 2 === 0);
  const initial = useMemo(() => bottleneckLink(links, scenario), [links, scenario]);
  const [picked, setPicked] = useState<number | undefined>(undefined);
  const linkId = picked !== undefined && links.some((l) => l.id === picked) ? picked : initial;
  const link = links.find((l) => l.id === linkId);
  const selectId = useId();

  const series = useMemo<LineSeries[]>(
    () => (link ? [{ key: `queue-${link.id}`, label: `queue of ${describeLink(link.id, scenario)}`, color: QUEUE_COLOR, x: link.queue.t, y: link.queue.cols.queue_pkts, step: true, unit: 'packets' }] : []),
    [link, scenario],
  );

  const buffer = link && link.id % 2 === 0 ? chainLinks(scenario)[link.id / 2]?.buffer_pkts : undefined;
  const refs = useMemo<RefLine[]>(() => (typeof buffer === 'number' ? [{ key: 'buffer', label: `buffer: ${buffer} packets`, y: buffer, color: BUFFER_COLOR, dash: '6 3' }] : []), [buffer]);

  const stats = useMemo(() => {
    if (!link) return null;
    const t = link.queue.t;
    const q = link.queue.cols.queue_pkts;
    let peak = -Infinity;
    let at = NaN;
    let area = 0;
    for (let i = 0; i < q.length; i++) {
      if (q[i] > peak) {
        peak = q[i];
        at = t[i];
      }
      const next = i + 1 < t.length ? t[i + 1] : xDomain[1];
      if (Number.isFinite(q[i]) && next > t[i]) area += q[i] * (next - t[i]);
    }
    const span = t.length ? Math.max(1e-12, xDomain[1] - t[0]) : 1;
    return { peak, at, mean: area / span };
  }, [link, xDomain]);

  const drops = link ? result.summary.links.find((l) => l.id === link.id)?.drops : undefined;

  const summary = link && stats ? (
    <p>
      Queue of {describeLink(link.id, scenario)}
      {link.id === initial ? ', the bottleneck' : ''}: peaks at {fmt(stats.peak)} packets at {fmt(stats.at)} s, time-averaged {fmt(stats.mean)} packets
      {typeof buffer === 'number' ? ` of a ${buffer}-packet buffer` : ''}
      {drops
        ? `; ${drops.buffer} buffer drops, ${drops.loss} random losses, ${drops.outage} outage drops, ${drops.route_change} dropped at route changes`
        : ''}.
    </p>
  ) : (
    <p>No queue trace.</p>
  );

  return (
    <ChartFrame
      testid="chart-queue"
      title="Queue length"
      exportName={`${name}-queue`}
      summary={summary}
      controls={
        dataLinks.length > 1 && (
          <label htmlFor={selectId}>
            Link
            <select id={selectId} value={linkId} onChange={(e) => setPicked(Number(e.target.value))} data-testid="queue-link">
              {dataLinks.map((l) => (
                <option key={l.id} value={l.id}>
                  {describeLink(l.id, scenario)}
                  {l.id === initial ? ' (bottleneck)' : ''}
                </option>
              ))}
            </select>
          </label>
        )
      }
    >
      {(width) => <TimeSeriesChart title="queue length" width={width} xLabel="time (s)" yLabel="queue (packets)" xDomain={xDomain} series={series} refs={refs} />}
    </ChartFrame>
  );
}
