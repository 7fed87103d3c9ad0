// The form's flows: one fieldset per flow with its transport's fields (TCP's congestion control
// and options, CTCP's variant, coding and blocks, INTCP's caches and content name, ARQ's mode,
// window and timeout), the fields
// most flows leave at their defaults folded, and the button that adds a flow.

import type { ArqMode, CcKind, CodingMode, CtcpVariant, LossDetection, Recovery, RtoFlavor, TcpProfile } from '../scenario/types.gen';
import { setAt } from '../scenario/jsonPath';
import { FieldErrors, SelectInput, StringInput, type Option } from './fields';
import { flowPlaces } from './formPlaces';
import { asArray, More, type Kit } from './formKit';
import { isObject, switchTransport, type Json, type Transport } from './model';

/** Every congestion control the core knows (CcKind in types.gen.ts). The `satisfies` makes a
 * new kind in the generated types a compile error here until it is listed. */
const CC_KINDS = ['reno', 'cubic', 'hybla', 'htcp', 'veno', 'westwood', 'bic', 'highspeed', 'scalable', 'vegas', 'bbr'] as const satisfies readonly CcKind[];
type MissingCc = Exclude<CcKind, (typeof CC_KINDS)[number]>;
const ccComplete: MissingCc extends never ? true : false = true;
void ccComplete;

const CC_LABELS: Record<CcKind, string> = {
  reno: 'Reno',
  cubic: 'CUBIC',
  hybla: 'Hybla',
  htcp: 'H-TCP',
  veno: 'Veno',
  westwood: 'Westwood+',
  bic: 'BIC',
  highspeed: 'HighSpeed',
  scalable: 'Scalable',
  vegas: 'Vegas',
  bbr: 'BBR v1',
};
const CC_OPTIONS: Option[] = CC_KINDS.map((k) => ({ value: k, label: CC_LABELS[k] }));
const TRANSPORT_OPTIONS: { value: Transport; label: string }[] = [
  { value: 'tcp', label: 'TCP' },
  { value: 'ctcp', label: 'CTCP (network coded)' },
  { value: 'intcp', label: 'INTCP (hop by hop)' },
  { value: 'arq', label: 'ARQ (fixed window)' },
];
const ARQ_MODE_LABELS = {
  'stop-and-wait': 'Stop-and-wait',
  'go-back-n': 'Go-back-N',
  'selective-repeat': 'Selective repeat',
} satisfies Record<ArqMode, string>;
const ARQ_MODE_OPTIONS: Option[] = Object.entries(ARQ_MODE_LABELS).map(([value, label]) => ({ value, label }));
/** CTCP's enumerations; `satisfies Record<...>` makes a new value in the generated types a
 * compile error here until it has a label. */
const CTCP_VARIANT_LABELS = { v1: 'v1 (AIMD)', v2: 'v2 (H-TCP-like)' } satisfies Record<CtcpVariant, string>;
const CTCP_VARIANT_OPTIONS: Option[] = Object.entries(CTCP_VARIANT_LABELS).map(([value, label]) => ({ value, label }));
const CODING_LABELS = { full: 'Full', 'rank-only': 'Rank only' } satisfies Record<CodingMode, string>;
const CODING_OPTIONS: Option[] = Object.entries(CODING_LABELS).map(([value, label]) => ({ value, label }));
const READ_AHEAD_OPTIONS: Option[] = [
  { value: 'swings', label: 'while the next hop swings' },
  { value: 'always', label: 'always' },
];
const RTO_OPTIONS: { value: RtoFlavor | ''; label: string }[] = [
  { value: '', label: 'by profile' },
  { value: 'linux', label: 'Linux' },
  { value: 'rfc6298', label: 'RFC 6298' },
];
/** TCP machinery; '' leaves the choice to the flow's profile. */
const PROFILE_LABELS = { linux: 'Linux', ns3: 'ns-3' } satisfies Record<TcpProfile, string>;
const PROFILE_OPTIONS: Option[] = Object.entries(PROFILE_LABELS).map(([value, label]) => ({ value, label }));
const RECOVERY_LABELS = { prr: 'PRR (RFC 6937)', rfc6675: 'RFC 6675' } satisfies Record<Recovery, string>;
const RECOVERY_OPTIONS: Option[] = [{ value: '', label: 'by profile' }, ...Object.entries(RECOVERY_LABELS).map(([value, label]) => ({ value, label }))];
const DETECTION_LABELS = { rack: 'RACK-TLP (RFC 8985)', dupack: 'Three duplicate ACKs' } satisfies Record<LossDetection, string>;
const DETECTION_OPTIONS: Option[] = [{ value: '', label: 'by profile' }, ...Object.entries(DETECTION_LABELS).map(([value, label]) => ({ value, label }))];

