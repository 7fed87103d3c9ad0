//! The paper-reproduction presets in `scenarios/` must keep the SHAPES they are documented to
//! show (scenarios/README.md). Every tolerance comes with its reason. Where the simulator
//! disagrees with a paper, the test does not assert the paper's value; the README explains it.

mod common;
use common::{at, column};
use orbitcp_core::runner::{run_job, run_scenario, sweep_jobs, RunResult, SweepJob};
use orbitcp_core::scenario::{self, Scenario};
use serde_json::Value;
use std::collections::BTreeMap;

macro_rules! preset {
    ($file:literal) => {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios/", $file))
    };
}

fn parse(text: &str) -> Scenario {
    scenario::parse(text).unwrap_or_else(|e| panic!("invalid preset: {e}"))
}

fn run_seed(sc: &Scenario, seed: u64, traces: bool) -> RunResult {
    run_scenario(sc, seed, traces).unwrap_or_else(|e| panic!("run failed: {e}"))
}

fn run(sc: &Scenario, traces: bool) -> RunResult {
    run_seed(sc, sc.seed, traces)
}

/// The value a job gives to a grid path.
fn point<'a>(job: &'a SweepJob, path: &str) -> &'a Value {
    &job.point.iter().find(|(p, _)| p == path).unwrap_or_else(|| panic!("no grid path {path}")).1
}

/// Mean goodput of flow 0 per value of `key`, over the given jobs.
fn mean_goodput_by<K: Ord>(jobs: &[SweepJob], key: impl Fn(&SweepJob) -> K) -> BTreeMap<K, f64> {
    let mut sums: BTreeMap<K, (f64, u32)> = BTreeMap::new();
    for job in jobs {
        let r = run_job(job).unwrap_or_else(|e| panic!("run failed: {e}"));
        let e = sums.entry(key(job)).or_insert((0.0, 0));
        e.0 += r.flows[0].goodput_mbps;
        e.1 += 1;
    }
    sums.into_iter().map(|(k, (s, n))| (k, s / n as f64)).collect()
}

// ---------------------------------------------------------------------------------------------
// Every preset

/// Every file in scenarios/ parses, expands its sweep, and says what it is.
#[test]
fn every_preset_is_valid_and_described() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        assert!(
            name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.'),
            "{name}: file names are lowercase-with-dashes ids"
        );
        let text = std::fs::read_to_string(&path).unwrap();
        let sc = scenario::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        if sc.sweep.is_some() {
            sweep_jobs(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        assert!(!sc.name.is_empty() && sc.description.len() > 80, "{name}: needs a name and a description");
        n += 1;
    }
    assert!(n >= 13, "expected at least the 13 presets, found {n}");
}

// ---------------------------------------------------------------------------------------------
// The ISTN paper: TCP vs Hybla over an ISTN, loss-free analytic comparison

const ISTN_RTT: f64 = 1.934;
const ISTN_MSS: u64 = 1024;

/// Eq. (1): Reno's window, t from the first data segment.
fn reno_model(t: f64) -> f64 {
    let gamma: f64 = 128.0;
    let t_gamma = ISTN_RTT * gamma.log2();
    if t < t_gamma {
        (t / ISTN_RTT).exp2()
    } else {
        (t - t_gamma) / ISTN_RTT + gamma
    }
}

