//! A capture's packets as a classic pcap file (docs/pcap.md): nanosecond timestamps, raw IPv4
//! (no link-layer header), a real TCP header for TCP flows and orbitcp's own headers over UDP
//! for CTCP, INTCP and ARQ. Payload bytes are zeros, cut at [`SNAPLEN`].

use super::packet::{Body, CtcpCoding, NodeId, Packet, SackBlocks};
use crate::sim::SimTime;

/// Pcap's magic number for nanosecond timestamps.
pub const MAGIC_NS: u32 = 0xa1b2_3c4d;
/// LINKTYPE_RAW: each record starts with the IP header.
pub const LINKTYPE_RAW: u32 = 101;
/// Bytes kept of each packet: every header whole (IPv4 20 + TCP at most 60), a little payload.
pub const SNAPLEN: u32 = 128;
/// The TCP receiver's port; a sender's port is [`CLIENT_PORT_BASE`] + its flow id.
pub const TCP_PORT: u16 = 47000;
/// UDP ports of CTCP, INTCP and ARQ (the sender, producer or responder side), which the Wireshark
/// dissector (`tools/wireshark/orbitcp.lua`) registers on.
pub const CTCP_PORT: u16 = 47001;
pub const INTCP_PORT: u16 = 47002;
pub const ARQ_PORT: u16 = 47003;
/// The other end's port is this plus the flow id.
pub const CLIENT_PORT_BASE: u16 = 10000;
/// Both ends' TCP window scale (RFC 7323), the largest allowed: windows of any size fit the
/// 16-bit field (docs/pcap.md §3).
pub const WINDOW_SCALE: u8 = 14;

/// What a flow's packets are on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    Tcp,
    Ctcp,
    Intcp,
    Arq,
}

/// A flow as the capture needs to know it.
#[derive(Clone, Copy, Debug)]
pub struct FlowWire {
    /// The flow's index in the scenario: its ports and the id in orbitcp's UDP headers.
    pub id: u32,
    pub transport: Transport,
    /// The nodes of the sender (producer) and receiver (consumer).
    pub from: NodeId,
    pub to: NodeId,
    /// Advertised in TCP's SYN.
    pub mss: u32,
}

/// The 24-byte file header.
pub fn file_header() -> Vec<u8> {
    let mut h = Vec::with_capacity(24);
    h.extend_from_slice(&MAGIC_NS.to_le_bytes());
    h.extend_from_slice(&2u16.to_le_bytes());
    h.extend_from_slice(&4u16.to_le_bytes());
    h.extend_from_slice(&0i32.to_le_bytes()); // thiszone
    h.extend_from_slice(&0u32.to_le_bytes()); // sigfigs
    h.extend_from_slice(&SNAPLEN.to_le_bytes());
    h.extend_from_slice(&LINKTYPE_RAW.to_le_bytes());
    h
}

/// IPv4 address of a node: 10.a.b.c with a.b.c the node id + 1 (so no address ends in .0.0.0).
pub fn node_addr(node: NodeId) -> [u8; 4] {
    let n = node.wrapping_add(1);
    [10, (n >> 16) as u8, (n >> 8) as u8, n as u8]
}

/// Appends one record: `pkt` transmitted at `at` from node `hop_from`, the `index`-th packet of
/// its file (the IPv4 identification). `flow` describes the packet's flow.
pub fn write_record(out: &mut Vec<u8>, at: SimTime, pkt: &Packet, hop_from: NodeId, flow: &FlowWire, index: u32) {
    let src = match flow.transport {
        // Hop by hop: every INTCP packet goes from one INTCP node to the next.
        Transport::Intcp => hop_from,
        Transport::Tcp | Transport::Ctcp | Transport::Arq => {
            if pkt.dst_node == flow.to {
                flow.from
            } else {
                flow.to
            }
        }
    };
    let mut packet = Vec::with_capacity(SNAPLEN as usize);
    let total = match flow.transport {
        Transport::Tcp => tcp_segment(&mut packet, at, pkt, flow, node_addr(src), node_addr(pkt.dst_node), index),
        Transport::Ctcp | Transport::Intcp | Transport::Arq => {
            udp_datagram(&mut packet, pkt, flow, node_addr(src), node_addr(pkt.dst_node), index)
        }
    };
    let incl = total.min(SNAPLEN as usize);
    packet.truncate(incl);
    out.extend_from_slice(&((at.0 / 1_000_000_000) as u32).to_le_bytes());
    out.extend_from_slice(&((at.0 % 1_000_000_000) as u32).to_le_bytes());
    out.extend_from_slice(&(incl as u32).to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&packet);
}

