//! Packets as they cross links. Kept small and free of heap data so the hot path never allocates.

use crate::sim::SimTime;

/// Bytes of IPv4 + TCP headers with the timestamp option, as Linux sends them (20 + 20 + 12).
pub const TCP_IP_HEADER_BYTES: u32 = 52;
/// Bytes of a SYN or SYN-ACK with MSS, SACK-permitted, timestamp and window-scale options.
pub const TCP_SYN_BYTES: u32 = 60;

/// Index of a node in the network.
pub type NodeId = u32;
/// Index of an agent (a transport endpoint or per-hop function) in the simulation.
pub type AgentId = u32;

#[derive(Clone, Debug)]
pub struct Packet {
    pub flow: u32,
    pub dst_node: NodeId,
    pub dst_agent: AgentId,
    /// Size on the wire in bytes, headers included: this is what occupies link capacity.
    pub size: u32,
    pub body: Body,
}

impl Packet {
    /// The connection-opening SYN both TCP and CTCP senders send, stamped for the RTT sample.
    pub fn syn(flow: u32, dst_node: NodeId, dst_agent: AgentId, ts: SimTime) -> Packet {
        Packet { flow, dst_node, dst_agent, size: TCP_SYN_BYTES, body: Body::TcpSyn { ts } }
    }

    /// The receiver's answer to a SYN, echoing its timestamp.
    pub fn syn_ack(flow: u32, dst_node: NodeId, dst_agent: AgentId, ts_echo: SimTime, wnd: u64) -> Packet {
        Packet { flow, dst_node, dst_agent, size: TCP_SYN_BYTES, body: Body::TcpSynAck { ts_echo, wnd } }
    }
}

/// How a packet in a link's pipeline goes on from the far end when that node only forwards it
/// (`engine::forward`, the express path).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Transit {
    /// Its next link is chosen when it arrives: where express is off, or its next hop leads to an
    /// agent's node.
    #[default]
    Free,
    /// It crosses the forwarding nodes one event per hop, and the express path waits for it: the
    /// number says which packet it is (`net::express::Express`).
    HopByHop(u64),
}

/// Up to three SACK blocks (RFC 2018 allows three with timestamps), as byte ranges `[start, end)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackBlocks {
    pub len: u8,
    pub blocks: [(u64, u64); 3],
}

impl SackBlocks {
    pub fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.blocks[..self.len as usize].iter().copied()
    }
    pub fn push(&mut self, b: (u64, u64)) {
        if (self.len as usize) < self.blocks.len() {
            self.blocks[self.len as usize] = b;
            self.len += 1;
        }
    }
    /// Option bytes on the wire: kind, length and 8 bytes per block, padded to 4.
    pub fn wire_bytes(&self) -> u32 {
        Self::option_bytes(self.len as u32)
    }

    /// Option bytes of a SACK option with `blocks` blocks (D-SACK included).
    pub fn option_bytes(blocks: u32) -> u32 {
        if blocks == 0 {
            0
        } else {
            (2 + 8 * blocks).div_ceil(4) * 4
        }
    }
}

