// The run's numbers as a table: the text summary of every chart, and the paper's values beside
// the simulated ones where the preset carries them.

import type { RunSummary } from './sim/results';
import type { Scenario } from './scenario/types.gen';

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
              <td>{f.completed ? fmt(f.completion_s) : <span title={f.incomplete_reason}>incomplete</span>}</td>
              <td data-testid={`goodput-${f.id}`}>{fmt(f.goodput_mbps)}</td>
              {paperGoodput.length > 0 && <td>{fmt(paperGoodput[f.id] ?? null, 2)}</td>}
              <td>{f.retransmissions}</td>
              <td>{f.timeouts}</td>
              <td>
                {fmt(f.owd_ms.mean, 1)} / {fmt(f.owd_ms.p5, 1)} / {fmt(f.owd_ms.p95, 1)}
              </td>
              <td>{fmt(f.jitter_ms, 1)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p data-testid="fairness">
        Jain's fairness index over goodputs: <strong>{fmt(summary.fairness_jain)}</strong>
        {paper?.fairness_jain !== undefined && paper?.fairness_jain !== null && <> (paper: {fmt(paper.fairness_jain, 2)})</>}
      </p>
      {paper && <p className="paper-source">Reference: {paper.source}{paper.note ? `. ${paper.note}` : ''}</p>}
    </div>
  );
}
