//! Paths such as `topology.links[1].loss.p`: how a sweep sets the value it varies.

use serde_json::Value;

/// Sets the value at a path such as `topology.links[1].loss.p` or `flows[0].cc`.
pub fn set_path(root: &mut Value, path: &str, v: Value) -> Result<(), String> {
    let mut cur = root;
    let segs = split_path(path)?;
    let last = segs.len() - 1;
    for (k, seg) in segs.iter().enumerate() {
        let here = segs[..k].iter().map(|s| s.to_string()).collect::<Vec<_>>().join("");
        match seg {
            PathSeg::Key(name) => {
                let Some(obj) = cur.as_object_mut() else {
                    return Err(format!("{}: is not an object", here.trim_start_matches('.')));
                };
                if k == last {
                    obj.insert(name.clone(), v);
                    return Ok(());
                }
                cur = obj
                    .get_mut(name.as_str())
                    .ok_or_else(|| format!("{}: no such field", format!("{here}.{name}").trim_start_matches('.')))?;
            }
            PathSeg::Index(i) => {
                let Some(arr) = cur.as_array_mut() else {
                    return Err(format!("{}: is not a list", here.trim_start_matches('.')));
                };
                let n = arr.len();
                let slot = arr.get_mut(*i).ok_or_else(|| {
                    format!(
                        "{}[{i}]: no such element ({} has {n})",
                        here.trim_start_matches('.'),
                        here.trim_start_matches('.')
                    )
                })?;
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

enum PathSeg {
    Key(String),
    Index(usize),
}

impl std::fmt::Display for PathSeg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PathSeg::Key(k) => write!(f, ".{k}"),
            PathSeg::Index(i) => write!(f, "[{i}]"),
        }
    }
}

fn split_path(path: &str) -> Result<Vec<PathSeg>, String> {
    let bad = || format!("\"{path}\": not a path like topology.links[1].loss.p");
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
        assert!(set_path(&mut v, "topology.links[3].delay_ms", 1.into()).unwrap_err().contains("no such element"));
        assert!(set_path(&mut v, "flows[0]cc", 1.into()).is_err());
    }
}
