import { describe, expect, it } from 'vitest';
import { parseResult, type RunResult, type RunSummary } from '../sim/results';
import { unzipSync } from 'fflate';
import { pcapDownload, RESULT_CSV_HEADER, resultCsv, summaryJson } from './export';

const summary = {
  name: 'test',
  seed: '1',
  end_s: 2,
  events: 10,
  core_version: '0.1.0',
  scenario_hash: 'fnv1a64:0123456789abcdef',
  flows: [],
  fairness_jain: 1,
  links: [],
  unrouted_pkts: 0,
};

/** A result as the core's JSON gives it, parsed the way the worker parses it. */
function fixture(): RunResult {
  return parseResult(
    JSON.stringify({
      ...summary,
      traces: {
        flows: [
          {
            id: 0,
            sender: { t: [0, 1.23], cwnd: [10, 45], state: [0, 2] },
            owd: { t: [0.5], owd_ms: [250.5] },
            goodput: { t: [0, 1], mbps: [0, 9.5] },
            jitter: { t: [1], jitter_ms: [null] },
            owd_cdf_ms: [250, 251, 260],
          },
          {
            id: 1,
            sender: { t: [2], cwnd: [3] },
            owd: { t: [], owd_ms: [] },
            goodput: { t: [], mbps: [] },
            jitter: { t: [], jitter_ms: [] },
            owd_cdf_ms: [],
          },
        ],
        links: [{ id: 1, queue: { t: [0.1, 0.2], queue_pkts: [0, 1e-7] } }],
      },
    }),
  );
}

describe('resultCsv', () => {
  it('writes every trace point as one row of a long table', () => {
    expect(resultCsv(fixture()).split('\n')).toEqual([
      RESULT_CSV_HEADER,
      'sender,0,cwnd,0,10',
      'sender,0,cwnd,1.23,45',
      'sender,0,state,0,0',
      'sender,0,state,1.23,2',
      'owd,0,owd_ms,0.5,250.5',
      'goodput,0,mbps,0,0',
      'goodput,0,mbps,1,9.5',
      'jitter,0,jitter_ms,1,',
      'owd_cdf,0,owd_ms,,250',
      'owd_cdf,0,owd_ms,,251',
      'owd_cdf,0,owd_ms,,260',
      'sender,1,cwnd,2,3',
      'queue,1,queue_pkts,0.1,0',
      'queue,1,queue_pkts,0.2,1e-7',
      '',
    ]);
  });

  it('has the same number of fields on every row, and numbers that read back exactly', () => {
    const lines = resultCsv(fixture()).trimEnd().split('\n');
    for (const line of lines) expect(line.split(',')).toHaveLength(5);
    const values = lines.slice(1).map((l) => l.split(',')[4]).filter((v) => v !== '');
    for (const v of values) expect(String(Number(v))).toBe(v);
  });

  it('gives the header alone for a run without traces', () => {
    expect(resultCsv({ summary })).toBe(RESULT_CSV_HEADER + '\n');
  });
});

describe('summaryJson', () => {
  it('writes a 64-bit seed back as the exact JSON number the CLI writes, in its place', () => {
    const summary = { name: 'n', seed: '18446744073709551615', end_s: 1 } as unknown as RunSummary;
    const text = summaryJson(summary);
    expect(text).toContain('"seed": 18446744073709551615,');
    expect(text.indexOf('"name"')).toBeLessThan(text.indexOf('"seed"'));
    expect(text.indexOf('"seed"')).toBeLessThan(text.indexOf('"end_s"'));
    expect(JSON.parse(text).summary.end_s).toBe(1);
  });
});

describe('pcapDownload', () => {
  const pcap = (n: number) => new Uint8Array([0x4d, 0x3c, 0xb2, 0xa1, n]);

  it('gives a single link its file, named after the run', () => {
    const d = pcapDownload('run', [{ name: 'link-0-n0-n1.pcap', bytes: pcap(1) }]);
    expect(d.name).toBe('run-link-0-n0-n1.pcap');
    expect(Array.from(d.bytes)).toEqual([0x4d, 0x3c, 0xb2, 0xa1, 1]);
  });

  it('zips several links, each file unchanged under its own name', () => {
    const d = pcapDownload('run', [
      { name: 'link-0-n0-n1.pcap', bytes: pcap(1) },
      { name: 'link-1-n1-n2.pcap', bytes: pcap(2) },
    ]);
    expect(d.name).toBe('run-pcap.zip');
    expect(d.mime).toBe('application/zip');
    const files = unzipSync(d.bytes);
    expect(Object.keys(files).sort()).toEqual(['link-0-n0-n1.pcap', 'link-1-n1-n2.pcap']);
    expect(Array.from(files['link-1-n1-n2.pcap'])).toEqual([0x4d, 0x3c, 0xb2, 0xa1, 2]);
  });
});
