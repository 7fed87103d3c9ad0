// Result exports: a file download for any text and a run's traces as one long-format CSV. A
// sweep's CSV is the core's (`SimClient.sweepCsv`), the bytes `orbitcp sweep` prints.

import { zipSync } from 'fflate';
import type { PcapFile } from '../sim/protocol';
import type { Columns, RunResult, RunSummary } from '../sim/results';
import { csvField } from './csv';

/** Saves `text` as a file called `name` (Blob + object URL, revoked once the click is handled). */
export function downloadText(name: string, text: string, mime: string): void {
  downloadBlob(name, new Blob([text], { type: `${mime};charset=utf-8` }));
}

/**
 * A run's pcap files as one download: the file itself for a single link, else a zip of them
 * all (stored, not compressed again: pcap of zero payloads is small already). Returns its name.
 */
export function pcapDownload(base: string, files: PcapFile[]): { name: string; bytes: Uint8Array; mime: string } {
  if (files.length === 1) return { name: `${base}-${files[0].name}`, bytes: files[0].bytes, mime: 'application/vnd.tcpdump.pcap' };
  const entries: Record<string, [Uint8Array, { level: 0 }]> = {};
  for (const f of files) entries[f.name] = [f.bytes, { level: 0 }];
  return { name: `${base}-pcap.zip`, bytes: zipSync(entries), mime: 'application/zip' };
}

/** Saves bytes as a file called `name`. */
export function downloadBytes(name: string, bytes: Uint8Array, mime: string): void {
  downloadBlob(name, new Blob([bytes as BlobPart], { type: mime }));
}

function downloadBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  try {
    a.click();
  } finally {
    a.remove();
    // The download starts from the click; revoking on the next task is safe in every browser.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}

/** The header of {@link resultCsv}. */
export const RESULT_CSV_HEADER = 'kind,flow_or_link,series,t_s,value';

/**
 * Every trace of a run as one long-format table, one row per point:
 *
 * ```
 * kind,flow_or_link,series,t_s,value
 * sender,0,cwnd,1.23,45
 * queue,1,queue_pkts,0.5,12
 * ```
 *
 * - `kind` is the trace: `sender` (cwnd, ssthresh, srtt_ms, rtt_ms, acked_bytes, inflight,
 *   retransmissions, state), `owd`, `goodput`, `jitter` and `owd_cdf` per flow, `queue` per link;
 * - `flow_or_link` is the flow's id for flow traces and the link's id for `queue`;
 * - `series` is the column's name as the core reports it;
 * - `t_s` is simulated time in seconds. `owd_cdf` rows have no time: they are the one-way delays
 *   at evenly spaced quantiles, in order (row k of n is quantile k / (n - 1));
 * - `value` is empty where the core has no value (null) at that time.
 *
 * Rows come flow by flow (sender, owd, goodput, jitter, owd_cdf), then link by link, each series
 * in time order. A run without traces gives the header alone.
 */
export function resultCsv(result: RunResult): string {
  const rows: string[] = [RESULT_CSV_HEADER];
  const traces = result.traces;
  if (!traces) return rows.join('\n') + '\n';
  const emit = (kind: string, id: number, c: Columns) => {
    for (const [series, values] of Object.entries(c.cols)) {
      const prefix = `${kind},${id},${csvField(series)},`;
      const n = Math.min(c.t.length, values.length);
      for (let i = 0; i < n; i++) rows.push(prefix + num(c.t[i]) + ',' + num(values[i]));
    }
  };
  for (const f of traces.flows) {
    emit('sender', f.id, f.sender);
    emit('owd', f.id, f.owd);
    emit('goodput', f.id, f.goodput);
    emit('jitter', f.id, f.jitter);
    for (let i = 0; i < f.owdCdfMs.length; i++) rows.push(`owd_cdf,${f.id},owd_ms,,${num(f.owdCdfMs[i])}`);
  }
  for (const l of traces.links) emit('queue', l.id, l.queue);
  return rows.join('\n') + '\n';
}

/** Shortest text that reads back as the same number; empty for NaN (a null in the core's JSON). */
function num(v: number): string {
  return Number.isFinite(v) ? String(v) : '';
}

/**
 * The run's summary as the JSON file the native CLI writes (`orbitcp run --summary`, wrapped in
 * `{ summary }`). The browser keeps the 64-bit seed as decimal text so no digit is lost; the
 * file writes it back as the JSON number it is, digit for digit.
 */
export function summaryJson(summary: RunSummary): string {
  const mark = '\u0000seed\u0000';
  const text = JSON.stringify({ summary: { ...summary, seed: mark } }, null, 2);
  const seed = /^\d+$/.test(summary.seed) ? summary.seed : JSON.stringify(summary.seed);
  return text.replace(JSON.stringify(mark), seed);
}
