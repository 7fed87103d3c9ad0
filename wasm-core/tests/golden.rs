//! Golden scenarios: every preset in `scenarios/` runs (its base point) and its compact summary
//! must equal the stored snapshot in `tests/snapshots/`, to the printed precision.
//!
//! - `UPDATE_SNAPSHOTS=1 cargo test --release --test golden` rewrites the snapshots (review the
//!   diff before committing: a changed number is a changed behaviour).
//! - `ORBITCP_CURVES=DIR` also writes each preset's traces as CSV into DIR.

use orbitcp_core::runner::{self, RunResult};
use orbitcp_core::scenario;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// `moving`: a constellation, whose route links come and go.
fn summary(r: &RunResult, moving: bool) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{} (seed {})", r.name, r.seed);
    let _ = writeln!(s, "events {} end {:.3} s fairness {:.3}", r.events, r.end_s, r.fairness_jain);
    for f in &r.flows {
        let _ = writeln!(
            s,
            "flow {} {} {}: delivered {} completed {} in {} s, goodput {:.3} Mbit/s, rtx {}, timeouts {}, owd {:.1}/{:.1}/{:.1} ms, jitter {:.2} ms",
            f.id,
            f.transport,
            f.cc,
            f.delivered_bytes,
            f.completed,
            f.completion_s.map_or("-".into(), |c| format!("{c:.3}")),
            f.goodput_mbps,
            f.retransmissions,
            f.timeouts,
            f.owd_ms.mean,
            f.owd_ms.p5,
            f.owd_ms.p95,
            f.jitter_ms
        );
        if let Some(w) = &f.wire {
            let _ = writeln!(
                s,
                "  wire: sent {} retransmitted {} spurious {} delivered {}",
                w.data_sent, w.retransmitted, w.spurious, w.delivered
            );
        }
    }
    // A constellation's route links come and go: their totals say enough.
    let links: Vec<_> = if moving { Vec::new() } else { r.links.iter().collect() };
    if moving {
        let sum = |f: &dyn Fn(&orbitcp_core::runner::LinkResult) -> u64| r.links.iter().map(f).sum::<u64>();
        let _ = writeln!(
            s,
            "{} links: delivered {}, drops {}/{}/{}/{}",
            r.links.len(),
            sum(&|l| l.delivered_pkts),
            sum(&|l| l.drops.buffer),
            sum(&|l| l.drops.loss),
            sum(&|l| l.drops.outage),
            sum(&|l| l.drops.route_change)
        );
    }
    for l in links {
        let _ = writeln!(
            s,
            "link {} {}->{}: delivered {}, drops {}/{}/{}",
            l.id, l.from, l.to, l.delivered_pkts, l.drops.buffer, l.drops.loss, l.drops.outage
        );
    }
    if let Some(p) = r.path.as_ref().filter(|_| moving) {
        let _ = writeln!(
            s,
            "path {} -> {}: {} routes, {} events, {} nodes used, unrouted {}",
            p.src,
            p.dst,
            p.routes.len(),
            p.events.len(),
            p.nodes_used,
            r.unrouted_pkts
        );
    }
    s
}

const CONSTELLATION_SECONDS: f64 = 60.0;

fn presets() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("scenarios/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_preset_matches_its_snapshot() {
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    let curves = std::env::var_os("ORBITCP_CURVES").map(PathBuf::from);
    let snap_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let mut failures = Vec::new();
    let files = presets();
    assert!(!files.is_empty(), "no presets found");
    for path in files {
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let mut sc = scenario::parse(&text).unwrap_or_else(|e| panic!("{stem}: {e}"));
        // Constellation presets run ten minutes of five flows; their first minute covers the
        // same code. Their paper shapes are checked over longer runs in tests/leo.rs.
        if matches!(sc.topology, scenario::Topology::Constellation(_)) {
            sc.duration_s = sc.duration_s.min(CONSTELLATION_SECONDS);
        }
        let r = runner::run_scenario(&sc, sc.seed, curves.is_some()).unwrap_or_else(|e| panic!("{stem}: {e}"));
        if let Some(dir) = &curves {
            std::fs::create_dir_all(dir).unwrap();
            std::fs::write(dir.join(format!("{stem}.json")), serde_json::to_string(&r).unwrap()).unwrap();
        }
        let got = summary(&r, matches!(sc.topology, scenario::Topology::Constellation(_)));
        let snap = snap_dir.join(format!("{stem}.snap"));
        if update {
            std::fs::create_dir_all(&snap_dir).unwrap();
            std::fs::write(&snap, &got).unwrap();
            continue;
        }
        match std::fs::read_to_string(&snap) {
            Ok(want) if want == got => {}
            Ok(want) => failures.push(format!("{stem}: summary changed\n--- stored\n{want}--- now\n{got}")),
            Err(_) => failures.push(format!("{stem}: no snapshot (run with UPDATE_SNAPSHOTS=1 and commit it)")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_preset_validates_with_its_sweep() {
    for path in presets() {
        let text = std::fs::read_to_string(&path).unwrap();
        runner::validate_json(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}
