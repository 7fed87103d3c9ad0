//! `orbitcp merge`: raw sweep tables read back and joined. Shards of a sweep (`orbitcp sweep
//! --shard K/N`) are raw tables of some of its jobs; merging them gives the table one unsharded
//! sweep writes, byte for byte, because both are written by [`SweepTable`] from the same
//! numbers (a raw table's floats are written in full, so they read back exactly). An aggregate
//! is computed from the merged raw rows, never from aggregate shards, which cannot be combined.

use super::sweep_csv::{SweepRecord, SweepTable};
use super::sweep_metrics::{SweepFlowRow, SweepRunRow, METRICS};
use crate::csv;
use crate::scenario::MAX_SWEEP_RUNS;
use std::collections::BTreeMap;

/// A raw sweep table read back: its rows, and its provenance (None for a shard without jobs).
#[derive(Clone, Debug)]
pub struct SweepShard {
    pub name: String,
    pub paths: Vec<String>,
    pub has_paper: bool,
    /// (sweep_jobs, core_version, scenario_hash), the same on every row.
    pub provenance: Option<(usize, String, String)>,
    pub records: Vec<SweepRecord>,
}

/// Reads a raw table that [`SweepTable::raw_csv`] wrote; `name` names it in errors.
pub fn parse_sweep_csv(name: &str, text: &str) -> Result<SweepShard, String> {
    let rows = csv::parse(text).map_err(|e| format!("{name}: {e}"))?;
    let Some((header, body)) = rows.split_first() else { return Err(format!("{name}: empty, not a sweep table")) };
    let Some(np) = header.iter().position(|c| c == "job") else {
        return Err(if header.iter().any(|c| c == "goodput_mbps_mean") {
            format!(
                "{name}: an aggregate table (written with --aggregate); merge takes raw shards and aggregates \
                 them itself with --aggregate"
            )
        } else {
            format!("{name}: not a raw sweep table (no job column)")
        });
    };
    let has_paper = header.iter().any(|c| c == "paper_goodput_mbps");
    let expected = SweepTable::raw_columns(has_paper);
    if header[np..] != expected[..] {
        return Err(format!(
            "{name}: the columns after the grid's are not a raw sweep table's of this version (expected {})",
            expected.join(",")
        ));
    }
    let width = header.len();
    let paths = header[..np].to_vec();
    let mut shard = SweepShard { name: name.into(), paths, has_paper, provenance: None, records: Vec::new() };
    for (i, row) in body.iter().enumerate() {
        let at = |col: usize| format!("{name}: line {}, column {}", i + 2, header[col]);
        if row.len() != width {
            return Err(format!("{name}: line {}: {} cells for {width} columns", i + 2, row.len()));
        }
        let num = |col: usize| row[col].parse::<u64>().map_err(|_| format!("{}: not a count: {:?}", at(col), row[col]));
        let tail = width - 3;
        let prov = (num(tail)? as usize, row[tail + 1].clone(), row[tail + 2].clone());
        match &shard.provenance {
            None => shard.provenance = Some(prov),
            Some(p) if *p != prov => {
                return Err(format!(
                    "{name}: line {}: sweep_jobs, core_version or scenario_hash differ from line 2",
                    i + 2
                ))
            }
            Some(_) => {}
        }
        let m = np + 6;
        let mut figures = SweepRunRow::default();
        let mut flow = SweepFlowRow {
            id: num(np + 3)? as u32,
            transport: row[np + 4].clone(),
            cc: row[np + 5].clone(),
            ..SweepFlowRow::default()
        };
        for (k, metric) in METRICS.iter().enumerate() {
            metric
                .read(&row[m + k], &mut figures, &mut flow)
                .map_err(|why| format!("{}: {why}: {:?}", at(m + k), row[m + k]))?;
        }
        let paper = if has_paper { row[m + METRICS.len()].clone() } else { String::new() };
        let job = num(np)? as usize;
        let (run, seed) = (num(np + 1)? as u32, num(np + 2)?);
        match shard.records.last_mut() {
            Some(r) if r.job == job => {
                r.result.flows.push(flow);
                r.paper.push(paper);
            }
            Some(r) if r.job > job => {
                return Err(format!("{name}: line {}: job {job} after job {}: jobs must be in order", i + 2, r.job))
            }
            _ => shard.records.push(SweepRecord {
                job,
                point: row[..np].to_vec(),
                run,
                seed,
                result: SweepRunRow { flows: vec![flow], ..figures },
                paper: vec![paper],
            }),
        }
    }
    Ok(shard)
}

