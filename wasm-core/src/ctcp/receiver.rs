//! The CTCP receiver (docs/ctcp.md §4; CTCP-code `bldack`, `partial_write`, `unwrap`):
//! progressive Gaussian elimination per block, in-order delivery of what is decoded (unit rows
//! early, the rest when the block is full rank), and one ACK per packet carrying the lowest
//! undecoded block and its degrees of freedom.
//!
//! With payloads, every delivered packet's bytes are compared with the flow's seeded content:
//! a decoding error is a delivery error, never a silent number.

use super::sender::CTCP_ACK_BYTES;
use super::{block_seed, Layout};
use crate::coding::gf256::{default_field, Field};
use crate::coding::rlnc::{coefficients, Decoder, Reception};
use crate::content::Content;
use crate::delivery::Delivery;
use crate::engine::Ctx;
use crate::metrics::{DelayStats, DeliveryLog, Trace};
use crate::net::{AgentId, Body, CtcpCoding, NodeId, Packet};
use crate::sim::{SimDuration, SimTime};
use std::collections::VecDeque;

struct BlockRx {
    decoder: Decoder,
    /// Earliest `block_first_sent` seen: where a decoded packet's delay starts.
    first_sent: SimTime,
    /// Send time of each systematic packet received (its own delay if it is delivered as is).
    systematic_sent: Vec<Option<SimTime>>,
}

#[derive(Clone, Debug, Default)]
pub struct CodingStats {
    /// Data packets received.
    pub received: u64,
    /// Received systematic packets that added a degree of freedom.
    pub innovative_systematic: u64,
    /// Received coded packets that added a degree of freedom: each stands in for a lost one.
    pub innovative_coded: u64,
    /// Received packets that added no degree of freedom: in the span of what the block already
    /// had, or for a block already decoded (or beyond the receive window).
    pub non_innovative: u64,
    pub blocks_decoded: u64,
    pub source_packets_delivered: u64,
    /// From the first transmission of a block to its full decoding.
    pub decode_latency: DelayStats,
}

/// What a CTCP receiver is built from.
pub struct CtcpReceiverConfig {
    pub flow: u32,
    /// Where the ACKs go: the sender's node and agent.
    pub peer_node: NodeId,
    pub peer_agent: AgentId,
    pub content: Content,
    pub layout: Layout,
    /// Blocks the receiver accepts ahead of the lowest undecoded one.
    pub max_blocks: u32,
    /// Decode real payload bytes (false: rank-only, as the sender's `CtcpConfig::payload`).
    pub payload: bool,
    /// The run's seed, from which each block's coefficients are drawn as the sender draws them.
    pub run_seed: u64,
    /// Points kept by each of the receiver's traces.
    pub trace_points: usize,
    /// The width of a goodput bin.
    pub bin_width: SimDuration,
}

pub struct CtcpReceiver {
    pub flow: u32,
    peer_node: NodeId,
    peer_agent: AgentId,
    content: Content,
    field: &'static Field,
    layout: Layout,
    max_blocks: u32,
    payload: bool,
    run_seed: u64,
    /// Wire size of an ACK (larger with per-block feedback).
    ack_bytes: u32,
    curr_block: u64,
    /// Packets of `curr_block` already delivered.
    delivered_in_block: u32,
    blocks: VecDeque<Option<BlockRx>>,
    coeffs: Vec<u8>,
    pub stats: CodingStats,
    pub delivery: Delivery,
    /// (rank of the current block, block number) over time.
    pub rank_trace: Trace<2>,
    /// Decode events: (block, latency in ms).
    pub decode_trace: Trace<2>,
}

impl CtcpReceiver {
    pub fn new(cfg: CtcpReceiverConfig) -> CtcpReceiver {
        let CtcpReceiverConfig {
            flow,
            peer_node,
            peer_agent,
            content,
            layout,
            max_blocks,
            payload,
            run_seed,
            trace_points,
            bin_width,
        } = cfg;
        CtcpReceiver {
            flow,
            peer_node,
            peer_agent,
            content,
            field: default_field(),
            layout,
            max_blocks,
            payload,
            run_seed,
            ack_bytes: CTCP_ACK_BYTES,
            curr_block: 0,
            delivered_in_block: 0,
            blocks: VecDeque::new(),
            coeffs: vec![0; layout.k as usize],
            stats: CodingStats::default(),
            delivery: Delivery::new(flow, layout.bytes, DeliveryLog::new(Trace::new(trace_points), bin_width))
                .without_arrivals(),
            rank_trace: Trace::new(trace_points),
            decode_trace: Trace::new(trace_points),
        }
    }

    /// Sets the wire size of the ACKs (per-block feedback adds a block number and a count).
    pub fn with_ack_bytes(mut self, bytes: u32) -> CtcpReceiver {
        self.ack_bytes = bytes;
        self
    }

    fn fail(&mut self, msg: String) {
        self.delivery.fail(msg);
    }

