//! Sweeps: a scenario's grid expanded into runs. The expansion is lazy: job `i` is computed from
//! its index (grid point `i / runs`, run `i % runs`), so a sweep never holds every job's
//! scenario at once, and its size is checked (with `scenario::MAX_SWEEP_RUNS`) before anything
//! is expanded.
//!
//! Every grid path is set by [`scenario::set_path`], as any field is, `seed` included: a point's
//! `seed` is the base its runs' seeds derive from (run `r` of a point with seed `s` runs with
//! `run_seed(s, r)`, run 0 with `s` itself), so a grid over `seed` gives each point its own runs.

use super::{run_scenario, RunError, RunResult};
use crate::scenario::{self, Scenario, ScenarioError};
use crate::sim::rng::run_seed;
use serde_json::Value;

/// A sweep job as a front end lists it (`sweep_jobs` at the wasm boundary): its grid point's
/// (path, value) pairs in grid order, its run at that point, and its seed as decimal text (a
/// 64-bit seed does not fit a JavaScript number).
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct SweepJobRef {
    pub point: Vec<(String, Value)>,
    pub run: u32,
    pub seed: String,
}

impl SweepPlan {
    /// Job `index` as [`SweepJobRef`] lists it, without building its scenario.
    pub fn job_ref(&self, index: usize) -> SweepJobRef {
        let point = index / self.runs() as usize;
        SweepJobRef {
            point: self.point(point),
            run: index as u32 % self.runs(),
            seed: self.job_seed(index).to_string(),
        }
    }
}

/// One run of a sweep: a grid point, a run index, and the scenario for it.
#[derive(Clone, Debug)]
pub struct SweepJob {
    /// (path, value) for each swept path, in grid order.
    pub point: Vec<(String, Value)>,
    pub run: u32,
    pub seed: u64,
    pub scenario: Scenario,
}

/// A scenario's sweep, ready to expand job by job.
#[derive(Clone, Debug)]
pub struct SweepPlan {
    /// The scenario without its `sweep` section: each point sets its paths in a copy.
    base: Value,
    axes: Vec<(String, Vec<Value>)>,
    runs: u32,
    seed: u64,
    points: usize,
}

impl SweepPlan {
    /// Parses and validates the base scenario (which bounds the number of runs) and prepares
    /// the grid; the points themselves are validated by [`SweepPlan::validate`] or as they are
    /// expanded.
    pub fn new(scenario_json: &str) -> Result<SweepPlan, RunError> {
        let mut base = scenario::read_json(scenario_json)?;
        let sc = scenario::from_value(base.clone())?;
        let Some(sweep) = &sc.sweep else {
            return Err(RunError::NoSweep);
        };
        if let Some(e) = sweep.path_problems().into_iter().next() {
            return Err(ScenarioError::one(&e.0, e.1).into());
        }
        let axes: Vec<(String, Vec<Value>)> =
            sweep.grid.iter().map(|(k, v)| (k.clone(), v.as_array().cloned().unwrap_or_default())).collect();
        // Validation has refused a grid over the limit; the checked product guards the indexing
        // below all the same.
        let points = axes
            .iter()
            .try_fold(1usize, |acc, (_, v)| acc.checked_mul(v.len()))
            .filter(|&p| p > 0)
            .and_then(|p| p.checked_mul(sweep.runs as usize).map(|_| p))
            .ok_or(RunError::TooManyRuns)?;
        if let Some(o) = base.as_object_mut() {
            o.remove("sweep");
        }
        Ok(SweepPlan { base, axes, runs: sweep.runs, seed: sc.seed, points })
    }

