//! Forwarding: a packet at a node goes onto its next link towards its destination, and, where the
//! run allows it, across the nodes that only forward it without an event per hop (the express
//! path: `net::express` says when that gives the hop-by-hop result bit for bit).

use super::event::Event;
use crate::net::{Capture, Network, NodeId, Packet, Transit, MAX_PACKETS_IN_NETWORK};
use crate::sim::{EventQueue, SimTime};

/// Puts `pkt`, sent by an agent at node `at`, onto the next link towards its destination.
#[inline(always)]
pub fn route(net: &mut Network, queue: &mut EventQueue<Event>, now: SimTime, at: NodeId, pkt: Packet) {
    forward(net, queue, now, at, pkt, Transit::Free);
}

/// Sends `pkt` on from node `at`: sent there by an agent (`Transit::Free`), or arrived there
/// with `transit`. Inlined into its two callers (an agent's send, an arrival at a node that
/// forwards), like [`enqueue`], so that a packet is not copied at each call on its way into the
/// link's pipeline: it is 128 bytes, and an INTCP run sends one per hop.
#[inline(always)]
pub fn forward(
    net: &mut Network,
    queue: &mut EventQueue<Event>,
    now: SimTime,
    at: NodeId,
    pkt: Packet,
    transit: Transit,
) {
    // A packet without a route is dropped: validation guarantees connected endpoints on a chain;
    // a constellation may have no path for a while.
    let Some(l) = net.next_link(now, at, pkt.dst_node) else {
        net.unrouted += 1;
        if let (Some(ex), Transit::HopByHop(n)) = (net.express.as_deref_mut(), transit) {
            ex.finish(n, pkt.dst_node);
        }
        return;
    };
    let next = net.links[l as usize].to;
    let Some(ex) = net.express.as_deref_mut() else {
        enqueue(net, queue, now, l, pkt, Transit::Free);
        return;
    };
    if next == pkt.dst_node || !ex.forward_only(next) {
        // An agent handles the packet at the next node: nothing further to wait for.
        if let Transit::HopByHop(n) = transit {
            ex.finish(n, pkt.dst_node);
        }
        enqueue(net, queue, now, l, pkt, Transit::Free);
        return;
    }
    let dst = pkt.dst_node;
    let ahead = match transit {
        Transit::Free => ex.may_send_ahead(dst, now),
        Transit::HopByHop(n) => ex.may_switch(n, dst, now),
    };
    if ahead {
        if let Transit::HopByHop(n) = transit {
            ex.finish(n, dst);
        }
        send_ahead(net, queue, now, l, pkt);
        return;
    }
    let n = match transit {
        Transit::HopByHop(n) => n,
        Transit::Free => ex.start_hop_by_hop(ex.route_at(now).0, dst),
    };
    if !enqueue(net, queue, now, l, pkt, Transit::HopByHop(n)) {
        if let Some(ex) = net.express.as_deref_mut() {
            ex.finish(n, dst);
        }
    }
}

/// The express path: `pkt` enters link `first` at `now` and crosses every following node that only
/// forwards it, each link at the time the packet reaches it, and waits in the link before the
/// next agent's node. It stops early, to go on hop by hop, where the route may change.
fn send_ahead(net: &mut Network, queue: &mut EventQueue<Event>, now: SimTime, first: u32, pkt: Packet) {
    let Some(ex) = net.express.as_deref() else { return };
    let (route, until) = ex.route_at(now);
    // Until `until` the route does not change, so the packet's way is a walk along it.
    let mut walk = net.moving.as_ref().and_then(|m| m.walk(now, net.links[first as usize].to, pkt.dst_node));
    let (mut l, mut t) = (first, now);
    loop {
        let Some(arrival) = accept(net, t, l, &pkt) else { return };
        let at = net.links[l as usize].to;
        let next = match (&mut walk, &net.moving) {
            _ if arrival >= until => None,
            (Some(walk), Some(m)) => m.step(walk),
            _ => net.next_link(arrival, at, pkt.dst_node),
        };
        let Some(ex) = net.express.as_deref_mut() else { return };
        let transit = match next {
            Some(n) => {
                let to = net.links[n as usize].to;
                if to != pkt.dst_node && ex.forward_only(to) {
                    ex.hops_skipped += 1;
                    net.links[l as usize].pass(&pkt);
                    (l, t) = (n, arrival);
                    continue;
                }
                Transit::Free
            }
            // A route change, the end of the run, or no route on: the packet goes on hop by hop,
            // and later packets wait for it.
            None => Transit::HopByHop(ex.start_hop_by_hop(route, pkt.dst_node)),
        };
        if let Some(due) = net.links[l as usize].hold(arrival, pkt, transit) {
            queue.schedule(due, Event::Arrive { link: l });
        }
        net.in_transit += 1;
        return;
    }
}

/// Offers `pkt` to link `l` at `t` and holds it there unless the link drops it; false if it
/// does.
#[inline(always)]
fn enqueue(
    net: &mut Network,
    queue: &mut EventQueue<Event>,
    t: SimTime,
    l: u32,
    pkt: Packet,
    transit: Transit,
) -> bool {
    // The copy is taken before the link takes the packet, and kept only if the link transmits it.
    let copy = net.capture.as_ref().map(|c| (!c.full()).then(|| Capture::copy_of(&pkt)));
    let arrival = accept(net, t, l, &pkt);
    let link = &mut net.links[l as usize];
    if let (Some(copy), Some(cap), Some(at)) = (copy, &mut net.capture, link.tx_start) {
        cap.record(l, at, copy);
    }
    let Some(arrival) = arrival else { return false };
    if let Some(due) = link.hold(arrival, pkt, transit) {
        queue.schedule(due, Event::Arrive { link: l });
    }
    net.in_transit += 1;
    true
}

/// [`crate::net::Link::accept`], keeping the network's count of held packets.
fn accept(net: &mut Network, t: SimTime, l: u32, pkt: &Packet) -> Option<SimTime> {
    let room = net.in_transit < MAX_PACKETS_IN_NETWORK;
    let link = &mut net.links[l as usize];
    let held = link.held();
    let arrival = link.accept(t, pkt, room);
    net.in_transit = net.in_transit + link.held() - held;
    arrival
}