/// RFC 1071 one's-complement sum of 16-bit words, an odd byte padded with zero.
fn sum16(mut acc: u32, bytes: &[u8]) -> u32 {
    let mut chunks = bytes.chunks_exact(2);
    for c in &mut chunks {
        acc += u16::from_be_bytes([c[0], c[1]]) as u32;
    }
    if let [b] = chunks.remainder() {
        acc += (*b as u32) << 8;
    }
    acc
}

fn fold(mut acc: u32) -> u16 {
    while acc > 0xffff {
        acc = (acc & 0xffff) + (acc >> 16);
    }
    !(acc as u16)
}

/// Writes a 20-byte IPv4 header with its checksum.
fn ipv4(out: &mut Vec<u8>, total: usize, proto: u8, src: [u8; 4], dst: [u8; 4], id: u32) {
    let start = out.len();
    out.extend_from_slice(&[0x45, 0]);
    out.extend_from_slice(&(total.min(0xffff) as u16).to_be_bytes());
    out.extend_from_slice(&(id as u16).to_be_bytes());
    out.extend_from_slice(&0x4000u16.to_be_bytes()); // don't fragment
    out.extend_from_slice(&[64, proto, 0, 0]);
    out.extend_from_slice(&src);
    out.extend_from_slice(&dst);
    let c = fold(sum16(0, &out[start..]));
    out[start + 10..start + 12].copy_from_slice(&c.to_be_bytes());
}

/// Milliseconds of simulated time, as a TCP timestamp clock (Linux ticks in ms).
fn ts_ms(t: SimTime) -> u32 {
    (t.0 / 1_000_000) as u32
}

/// Microseconds of simulated time, the clock of orbitcp's UDP headers (wraps after 71 minutes).
fn ts_us(t: SimTime) -> u32 {
    (t.0 / 1_000) as u32
}

const SYN: u8 = 0x02;
const ACK: u8 = 0x10;