/// The Reno preset follows eq. (1) round by round and stays inside the paper's three bounds.
#[test]
fn istn_reno_preset_follows_the_model_and_stays_below_the_papers_bounds() {
    let sc = parse(preset!("istn-window-reno.json"));
    let r = run(&sc, true);
    let (t, cwnd) = column(&r, 0, "cwnd");
    let (ta, acked) = column(&r, 0, "acked_bytes");
    // Data starts one RTT in, after the SYN/SYN-ACK handshake: the model's t = 0.
    let t0 = ISTN_RTT;
    // The window steps once per round; mid-round it must equal the model's integer part exactly
    // (no tolerance: the link never binds, nothing is lost, and Reno's arithmetic is exact).
    for n in 0..(60.0 / ISTN_RTT) as usize {
        let tn = n as f64 * ISTN_RTT;
        assert_eq!(at(&t, &cwnd, t0 + tn + ISTN_RTT / 2.0), reno_model(tn).floor(), "round {n}");
    }
    // Paper: window < 160 segments at 60 s; the model gives 152.
    let w60 = at(&t, &cwnd, t0 + 60.0);
    assert!((150.0..160.0).contains(&w60), "window at 60 s: {w60}");
    // Paper: rate < 90 segments/s. Over the last round trip the model gives W/RTT = 78.6.
    let rate = (at(&ta, &acked, t0 + 60.0) - at(&ta, &acked, t0 + 60.0 - ISTN_RTT)) / ISTN_MSS as f64 / ISTN_RTT;
    assert!(rate < 90.0 && rate > 60.0, "rate over the last RTT: {rate} segments/s");
    // Paper: total < 4000 segments. Eq. (4) gives 3547 sent in 60 s; the delivered count trails it
    // by the segments still in flight (the simulator: 3475).
    let segments = r.flows[0].delivered_bytes / ISTN_MSS;
    assert!((3000..4000).contains(&segments), "segments delivered: {segments}");
}

/// Hybla's total is orders of magnitude above Reno's, but below the paper's idealised eq. (9):
/// the Linux module clamps the window at 65535 segments.
#[test]
fn istn_hybla_preset_is_orders_of_magnitude_above_reno() {
    let reno = run(&parse(preset!("istn-window-reno.json")), false);
    let sc = parse(preset!("istn-window-hybla.json"));
    let hybla = run(&sc, true);
    let (t, cwnd) = column(&hybla, 0, "cwnd");
    let reno_segs = reno.flows[0].delivered_bytes / ISTN_MSS;
    let hybla_segs = hybla.flows[0].delivered_bytes / ISTN_MSS;
    // "Orders of magnitude": at least 100x (the simulator gives about 430x; the paper's ideal
    // model about 900x). 100x fails if Hybla's growth regresses to anything Reno-like.
    assert!(hybla_segs >= 100 * reno_segs, "Hybla {hybla_segs} vs Reno {reno_segs} segments");
    // The paper: "total data transmitted ... of over 300 Ksegs". Eq. (9) with RTT0 = 25 ms gives
    // 127/ln 2 + t^2/(2 RTT0^2) + 128 t/RTT0 = 3.19 M segments at t = 60 s, the upper bound a
    // sender without the kernel's clamp could reach.
    let rtt0: f64 = 0.025;
    let ideal = 127.0 / 2f64.ln() + 60f64.powi(2) / (2.0 * rtt0 * rtt0) + 128.0 * 60.0 / rtt0;
    assert!(hybla_segs > 300_000 && (hybla_segs as f64) < ideal, "Hybla {hybla_segs} segments, ideal {ideal}");
    // The kernel clamp (tcp_hybla.c snd_cwnd_clamp = 65535) is reached within the 60 s.
    assert_eq!(at(&t, &cwnd, ISTN_RTT + 60.0), 65535.0);
    assert_eq!(hybla.flows[0].retransmissions, 0, "the link never binds, so nothing may be lost");
}

// ---------------------------------------------------------------------------------------------
// The CTCP paper: CTCP paper, Fig. 2, TCP variants

