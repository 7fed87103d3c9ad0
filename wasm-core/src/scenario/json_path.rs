//! Paths such as `topology.links[1].loss.p`: how a sweep sets the value it varies.

use serde_json::Value;

/// Why a value could not be set at a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathError {
    /// The text is not a path such as `topology.links[1].loss.p`.
    Malformed { path: String },
    /// The value at `at` is not an object, so it has no field to set.
    NotAnObject { at: String },
    /// There is no field at `at`, and the path goes on below it.
    NoSuchField { at: String },
    /// The value at `at` is not a list, so it has no element to set.
    NotAList { at: String },
    /// The list at `at` has `len` elements, none at `index`.
    NoSuchElement { at: String, index: usize, len: usize },
}

impl PathError {
    /// The path of the value at fault (the text as given, for a malformed path).
    pub fn path(&self) -> String {
        match self {
            PathError::Malformed { path } => path.clone(),
            PathError::NotAnObject { at } | PathError::NoSuchField { at } | PathError::NotAList { at } => at.clone(),
            PathError::NoSuchElement { at, index, .. } => format!("{at}[{index}]"),
        }
    }

    /// What is wrong there.
    pub fn message(&self) -> String {
        match self {
            PathError::Malformed { .. } => "not a path like topology.links[1].loss.p".into(),
            PathError::NotAnObject { .. } => "is not an object".into(),
            PathError::NoSuchField { .. } => "no such field".into(),
            PathError::NotAList { .. } => "is not a list".into(),
            PathError::NoSuchElement { at, len, .. } => format!("no such element ({at} has {len})"),
        }
    }
}

impl std::fmt::Display for PathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PathError::Malformed { path } => write!(f, "\"{path}\": {}", self.message()),
            _ => write!(f, "{}: {}", self.path(), self.message()),
        }
    }
}

/// Sets the value at a path such as `topology.links[1].loss.p` or `flows[0].cc`.
pub fn set_path(root: &mut Value, path: &str, v: Value) -> Result<(), PathError> {
    let mut cur = root;
    let segs = split_path(path)?;
    let last = segs.len() - 1;
    for (k, seg) in segs.iter().enumerate() {
        let here = segs[..k].iter().map(|s| s.to_string()).collect::<Vec<_>>().join("");
        let here = here.trim_start_matches('.');
        match seg {
            PathSeg::Key(name) => {
                let Some(obj) = cur.as_object_mut() else {
                    return Err(PathError::NotAnObject { at: here.into() });
                };
                if k == last {
                    obj.insert(name.clone(), v);
                    return Ok(());
                }
                cur = obj.get_mut(name.as_str()).ok_or_else(|| PathError::NoSuchField {
                    at: format!("{here}.{name}").trim_start_matches('.').into(),
                })?;
            }
            PathSeg::Index(i) => {
                let Some(arr) = cur.as_array_mut() else {
                    return Err(PathError::NotAList { at: here.into() });
                };
                let len = arr.len();
                let slot =
                    arr.get_mut(*i).ok_or_else(|| PathError::NoSuchElement { at: here.into(), index: *i, len })?;
                if k == last {
                    *slot = v;
                    return Ok(());
                }
                cur = slot;
            }
        }
    }
    Ok(())
}

#[derive(Clone, PartialEq, Eq)]
enum PathSeg {
    Key(String),
    Index(usize),
}

/// The path in one spelling: indices as plain numbers (`flows[00].cc` is `flows[0].cc`), so
/// that two spellings of one field compare equal.
pub fn canonical_path(path: &str) -> Result<String, PathError> {
    Ok(split_path(path)?.iter().map(|s| s.to_string()).collect::<String>().trim_start_matches('.').to_string())
}

/// Whether setting `a` and setting `b` can touch the same value: the same field, or one inside
/// the other (`flows[0]` and `flows[0].cc`). Malformed paths overlap nothing (they are refused
/// on their own).
pub fn paths_overlap(a: &str, b: &str) -> bool {
    let (Ok(a), Ok(b)) = (split_path(a), split_path(b)) else { return false };
    let n = a.len().min(b.len());
    a[..n] == b[..n]
}

impl std::fmt::Display for PathSeg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PathSeg::Key(k) => write!(f, ".{k}"),
            PathSeg::Index(i) => write!(f, "[{i}]"),
        }
    }
}

fn split_path(path: &str) -> Result<Vec<PathSeg>, PathError> {
    let bad = || PathError::Malformed { path: path.into() };
    let mut segs = Vec::new();
    for part in path.split('.') {
        let (name, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if name.is_empty() {
            return Err(bad());
        }
        segs.push(PathSeg::Key(name.to_string()));
        while !rest.is_empty() {
            let close = rest.find(']').ok_or_else(bad)?;
            let idx: usize = rest[1..close].parse().map_err(|_| bad())?;
            segs.push(PathSeg::Index(idx));
            rest = &rest[close + 1..];
            if !rest.is_empty() && !rest.starts_with('[') {
                return Err(bad());
            }
        }
    }
    if segs.is_empty() {
        return Err(bad());
    }
    Ok(segs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::tests::MINIMAL;

    #[test]
    fn paths_address_nested_list_elements() {
        let mut v: Value = serde_json::from_str(MINIMAL).unwrap();
        set_path(&mut v, "topology.links[0].delay_ms", 300.into()).unwrap();
        assert_eq!(v["topology"]["links"][0]["delay_ms"], 300);
        let e = set_path(&mut v, "topology.links[3].delay_ms", 1.into()).unwrap_err();
        assert_eq!(e, PathError::NoSuchElement { at: "topology.links".into(), index: 3, len: 1 });
        assert_eq!(
            (e.path(), e.to_string()),
            ("topology.links[3]".into(), "topology.links[3]: no such element (topology.links has 1)".into())
        );
        let e = set_path(&mut v, "flows[0]cc", 1.into()).unwrap_err();
        assert_eq!(e.to_string(), "\"flows[0]cc\": not a path like topology.links[1].loss.p");
        assert_eq!(set_path(&mut v, "name.x", 1.into()).unwrap_err().to_string(), "name: is not an object");
        assert_eq!(set_path(&mut v, "topology.x.y", 1.into()).unwrap_err().to_string(), "topology.x: no such field");
    }

    #[test]
    fn two_spellings_of_one_field_or_a_field_inside_another_overlap() {
        assert_eq!(canonical_path("flows[00].cc").unwrap(), "flows[0].cc");
        assert_eq!(canonical_path("topology.links[01][2].p").unwrap(), "topology.links[1][2].p");
        assert!(paths_overlap("flows[0].cc", "flows[00].cc"));
        assert!(paths_overlap("flows[0]", "flows[0].cc"));
        assert!(paths_overlap("flows[0].cc", "flows"));
        assert!(!paths_overlap("flows[0].cc", "flows[1].cc"));
        assert!(!paths_overlap("flows[0].cc", "flows[0].ccx"));
        assert!(!paths_overlap("seed", "flows[0]cc"), "a malformed path is refused on its own");
    }
}
