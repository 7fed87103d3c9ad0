//! A chain's network from its link specs: rates, delays, buffers, loss, schedules, outages.

use crate::net::{Buffer, Link, LinkConfig, LossAt, LossProcess, Network, Outages, RateSchedule};
use crate::scenario::{LinkSpec, LossAtSpec, LossSpec, OutagesSpec, RateScheduleSpec};
use crate::sim::{Rng, SimDuration, SimTime, Stream};

/// The network of a chain: node i joined to node i+1 by link `links[i]`, both directions.
pub(super) fn chain_network(links: &[LinkSpec], seed: u64, points: usize) -> Network {
    let mut net_links = Vec::with_capacity(links.len() * 2);
    for (i, spec) in links.iter().enumerate() {
        let i = i as u32;
        for reverse in [false, true] {
            let id = 2 * i + reverse as u32;
            let (from, to) = if reverse { (i + 1, i) } else { (i, i + 1) };
            net_links.push(Link::new(
                id,
                from,
                to,
                link_config(spec, reverse),
                Rng::new(seed, Stream::LinkLoss { link: i, reverse }),
                Rng::new(seed, Stream::LinkJitter { link: i, reverse }),
                points,
            ));
        }
    }
    Network::new(links.len() as u32 + 1, net_links)
}

fn loss_process(spec: &Option<LossSpec>) -> LossProcess {
    spec.clone().map_or(LossProcess::NONE, LossProcess::new)
}

fn link_config(spec: &LinkSpec, reverse: bool) -> LinkConfig {
    let mbps = |m: f64| m * 1e6;
    let rate = if reverse {
        RateSchedule::Constant(mbps(spec.reverse_rate_mbps.unwrap_or(spec.rate_mbps)))
    } else {
        match &spec.rate_schedule {
            None => RateSchedule::Constant(mbps(spec.rate_mbps)),
            Some(RateScheduleSpec::Steps(steps)) => {
                RateSchedule::Steps(steps.iter().map(|s| (SimTime::from_secs_f64(s.at_s), mbps(s.rate_mbps))).collect())
            }
            Some(RateScheduleSpec::Square { square }) => RateSchedule::Square {
                low: mbps(square.low_mbps),
                high: mbps(square.high_mbps),
                period: SimDuration::from_secs_f64(square.period_s),
            },
        }
    };
    let buffer = match (spec.buffer_pkts, spec.buffer_bytes) {
        (Some(p), _) => Buffer::Packets(p),
        (None, Some(b)) => Buffer::Bytes(b),
        (None, None) => Buffer::Unlimited,
    };
    let outages = match &spec.outages {
        None => Outages::None,
        Some(OutagesSpec::List(list)) => {
            let mut v: Vec<_> = list
                .iter()
                .map(|o| (SimTime::from_secs_f64(o.start_s), SimTime::from_secs_f64(o.start_s + o.duration_s)))
                .collect();
            v.sort();
            Outages::List(v)
        }
        Some(OutagesSpec::Periodic(o)) => Outages::Periodic {
            every: SimDuration::from_secs_f64(o.every_s),
            duration: SimDuration::from_secs_f64(o.duration_s),
            first: SimTime::from_secs_f64(o.first_s.unwrap_or(o.every_s)),
        },
    };
    LinkConfig {
        rate,
        delay: SimDuration::from_secs_f64(spec.delay_ms / 1e3),
        buffer,
        jitter: SimDuration::from_secs_f64(spec.jitter_ms / 1e3),
        reorder: spec.jitter_reorder,
        loss: loss_process(if reverse { &spec.reverse_loss } else { &spec.loss }),
        loss_at: match spec.loss_at {
            LossAtSpec::Channel => LossAt::Channel,
            LossAtSpec::Ingress => LossAt::Ingress,
        },
        outages,
        motion: None,
    }
}
