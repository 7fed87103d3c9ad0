//! Criterion benchmarks of the hot paths: the standard transfer end to end, the event queue,
//! and the content digest both ends compute per segment. `orbitcp bench` prints the issue's
//! headline figures (events per second, wall time, the Fig. 2 sweep); these track regressions.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use orbitcp_core::content::Content;
use orbitcp_core::runner;
use orbitcp_core::scenario;
use orbitcp_core::sim::{EventQueue, SimTime};
use std::hint::black_box;

const TRANSFER: &str = include_str!("../../scenarios/bench-cubic-20mb.json");

fn transfer(c: &mut Criterion) {
    let sc = scenario::parse(TRANSFER).expect("the benchmark scenario is valid");
    let mut g = c.benchmark_group("transfer");
    g.sample_size(20);
    g.throughput(Throughput::Bytes(20_000_000));
    g.bench_function("cubic_20mb_rtt500_per1pct", |b| {
        b.iter(|| black_box(runner::run_scenario(&sc, sc.seed, false).expect("runs")))
    });
    g.finish();
}

fn event_queue(c: &mut Criterion) {
    let mut g = c.benchmark_group("event_queue");
    g.throughput(Throughput::Elements(1000));
    g.bench_function("schedule_pop_1000_with_500_pending", |b| {
        let mut q = EventQueue::new();
        for i in 0..500u64 {
            q.schedule(SimTime(i * 7919 % 10_000), i);
        }
        let mut t = 10_000u64;
        b.iter(|| {
            for i in 0..1000u64 {
                t += 13;
                q.schedule(SimTime(t + i % 97 * 1000), i);
                black_box(q.pop());
            }
        })
    });
    g.finish();
}

fn digest(c: &mut Criterion) {
    let content = Content::new(1, 0);
    let mut g = c.benchmark_group("content_digest");
    g.throughput(Throughput::Bytes(1448));
    // A new offset each time: the digest of a range already computed is remembered.
    let mut offset = 0u64;
    g.bench_function("segment_1448", |b| {
        b.iter(|| {
            offset += 1448;
            black_box(content.digest(black_box(offset), 1448))
        })
    });
    g.finish();
}

criterion_group!(benches, transfer, event_queue, digest);
criterion_main!(benches);