    pub fn on_packet(&mut self, ctx: &mut Ctx, pkt: Packet) {
        match pkt.body {
            Body::TcpSyn { ts } => ctx.send(Packet::syn_ack(self.flow, self.peer_node, self.peer_agent, ts, u64::MAX)),
            Body::CtcpData { seqno, block, coding, ts, block_first_sent, payload } => {
                self.stats.received += 1;
                self.receive(ctx.now, block, coding, ts, block_first_sent, payload.as_deref());
                let dofs = self.current_rank() as u16;
                let pkt_dofs = self.rank_of(block) as u16;
                ctx.send(Packet {
                    flow: self.flow,
                    dst_node: self.peer_node,
                    dst_agent: self.peer_agent,
                    size: self.ack_bytes,
                    body: Body::CtcpAck {
                        ackno: seqno + 1,
                        block: self.curr_block,
                        dofs,
                        pkt_block: block,
                        pkt_dofs,
                        ts_echo: ts,
                    },
                });
            }
            _ => {}
        }
    }

    fn current_rank(&self) -> usize {
        self.blocks.front().and_then(|b| b.as_ref()).map_or(0, |b| b.decoder.rank())
    }

    /// Degrees of freedom held for `block`: its length once decoded, 0 beyond the window.
    fn rank_of(&self, block: u64) -> usize {
        if block < self.curr_block {
            return self.layout.block_len(block) as usize;
        }
        let idx = (block - self.curr_block) as usize;
        self.blocks.get(idx).and_then(|b| b.as_ref()).map_or(0, |b| b.decoder.rank())
    }

    fn receive(
        &mut self,
        now: SimTime,
        block: u64,
        coding: CtcpCoding,
        ts: SimTime,
        first_sent: SimTime,
        payload: Option<&[u8]>,
    ) {
        // Older blocks are acknowledged but ignored; blocks beyond the window too.
        if block < self.curr_block
            || block >= self.curr_block + self.max_blocks as u64
            || block >= self.layout.total_blocks()
        {
            self.stats.non_innovative += 1;
            return;
        }
        let idx = (block - self.curr_block) as usize;
        while self.blocks.len() <= idx {
            self.blocks.push_back(None);
        }
        let len = self.layout.block_len(block) as usize;
        let sym = if self.payload { self.layout.symbol_len as usize } else { 0 };
        let field = self.field;
        let rx = self.blocks[idx].get_or_insert_with(|| BlockRx {
            decoder: Decoder::new(field, len, sym),
            first_sent,
            systematic_sent: vec![None; len],
        });
        rx.first_sent = rx.first_sent.min(first_sent);
        let empty: &[u8] = &[];
        let data = if self.payload {
            match payload {
                Some(p) if p.len() == sym => p,
                _ => {
                    self.fail(format!("block {block}: a packet without its {sym} payload bytes"));
                    return;
                }
            }
        } else {
            empty
        };
        let reception = match coding {
            CtcpCoding::Systematic(i) if (i as usize) < len => {
                rx.systematic_sent[i as usize] = Some(ts);
                rx.decoder.add_systematic(i as usize, data)
            }
            CtcpCoding::Systematic(i) => {
                self.fail(format!("block {block}: systematic index {i} beyond its {len} packets"));
                return;
            }
            CtcpCoding::Coded(seed) => {
                coefficients(block_seed(self.run_seed, self.flow, block), seed, len, &mut self.coeffs[..len]);
                rx.decoder.add(&self.coeffs[..len], data)
            }
        };
        match (reception, coding) {
            (Reception::NonInnovative, _) => self.stats.non_innovative += 1,
            (Reception::Innovative, CtcpCoding::Systematic(_)) => self.stats.innovative_systematic += 1,
            (Reception::Innovative, CtcpCoding::Coded(_)) => self.stats.innovative_coded += 1,
        }
        self.deliver(now);
        self.rank_trace.record(now, [self.current_rank() as f64, self.curr_block as f64]);
    }

    /// Delivers what the current block has decoded, in order; completes blocks.
    fn deliver(&mut self, now: SimTime) {
        loop {
            let Some(Some(rx)) = self.blocks.front() else { return };
            let len = self.layout.block_len(self.curr_block);
            let ready = rx.decoder.decoded_prefix() as u32;
            while self.delivered_in_block < ready {
                let i = self.delivered_in_block;
                let (offset, n) = self.layout.packet_range(self.curr_block, i);
                let rx = self.blocks[0].as_ref().expect("checked above");
                let bytes_ok = !self.payload
                    || rx
                        .decoder
                        .symbol(i as usize)
                        .is_some_and(|bytes| self.content.matches_bytes(offset, &bytes[..n as usize]));
                let sent = rx.systematic_sent[i as usize].unwrap_or(rx.first_sent);
                if !bytes_ok {
                    let b = self.curr_block;
                    self.fail(format!("block {b}: packet {i} decoded to bytes that differ from what was sent"));
                }
                self.stats.source_packets_delivered += 1;
                self.delivery.deliver(now, sent, n as u64);
                self.delivered_in_block += 1;
            }
            if self.delivered_in_block < len {
                return;
            }
            let rx = self.blocks.pop_front().flatten().expect("a complete block");
            let latency = now - rx.first_sent;
            self.stats.blocks_decoded += 1;
            self.stats.decode_latency.record(now, latency);
            self.decode_trace.record(now, [self.curr_block as f64, latency.as_millis_f64()]);
            self.curr_block += 1;
            self.delivered_in_block = 0;
            if self.curr_block >= self.layout.total_blocks() {
                return;
            }
        }
    }
}
