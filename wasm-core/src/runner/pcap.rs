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
        // A capture lists packets in the order the links take them: hop by hop.
        self.sim.net.express = None;
    }

    /// How the capture sees each flow of this run; `first_id` numbers them (flows run alone
    /// each have a run of their own, and keep their scenario index).
    fn flow_wires(&self, first_id: u32) -> Vec<FlowWire> {
        self.scenario
            .flows
            .iter()
            .zip(&self.flows)
            .enumerate()
            .map(|(i, (flow, handle))| {
                let (s, r) = handle.report().ends();
                let (transport, mss) = match flow {
                    Flow::Tcp(t) => (Transport::Tcp, t.mss_bytes),
                    Flow::Ctcp(c) => (Transport::Ctcp, c.mss_bytes),
                    Flow::Intcp(c) => (Transport::Intcp, c.mss_bytes),
                    Flow::Arq(a) => (Transport::Arq, a.mss_bytes),
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

#[cfg(test)]
mod tests {
    use crate::runner::{run_scenario, Session};
    use crate::scenario;

    const LOSSY: &str = r#"{"version":1,"name":"t","duration_s":2,"seed":5,
        "topology":{"kind":"chain","links":[{"rate_mbps":10,"delay_ms":10,"loss":{"model":"bernoulli","p":0.03}},
                                            {"rate_mbps":5,"delay_ms":5,"buffer_pkts":20}]},
        "flows":[{"transport":"tcp","cc":"reno"},{"transport":"ctcp","variant":"v2","start_s":0.2}]}"#;

    fn captured(limit: u64) -> (Session, String) {
        let sc = scenario::parse(LOSSY).unwrap();
        let mut s = Session::new(&sc, sc.seed).unwrap();
        s.enable_capture(limit);
        while s.step() {}
        let json = serde_json::to_string(&s.result(true).unwrap()).unwrap();
        (s, json)
    }

    #[test]
    fn a_capture_changes_no_result() {
        let sc = scenario::parse(LOSSY).unwrap();
        let plain = serde_json::to_string(&run_scenario(&sc, sc.seed, true).unwrap()).unwrap();
        assert_eq!(captured(u64::MAX).1, plain);
    }

    #[test]
    fn one_file_per_link_holding_every_transmitted_packet() {
        let (s, _) = captured(u64::MAX);
        let cap = s.pcap();
        let names: Vec<&str> = cap.files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["link-0-n0-n1.pcap", "link-1-n1-n2.pcap"]);
        assert_eq!(cap.missed, 0);
        let r = s.result(false).unwrap();
        // Transmitted = delivered + lost on the channel + in flight at the end; the capture
        // holds at least what was delivered, both directions.
        for (k, f) in cap.files.iter().enumerate() {
            let delivered: u64 = r.links.iter().filter(|l| l.id / 2 == k as u32).map(|l| l.delivered_pkts).sum();
            let mut n = 0u64;
            let mut at = 24;
            while at < f.bytes.len() {
                n += 1;
                at += 16 + u32::from_le_bytes(f.bytes[at + 8..at + 12].try_into().unwrap()) as usize;
            }
            assert_eq!(at, f.bytes.len());
            assert!(n >= delivered && n > 0, "{}: {n} records, {delivered} delivered", f.name);
        }
    }

    #[test]
    fn the_limit_keeps_the_first_packets_and_counts_the_rest() {
        let (all, _) = captured(u64::MAX);
        let (cut, _) = captured(100);
        let total = all.pcap().packets;
        let c = cut.pcap();
        assert_eq!(c.packets, 100);
        assert_eq!(c.missed, total - 100);
    }
}