    /// Jobs in all: grid points × runs.
    pub fn len(&self) -> usize {
        self.points * self.runs as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn points(&self) -> usize {
        self.points
    }

    pub fn runs(&self) -> u32 {
        self.runs
    }

    /// The base seed of grid point `p`: its value of a swept `seed` (validation has checked
    /// it is a seed), else the scenario's. Run `r` of every point of the same base seed has the
    /// same seed (common random numbers).
    pub fn point_seed(&self, p: usize) -> u64 {
        let swept = self.axes.iter().rposition(|(path, _)| scenario::canonical_path(path).is_ok_and(|c| c == "seed"));
        swept.and_then(|a| self.point(p)[a].1.as_u64()).unwrap_or(self.seed)
    }

    /// The seed job `i` runs with: run `i % runs` of its point's base seed.
    pub fn job_seed(&self, i: usize) -> u64 {
        let runs = self.runs.max(1) as usize;
        run_seed(self.point_seed(i / runs), (i % runs) as u32)
    }

    /// The swept paths, in grid order.
    pub fn paths(&self) -> Vec<String> {
        self.axes.iter().map(|(p, _)| p.clone()).collect()
    }

    /// Grid point `p`, in row-major order of the grid as written (the last path varies fastest).
    pub fn point(&self, p: usize) -> Vec<(String, Value)> {
        let mut rem = p;
        let mut point = Vec::with_capacity(self.axes.len());
        for (path, values) in self.axes.iter().rev() {
            point.push((path.clone(), values[rem % values.len()].clone()));
            rem /= values.len();
        }
        point.reverse();
        point
    }

    /// The validated scenario of grid point `p`.
    pub fn point_scenario(&self, p: usize) -> Result<Scenario, ScenarioError> {
        self.check_point(p)
    }

    /// Like [`SweepPlan::point_scenario`], with each problem as a [`FieldError`] that carries
    /// the point.
    pub fn check_point(&self, p: usize) -> Result<Scenario, ScenarioError> {
        let point = self.point(p);
        let mut v = self.base.clone();
        for (path, val) in &point {
            scenario::set_path(&mut v, path, val.clone())
                .map_err(|e| ScenarioError::one(&format!("sweep.grid.\"{path}\""), e.to_string()))?;
        }
        scenario::from_value(v).map_err(|mut e| {
            for f in &mut e.0 {
                f.sweep_point = Some(point.clone());
            }
            e
        })
    }

    /// Job `i`: grid point `i / runs`, run `i % runs`.
    pub fn job(&self, i: usize) -> Result<SweepJob, RunError> {
        let (p, run) = (i / self.runs as usize, (i % self.runs as usize) as u32);
        if p >= self.points {
            return Err(RunError::NoSuchJob { index: i, jobs: self.len() });
        }
        let scenario = self.point_scenario(p)?;
        // The point's own seed, as set by its grid values: the same as `job_seed`.
        Ok(SweepJob { point: self.point(p), run, seed: run_seed(scenario.seed, run), scenario })
    }

    /// Job `i` as a scenario of its own: the base with the point's values and the run's seed, and
    /// no sweep. `orbitcp jobs` prints it; run, it gives the job's result.
    pub fn job_json(&self, i: usize) -> Result<Value, RunError> {
        let job = self.job(i)?;
        let mut v = self.base.clone();
        for (path, val) in &job.point {
            scenario::set_path(&mut v, path, val.clone())
                .map_err(|e| ScenarioError::one(&format!("sweep.grid.\"{path}\""), e.to_string()))?;
        }
        if let Some(o) = v.as_object_mut() {
            o.insert("seed".into(), Value::from(job.seed));
        }
        Ok(v)
    }

    /// Checks every grid point; the problems of the first point that has any.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        self.check()
    }

    /// Like [`SweepPlan::validate`], each problem a [`scenario::FieldError`].
    pub fn check(&self) -> Result<(), ScenarioError> {
        (0..self.points).try_for_each(|p| self.check_point(p).map(drop))
    }
}

/// Part `k` of `n` of a sweep's jobs, `k` counted from 1 as a Slurm job array's task ids usually
/// are: the jobs `i` with `i % n == k - 1`. Taking every `n`-th job, rather than a block, gives
/// each shard a share of every grid point, so shards of a grid whose points differ in cost take
/// about as long as each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub k: usize,
    pub n: usize,
}

impl Shard {
    /// `K/N`, with 1 ≤ K ≤ N.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let bad = || format!("{s:?}: a shard is K/N with 1 <= K <= N, such as 2/5");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (k, n) = (k.trim().parse::<usize>().map_err(|_| bad())?, n.trim().parse::<usize>().map_err(|_| bad())?);
        if k == 0 || n == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }

    /// This shard's job indices, in increasing order, for a sweep of `total` jobs.
    pub fn jobs(self, total: usize) -> impl Iterator<Item = usize> {
        (self.k - 1..total).step_by(self.n)
    }
}

