//! What the inference found: the shells as grids, the satellites left out and why, and the report
//! of both in words.

use super::plus_grid_pairs;
use super::sat::Sat;
use super::shells::ALT_EPS_KM;
use std::collections::BTreeMap;

/// A satellite outside every shell is compared with the shells within 0.5° of its inclination.
const INC_MATCH_DEG: f64 = 0.5;
/// Names listed per kind in [`InferredGrid::report`].
const REPORT_NAMES: usize = 3;

/// One shell: a P × S grid. `members[p][s]` is the index (into the element sets) of the
/// satellite in slot s of plane p, or `None` for a missing slot, whose links are absent.
#[derive(Debug, Clone, PartialEq)]
pub struct InferredShell {
    pub planes: usize,
    pub sats_per_plane: usize,
    /// The seam link from `(P − 1, s)` goes to `(0, s + isl_shift)`: the Walker phasing F
    /// measured (mod S), so that every cross-plane link joins satellites the same phase apart
    /// whichever plane was numbered 0.
    pub isl_shift: usize,
    /// Median mean inclination of the members.
    pub inclination_deg: f64,
    /// Median altitude of the members, from their mean motion.
    pub altitude_km: f64,
    pub members: Vec<Vec<Option<usize>>>,
}

impl InferredShell {
    /// Slots that hold a satellite.
    pub fn filled(&self) -> usize {
        self.members.iter().flatten().filter(|m| m.is_some()).count()
    }

    /// The +Grid pairs of this shell (indices into the element sets), as [`InferredGrid::pairs`].
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        plus_grid_pairs(self.planes, self.sats_per_plane, self.isl_shift, |p, s| {
            self.members.get(p).and_then(|row| row.get(s)).copied().flatten()
        })
    }
}

/// Why a satellite is in no slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LeftOutKind {
    /// SGP4 refused its elements or could not propagate them to the common time.
    Propagation,
    /// No shell within 0.5° of its inclination.
    NoShell,
    /// Below the shell of its inclination: orbit raising (or lowering, or decaying).
    BelowShell,
    /// Above the shell of its inclination.
    AboveShell,
    /// At a shell's altitude but off its inclination.
    OffInclination,
    /// Its RAAN lies between two planes of its shell.
    BetweenPlanes,
    /// Between two slots of its plane, or a second satellite in a slot.
    Spare,
}

impl LeftOutKind {
    fn label(self) -> &'static str {
        match self {
            LeftOutKind::Propagation => "not propagated by SGP4",
            LeftOutKind::NoShell => "at an inclination without a shell",
            LeftOutKind::BelowShell => "below their shell (orbit raising?)",
            LeftOutKind::AboveShell => "above their shell",
            LeftOutKind::OffInclination => "off their shell's inclination",
            LeftOutKind::BetweenPlanes => "between two planes",
            LeftOutKind::Spare => "spares between slots or doubling a slot",
        }
    }
}

/// A satellite in no slot, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct LeftOut {
    /// Index into the element sets.
    pub index: usize,
    /// `object_name`, or "".
    pub name: String,
    pub kind: LeftOutKind,
    /// In words, e.g. "between slots 4 and 5 of plane 12 of shell 0 (a spare)".
    pub reason: String,
}

/// What [`infer_grid`](super::infer_grid) found: shells ordered by inclination, then altitude; left-out
/// satellites by index. Every element set is in exactly one slot or in `left_out`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct InferredGrid {
    pub shells: Vec<InferredShell>,
    pub left_out: Vec<LeftOut>,
}

impl InferredGrid {
    /// The +Grid pairs `(a, b)`, `a < b`, indices into the element sets, of every shell: each
    /// undirected pair once, sorted; links to missing slots are absent.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let mut out: Vec<(usize, usize)> = self.shells.iter().flat_map(InferredShell::pairs).collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// One line per shell, then what was left out, grouped by kind with counts and a few names.
    /// Shells, planes and slots are numbered from 0, as the indices of `shells` and `members`.
    pub fn report(&self) -> String {
        let mut out = String::new();
        if self.shells.is_empty() {
            out.push_str("no shell found (a shell needs at least 2 planes of 2 slots)\n");
        }
        for (k, sh) in self.shells.iter().enumerate() {
            out.push_str(&format!(
                "shell {k}: {} planes × {} slots at {:.0} km, {:.1}°, {} of {} slots filled, seam shift {}\n",
                sh.planes,
                sh.sats_per_plane,
                sh.altitude_km,
                sh.inclination_deg,
                sh.filled(),
                sh.planes * sh.sats_per_plane,
                sh.isl_shift
            ));
        }
        let placed: usize = self.shells.iter().map(InferredShell::filled).sum();
        let total = placed + self.left_out.len();
        if self.left_out.is_empty() {
            out.push_str(&format!("left out: none of {total} satellites\n"));
            return out;
        }
        out.push_str(&format!("left out: {} of {total} satellites\n", self.left_out.len()));
        let mut by_kind: BTreeMap<LeftOutKind, Vec<&LeftOut>> = BTreeMap::new();
        for l in &self.left_out {
            by_kind.entry(l.kind).or_default().push(l);
        }
        for (kind, list) in by_kind {
            let names: Vec<String> = list
                .iter()
                .take(REPORT_NAMES)
                .map(|l| if l.name.is_empty() { format!("#{}", l.index) } else { l.name.clone() })
                .collect();
            let more = if list.len() > REPORT_NAMES { ", …" } else { "" };
            out.push_str(&format!("  {} {}: {}{more}\n", list.len(), kind.label(), names.join(", ")));
        }
        out
    }
}

/// The reason for a satellite in no shell: compared with the shells of its inclination.
pub(super) fn off_shell(s: Sat, shells: &[InferredShell]) -> (LeftOutKind, String) {
    let nearest = shells
        .iter()
        .enumerate()
        .filter(|(_, sh)| (sh.inclination_deg - s.inc).abs() <= INC_MATCH_DEG)
        .min_by(|a, b| (a.1.altitude_km - s.alt).abs().total_cmp(&(b.1.altitude_km - s.alt).abs()));
    let Some((k, sh)) = nearest else {
        let mut incs: Vec<String> = shells.iter().map(|sh| format!("{:.1}°", sh.inclination_deg)).collect();
        incs.dedup();
        let known =
            if incs.is_empty() { "none was found".to_string() } else { format!("shells at {}", incs.join(", ")) };
        return (LeftOutKind::NoShell, format!("inclination {:.1}° fits no shell ({known})", s.inc));
    };
    let dh = s.alt - sh.altitude_km;
    if dh < -ALT_EPS_KM {
        let why = format!(
            "altitude {:.0} km is {:.0} km below shell {k} at {:.0} km (orbit raising?)",
            s.alt, -dh, sh.altitude_km
        );
        (LeftOutKind::BelowShell, why)
    } else if dh > ALT_EPS_KM {
        let why = format!("altitude {:.0} km is {:.0} km above shell {k} at {:.0} km", s.alt, dh, sh.altitude_km);
        (LeftOutKind::AboveShell, why)
    } else {
        let why = format!(
            "inclination {:.2}° is {:.2}° off shell {k} at {:.2}°",
            s.inc,
            (s.inc - sh.inclination_deg).abs(),
            sh.inclination_deg
        );
        (LeftOutKind::OffInclination, why)
    }
}