/** The flows, one fieldset each, and the button that adds one. */
export function FlowFields({ kit }: { kit: Kit }) {
  const flows = asArray(kit.get('flows'));
  return (
    <>
      {flows.map((flow, i) => (
        <FlowItem key={i} kit={kit} i={i} flow={flow} count={flows.length} />
      ))}
      <button
        type="button"
        className="small"
        onClick={() =>
          kit.edit((root) => {
            if (!Array.isArray(root.flows)) root.flows = [];
            const last = root.flows[root.flows.length - 1];
            if (isObject(last) && last.transport === 'ctcp') root.flows.push({ transport: 'ctcp', variant: typeof last.variant === 'string' ? last.variant : 'v2' });
            // Another consumer of the same content: the way to build a multicast scenario.
            else if (isObject(last) && last.transport === 'intcp') root.flows.push({ transport: 'intcp', cache: last.cache !== false, ...(typeof last.name === 'string' ? { name: last.name } : {}) });
            else root.flows.push({ transport: 'tcp', cc: isObject(last) && typeof last.cc === 'string' ? last.cc : 'cubic' });
          })
        }
      >
        Add flow
      </button>
    </>
  );
}

function FlowItem({ kit, i, flow, count }: { kit: Kit; i: number; flow: Json; count: number }) {
  const { get, set, num, check, choose, errors, edit } = kit;
  const fp = `flows[${i}]`;
  const transport = isObject(flow) ? flow.transport : undefined;
  const ctcp = transport === 'ctcp';
  const intcp = transport === 'intcp';
  const arq = transport === 'arq';
  const stopAndWait = arq && get(`${fp}.mode`) === 'stop-and-wait';
  const transportSelect = (
    <SelectInput
      label="Transport"
      hint="TCP, network-coded TCP (CTCP), hop-by-hop INTCP, or a textbook ARQ with a fixed window and no congestion control. Switching keeps the bytes, start, nodes and label."
      value={transport}
      options={TRANSPORT_OPTIONS}
      errors={errors.at(`${fp}.transport`)}
      onChange={(t) =>
        edit((root) => {
          const list = asArray(root.flows);
          if (t === 'tcp' || t === 'ctcp' || t === 'intcp' || t === 'arq') list[i] = switchTransport(list[i], t);
          else setAt(root, `${fp}.transport`, t);
        })
      }
    />
  );
  const common = (
    <>
      {num(`${fp}.bytes`, 'Bytes to send', { integer: true, placeholder: 'unlimited', hint: 'Bytes to transfer. Empty: send until the end of the run.' })}
      {num(`${fp}.start_s`, 'Start', {
        unit: 's',
        empty: 'remove',
        placeholder: '0',
        hint: intcp ? 'When the consumer sends its first INTEREST.' : 'When the sender opens the connection (sends its SYN).',
      })}
    </>
  );
  const nodesAndLabel = () => (
    <>
      {num(`${fp}.from_node`, 'From node', { integer: true, empty: 'remove', placeholder: '0' })}
      {num(`${fp}.to_node`, 'To node', { integer: true, empty: 'remove', placeholder: 'last' })}
      <StringInput label="Label" hint="A name for charts and tables." placeholder="none" value={get(`${fp}.label`)} errors={errors.at(`${fp}.label`)} onChange={(v) => set(`${fp}.label`)(v === '' ? undefined : v)} />
    </>
  );
  const main = arq ? (
    <>
      {transportSelect}
      <SelectInput
        label="ARQ protocol"
        hint="Stop-and-wait: one packet per round trip. Go-back-N: a window; a loss sends the window again. Selective repeat: a window; a loss sends only the lost packet again."
        value={get(`${fp}.mode`)}
        options={ARQ_MODE_OPTIONS}
        errors={errors.at(`${fp}.mode`)}
        onChange={(m) =>
          edit((root) => {
            setAt(root, `${fp}.mode`, m);
            // Stop-and-wait's window is 1: a larger one left from another mode would be refused.
            if (m === 'stop-and-wait') setAt(root, `${fp}.window_pkts`, undefined);
          })
        }
      />
      {common}
      {num(`${fp}.window_pkts`, 'Window', {
        unit: 'packets',
        integer: true,
        empty: 'remove',
        placeholder: stopAndWait ? '1' : '16',
        hint: stopAndWait
          ? 'Stop-and-wait sends one packet at a time: leave empty (or 1).'
          : 'Packets the sender may have unacknowledged (1 to 100000). No congestion control: the sender keeps the window full whatever the path.',
      })}
      {num(`${fp}.timeout_ms`, 'Timeout', { unit: 'ms', empty: 'remove', placeholder: 'RFC 6298', hint: "A fixed retransmission timeout. Empty: RFC 6298's from the measured RTT (1 s at first and at least 1 s, doubled on each timeout)." })}
    </>
  ) : intcp ? (
    <>
      {transportSelect}
      {check(`${fp}.cache`, 'Caches', true, 'Caches at every midnode; off is INTCP-uni, where every request goes to the producer.')}
      {common}
      {num(`${fp}.cache_bytes`, 'Cache size', { unit: 'bytes', integer: true, empty: 'remove', placeholder: '81920000', hint: "Each midnode's cache capacity in payload bytes (the code's 20000 blocks of 4096 B)." })}
      <StringInput
        label="Content name"
        hint="Multicast: flows with the same name request the same bytes and share one cache on every node they both pass, so a later consumer is served from a midnode. Empty: this flow shares nothing."
        placeholder="none"
        value={get(`${fp}.name`)}
        errors={errors.at(`${fp}.name`)}
        onChange={(v) => set(`${fp}.name`)(v === '' ? undefined : v)}
      />
    </>
  ) : ctcp ? (
    <>
      {transportSelect}
      <SelectInput
        label="CTCP variant"
        hint="v1: the reference code's per-RTT AIMD with adaptive backoff. v2: an H-TCP-like increase with the same backoff."
        value={get(`${fp}.variant`)}
        options={CTCP_VARIANT_OPTIONS}
        errors={errors.at(`${fp}.variant`)}
        onChange={set(`${fp}.variant`)}
      />
      <SelectInput
        label="Coding"
        hint="Full: payloads are coded over GF(256), decoded and checked. Rank only: coefficient vectors only, the same decisions, faster for big sweeps."
        value={get(`${fp}.coding`) ?? 'full'}
        options={CODING_OPTIONS}
        errors={errors.at(`${fp}.coding`)}
        onChange={set(`${fp}.coding`)}
      />
      {common}
      {num(`${fp}.block_pkts`, 'Block size', { unit: 'packets', integer: true, empty: 'remove', placeholder: '32', hint: 'Source packets per coded block (k).' })}
      {num(`${fp}.max_blocks`, 'Window of blocks', { integer: true, empty: 'remove', placeholder: '100', hint: 'Blocks that may be outstanding beyond the oldest undecoded one.' })}
    </>
  ) : (
    <>
      {transportSelect}
      <SelectInput label="Congestion control" hint="The Linux kernel module the sender follows." value={get(`${fp}.cc`)} options={CC_OPTIONS} errors={errors.at(`${fp}.cc`)} onChange={set(`${fp}.cc`)} />
      {common}
    </>
  );
  const advanced = arq ? (
    <>
      {num(`${fp}.mss_bytes`, 'Payload', { unit: 'bytes', integer: true, empty: 'remove', placeholder: '1460', hint: 'Payload bytes per packet, 64 to 65000; each packet adds 40 bytes of headers (IPv4, UDP, ARQ).' })}
      {nodesAndLabel()}
    </>
  ) : intcp ? (
    <>
      <p className="muted wide">Hop-by-hop rate control, the same on every hop of this flow (docs/intcp-protocol.md §5; defaults are the paper's).</p>
      {num(`${fp}.mss_bytes`, 'Payload', { unit: 'bytes', integer: true, empty: 'remove', placeholder: '1449', hint: 'Payload bytes per DATA segment (1472 − 23 header bytes: a 1500-byte packet).' })}
      {num(`${fp}.target_buffer_pkts`, 'Target send buffer', { unit: 'packets', empty: 'remove', placeholder: '7', hint: 'BL_tar, the back-pressure target: a node whose send queue grows past it asks the hop upstream for less.' })}
      {num(`${fp}.queue_threshold_bytes`, 'Queueing threshold', { unit: 'bytes', empty: 'remove', placeholder: '3000', hint: "M: a hop is congested when its estimated queue, throughput × (hop RTT − the minimum), exceeds this." })}
      {num(`${fp}.decrease_factor`, 'Decrease factor', { empty: 'remove', placeholder: '0.8', hint: 'k in cwnd := k·BDP on congestion; more than 0, at most 1.' })}
      {num(`${fp}.ssthresh_pkts`, 'Slow-start threshold', { unit: 'packets', empty: 'remove', placeholder: '100', hint: 'Where a hop leaves slow start.' })}
      {num(`${fp}.ca_increase_pkts`, 'Increase per window', { unit: 'packets', empty: 'remove', placeholder: '1', hint: "Congestion-avoidance increase per window of data (the paper's 1; the code's 10)." })}
      {num(`${fp}.min_rtt_window_s`, 'Minimum-RTT window', { unit: 's', empty: 'remove', placeholder: '5', hint: "How long the minimum hop RTT is remembered (the paper's 5 s; the code's 10 s)." })}
      {num(`${fp}.min_rate_mbps`, 'Lowest rate', { unit: 'Mbit/s', empty: 'remove', placeholder: '0.1', hint: 'The least a node may ask of the hop upstream.' })}
      {num(`${fp}.max_rate_mbps`, 'Highest rate', { unit: 'Mbit/s', empty: 'remove', placeholder: '300', hint: 'The most a node may ask of the hop upstream.' })}
      {num(`${fp}.hole_threshold_pkts`, 'SeqHole threshold', { unit: 'packets', integer: true, empty: 'remove', placeholder: '3', hint: 'A range skipped by this many later packets is re-requested from the node upstream.' })}
      {num(`${fp}.hold_budget_bytes`, 'Hold budget', { unit: 'bytes', integer: true, empty: 'remove', placeholder: '33554432', hint: 'What each midnode may fetch ahead of its downstream and hold (the cache absorbing bandwidth swings); 0 is the authors\' code.' })}
      <SelectInput
        label="Read ahead"
        hint="While the next hop swings: after a slow phase or an outage of a hop that was faster, until the held bytes stop falling (docs/intcp-caching.md). Always: whenever the budget allows."
        value={get(`${fp}.read_ahead`) ?? 'swings'}
        options={READ_AHEAD_OPTIONS}
        errors={errors.at(`${fp}.read_ahead`)}
        onChange={set(`${fp}.read_ahead`)}
      />
      {nodesAndLabel()}
    </>
  ) : ctcp ? (
    <>
      {num(`${fp}.mss_bytes`, 'Payload', { unit: 'bytes', integer: true, empty: 'remove', placeholder: '1445', hint: "Payload bytes per packet (the reference code's 1445 with 1500-byte packets)." })}
      {num(`${fp}.initial_cwnd_pkts`, 'Initial window', { unit: 'packets', integer: true, empty: 'remove', placeholder: '8' })}
      {num(`${fp}.initial_ssthresh_pkts`, 'Initial ssthresh', { unit: 'packets', integer: true, empty: 'remove', placeholder: '850' })}
      {num(`${fp}.max_cwnd_pkts`, 'Maximum window', { unit: 'packets', integer: true, empty: 'remove', placeholder: '1000', hint: "The reference code's MAX_CWND." })}
      {num(`${fp}.v2_delta_l_s`, 'v2 Δ_L', { unit: 's', empty: 'remove', placeholder: '1', hint: 'v2 only: seconds after a backoff before the H-TCP increase starts.' })}
      {num(`${fp}.loss_scaling`, 'Loss scaling', { empty: 'remove', placeholder: '1', hint: 'Multiplier on the loss estimate when sizing redundancy (the reference SLR_scaling).' })}
      {nodesAndLabel()}
    </>
  ) : (
    <>
      {num(`${fp}.mss_bytes`, 'MSS', { unit: 'bytes', integer: true, empty: 'remove', placeholder: '1448', hint: 'Payload per segment, 64 to 65000; each packet adds 52 bytes of headers.' })}
      {num(`${fp}.initial_cwnd_pkts`, 'Initial window', { unit: 'packets', integer: true, empty: 'remove', placeholder: '10', hint: 'Linux since 2.6.39 uses 10; older kernels 2 to 4.' })}
      {num(`${fp}.initial_ssthresh_pkts`, 'Initial ssthresh', { unit: 'packets', integer: true, empty: 'remove', placeholder: 'infinite', hint: 'Empty: infinite, as in Linux.' })}
      <SelectInput label="Profile" hint="Whose defaults the flow takes for what it does not set: a Linux host, or ns-3's TcpSocketBase." value={get(`${fp}.profile`) ?? 'linux'} options={PROFILE_OPTIONS} errors={errors.at(`${fp}.profile`)} onChange={set(`${fp}.profile`)} />
      {choose(`${fp}.recovery`, 'Recovery', RECOVERY_OPTIONS, 'How cwnd is cut in fast recovery. PRR spreads the cut over a round trip; RFC 6675 sets cwnd = ssthresh at once.')}
      {choose(`${fp}.loss_detection`, 'Loss detection', DETECTION_OPTIONS, "RACK-TLP finds losses by time (Linux's default); the ns-3 profile counts three duplicate ACKs.")}
      {num(`${fp}.rwnd_pkts`, 'Receive window', { unit: 'packets', integer: true, empty: 'remove', placeholder: 'autotuned', hint: 'A fixed window: at most this many segments outstanding. Empty: Linux autotuning (64 KB, growing to 3 MB).' })}
      {check(`${fp}.rcv_autotune`, 'Receive autotuning', true, "Linux's receive-buffer autotuning (tcp_rmem 4096/131072/6291456). Off with no fixed window: the receiver never limits.")}
      {check(`${fp}.sack`, 'SACK', true, 'SACK loss recovery (RFC 6675); off gives NewReno (RFC 6582).')}
      {check(`${fp}.hystart`, 'HyStart', true, "CUBIC's HyStart slow-start exit (Linux 2.6.29 and later); other algorithms ignore it.")}
      {check(`${fp}.delayed_ack`, 'Delayed ACKs', get(`${fp}.profile`) === 'ns3', 'One ACK per two segments (or per delayed-ACK timer) instead of one per segment. Default: off (Linux), on (ns-3).')}
      {num(`${fp}.delack_ms`, 'Delayed-ACK timer', { unit: 'ms', empty: 'remove', placeholder: 'by profile', hint: 'At most 500 ms. Default: 40 (Linux), 200 (ns-3).' })}
      <SelectInput label="RTO" hint="How the retransmission timeout is formed from SRTT and RTTVAR." value={get(`${fp}.rto_flavor`) ?? ''} options={RTO_OPTIONS} errors={errors.at(`${fp}.rto_flavor`)} onChange={(v) => set(`${fp}.rto_flavor`)(v === '' ? undefined : v)} />
      {num(`${fp}.rto_min_ms`, 'Minimum RTO', { unit: 'ms', empty: 'remove', placeholder: 'by flavor', hint: 'Default: 200 (Linux) or 1000 (RFC 6298).' })}
      {nodesAndLabel()}
    </>
  );
  return (
    <fieldset className="item">
      <legend>
        Flow {i + 1}
        {ctcp && <span className="muted"> (CTCP)</span>}
        {intcp && <span className="muted"> (INTCP)</span>}
        {arq && <span className="muted"> (ARQ)</span>}
      </legend>
      <button type="button" className="icon remove" aria-label={`Remove flow ${i + 1}`} disabled={count <= 1} onClick={() => edit((root) => asArray(root.flows).splice(i, 1))}>
        ×
      </button>
      <FieldErrors errors={errors.at(fp)} />
      <div className="grid">{main}</div>
      <More id={`flow${i}`} label={intcp ? 'Rate control, nodes, label' : 'Advanced'} errorCount={errors.count(flowPlaces(i, flow).folded)}>
        {advanced}
      </More>
    </fieldset>
  );
}