/// Appends the IPv4 + TCP segment (headers and zero payload, not yet cut); returns its length.
fn tcp_segment(
    out: &mut Vec<u8>,
    at: SimTime,
    pkt: &Packet,
    flow: &FlowWire,
    src: [u8; 4],
    dst: [u8; 4],
    index: u32,
) -> usize {
    let client = CLIENT_PORT_BASE.wrapping_add(flow.id as u16);
    let from_sender = pkt.dst_node == flow.to;
    let (sport, dport) = if from_sender { (client, TCP_PORT) } else { (TCP_PORT, client) };
    // Both initial sequence numbers are 0, so byte b of the stream has sequence number b + 1.
    let mut opts: Vec<u8> = Vec::with_capacity(40);
    let timestamps = |opts: &mut Vec<u8>, val: u32, ecr: u32| {
        opts.extend_from_slice(&[1, 1, 8, 10]);
        opts.extend_from_slice(&val.to_be_bytes());
        opts.extend_from_slice(&ecr.to_be_bytes());
    };
    let handshake = |opts: &mut Vec<u8>, val: u32, ecr: u32| {
        opts.extend_from_slice(&[2, 4]);
        opts.extend_from_slice(&(flow.mss.min(0xffff) as u16).to_be_bytes());
        opts.extend_from_slice(&[4, 2, 8, 10]);
        opts.extend_from_slice(&val.to_be_bytes());
        opts.extend_from_slice(&ecr.to_be_bytes());
        opts.extend_from_slice(&[1, 3, 3, WINDOW_SCALE]);
    };
    let (seq, ack, flags, window, payload) = match &pkt.body {
        Body::TcpSyn { ts } => {
            handshake(&mut opts, ts_ms(*ts), 0);
            (0u32, 0u32, SYN, 0xffff, 0)
        }
        Body::TcpSynAck { ts_echo, wnd } => {
            handshake(&mut opts, ts_ms(at), ts_ms(*ts_echo));
            (0, 1, SYN | ACK, (*wnd).min(0xffff) as u16, 0)
        }
        Body::TcpData { seq, len, ts, ts_echo, .. } => {
            timestamps(&mut opts, ts_ms(*ts), ts_ms(*ts_echo));
            ((seq.wrapping_add(1)) as u32, 1, ACK, 0xffff, *len as usize)
        }
        Body::TcpAck { ack, sack, dsack, wnd, ts, ts_echo } => {
            timestamps(&mut opts, ts_ms(*ts), ts_ms(*ts_echo));
            sack_option(&mut opts, sack, *dsack);
            (1, (ack.wrapping_add(1)) as u32, ACK, scaled_window(*wnd), 0)
        }
        // Another transport's packet in a TCP flow cannot happen; write a bare ACK rather than fail.
        _ => (1, 1, ACK, 0, 0),
    };
    let tcp_len = 20 + opts.len() + payload;
    let total = 20 + tcp_len;
    ipv4(out, total, 6, src, dst, index);
    let t = out.len();
    out.extend_from_slice(&sport.to_be_bytes());
    out.extend_from_slice(&dport.to_be_bytes());
    out.extend_from_slice(&seq.to_be_bytes());
    out.extend_from_slice(&ack.to_be_bytes());
    out.push((((20 + opts.len()) / 4) as u8) << 4);
    out.push(flags);
    out.extend_from_slice(&window.to_be_bytes());
    out.extend_from_slice(&[0, 0, 0, 0]); // checksum, urgent pointer
    out.extend_from_slice(&opts);
    // The payload is zeros: it adds nothing to the checksum, so the header's sum is the segment's.
    let mut acc = sum16(0, &src);
    acc = sum16(acc, &dst);
    acc += 6 + tcp_len as u32;
    let c = fold(sum16(acc, &out[t..]));
    out[t + 16..t + 18].copy_from_slice(&c.to_be_bytes());
    out.resize(out.len() + payload.min(SNAPLEN as usize), 0);
    total
}

/// The window field of an ACK: bytes over 2^14, rounded up so that a small open window never
/// reads as zero; `u64::MAX` (unlimited) is the largest field.
fn scaled_window(wnd: u64) -> u16 {
    wnd.div_ceil(1 << WINDOW_SCALE).min(0xffff) as u16
}

/// NOP, NOP, SACK with the D-SACK block first (RFC 2883), then the receiver's blocks; sequence
/// numbers are bytes + 1 as everywhere in the segment.
fn sack_option(opts: &mut Vec<u8>, sack: &SackBlocks, dsack: Option<(u64, u64)>) {
    let blocks: Vec<(u64, u64)> = dsack.into_iter().chain(sack.iter()).take(3).collect();
    if blocks.is_empty() {
        return;
    }
    opts.extend_from_slice(&[1, 1, 5, (2 + 8 * blocks.len()) as u8]);
    for (l, r) in blocks {
        opts.extend_from_slice(&(l.wrapping_add(1) as u32).to_be_bytes());
        opts.extend_from_slice(&(r.wrapping_add(1) as u32).to_be_bytes());
    }
}

