//! Packet capture (docs/pcap.md): when a run asks for it, every packet a link puts on its
//! transmitter is kept with the time its transmission starts, up to a packet limit. Turning the
//! packets into pcap bytes is `net/pcap.rs`; writing files is the caller's business.

use super::packet::{Body, Packet};
use crate::sim::SimTime;

/// The packets each link transmitted, in transmission order.
pub struct Capture {
    /// Per directional link id: (transmission start, packet).
    links: Vec<Vec<(SimTime, Packet)>>,
    limit: u64,
    recorded: u64,
    /// Packets transmitted after the limit was reached, and not kept.
    missed: u64,
}

impl Capture {
    /// A capture of `link_count` links that keeps at most `limit` packets in all, so that a long
    /// run cannot take all memory (docs/pcap.md §5).
    pub fn new(link_count: usize, limit: u64) -> Capture {
        Capture { links: (0..link_count).map(|_| Vec::new()).collect(), limit, recorded: 0, missed: 0 }
    }

    pub fn full(&self) -> bool {
        self.recorded >= self.limit
    }

    /// Keeps `pkt` as transmitted on `link` at `at`; `pkt` is None when the capture was full
    /// (the caller did not copy it), which is counted.
    pub fn record(&mut self, link: u32, at: SimTime, pkt: Option<Packet>) {
        match pkt {
            Some(p) if !self.full() => {
                if let Some(l) = self.links.get_mut(link as usize) {
                    l.push((at, p));
                    self.recorded += 1;
                }
            }
            _ => self.missed += 1,
        }
    }

    /// The copy a capture keeps: the packet without its coded payload, which the capture does
    /// not write (docs/pcap.md §4) and which would cost an allocation per packet.
    pub fn copy_of(pkt: &Packet) -> Packet {
        let body = match &pkt.body {
            Body::CtcpData { seqno, block, coding, ts, block_first_sent, .. } => Body::CtcpData {
                seqno: *seqno,
                block: *block,
                coding: *coding,
                ts: *ts,
                block_first_sent: *block_first_sent,
                payload: None,
            },
            other => other.clone(),
        };
        Packet { body, ..*pkt }
    }

    pub fn packets(&self, link: u32) -> &[(SimTime, Packet)] {
        self.links.get(link as usize).map_or(&[], |l| l.as_slice())
    }

    pub fn link_count(&self) -> usize {
        self.links.len()
    }

    pub fn recorded(&self) -> u64 {
        self.recorded
    }

    pub fn missed(&self) -> u64 {
        self.missed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::packet::CtcpCoding;

    fn data(seqno: u64) -> Packet {
        Packet {
            flow: 0,
            dst_node: 1,
            dst_agent: 1,
            size: 1500,
            body: Body::CtcpData {
                seqno,
                block: 0,
                coding: CtcpCoding::Coded(7),
                ts: SimTime(5),
                block_first_sent: SimTime(1),
                payload: Some(vec![1u8; 1445].into_boxed_slice()),
            },
        }
    }

    #[test]
    fn keeps_packets_up_to_the_limit_and_counts_the_rest() {
        let mut c = Capture::new(2, 3);
        for i in 0..5 {
            let p = (!c.full()).then(|| Capture::copy_of(&data(i)));
            c.record((i % 2) as u32, SimTime(i), p);
        }
        assert_eq!((c.recorded(), c.missed()), (3, 2));
        assert_eq!(c.packets(0).len(), 2);
        assert_eq!(c.packets(1).len(), 1);
        assert_eq!(c.packets(0)[1].0, SimTime(2));
    }

    #[test]
    fn a_copy_drops_the_coded_payload_and_keeps_the_header_fields() {
        let c = Capture::copy_of(&data(9));
        match c.body {
            Body::CtcpData { seqno, coding, ts, payload, .. } => {
                assert_eq!((seqno, coding, ts), (9, CtcpCoding::Coded(7), SimTime(5)));
                assert!(payload.is_none());
            }
            _ => panic!("a copy keeps the body's kind"),
        }
        assert_eq!(c.size, 1500);
    }
}