/// Joins shards into the table of the whole sweep; refuses shards of different sweeps or core
/// versions, a job in two shards, and a job in none.
pub fn merge_sweep_csv(shards: Vec<SweepShard>) -> Result<SweepTable, String> {
    let Some(first) = shards.first() else { return Err("no shards to merge".into()) };
    let (paths, has_paper) = (first.paths.clone(), first.has_paper);
    let mut prov: Option<(usize, String, String, &str)> = None;
    for s in &shards {
        if s.paths != paths || s.has_paper != has_paper {
            return Err(format!("{} and {} have different columns: not shards of one sweep", first.name, s.name));
        }
        let Some((jobs, version, hash)) = &s.provenance else { continue };
        match &prov {
            None => prov = Some((*jobs, version.clone(), hash.clone(), &s.name)),
            Some((_, v, _, other)) if v != version => {
                return Err(format!(
                    "{other} was written by core {v} and {} by core {version}: merge shards of one version",
                    s.name
                ))
            }
            Some((_, _, h, other)) if h != hash => {
                return Err(format!("{other} and {} are of different scenarios (scenario_hash {h} and {hash})", s.name))
            }
            Some((j, _, _, other)) if j != jobs => {
                return Err(format!("{other} and {} are of sweeps of {j} and {jobs} jobs", s.name))
            }
            Some(_) => {}
        }
    }
    let Some((jobs, core_version, scenario_hash, name)) = prov else {
        return Err("the shards hold no rows".into());
    };
    // The count comes from the files: a sweep is never larger than the limit, and the shards
    // must hold a row for each of its jobs.
    if jobs as u64 > MAX_SWEEP_RUNS {
        return Err(format!("{name}: sweep_jobs {jobs} is beyond the limit of {MAX_SWEEP_RUNS} runs a sweep may have"));
    }
    let mut by_job: BTreeMap<usize, (SweepRecord, &str)> = BTreeMap::new();
    for s in &shards {
        for r in &s.records {
            if r.job >= jobs {
                return Err(format!("{}: job {} is beyond the sweep's {jobs} jobs", s.name, r.job));
            }
            if let Some((_, other)) = by_job.get(&r.job) {
                return Err(format!("job {} is in both {other} and {}: overlapping shards", r.job, s.name));
            }
            by_job.insert(r.job, (r.clone(), &s.name));
        }
    }
    // Every job present is below `jobs`, so the missing ones number the difference.
    let missing = jobs - by_job.len();
    if missing > 0 {
        let shown: Vec<String> =
            (0..jobs).filter(|j| !by_job.contains_key(j)).take(10).map(|j| j.to_string()).collect();
        let more = if missing > 10 { format!(" and {} more", missing - 10) } else { String::new() };
        return Err(format!("{missing} of the sweep's {jobs} jobs are in no shard: job {}{more}", shown.join(", ")));
    }
    let records: Vec<SweepRecord> = by_job.into_values().map(|(r, _)| r).collect();
    // Every job is here, so the largest run index gives the runs per point.
    let runs = records.iter().map(|r| r.run).max().map_or(1, |r| r + 1);
    if let Some(r) = records.iter().find(|r| r.job % runs as usize != r.run as usize) {
        return Err(format!("job {} has run {}, not a run of a sweep of {runs} runs per point", r.job, r.run));
    }
    Ok(SweepTable { paths, has_paper, jobs, runs, core_version, scenario_hash, records })
}

#[cfg(test)]
mod tests {
    use super::super::{run_job, sweep_csv, SweepPlan};
    use super::*;
    use crate::scenario;

