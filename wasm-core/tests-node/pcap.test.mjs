// The pcap capture (docs/pcap.md) read by Wireshark's tshark: a lossy TCP run's retransmissions
// and SACK blocks as tshark sees them against the run's own figures and the receiver's state,
// every CTCP and INTCP packet decoded by tools/wireshark/orbitcp.lua, no warnings, and the
// browser's export byte for byte the CLI's file. tshark is required: scripts/setup.sh installs
// it, and this test fails (never skips) without it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { wasm } from './wasm.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = process.env.ORBITCP_CLI ?? join(process.env.CARGO_TARGET_DIR ?? join(root, 'target'), 'release', 'orbitcp');
const dissector = join(root, 'tools', 'wireshark', 'orbitcp.lua');

function requireTshark() {
  const r = spawnSync('tshark', ['--version'], { encoding: 'utf8' });
  assert.ok(
    !r.error && r.status === 0,
    'tshark is missing: scripts/setup.sh installs it (apt-get install -y tshark); this test needs it',
  );
}

/** tshark's output; fails on any message on standard error but the one about running as root,
 * which is about the user, not the file. */
function tshark(args) {
  const r = spawnSync('tshark', args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  assert.equal(r.status, 0, `tshark ${args.join(' ')}: ${r.stderr}`);
  const stderr = r.stderr
    .split('\n')
    .filter((l) => l.trim() !== '' && !/^Running as user "root"/.test(l))
    .join('\n');
  assert.equal(stderr, '', `tshark ${args.join(' ')} warned: ${stderr}`);
  return r.stdout;
}

/** Tab-separated fields of every packet matching `filter`. */
function fields(file, filter, names, extra = []) {
  const args = ['-r', file, ...extra, '-T', 'fields', '-E', 'occurrence=a', '-E', 'aggregator=,'];
  if (filter) args.push('-Y', filter);
  for (const n of names) args.push('-e', n);
  return tshark(args)
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split('\t'));
}

/** Runs `scenario` with --pcap; returns the summary and the capture's directory. */
function runWithPcap(scenario) {
  const dir = mkdtempSync(join(tmpdir(), 'orbitcp-pcap-'));
  const path = join(dir, 'scenario.json');
  writeFileSync(path, JSON.stringify(scenario));
  const out = join(dir, 'pcap');
  const summary = JSON.parse(execFileSync(cli, ['run', '--summary', '--pcap', out, path], { encoding: 'utf8' }));
  return { summary, out, files: readdirSync(out).sort() };
}

/** A capture time ("12.000048000") as integer nanoseconds. */
function ns(text) {
  const [s, frac = ''] = text.split('.');
  return BigInt(s) * 1_000_000_000n + BigInt(frac.padEnd(9, '0').slice(0, 9));
}

function expertHasNoMalformed(file, extra = []) {
  const expert = tshark(['-r', file, ...extra, '-q', '-z', 'expert']);
  assert.doesNotMatch(expert, /Malformed/i, `${file}: ${expert}`);
  assert.doesNotMatch(expert, /^Errors/m, `${file}: ${expert}`);
}

// Two links: random loss on the first only, so its file (at the sender's transmitter) holds
// every segment the sender sent, and the second's holds exactly what reached the receiver.
const LINK1_RATE = 10e6;
const LINK1_DELAY_NS = 5_000_000n;
const LOSSY_TCP = {
  version: 1,
  name: 'pcap-lossy-tcp',
  duration_s: 4,
  seed: 3,
  topology: {
    kind: 'chain',
    links: [
      { rate_mbps: 10, delay_ms: 20, loss: { model: 'bernoulli', p: 0.02 } },
      { rate_mbps: LINK1_RATE / 1e6, delay_ms: Number(LINK1_DELAY_NS / 1_000_000n) },
    ],
  },
  flows: [{ transport: 'tcp', cc: 'cubic' }],
};

test('tshark counts the retransmissions the run reports', () => {
  requireTshark();
  const { summary, out, files } = runWithPcap(LOSSY_TCP);
  assert.deepEqual(files, ['link-0-n0-n1.pcap', 'link-1-n1-n2.pcap']);
  const flow = summary.flows[0];
  assert.ok(flow.retransmissions >= 10, `the scenario should retransmit (got ${flow.retransmissions})`);
  const file = join(out, files[0]);
  expertHasNoMalformed(file);
  // The capture is at the sender's transmitter, so any data segment below the highest sequence
  // number seen is a retransmission. Wireshark flags most as retransmissions, but one sent
  // less than the handshake RTT after the highest segment it calls "out-of-order" (its
  // packet-tcp.c heuristic for reordering upstream of a capture); both together are the count.
  const sender = 'tcp.srcport == 10000 && tcp.len > 0';
  const rtx = fields(file, `${sender} && tcp.analysis.retransmission`, ['frame.number']).length;
  const ooo = fields(file, `${sender} && tcp.analysis.out_of_order && !tcp.analysis.retransmission`, [
    'frame.number',
  ]).length;
  assert.equal(rtx + ooo, flow.retransmissions, `tshark: ${rtx} retransmissions + ${ooo} out-of-order`);
  assert.ok(rtx >= ooo, 'most retransmissions come an RTT after the highest segment');
  // No segment is sent twice without the run counting it: distinct sequence numbers are the
  // segments sent once.
  const seqs = fields(file, sender, ['tcp.seq']).map(([s]) => s);
  assert.equal(seqs.length - new Set(seqs).size, flow.retransmissions);
});