/// A reduced Fig. 2: RTT 500 ms only, runs 0 and 1 (132 of the 1320 runs).
#[test]
fn ctcp_fig2_tcp_variants_collapse_as_per_grows() {
    let jobs: Vec<SweepJob> = sweep_jobs(preset!("ctcp-fig2-tcp.json"))
        .unwrap()
        .into_iter()
        .filter(|j| point(j, "topology.links[1].delay_ms").as_f64() == Some(250.0) && j.run < 2)
        .collect();
    assert_eq!(jobs.len(), 7 * 11 * 2, "the paper's six variants and BBR");
    // (cc, PER in thousandths) -> mean goodput.
    let g = mean_goodput_by(&jobs, |j| {
        let cc = point(j, "flows[0].cc").as_str().unwrap().to_string();
        let per = (point(j, "topology.links[1].loss.p").as_f64().unwrap() * 1000.0).round() as u32;
        (cc, per)
    });
    let ccs = ["htcp", "cubic", "hybla", "reno", "veno", "westwood"];
    let mean = |cc: &str, pers: &[u32]| pers.iter().map(|p| g[&(cc.to_string(), *p)]).sum::<f64>() / pers.len() as f64;
    for cc in ccs {
        // At PER 20 % every TCP variant stays below 10 % of the 10 Mbit/s link. The simulator
        // gives 0.05-0.06 Mbit/s; the paper's 21x CTCPv2 gain puts Hybla near 0.4. Hybla is
        // the known gap below.
        let at20 = g[&(cc.to_string(), 200)];
        let at0 = g[&(cc.to_string(), 0)];
        if cc != "hybla" {
            assert!(at20 < 1.0, "{cc} at PER 20 %: {at20} Mbit/s");
            // The paper: goodput "approaches zero quickly" as PER grows to 20 %: below a tenth
            // of the loss-free goodput there (the simulator: 1-3 %).
            assert!(at20 < 0.1 * at0, "{cc}: {at0} at PER 0, {at20} at PER 20 %");
        }
        // Goodput keeps falling as PER grows. Two runs of a Bernoulli process per point are
        // noisy (Hybla's single points jump by 2x), so compare the means of 4 neighbouring PERs.
        let (low, high) = (mean(cc, &[20, 40, 60, 80]), mean(cc, &[140, 160, 180, 200]));
        assert!(low > high, "{cc}: PER 2-8 % {low}, PER 14-20 % {high}");
    }
    // Hybla is the most loss-tolerant TCP at every non-zero PER (the simulator: 2x to 8x the
    // next one), as the paper cites.
    for per in [20, 40, 60, 80, 100, 120, 140, 160, 180, 200] {
        let h = g[&("hybla".to_string(), per)];
        for cc in ccs.iter().filter(|&&c| c != "hybla") {
            let o = g[&(cc.to_string(), per)];
            assert!(h > o, "PER {per}/1000: Hybla {h} vs {cc} {o}");
        }
    }
}

/// The paper's Fig. 2: Hybla too "approaches zero quickly"; its 21x CTCPv2 gain at PER 20 %
/// puts Hybla near 0.4 Mbit/s there, under a tenth of its loss-free goodput.
#[test]
#[ignore = "known gap: Hybla at PER 20 %, RTT 500 ms gets 1.09 Mbit/s (2 runs; 0.96 over 5), \
            13 % of its 8.36 at PER 0: its rho-scaled growth refills the window between losses, \
            and since a SACK of data sent before the head's retransmission restarts the \
            retransmission timer (Linux's tcp_clean_rtx_queue) it times out less; the paper's \
            2.6.32 kernel held its window while holes waited (scenarios/README.md)"]
fn ctcp_fig2_hybla_approaches_zero_at_per_20() {
    let jobs: Vec<SweepJob> = sweep_jobs(preset!("ctcp-fig2-tcp.json"))
        .unwrap()
        .into_iter()
        .filter(|j| {
            point(j, "topology.links[1].delay_ms").as_f64() == Some(250.0)
                && point(j, "flows[0].cc").as_str() == Some("hybla")
                && j.run < 2
        })
        .collect();
    let g =
        mean_goodput_by(&jobs, |j| (point(j, "topology.links[1].loss.p").as_f64().unwrap() * 1000.0).round() as u32);
    let (at0, at20) = (g[&0], g[&200]);
    assert!(at20 < 1.0 && at20 < 0.1 * at0, "{at0} at PER 0, {at20} at PER 20 %");
}