/// CTCP header types (docs/pcap.md §4.1).
pub const CTCP_DATA: u8 = 1;
pub const CTCP_ACK: u8 = 2;
pub const CTCP_SYN: u8 = 3;
pub const CTCP_SYN_ACK: u8 = 4;
/// INTCP header commands (docs/pcap.md §4.2).
pub const INTCP_INTEREST: u8 = 1;
pub const INTCP_DATA: u8 = 2;
/// DATA from a midnode that reads ahead: `wnd` is the headroom of its own debt to the hop.
pub const INTCP_DATA_AHEAD: u8 = 3;
/// ARQ header types (docs/pcap.md §4.3).
pub const ARQ_DATA: u8 = 1;
pub const ARQ_ACK: u8 = 2;

/// Appends the IPv4 + UDP datagram (headers and zero payload, not yet cut); returns its length.
fn udp_datagram(out: &mut Vec<u8>, pkt: &Packet, flow: &FlowWire, src: [u8; 4], dst: [u8; 4], index: u32) -> usize {
    let client = CLIENT_PORT_BASE.wrapping_add(flow.id as u16);
    let f16 = (flow.id as u16).to_be_bytes();
    let mut h: Vec<u8> = Vec::with_capacity(32);
    // Which end sends: the server port is the data source (sender, producer, responder).
    let from_server = match &pkt.body {
        Body::CtcpData { .. } | Body::TcpSyn { .. } => false,
        Body::CtcpAck { .. } | Body::TcpSynAck { .. } => true,
        Body::IntcpInterest { .. } => false,
        Body::IntcpData { .. } => true,
        Body::ArqData { .. } => false,
        _ => true,
    };
    match &pkt.body {
        Body::TcpSyn { ts } | Body::TcpSynAck { ts_echo: ts, .. } => {
            let kind = if matches!(pkt.body, Body::TcpSyn { .. }) { CTCP_SYN } else { CTCP_SYN_ACK };
            h.extend_from_slice(&[kind, 0]);
            h.extend_from_slice(&f16);
            h.extend_from_slice(&ts_us(*ts).to_be_bytes());
        }
        Body::CtcpData { seqno, block, coding, ts, .. } => {
            let (flags, coef) = match coding {
                CtcpCoding::Systematic(i) => (0, *i as u32),
                CtcpCoding::Coded(seed) => (1, *seed),
            };
            h.extend_from_slice(&[CTCP_DATA, flags]);
            h.extend_from_slice(&f16);
            h.extend_from_slice(&(*seqno as u32).to_be_bytes());
            h.extend_from_slice(&(*block as u32).to_be_bytes());
            h.extend_from_slice(&coef.to_be_bytes());
            h.extend_from_slice(&ts_us(*ts).to_be_bytes());
        }
        Body::CtcpAck { ackno, block, dofs, pkt_block, pkt_dofs, ts_echo } => {
            // The per-block fields are on the wire only when the model counts their bytes.
            let per_block = pkt.size >= 28 + 24;
            h.extend_from_slice(&[CTCP_ACK, per_block as u8]);
            h.extend_from_slice(&f16);
            h.extend_from_slice(&(*ackno as u32).to_be_bytes());
            h.extend_from_slice(&(*block as u32).to_be_bytes());
            h.extend_from_slice(&dofs.to_be_bytes());
            h.extend_from_slice(&ts_us(*ts_echo).to_be_bytes());
            if per_block {
                h.extend_from_slice(&(*pkt_block as u32).to_be_bytes());
                h.extend_from_slice(&pkt_dofs.to_be_bytes());
            }
        }
        Body::IntcpInterest { sn, start, end, rate, ts } => {
            IntcpHeader { cmd: INTCP_INTEREST, wnd_or_rate: *rate, ts: *ts, sn: *sn, len: 0, start: *start, end: *end }
                .write(&mut h);
        }
        Body::IntcpData { sn, start, end, ts, wnd, ahead, .. } => {
            let cmd = if *ahead { INTCP_DATA_AHEAD } else { INTCP_DATA };
            let len = (end - start) as u32;
            IntcpHeader { cmd, wnd_or_rate: *wnd as u16, ts: *ts, sn: *sn, len, start: *start, end: *end }
                .write(&mut h);
        }
        Body::ArqData { n, ts, .. } => {
            h.extend_from_slice(&[ARQ_DATA, 0]);
            h.extend_from_slice(&f16);
            h.extend_from_slice(&(*n as u32).to_be_bytes());
            h.extend_from_slice(&ts_us(*ts).to_be_bytes());
        }
        Body::ArqAck { cum, sel } => {
            // Flag 1: the second word is the packet this ACK answers (selective repeat).
            h.extend_from_slice(&[ARQ_ACK, sel.is_some() as u8]);
            h.extend_from_slice(&f16);
            h.extend_from_slice(&(*cum as u32).to_be_bytes());
            h.extend_from_slice(&(sel.unwrap_or(0) as u32).to_be_bytes());
        }
        Body::TcpData { .. } | Body::TcpAck { .. } => {}
    }
    let server = match flow.transport {
        Transport::Ctcp => CTCP_PORT,
        Transport::Arq => ARQ_PORT,
        Transport::Tcp | Transport::Intcp => INTCP_PORT,
    };
    let (sport, dport) = if from_server { (server, client) } else { (client, server) };
    let total = (pkt.size as usize).max(28 + h.len());
    ipv4(out, total, 17, src, dst, index);
    out.extend_from_slice(&sport.to_be_bytes());
    out.extend_from_slice(&dport.to_be_bytes());
    out.extend_from_slice(&((total - 20).min(0xffff) as u16).to_be_bytes());
    out.extend_from_slice(&[0, 0]); // no checksum (allowed over IPv4)
    out.extend_from_slice(&h);
    out.resize(out.len() + (total - 28 - h.len()).min(SNAPLEN as usize), 0);
    total
}

