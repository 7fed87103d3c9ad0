// The run's numbers as a table: the text summary of every chart, and the paper's values beside
// the simulated ones where the preset carries them.

import { Fold } from './Fold';
import type { RunSummary } from './sim/results';
import type { Scenario } from './scenario/types.gen';
import { CAPACITY_LABELS, capacityShares, roundedPercents } from './charts/capacity';

/** A hop table with at most this many rows is shown open. */
const OPEN_HOP_ROWS = 12;

const fmt = (x: number | null | undefined, digits = 3) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(digits));

export function SummaryTable({ summary, scenario }: { summary: RunSummary; scenario: Scenario | null }) {
  const paper = scenario?.paper;
  const paperGoodput = paper?.goodput_mbps ?? [];
  return (
    <div className="summary" data-testid="summary">
      <table>
        <caption>
          {summary.name}: per-flow results (seed {summary.seed}, {summary.events.toLocaleString('en')} events, {fmt(summary.end_s, 1)} s simulated)
        </caption>
        <thead>
          <tr>
            <th scope="col">flow</th>
            <th scope="col">transport</th>
            <th scope="col">delivered (bytes)</th>
            <th scope="col">completion (s)</th>
            <th scope="col">goodput (Mbit/s)</th>
            {paperGoodput.length > 0 && <th scope="col">paper (Mbit/s)</th>}
            <th scope="col">retransmissions</th>
            <th scope="col" title="Data packets sent, and per delivered packet: retransmitted and spurious (arrived twice; CTCP: non-innovative)">
              on the wire: sent (rtx / spurious per delivered)
            </th>
            <th scope="col">timeouts</th>
            <th scope="col">one-way delay mean / p5 / p95 (ms)</th>
            <th scope="col">jitter (ms)</th>
          </tr>
        </thead>
        <tbody>
          {summary.flows.map((f) => (
            <tr key={f.id} data-testid={`flow-row-${f.id}`}>
              <th scope="row">{f.label ?? f.id}</th>
              <td>
                {f.transport} {f.cc}
              </td>
              <td data-testid={`delivered-${f.id}`}>{f.delivered_bytes.toLocaleString('en')}</td>
              <td>{f.completed ? fmt(f.completion_s) : <span title={f.incomplete_reason ?? undefined}>incomplete</span>}</td>
              <td data-testid={`goodput-${f.id}`}>{fmt(f.goodput_mbps)}</td>
              {paperGoodput.length > 0 && <td>{fmt(paperGoodput[f.id] ?? null, 2)}</td>}
              <td title={f.transport === 'ctcp' ? 'coded packets sent' : undefined}>
                {f.retransmissions}
                {f.transport === 'ctcp' && ' coded'}
              </td>
              <td data-testid={`wire-${f.id}`}>
                {f.wire ? (
                  <>
                    {f.wire.data_sent.toLocaleString('en')} ({fmt(f.wire.retransmitted_per_delivered)} / {fmt(f.wire.spurious_per_delivered)})
                  </>
                ) : (
                  '–'
                )}
              </td>
              <td>{f.timeouts}</td>
              <td>
                {fmt(f.owd_ms.mean, 1)} / {fmt(f.owd_ms.p5, 1)} / {fmt(f.owd_ms.p95, 1)}
              </td>
              <td>{fmt(f.jitter_ms, 1)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {scenario?.flows_alone && summary.flows.length > 1 ? (
        <p data-testid="fairness">Each flow ran alone on the path (flows_alone): they shared no link, so there is no fairness index.</p>
      ) : (
        <p data-testid="fairness">
          Jain's fairness index over goodputs: <strong>{fmt(summary.fairness_jain)}</strong>
          {paper?.fairness_jain !== undefined && paper?.fairness_jain !== null && <> (paper: {fmt(paper.fairness_jain, 2)})</>}
        </p>
      )}
      {summary.flows
        .filter((f) => f.hops && f.hops.length > 0)
        .map((f) => (
          // A constellation's flow has a row for every node it ever used (hundreds): folded, so
          // the charts below are not buried; a short path's table stays open.
          <Fold
            key={`hops-${f.id}`}
            className="hops-fold"
            open={f.hops!.length <= OPEN_HOP_ROWS}
            testid={`hops-fold-${f.id}`}
            summary={
              <>
                Flow {f.label ?? f.id} (INTCP): its {f.hops!.length} nodes at the end of the run
              </>
            }
          >
            {() => (
              <table className="hops" data-testid={`hops-${f.id}`}>
                <caption>Flow {f.label ?? f.id} (INTCP): each node of its path at the end of the run, producer first</caption>
                <thead>
                  <tr>
                    <th scope="col">node</th>
                    <th scope="col">role</th>
                    <th scope="col">hop RTT / min (ms)</th>
                    <th scope="col">advertised rate (Mbit/s)</th>
                    <th scope="col">paced rate (Mbit/s)</th>
                    <th scope="col">DATA sent</th>
                    <th scope="col">served from cache</th>
                    <th scope="col">cache used (MB)</th>
                    <th scope="col">hole re-requests</th>
                    <th scope="col">max queue (KB)</th>
                  </tr>
                </thead>
                <tbody>
                  {f.hops!.map((h) => (
                    <tr key={h.node}>
                      <th scope="row">{h.node}</th>
                      <td>{h.role}</td>
                      <td>
                        {fmt(h.hop_srtt_ms, 1)} / {fmt(h.hop_min_rtt_ms, 1)}
                      </td>
                      <td>{fmt(h.advertised_rate_mbps, 2)}</td>
                      <td>{fmt(h.paced_rate_mbps, 2)}</td>
                      <td>{h.data_sent.toLocaleString('en')}</td>
                      <td>{h.cache_served.toLocaleString('en')}</td>
                      <td>{fmt(h.cache_bytes_used / 1e6, 1)}</td>
                      <td>{h.hole_requests}</td>
                      <td>{fmt(h.max_queue_bytes / 1e3, 1)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Fold>
        ))}
      {summary.flows.some((f) => f.coding?.capacity) && (
        <table className="hops" data-testid="capacity-table">
          <caption>CTCP: where the bottleneck's packet slots went (share of its capacity over the run)</caption>
          <thead>
            <tr>
              <th scope="col">flow</th>
              <th scope="col">link (packet slots)</th>
              {CAPACITY_LABELS.map((label) => (
                <th scope="col" key={label}>
                  {label}
                </th>
              ))}
              <th scope="col" title="Dropped by the full buffer or lost at the link's ingress: no link time, so not in the shares">
                queue drops / ingress losses
              </th>
            </tr>
          </thead>
          <tbody>
            {summary.flows
              .filter((f) => f.coding?.capacity)
              .map((f) => {
                const c = f.coding!.capacity!;
                const shares = capacityShares(c);
                const pcts = roundedPercents(shares.map((s) => s.share));
                return (
                  <tr key={f.id} data-testid={`capacity-${f.id}`}>
                    <th scope="row">{f.label ?? f.id}</th>
                    <td>
                      {c.link} ({Math.round(c.link_pkt_slots).toLocaleString('en')})
                    </td>
                    {shares.map((s, i) => (
                      <td key={s.key} title={`${Math.round(s.slots).toLocaleString('en')} packet slots`}>
                        {pcts[i].toFixed(1)}%
                      </td>
                    ))}
                    <td>
                      {c.queue_drop_pkts.toLocaleString('en')} / {c.ingress_loss_pkts.toLocaleString('en')}
                    </td>
                  </tr>
                );
              })}
          </tbody>
        </table>
      )}
      {paper && <p className="paper-source">Reference: {paper.source}{paper.note ? `. ${paper.note}` : ''}</p>}
    </div>
  );
}