/// The paper cites studies in which CUBIC beats Hybla at low PER (its reference [6]).
#[test]
#[ignore = "known gap: at RTT 500 ms Hybla beats CUBIC at every PER tried, 8.36 against 6.88 \
            Mbit/s at PER 0 and 6.09 against 0.88 at PER 0.5 % (2 runs each); CUBIC's HyStart \
            leaves slow start early on this path, while Hybla's rho-scaled growth fills it"]
fn ctcp_fig2_cubic_beats_hybla_at_per_0() {
    let jobs: Vec<SweepJob> = sweep_jobs(preset!("ctcp-fig2-tcp.json"))
        .unwrap()
        .into_iter()
        .filter(|j| {
            point(j, "topology.links[1].delay_ms").as_f64() == Some(250.0)
                && point(j, "topology.links[1].loss.p").as_f64() == Some(0.0)
                && j.run < 2
        })
        .collect();
    let g = mean_goodput_by(&jobs, |j| point(j, "flows[0].cc").as_str().unwrap().to_string());
    assert!(g["cubic"] > g["hybla"], "{g:?}");
}

// ---------------------------------------------------------------------------------------------
// The CTCP paper, Fig. 4

/// The two Fig. 4 presets over seeds 1-3 (payloads really coded and checked): mean goodput,
/// least bottleneck busy share, and the runs.
fn ctcp_fig4(text: &str) -> (f64, f64, Vec<RunResult>) {
    let sc = parse(text);
    let runs: Vec<RunResult> = (1..=3).map(|seed| run_seed(&sc, seed, false)).collect();
    let mean = runs.iter().map(|r| r.flows[0].goodput_mbps).sum::<f64>() / runs.len() as f64;
    let busy = runs
        .iter()
        .map(|r| r.flows[0].coding.as_ref().unwrap().capacity.as_ref().unwrap().busy_fraction)
        .fold(f64::INFINITY, f64::min);
    for r in &runs {
        assert!(r.flows[0].error.is_none(), "{:?}", r.flows[0].error);
    }
    (mean, busy, runs)
}

/// Fig. 4's mean goodputs, 9.19 Mbit/s at PER 0.5 % and 8.92 at PER 20 %, within 15 %. (The
/// simulator: about 9.2 and 8.6; scenarios/README.md has the capacity breakdown.)
#[test]
fn ctcp_fig4_goodput_is_within_15_percent_of_the_paper() {
    for (text, paper) in [(preset!("ctcp-fig4-per0.5.json"), 9.19), (preset!("ctcp-fig4-per20.json"), 8.92)] {
        let (g, _, _) = ctcp_fig4(text);
        assert!((g - paper).abs() <= 0.15 * paper, "{g:.3} Mbit/s against the paper's {paper}");
    }
}

/// At PER 20 % the window keeps the bottleneck busy (at least 80 % of its time) and the goodput
/// stays flat: at least 90 % of the PER 0.5 % goodput (the paper: 8.92 / 9.19 = 97 %).
#[test]
fn ctcp_fig4_keeps_the_link_busy_and_goodput_flat_at_twenty_percent_loss() {
    let (low, _, _) = ctcp_fig4(preset!("ctcp-fig4-per0.5.json"));
    let (high, busy, runs) = ctcp_fig4(preset!("ctcp-fig4-per20.json"));
    assert!(busy >= 0.8, "the bottleneck was busy {:.1} % of the time", 100.0 * busy);
    assert!(high >= 0.9 * low, "PER 0.5 %: {low:.3} Mbit/s, PER 20 %: {high:.3}");
    // Later blocks no longer wait behind a short one for seconds (it was p95 7.3 s before
    // per-block feedback): every block decodes within a few round trips.
    for r in &runs {
        let p95 = r.flows[0].coding.as_ref().unwrap().decode_latency_ms.p95;
        assert!(p95 < 3000.0, "decode latency p95 {p95} ms");
    }
}