/// Expands a scenario's sweep into every job, in a fixed order: grid points in row-major order
/// of the grid as written, then runs. Every point's scenario is validated.
pub fn sweep_jobs(scenario_json: &str) -> Result<Vec<SweepJob>, RunError> {
    let plan = SweepPlan::new(scenario_json)?;
    let mut jobs = Vec::with_capacity(plan.len());
    for p in 0..plan.points() {
        let (point, sc) = (plan.point(p), plan.point_scenario(p)?);
        for run in 0..plan.runs() {
            jobs.push(SweepJob { point: point.clone(), run, seed: run_seed(sc.seed, run), scenario: sc.clone() });
        }
    }
    Ok(jobs)
}

/// Runs one sweep job (summary only).
pub fn run_job(job: &SweepJob) -> Result<RunResult, RunError> {
    run_scenario(&job.scenario, job.seed, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GRID: &str = r#"{"version":1,"name":"g","duration_s":10,"seed":7,
        "topology":{"kind":"chain","links":[{"rate_mbps":10,"delay_ms":20}]},
        "flows":[{"transport":"tcp","cc":"reno","bytes":1000}],
        "sweep":{"grid":{"flows[0].cc":["reno","cubic","hybla"],"topology.links[0].delay_ms":[1,2]},"runs":2}}"#;

    #[test]
    fn a_lazily_expanded_job_equals_the_materialised_one() {
        let plan = SweepPlan::new(GRID).unwrap();
        let jobs = sweep_jobs(GRID).unwrap();
        assert_eq!((plan.len(), plan.points(), jobs.len()), (12, 6, 12));
        for (i, j) in jobs.iter().enumerate() {
            let lazy = plan.job(i).unwrap();
            assert_eq!((&lazy.point, lazy.run, lazy.seed), (&j.point, j.run, j.seed), "job {i}");
            assert_eq!(serde_json::to_value(&lazy.scenario).unwrap(), serde_json::to_value(&j.scenario).unwrap());
        }
        // Row-major, the last path fastest, then runs.
        assert_eq!(plan.job(3).unwrap().point[1].1, Value::from(2));
        assert_eq!(plan.job(4).unwrap().point[0].1, Value::from("cubic"));
        assert!(plan.job(12).is_err());
    }

    #[test]
    fn shards_split_the_jobs_every_nth_without_overlap() {
        assert_eq!(Shard::parse("2/5"), Ok(Shard { k: 2, n: 5 }));
        for bad in ["0/3", "4/3", "1/0", "3", "a/b", "-1/2", ""] {
            let e = Shard::parse(bad).unwrap_err();
            assert!(e.ends_with("a shard is K/N with 1 <= K <= N, such as 2/5"), "{bad}: {e}");
        }
        assert_eq!(Shard { k: 2, n: 5 }.jobs(12).collect::<Vec<_>>(), [1, 6, 11]);
        for n in 1..=13 {
            let mut all: Vec<usize> = (1..=n).flat_map(|k| Shard { k, n }.jobs(12)).collect();
            all.sort();
            assert_eq!(all, (0..12).collect::<Vec<_>>(), "n = {n}");
        }
    }

    #[test]
    fn a_job_as_a_scenario_runs_to_the_jobs_result() {
        let plan = SweepPlan::new(GRID).unwrap();
        let v = plan.job_json(5).unwrap();
        assert!(v.get("sweep").is_none());
        assert_eq!(v["seed"], Value::from(plan.job_seed(5)));
        let sc = crate::scenario::from_value(v).unwrap();
        let job = plan.job(5).unwrap();
        let alone = super::super::run_scenario(&sc, sc.seed, false).unwrap();
        let in_sweep = run_job(&job).unwrap();
        assert_eq!(serde_json::to_string(&alone).unwrap(), serde_json::to_string(&in_sweep).unwrap());
    }

    #[test]
    fn a_bad_sweep_point_reports_its_field_and_the_point_as_data() {
        let bad = GRID.replace(r#"[1,2]"#, r#"[1,-2]"#);
        let e = SweepPlan::new(&bad).unwrap().check().unwrap_err();
        assert_eq!(e.0.len(), 1, "{e}");
        let f = &e.0[0];
        assert_eq!(f.path, "topology.links[0].delay_ms");
        assert!(f.message.contains("-2"), "{}", f.message);
        let point = f.sweep_point.as_ref().expect("the point rides along");
        assert_eq!(point[1], ("topology.links[0].delay_ms".to_string(), Value::from(-2)));
        // The text form the CLI prints still names the point, then the field.
        assert!(
            f.to_string().starts_with(
                "sweep point flows[0].cc=\"reno\", topology.links[0].delay_ms=-2: topology.links[0].delay_ms: "
            ),
            "{f}"
        );
    }

    #[test]
    fn every_problem_of_a_scenario_is_a_field_error_with_its_path() {
        let bad =
            GRID.replace(r#""rate_mbps":10"#, r#""rate_mbps":-1"#).replace(r#""duration_s":10"#, r#""duration_s":0"#);
        let e = crate::scenario::parse(&bad).unwrap_err();
        let paths: Vec<&str> = e.0.iter().map(|f| f.path.as_str()).collect();
        assert!(paths.contains(&"duration_s") && paths.contains(&"topology.links[0].rate_mbps"), "{paths:?}");
        assert!(e.0.iter().all(|f| f.sweep_point.is_none() && !f.message.starts_with(&f.path)));
        let json = crate::scenario::parse("{").unwrap_err();
        assert_eq!((json.0[0].path.as_str(), json.to_string().starts_with("scenario: invalid JSON")), ("", true));
    }

    const SEEDS: &str = r#"{"version":1,"name":"s","duration_s":5,"seed":1,
        "topology":{"kind":"chain","links":[{"rate_mbps":10,"delay_ms":20,"loss":{"model":"bernoulli","p":0.02}}]},
        "flows":[{"transport":"tcp","cc":"cubic","bytes":null}],
        "sweep":{"grid":{"seed":[1,2]},"runs":2}}"#;

    #[test]
    fn a_grid_over_seed_runs_each_point_from_its_own_seed() {
        let plan = SweepPlan::new(SEEDS).unwrap();
        // Point seed 1: runs 0 and 1 of base 1; point seed 2: runs 0 and 1 of base 2.
        let want = [run_seed(1, 0), run_seed(1, 1), run_seed(2, 0), run_seed(2, 1)];
        assert_eq!(want[..2], [1, run_seed(1, 1)]);
        for (i, &seed) in want.iter().enumerate() {
            let job = plan.job(i).unwrap();
            assert_eq!((job.seed, plan.job_seed(i)), (seed, seed), "job {i}");
            assert_eq!(plan.job_json(i).unwrap()["seed"], Value::from(seed));
        }
        let goodput = |i: usize| run_job(&plan.job(i).unwrap()).unwrap().flows[0].goodput_mbps;
        assert_ne!(goodput(0), goodput(2), "the points ran with different seeds");
        // Without `seed` in the grid, every point's run r has the scenario seed's run r.
        let plan = SweepPlan::new(GRID).unwrap();
        assert_eq!((plan.job_seed(0), plan.job_seed(3), plan.job_seed(5)), (7, run_seed(7, 1), run_seed(7, 1)));
    }

    #[test]
    fn grid_paths_of_one_field_are_refused_before_any_point_runs() {
        let dup = SEEDS.replace(r#""seed":[1,2]"#, r#""flows[0].cc":["reno"],"flows[00].cc":["cubic"]"#);
        let e = SweepPlan::new(&dup).unwrap_err().to_string();
        assert!(e.contains(r#"sweep.grid."flows[00].cc": names the same field as "flows[0].cc""#), "{e}");
        let e = crate::runner::validate_json(&dup).unwrap_err().to_string();
        assert!(e.contains(r#"sweep.grid."flows[00].cc": names the same field as "flows[0].cc""#), "{e}");
    }

    #[test]
    fn a_sweep_point_with_an_array_for_an_object_is_refused_with_its_path() {
        let bad =
            GRID.replace(r#""topology.links[0].delay_ms":[1,2]"#, r#""topology.links[0].loss":[["bernoulli",0.5]]"#);
        let e = crate::runner::validate_json(&bad).unwrap_err();
        let f = &e.0[0];
        assert_eq!(
            (f.path.as_str(), f.message.as_str()),
            ("topology.links[0].loss", "expected an object, found an array")
        );
        assert!(f.sweep_point.is_some(), "{f}");
    }
}