    const SWEEP: &str = r#"{"version":1,"name":"m","duration_s":4,"seed":5,
        "topology":{"kind":"chain","links":[{"rate_mbps":10,"delay_ms":10,"loss":{"model":"bernoulli","p":0.01}}]},
        "flows":[{"transport":"tcp","cc":"reno","bytes":30000},{"transport":"ctcp","variant":"v1","bytes":30000}],
        "sweep":{"grid":{"flows[0].label":["a, \"b\""],"flows[0].cc":["reno","cubic"]},"runs":3},
        "paper":{"source":"t","points":[{"at":{"flows[0].cc":"cubic"},"flow":0,"goodput_mbps":2.5}]}}"#;

    fn table() -> (String, SweepPlan, Vec<SweepRunRow>) {
        let plan = SweepPlan::new(SWEEP).unwrap();
        let base = scenario::parse(SWEEP).unwrap();
        let rows: Vec<SweepRunRow> =
            (0..plan.len()).map(|i| SweepRunRow::from(&run_job(&plan.job(i).unwrap()).unwrap())).collect();
        (sweep_csv(&plan, &base, &rows, false), plan, rows)
    }

    #[test]
    fn a_raw_table_read_back_is_the_same_table() {
        let (raw, plan, rows) = table();
        let base = scenario::parse(SWEEP).unwrap();
        let shard = parse_sweep_csv("all.csv", &raw).unwrap();
        assert_eq!(shard.records.len(), plan.len());
        assert_eq!(shard.records[4].result, rows[4], "every figure reads back exactly");
        let merged = merge_sweep_csv(vec![shard]).unwrap();
        assert_eq!(merged.raw_csv(), raw);
        assert_eq!(merged.aggregate_csv(), sweep_csv(&plan, &base, &rows, true));
    }

    #[test]
    fn shards_that_do_not_make_one_sweep_are_refused() {
        let (raw, ..) = table();
        let lines: Vec<&str> = raw.lines().collect();
        // Two flows per job: lines 1-2 are job 0, 3-4 job 1, ...
        let part = |rows: &[usize]| {
            let mut s = format!("{}\n", lines[0]);
            for &r in rows {
                s += lines[r];
                s.push('\n');
            }
            s
        };
        let a = parse_sweep_csv("a.csv", &part(&[1, 2, 3, 4])).unwrap();
        let b = parse_sweep_csv("b.csv", &part(&[3, 4, 5, 6])).unwrap();
        let e = merge_sweep_csv(vec![a.clone(), b]).unwrap_err();
        assert_eq!(e, "job 1 is in both a.csv and b.csv: overlapping shards");
        let e = merge_sweep_csv(vec![a.clone()]).unwrap_err();
        assert_eq!(e, "4 of the sweep's 6 jobs are in no shard: job 2, 3, 4, 5");
        let other = parse_sweep_csv("c.csv", &part(&[5, 6]).replace("fnv1a64:", "fnv1a64:0")).unwrap();
        let e = merge_sweep_csv(vec![a.clone(), other]).unwrap_err();
        assert!(e.starts_with("a.csv and c.csv are of different scenarios"), "{e}");
        let version = format!(",{},", crate::runner::provenance::CORE_VERSION);
        let old = parse_sweep_csv("d.csv", &part(&[5, 6]).replace(&version, ",0.0.1,")).unwrap();
        let e = merge_sweep_csv(vec![a, old]).unwrap_err();
        assert!(e.contains("by core 0.0.1: merge shards of one version"), "{e}");
        let base = scenario::parse(SWEEP).unwrap();
        let plan = SweepPlan::new(SWEEP).unwrap();
        let agg = sweep_csv(&plan, &base, &[], true);
        let e = parse_sweep_csv("agg.csv", &agg).unwrap_err();
        assert!(e.starts_with("agg.csv: an aggregate table"), "{e}");
        let e = parse_sweep_csv("bad.csv", &part(&[1]).replacen(",tcp,", ",tcp,x,", 1)).unwrap_err();
        assert!(e.starts_with("bad.csv: line 2: "), "{e}");
    }

    #[test]
    fn a_shard_claiming_a_sweep_beyond_the_limit_is_refused_without_allocating_for_it() {
        let (raw, ..) = table();
        let huge = raw.replace(",6,", ",1000000000000000,");
        let shard = parse_sweep_csv("huge.csv", &huge).unwrap();
        assert_eq!(shard.provenance.as_ref().unwrap().0, 1_000_000_000_000_000);
        let e = merge_sweep_csv(vec![shard]).unwrap_err();
        assert_eq!(e, "huge.csv: sweep_jobs 1000000000000000 is beyond the limit of 100000 runs a sweep may have");
        // At the limit, a shard of six jobs is told what is missing without listing all of it.
        let e = merge_sweep_csv(vec![parse_sweep_csv("a.csv", &raw.replace(",6,", ",100000,")).unwrap()]).unwrap_err();
        assert!(e.starts_with("99994 of the sweep's 100000 jobs are in no shard: job 6, 7, "), "{e}");
        assert!(e.ends_with(" and 99984 more"), "{e}");
    }
}
