//! A sweep: scenario paths and the values they take, and runs per point.

use super::json_path::{canonical_path, paths_overlap};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Sweep {
    /// Path of any scenario field → the values it takes. The grid is their cartesian product,
    /// in the order the paths are written.
    pub grid: serde_json::Map<String, Value>,
    /// Runs per grid point; run r uses the seed derived from `seed` and r, the same for every
    /// point (common random numbers).
    #[serde(default = "one")]
    pub runs: u32,
}

fn one() -> u32 {
    1
}

impl Sweep {
    /// Grid paths that name the same field (`flows[0].cc` and `flows[00].cc`) or one inside
    /// another (`flows[0]` and `flows[0].cc`): every point would set both, the last written
    /// winning, while the table reports each. As `(path, problem)`, at the later path.
    pub fn path_problems(&self) -> Vec<(String, String)> {
        let paths: Vec<&String> = self.grid.keys().collect();
        let mut out = Vec::new();
        for (j, b) in paths.iter().enumerate() {
            if let Some(a) = paths[..j].iter().find(|a| paths_overlap(a, b)) {
                let (ca, cb) = (canonical_path(a).unwrap_or_default(), canonical_path(b).unwrap_or_default());
                let how = if ca == cb {
                    format!("names the same field as \"{a}\"")
                } else if ca.len() < cb.len() {
                    format!("is inside \"{a}\", which the grid also sets")
                } else {
                    format!("contains \"{a}\", which the grid also sets")
                };
                out.push((format!("sweep.grid.\"{b}\""), format!("{how}: each point would set both; vary one path")));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(paths: &[&str]) -> Sweep {
        let grid = paths.iter().map(|p| (p.to_string(), serde_json::json!([1]))).collect();
        Sweep { grid, runs: 1 }
    }

    #[test]
    fn two_grid_paths_of_one_field_are_refused_naming_both() {
        let p = grid(&["flows[0].cc", "flows[00].cc"]).path_problems();
        assert_eq!(
            p,
            [(
                "sweep.grid.\"flows[00].cc\"".to_string(),
                "names the same field as \"flows[0].cc\": each point would set both; vary one path".to_string()
            )]
        );
        let p = grid(&["flows[0].cc", "flows[0]"]).path_problems();
        assert_eq!(p[0].0, "sweep.grid.\"flows[0]\"");
        assert!(p[0].1.starts_with("contains \"flows[0].cc\""), "{}", p[0].1);
        let p = grid(&["topology.links[0]", "topology.links[0].loss.p"]).path_problems();
        assert!(p[0].1.starts_with("is inside \"topology.links[0]\""), "{}", p[0].1);
        assert!(grid(&["flows[0].cc", "flows[1].cc", "seed"]).path_problems().is_empty());
    }
}