// ---------------------------------------------------------------------------------------------
// The WINDS paper: ten TCPs over WINDS, Table 4

/// Mean goodput per congestion control over the preset's 10 runs, sorted lowest first.
fn table4(text: &str) -> Vec<(String, f64)> {
    let jobs = sweep_jobs(text).unwrap();
    assert_eq!(jobs.len(), 100, "ten variants x 10 runs");
    for j in &jobs {
        let r = run_job(j).unwrap();
        assert!(r.flows[0].completed, "every 18.5 MB download finishes within 600 s");
    }
    let g = mean_goodput_by(&jobs, |j| point(j, "flows[0].cc").as_str().unwrap().to_string());
    let mut v: Vec<(String, f64)> = g.into_iter().collect();
    v.sort_by(|a, b| a.1.total_cmp(&b.1));
    v
}

fn rank(v: &[(String, f64)], cc: &str) -> usize {
    v.iter().position(|(c, _)| c == cc).unwrap()
}

fn goodput(v: &[(String, f64)], cc: &str) -> f64 {
    v[rank(v, cc)].1
}

/// What the paper's 51 Mbit/s row shows and the simulator reproduces for every seed tried
/// (1 to 5): Hybla first, Vegas and Westwood the two lowest.
#[test]
fn winds_table4_51mbps_hybla_first_vegas_and_westwood_last() {
    let v = table4(preset!("winds-table4-51mbps.json"));
    eprintln!("51 Mbit/s: {v:.2?}");
    // Hybla is first (paper 8.5 against H-TCP's 8.2); its margin is the known gap below.
    assert_eq!(v[9].0, "hybla", "{v:?}");
    // Vegas (2.6) and Westwood (3.5) are the paper's two lowest, and the simulator's.
    let mut lowest = [v[0].0.as_str(), v[1].0.as_str()];
    lowest.sort();
    assert_eq!(lowest, ["vegas", "westwood"], "{v:?}");
    // Vegas is well below Reno (paper 2.6 vs 7.5): jitter reads as queueing to Vegas. Half of
    // Reno leaves room for the 10-run mean's standard error (about 1.2 Mbit/s for Reno).
    assert!(goodput(&v, "vegas") < 0.5 * goodput(&v, "reno"), "{v:?}");
}

/// The paper's Hybla leads the runner-up by 4 % at 51 Mbit/s (8.5 against 8.2).
#[test]
#[ignore = "known gap: Hybla leads by 1.46x (12.9 against Scalable's 8.9 Mbit/s, means of 10 \
            runs): with autotuning its window still triples per round trip while Reno-like \
            variants double theirs, and the paper's single trial is one draw from a 2-4 Mbit/s \
            spread"]
fn winds_table4_51mbps_hybla_leads_by_the_papers_margin() {
    let v = table4(preset!("winds-table4-51mbps.json"));
    assert!(v[9].1 <= 1.15 * v[8].1, "{v:?}");
}

/// At 24 Mbit/s the paper's lowest is Vegas and Hybla beats Reno; the simulator agrees.
#[test]
fn winds_table4_24mbps_vegas_among_the_lowest_hybla_above_reno() {
    let v = table4(preset!("winds-table4-24mbps.json"));
    eprintln!("24 Mbit/s: {v:.2?}");
    // Vegas is among the two lowest (paper: the lowest, 3.1; in the simulator Vegas and
    // Westwood are within 0.5 Mbit/s of each other and swap with the seed).
    assert!(rank(&v, "vegas") <= 1, "{v:?}");
    // Hybla above Reno (paper 6.9 vs 3.8) by at least 1.5x (the simulator: 2x).
    assert!(goodput(&v, "hybla") > 1.5 * goodput(&v, "reno"), "{v:?}");
    assert!(goodput(&v, "vegas") < 0.6 * goodput(&v, "reno"), "{v:?}");
}

