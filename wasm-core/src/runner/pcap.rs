//! A run's packet capture as pcap files, one per link: both directions of a link in one file
//! (docs/pcap.md §1). The CLI writes them to a directory; the browser offers one for download.

use super::Run;
use crate::net::pcap::{file_header, write_record, FlowWire, Transport};
use crate::net::{Capture, NodeId, Packet};
use crate::scenario::Flow;
use crate::sim::SimTime;

/// Packets a capture keeps, over all links, unless the caller asks otherwise: about 130 MB of
/// packets in memory, a few minutes of a saturated 100 Mbit/s link (docs/pcap.md §5).
pub const DEFAULT_PCAP_LIMIT: u64 = 1_000_000;

/// One link's capture file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PcapFile {
    /// `link-K-nA-nB.pcap`: the K-th link (a chain's `topology.links[K]`), from node A to node B
    /// (its forward direction).
    pub name: String,
    pub bytes: Vec<u8>,
}

/// The files of a run, and how much of it they hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PcapCapture {
    pub files: Vec<PcapFile>,
    /// Packets written, over all files.
    pub packets: u64,
    /// Packets transmitted after the capture's limit was reached, which no file holds.
    pub missed: u64,
}

impl Run {
    /// Makes the links keep every packet they transmit, up to `limit` packets in all. Call
    /// before the run starts; a run without it records nothing and costs nothing more.
    pub fn enable_capture(&mut self, limit: u64) {
        let links = self.sim.net.links.len();
        self.sim.net.capture = Some(Box::new(Capture::new(links, limit)));
    }

    /// How the capture sees each flow of this run; `first_id` numbers them (flows run alone
    /// each have a run of their own, and keep their scenario index).
    fn flow_wires(&self, first_id: u32) -> Vec<FlowWire> {
        self.scenario
            .flows
            .iter()
            .zip(&self.flow_agents)
            .enumerate()
            .map(|(i, (flow, &(s, r)))| {
                let (transport, mss) = match flow {
                    Flow::Tcp(t) => (Transport::Tcp, t.mss_bytes),
                    Flow::Ctcp(c) => (Transport::Ctcp, c.mss_bytes),
                    Flow::Intcp(c) => (Transport::Intcp, c.mss_bytes),
                };
                FlowWire {
                    id: first_id + i as u32,
                    transport,
                    from: self.sim.agent_node[s as usize],
                    to: self.sim.agent_node[r as usize],
                    mss,
                }
            })
            .collect()
    }
}

/// One packet to write: when, what, from which node, of which flow.
type Entry<'a> = (SimTime, &'a Packet, NodeId, FlowWire);

/// The pcap files of `runs` (a session's simulations), one per link that transmitted anything.
pub(super) fn pcap_files(runs: &[Run]) -> PcapCapture {
    let missed = runs.iter().filter_map(|r| r.sim.net.capture.as_deref()).map(Capture::missed).sum();
    let mut out = PcapCapture { missed, ..PcapCapture::default() };
    let pairs = runs.iter().map(|r| r.sim.net.links.len().div_ceil(2)).max().unwrap_or(0);
    let mut first_ids = Vec::with_capacity(runs.len());
    let mut next = 0u32;
    for r in runs {
        first_ids.push(next);
        next += r.scenario.flows.len() as u32;
    }
    let wires: Vec<Vec<FlowWire>> = runs.iter().zip(&first_ids).map(|(r, &id)| r.flow_wires(id)).collect();
    for k in 0..pairs {
        let mut entries: Vec<Entry> = Vec::new();
        let mut name = None;
        for (r, w) in runs.iter().zip(&wires) {
            let Some(cap) = r.sim.net.capture.as_deref() else { continue };
            for id in [2 * k, 2 * k + 1] {
                let Some(link) = r.sim.net.links.get(id) else { continue };
                if id == 2 * k && name.is_none() {
                    name = Some(format!("link-{k}-n{}-n{}.pcap", link.from, link.to));
                }
                for (at, p) in cap.packets(id as u32) {
                    if let Some(flow) = w.get(p.flow as usize) {
                        entries.push((*at, p, link.from, *flow));
                    }
                }
            }
        }
        if entries.is_empty() {
            continue;
        }
        // Stable: at equal times, the forward direction's packets come first, each in order.
        entries.sort_by_key(|e| e.0);
        let mut bytes = file_header();
        for (i, (at, p, hop_from, flow)) in entries.iter().enumerate() {
            write_record(&mut bytes, *at, p, *hop_from, flow, i as u32);
        }
        out.packets += entries.len() as u64;
        out.files.push(PcapFile { name: name.unwrap_or_else(|| format!("link-{k}.pcap")), bytes });
    }
    out
}