test("tshark's SACK blocks are the receiver's, rebuilt from the segments that reached it", () => {
  requireTshark();
  const { out, files } = runWithPcap(LOSSY_TCP);
  const file = join(out, files[1]);
  expertHasNoMalformed(file);
  const raw = ['-o', 'tcp.relative_sequence_numbers:FALSE'];
  // Data on the last link arrives at the receiver a transmission time and a delay after it
  // starts transmission (capture time); the link loses nothing.
  const data = fields(file, 'tcp.srcport == 10000 && tcp.len > 0', ['frame.time_epoch', 'frame.len', 'tcp.seq', 'tcp.len'], raw).map(
    ([t, size, seq, len]) => ({
      arrive: ns(t) + BigInt(Math.round((Number(size) * 8e9) / LINK1_RATE)) + LINK1_DELAY_NS,
      start: Number(seq),
      end: Number(seq) + Number(len),
    }),
  );
  const acks = fields(
    file,
    'tcp.srcport == 47000 && !(tcp.flags.syn == 1)',
    ['frame.time_epoch', 'tcp.ack', 'tcp.options.sack_le', 'tcp.options.sack_re', 'tcp.options.sack.dsack_le'],
    raw,
  );
  let checked = 0;
  for (const [t, ackText, le, re, dsack] of acks) {
    const at = ns(t);
    const got = data.filter((d) => d.arrive <= at);
    // The receiver's state: the byte ranges it holds, merged.
    const ranges = [];
    for (const d of [...got].sort((a, b) => a.start - b.start)) {
      const last = ranges[ranges.length - 1];
      if (last && d.start <= last[1]) last[1] = Math.max(last[1], d.end);
      else ranges.push([d.start, d.end]);
    }
    const rcvNxt = ranges.length && ranges[0][0] === 1 ? ranges[0][1] : 1;
    assert.equal(Number(ackText), rcvNxt, `ACK at ${t}: cumulative ACK`);
    const above = ranges.filter(([s]) => s > rcvNxt);
    let blocks = le ? le.split(',').map((l, i) => [Number(l), Number(re.split(',')[i])]) : [];
    if (dsack) blocks = blocks.slice(1);
    assert.equal(blocks.length, Math.min(above.length, dsack ? 2 : 3), `ACK at ${t}: ${JSON.stringify(blocks)}`);
    for (const b of blocks) {
      assert.ok(
        above.some(([s, e]) => s === b[0] && e === b[1]),
        `ACK at ${t}: block ${b} is not a range the receiver holds (${JSON.stringify(above)})`,
      );
    }
    // RFC 2018: the first block holds the segment that arrived last, when it is above the ACK.
    const latest = got.reduce((a, d) => (a && a.arrive > d.arrive ? a : d), null);
    if (blocks.length && latest.start >= rcvNxt) {
      assert.ok(blocks[0][0] <= latest.start && latest.end <= blocks[0][1], `ACK at ${t}: first block`);
    }
    if (blocks.length) checked++;
  }
  assert.ok(checked >= 20, `too few ACKs with SACK blocks to compare (${checked})`);
});

function shortPreset(id, duration) {
  const sc = JSON.parse(readFileSync(join(root, 'scenarios', `${id}.json`), 'utf8'));
  delete sc.sweep;
  return { ...sc, duration_s: duration };
}

for (const [id, proto, field] of [
  ['ctcp-fig4-per20', 'orbitcp_ctcp', 'orbitcp_ctcp.type'],
  ['intcp-loss-delay', 'orbitcp_intcp', 'orbitcp_intcp.cmd'],
  ['arq-geo-window', 'orbitcp_arq', 'orbitcp_arq.type'],
]) {
  test(`${id}: every packet decodes with the orbitcp dissector`, () => {
    requireTshark();
    const { summary, out, files } = runWithPcap(shortPreset(id, 3));
    assert.ok(files.length > 0);
    const lua = ['-X', `lua_script:${dissector}`];
    for (const name of files) {
      const file = join(out, name);
      expertHasNoMalformed(file, lua);
      const rows = fields(file, '', ['frame.number', 'udp.length', field, '_ws.malformed', '_ws.expert'], lua);
      assert.ok(rows.length > 0, `${name} is empty`);
      for (const [n, udpLen, value, malformed, expert] of rows) {
        assert.ok(udpLen, `${name} #${n} is not UDP`);
        assert.ok(value, `${name} #${n} has no ${proto} fields`);
        assert.equal(malformed, '', `${name} #${n} is malformed`);
        assert.equal(expert, '', `${name} #${n} has expert info`);
      }
      // The link's figures: every packet it delivered was transmitted, so it is in the file.
      const [, k] = name.match(/^link-(\d+)-/);
      const delivered = summary.links
        .filter((l) => Math.floor(l.id / 2) === Number(k))
        .reduce((a, l) => a + l.delivered_pkts, 0);
      assert.ok(rows.length >= delivered, `${name}: ${rows.length} packets, the link delivered ${delivered}`);
    }
  });
}

test("the browser's pcap export is the CLI's file, byte for byte", async () => {
  const api = await wasm('pkg-orbit');
  const { out, files } = runWithPcap(LOSSY_TCP);
  const cap = new api.PcapFiles(JSON.stringify(LOSSY_TCP));
  try {
    assert.equal(cap.count(), files.length);
    for (let i = 0; i < cap.count(); i++) {
      assert.equal(cap.name(i), files[i]);
      const bytes = cap.bytes(i);
      assert.deepEqual(Buffer.from(bytes), readFileSync(join(out, files[i])), files[i]);
      assert.equal(Buffer.from(bytes).readUInt32LE(0), 0xa1b23c4d, 'nanosecond pcap magic');
    }
  } finally {
    cap.free();
  }
});