#[derive(Clone, Debug)]
pub enum Body {
    /// Opens a connection; `ts` is the sender's timestamp (echoed back for the RTT sample).
    TcpSyn { ts: SimTime },
    TcpSynAck {
        ts_echo: SimTime,
        /// The receive window the receiver advertises, in bytes.
        wnd: u64,
    },
    TcpData {
        seq: u64,
        len: u32,
        /// Digest of the payload bytes the sender put in this segment (see `content`).
        digest: u64,
        /// When the sender first sent these bytes: one-way delay counts retransmission delays.
        first_sent: SimTime,
        /// The sender's timestamp (RFC 7323 TSval): when this transmission left.
        ts: SimTime,
        /// The timestamp echo (RFC 7323 TSecr): the `ts` of the latest ACK the sender had seen,
        /// from which the receiver measures its RTT for window autotuning.
        ts_echo: SimTime,
    },
    TcpAck {
        ack: u64,
        sack: SackBlocks,
        /// A D-SACK block (RFC 2883): a segment the receiver got twice.
        dsack: Option<(u64, u64)>,
        /// The receive window from `ack` on, in bytes (`u64::MAX`: unlimited).
        wnd: u64,
        /// The receiver's timestamp (RFC 7323 TSval).
        ts: SimTime,
        /// The timestamp echo (RFC 7323 TSecr): the receiver's TS.Recent, the TSval of the
        /// latest segment at or below the last ACK it sent (§4.3), so that a retransmission's
        /// ACK tells whether the original or the retransmission arrived (Eifel, RFC 3522).
        ts_echo: SimTime,
    },
    /// A CTCP data packet: a fresh `seqno` per transmission, for `block`, systematic or coded.
    CtcpData {
        seqno: u64,
        block: u64,
        coding: CtcpCoding,
        /// Send time, echoed in the ACK for the RTT sample.
        ts: SimTime,
        /// When the sender first sent a packet of this block (delay of decoded packets).
        block_first_sent: SimTime,
        /// Coded payload bytes; `None` in rank-only mode (the wire size is the same).
        payload: Option<Box<[u8]>>,
    },
    CtcpAck {
        ackno: u64,
        /// Lowest block the receiver has not decoded, and the degrees of freedom it holds for it.
        block: u64,
        dofs: u16,
        /// The block of the packet acknowledged and the degrees of freedom the receiver holds for
        /// it after that packet (its length if already decoded). Used only with per-block
        /// feedback (the reference code's ACK has the two fields above only).
        pkt_block: u64,
        pkt_dofs: u16,
        ts_echo: SimTime,
    },
    /// An INTCP INTEREST for bytes `[start, end)` of the flow (docs/intcp-protocol.md §2.2/§2.3); `[0, 0)` is a
    /// rate refresh that is not forwarded. `rate` is the send rate the hop's requester asks of
    /// its responder, in 0.01 Mbit/s; `ts` the requester's send time; `sn` its per-hop number.
    IntcpInterest { sn: u64, start: u64, end: u64, rate: u16, ts: SimTime },
    /// An INTCP DATA segment `[start, end)`. `ts` is the responder's back-dated send time
    /// (now − the interest one-way delay, §5.1), `sn` the responder's per-hop number, `wnd` the
    /// producer's send-queue headroom in MSS (0 from caches), `digest` the digest of the bytes
    /// and `first_sent` when the producer first sent them (one-way delay counts recovery).
    /// `ahead`: the responder is a midnode reading ahead, and `wnd` is the headroom of its own
    /// debt to this hop (`intcp/readahead.rs`); one bit the authors' header does not have.
    IntcpData { sn: u64, start: u64, end: u64, ts: SimTime, wnd: i16, digest: u64, first_sent: SimTime, ahead: bool },
    /// An ARQ data packet (docs/arq.md): packet number `n` of the flow with `len` payload bytes,
    /// `digest` their digest, `first_sent` when packet `n` was first sent and `ts` when this copy was.
    ArqData { n: u64, len: u32, digest: u64, first_sent: SimTime, ts: SimTime },
    /// An ARQ acknowledgement: `cum` is the next packet the receiver expects in order (every
    /// packet below it is acknowledged); `sel`, with selective repeat, the packet that this ACK
    /// answers.
    ArqAck { cum: u64, sel: Option<u64> },
}

impl Body {
    /// A packet that carries the flow's payload (data of any transport), as opposed to control
    /// packets and acknowledgements.
    pub fn is_data(&self) -> bool {
        matches!(self, Body::TcpData { .. } | Body::CtcpData { .. } | Body::IntcpData { .. } | Body::ArqData { .. })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CtcpCoding {
    /// Source packet `index` of the block, uncoded.
    Systematic(u16),
    /// A dense combination of the whole block, coefficients from this seed.
    Coded(u32),
}