// ---------------------------------------------------------------------------------------------
// The WINDS paper: Table 5, fairness

/// Two Reno flows share the link fairly (paper 1.00, one trial). Both flows are limited by
/// random loss, not by each other, so over 150 round trips a single run's index depends on which
/// flow the losses hit: over seeds 1-10 it ranges 0.82-1.00 (the preset's seed 1: 0.93). The
/// median over seeds 1-10 must be within 0.05 of the paper's 1.00 (the simulator: 0.98), and no
/// seed below 0.7.
#[test]
fn winds_table5_two_reno_flows_are_fair() {
    let sc = parse(preset!("winds-table5-reno-x2.json"));
    let mut j: Vec<f64> = (1..=10).map(|s| run_seed(&sc, s, false).fairness_jain).collect();
    j.sort_by(f64::total_cmp);
    let median = (j[4] + j[5]) / 2.0;
    assert!(median >= 0.95, "Reno x2 over seeds 1-10: {j:?}");
    assert!(j[0] > 0.7, "Reno x2 over seeds 1-10: {j:?}");
}

/// Two Hybla flows share fairly (paper 1.00): above 0.95 for every seed (the simulator: 0.99+).
#[test]
fn winds_table5_two_hybla_flows_are_fair() {
    let sc = parse(preset!("winds-table5-hybla-x2.json"));
    for seed in 1..=3 {
        let j = run_seed(&sc, seed, false).fairness_jain;
        assert!(j > 0.95, "Hybla x2, seed {seed}: {j}");
    }
}

/// Hybla starves Reno, as Table 5 measures it. The paper ran one trial per mix; here the median
/// of Jain's index over seeds 1-10 must be within 0.06 of it. Over those runs a Reno flow gets
/// on average under a quarter of what a Hybla flow gets (the paper plots, but does not tabulate,
/// per-flow throughputs).
fn hybla_starves_reno(text: &str, paper: f64) {
    let sc = parse(text);
    let (mut j, mut reno, mut hybla) = (Vec::new(), Vec::new(), Vec::new());
    for seed in 1..=10 {
        let r = run_seed(&sc, seed, false);
        for f in &r.flows {
            if f.cc == "reno" { &mut reno } else { &mut hybla }.push(f.goodput_mbps);
        }
        j.push(r.fairness_jain);
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    assert!(mean(&reno) < mean(&hybla) / 4.0, "{}: Reno {} vs Hybla {} Mbit/s", sc.name, mean(&reno), mean(&hybla));
    j.sort_by(f64::total_cmp);
    let median = (j[4] + j[5]) / 2.0;
    assert!((median - paper).abs() <= 0.06, "{}: Jain over seeds 1-10 {j:.3?} (paper {paper})", sc.name);
}

/// Reno x1 + Hybla x2: paper 0.72, the simulator 0.73 (seeds 1-10: 0.70-0.77).
#[test]
fn winds_table5_hybla_starves_reno() {
    hybla_starves_reno(preset!("winds-table5-reno-x1-hybla-x2.json"), 0.72);
}

/// Reno x5 + Hybla x2: paper 0.31.
#[test]
#[ignore = "known gap: with F-RTO and D-SACK undo (Linux undid by D-SACK and timestamps well before the paper's 2.6.26), the five \
            Reno flows undo their spurious timeouts (seed 1 of Reno x1 + Hybla x2: 2 of 2 undone) and \
            get 1.2-3.7 Mbit/s each: Jain's index over seeds 1-10 is 0.41-0.49, median 0.45, against the paper's \
            0.31 (0.36 before undo was modelled)"]
fn winds_table5_hybla_starves_five_renos() {
    hybla_starves_reno(preset!("winds-table5-reno-x5-hybla-x2.json"), 0.31);
}
