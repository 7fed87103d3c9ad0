//! Criterion benchmark of the path timeline (positions, visibility, +Grid ISLs, Dijkstra) from
//! Beijing to New York at 1-s steps over 10 simulated minutes, for the INTCP paper's 1600-satellite
//! shell and Starlink's 4,408-satellite first generation. A 24-h run is 144 × one iteration.

use criterion::{criterion_group, criterion_main, Criterion};
use orbitcp_core::orbit::{ground, Constellation, RouteConfig, Router, WalkerShell};
use std::hint::black_box;
use std::time::Duration;

fn timeline(c: &mut Criterion) {
    let mut g = c.benchmark_group("route_timeline_600s_1s");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    for (name, shells) in
        [("intcp_1600", vec![WalkerShell::intcp_1600()]), ("starlink_gen1_4408", WalkerShell::starlink_gen1())]
    {
        let mut con = Constellation::default();
        for s in &shells {
            con.add_walker(s).unwrap();
        }
        g.bench_function(name, |b| {
            b.iter(|| {
                let src = ground::city("Beijing").unwrap();
                let dst = ground::city("New York").unwrap();
                let mut r = Router::new(&con, src, dst, RouteConfig::default()).unwrap();
                let mut hops = 0;
                for k in 0..600 {
                    hops += r.step(k as f64).hops.len();
                }
                black_box(hops)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, timeline);
criterion_main!(benches);