/// The 23-byte INTCP header: the layout of the authors' INTCP code (docs/intcp-protocol.md
/// §2.3), with the model's field widths (docs/pcap.md §4.2), in its order on the wire.
struct IntcpHeader {
    cmd: u8,
    wnd_or_rate: u16,
    ts: SimTime,
    sn: u64,
    len: u32,
    start: u64,
    end: u64,
}

impl IntcpHeader {
    fn write(&self, h: &mut Vec<u8>) {
        h.push(self.cmd);
        h.extend_from_slice(&self.wnd_or_rate.to_be_bytes());
        h.extend_from_slice(&ts_us(self.ts).to_be_bytes());
        h.extend_from_slice(&(self.sn as u32).to_be_bytes());
        h.extend_from_slice(&self.len.to_be_bytes());
        h.extend_from_slice(&(self.start as u32).to_be_bytes());
        h.extend_from_slice(&(self.end as u32).to_be_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TCP: FlowWire = FlowWire { id: 2, transport: Transport::Tcp, from: 0, to: 3, mss: 1448 };

    fn record(pkt: &Packet, flow: &FlowWire) -> Vec<u8> {
        let mut out = Vec::new();
        write_record(&mut out, SimTime(1_500_000_123), pkt, 1, flow, 7);
        out
    }

    fn pkt(dst_node: NodeId, size: u32, body: Body) -> Packet {
        Packet { flow: 0, dst_node, dst_agent: 0, size, body }
    }

    /// A checksum over bytes that include their own correct checksum folds to zero.
    fn verifies(acc: u32, bytes: &[u8]) -> bool {
        fold(sum16(acc, bytes)) == 0
    }

    #[test]
    fn the_file_header_is_nanosecond_pcap_of_raw_ip() {
        let h = file_header();
        assert_eq!(h.len(), 24);
        assert_eq!(&h[..4], &[0x4d, 0x3c, 0xb2, 0xa1]);
        assert_eq!(u32::from_le_bytes(h[20..24].try_into().unwrap()), 101);
    }

    #[test]
    fn a_data_segment_has_its_bytes_sequence_number_and_correct_checksums() {
        let p = pkt(
            3,
            1500,
            Body::TcpData {
                seq: 2896,
                len: 1448,
                digest: 0,
                first_sent: SimTime::ZERO,
                ts: SimTime(1_400_000_000),
                ts_echo: SimTime(40_000_000),
            },
        );
        let r = record(&p, &TCP);
        // Record header: 1.500000123 s, 128 bytes kept of 1500.
        assert_eq!(u32::from_le_bytes(r[0..4].try_into().unwrap()), 1);
        assert_eq!(u32::from_le_bytes(r[4..8].try_into().unwrap()), 500_000_123);
        assert_eq!(u32::from_le_bytes(r[8..12].try_into().unwrap()), SNAPLEN);
        assert_eq!(u32::from_le_bytes(r[12..16].try_into().unwrap()), 1500);
        let ip = &r[16..];
        assert_eq!(u16::from_be_bytes([ip[2], ip[3]]), 1500);
        assert_eq!((&ip[12..16], &ip[16..20]), (&[10, 0, 0, 1][..], &[10, 0, 0, 4][..]));
        assert!(verifies(0, &ip[..20]));
        let tcp = &ip[20..];
        assert_eq!(u16::from_be_bytes([tcp[0], tcp[1]]), CLIENT_PORT_BASE + 2);
        assert_eq!(u16::from_be_bytes([tcp[2], tcp[3]]), TCP_PORT);
        assert_eq!(u32::from_be_bytes(tcp[4..8].try_into().unwrap()), 2897);
        assert_eq!(tcp[12] >> 4, 8, "20 bytes + the 12-byte timestamp option");
        assert_eq!(u32::from_be_bytes(tcp[24..28].try_into().unwrap()), 1400, "TSval: when it was sent, in ms");
        assert_eq!(u32::from_be_bytes(tcp[28..32].try_into().unwrap()), 40, "TSecr");
        // The full segment's checksum: pseudo-header, header and 1448 zero bytes.
        let mut seg = tcp[..32].to_vec();
        seg.resize(1480, 0);
        let pseudo = sum16(sum16(0, &ip[12..16]), &ip[16..20]) + 6 + 1480;
        assert!(verifies(pseudo, &seg));
    }

    #[test]
    fn an_ack_carries_the_dsack_then_the_receivers_blocks_and_its_window() {
        let mut sack = SackBlocks::default();
        sack.push((5000, 6000));
        sack.push((8000, 9000));
        let p = pkt(
            0,
            52 + 28,
            Body::TcpAck {
                ack: 4000,
                sack,
                dsack: Some((100, 200)),
                wnd: 100_000,
                ts: SimTime(7_000_000),
                ts_echo: SimTime(5_000_000),
            },
        );
        let r = record(&p, &TCP);
        let ip = &r[16..];
        assert_eq!(u16::from_be_bytes([ip[2], ip[3]]) as u32, p.size, "the model's size");
        let tcp = &ip[20..];
        assert_eq!((&tcp[0..2], &tcp[2..4]), (&[0xb7, 0x98][..], &[0x27, 0x12][..]), "47000 → 10002");
        assert_eq!(u32::from_be_bytes(tcp[8..12].try_into().unwrap()), 4001);
        assert_eq!(u16::from_be_bytes([tcp[14], tcp[15]]), 7, "100000 bytes in 16 KiB units, rounded up");
        let opts = &tcp[20..(tcp[12] >> 4) as usize * 4];
        assert_eq!(&opts[..4], &[1, 1, 8, 10]);
        assert_eq!(u32::from_be_bytes(opts[4..8].try_into().unwrap()), 7, "TSval in ms");
        assert_eq!(u32::from_be_bytes(opts[8..12].try_into().unwrap()), 5, "TSecr: the data's TSval echoed");
        assert_eq!(&opts[12..16], &[1, 1, 5, 26]);
        let edges: Vec<u32> = opts[16..].chunks(4).map(|c| u32::from_be_bytes(c.try_into().unwrap())).collect();
        assert_eq!(edges, [101, 201, 5001, 6001, 8001, 9001]);
        let pseudo = sum16(sum16(0, &ip[12..16]), &ip[16..20]) + 6 + tcp.len() as u32;
        assert!(verifies(pseudo, tcp));
    }

    #[test]
    fn intcp_packets_go_from_the_hop_and_carry_the_23_byte_header() {
        let flow = FlowWire { id: 0, transport: Transport::Intcp, from: 0, to: 2, mss: 1449 };
        let p = pkt(0, 51, Body::IntcpInterest { sn: 9, start: 1449, end: 2898, rate: 250, ts: SimTime(3_000) });
        let r = record(&p, &flow);
        let ip = &r[16..];
        assert_eq!(u32::from_le_bytes(r[12..16].try_into().unwrap()), 51);
        assert_eq!(&ip[12..16], &[10, 0, 0, 2], "from the hop's node 1");
        let udp = &ip[20..];
        assert_eq!(u16::from_be_bytes([udp[2], udp[3]]), INTCP_PORT);
        assert_eq!(u16::from_be_bytes([udp[4], udp[5]]), 31);
        let h = &udp[8..];
        assert_eq!(h[0], INTCP_INTEREST);
        assert_eq!(u16::from_be_bytes([h[1], h[2]]), 250);
        assert_eq!(u32::from_be_bytes(h[3..7].try_into().unwrap()), 3, "µs");
        assert_eq!(u32::from_be_bytes(h[7..11].try_into().unwrap()), 9);
        assert_eq!(u32::from_be_bytes(h[15..19].try_into().unwrap()), 1449);
        assert_eq!(u32::from_be_bytes(h[19..23].try_into().unwrap()), 2898);
        assert!(verifies(0, &ip[..20]));
    }

    #[test]
    fn intcp_data_from_a_midnode_reading_ahead_is_command_3_with_its_debt_headroom() {
        let flow = FlowWire { id: 0, transport: Transport::Intcp, from: 0, to: 2, mss: 1449 };
        let data = |ahead| {
            let body = Body::IntcpData {
                sn: 1,
                start: 0,
                end: 1449,
                ts: SimTime(1_000),
                wnd: -3,
                digest: 0,
                first_sent: SimTime::ZERO,
                ahead,
            };
            let r = record(&pkt(2, 1500, body), &flow);
            r[16 + 28..16 + 28 + 3].to_vec()
        };
        assert_eq!(data(false)[0], INTCP_DATA);
        let ahead = data(true);
        assert_eq!(ahead[0], INTCP_DATA_AHEAD);
        assert_eq!(i16::from_be_bytes([ahead[1], ahead[2]]), -3);
    }

    #[test]
    fn a_ctcp_ack_has_per_block_fields_only_when_the_model_counts_them() {
        let flow = FlowWire { id: 1, transport: Transport::Ctcp, from: 0, to: 1, mss: 1445 };
        let body = Body::CtcpAck { ackno: 5, block: 2, dofs: 3, pkt_block: 4, pkt_dofs: 6, ts_echo: SimTime(9_000) };
        for (size, flags, header) in [(48, 0, 18), (54, 1, 24)] {
            let r = record(&pkt(0, size, body.clone()), &flow);
            let udp = &r[16 + 20..];
            assert_eq!(u16::from_be_bytes([udp[0], udp[1]]), CTCP_PORT, "from the receiver to the sender");
            assert_eq!(&udp[8..10], &[CTCP_ACK, flags]);
            if flags == 1 {
                assert_eq!(u32::from_be_bytes(udp[8 + 18..8 + 22].try_into().unwrap()), 4);
            }
            assert!(size as usize >= 28 + header);
        }
    }
}
