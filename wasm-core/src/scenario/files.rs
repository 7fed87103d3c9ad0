//! The files a scenario names (`tle_file`, `omm_file`, `isls_file`, `ground_stations_file`) and how their
//! text goes into the scenario. The core reads no files: the CLI and the Python package ask
//! [`files_to_read`] which ones to read, read them relative to the scenario's folder, and hand
//! the texts to [`inline_files`], so both put the very same values into the scenario.
//!
//! A file name must stay inside the scenario's folder: relative, without `..`, so that a shared
//! scenario cannot make the reader open (and quote) a file elsewhere on the machine. The readers
//! also follow symbolic links and refuse a file whose real path is outside the folder's, and
//! read at most [`MAX_SCENARIO_BYTES`] of a scenario and [`MAX_FILE_BYTES`] of each file.

use serde_json::Value;

/// The most bytes of a scenario file (or of standard input) the CLI and the Python package
/// read: 64 MiB. A scenario may hold a whole catalogue inline (`tle`, `omm`): CelesTrak's
/// largest set, the full active catalogue of about 11 000 objects, is about 2.5 MB as TLEs and
/// under 15 MB as OMM JSON; Hypatia's Starlink `tles.txt` is 0.7 MB. Beyond this, a file is a
/// mistake (`/dev/zero`, a log) that would otherwise be read until memory runs out.
pub const MAX_SCENARIO_BYTES: u64 = 64 << 20;

/// The most bytes of each file a scenario names (`tle_file`, `omm_file`, `isls_file`,
/// `ground_stations_file`) the readers read: 64 MiB, as for a scenario (same reasons).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// A file a scenario names whose inline value is absent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRef {
    /// The scenario field that names it, e.g. `topology.constellation.tle_file`.
    pub field: &'static str,
    /// The name as written.
    pub name: String,
}

/// (JSON pointer of the object holding both keys, file key, inline key, field path of the file key).
const FILE_FIELDS: [(&str, &str, &str, &str); 4] = [
    ("/topology/constellation", "tle_file", "tle", "topology.constellation.tle_file"),
    ("/topology/constellation", "omm_file", "omm", "topology.constellation.omm_file"),
    ("/topology/constellation", "isls_file", "isls", "topology.constellation.isls_file"),
    ("/topology", "ground_stations_file", "ground_stations", "topology.ground_stations_file"),
];

/// The files to read for a scenario's JSON text: those named where no inline value is given.
/// Text that is not JSON names none (the parser reports it).
pub fn files_to_read(json: &str) -> Vec<FileRef> {
    let Ok(v) = super::strict_json::parse_json(json) else { return Vec::new() };
    FILE_FIELDS
        .iter()
        .filter_map(|&(at, file_key, inline_key, field)| {
            let o = v.pointer(at)?.as_object()?;
            if o.contains_key(inline_key) {
                return None;
            }
            Some(FileRef { field, name: o.get(file_key)?.as_str()?.to_string() })
        })
        .collect()
}

/// The [`FileRef`] of a file field given by its path (`topology.constellation.tle_file`, …);
/// `None` for a field that names no file.
pub fn file_ref(field: &str, name: String) -> Option<FileRef> {
    FILE_FIELDS.iter().find(|x| x.3 == field).map(|x| FileRef { field: x.3, name })
}

/// Refuses a file name that leaves the scenario's folder: absolute, with a drive or root, or
/// with a `..` component. The message names the field.
pub fn check_file_name(f: &FileRef) -> Result<(), String> {
    let p = std::path::Path::new(&f.name);
    let leaves = p.is_absolute()
        || f.name.starts_with('/')
        || f.name.starts_with('\\')
        || p.components().any(|c| !matches!(c, std::path::Component::Normal(_) | std::path::Component::CurDir));
    if f.name.is_empty() || leaves {
        return Err(format!(
            "{}: \"{}\" must be a file name relative to the scenario's folder, without \"..\"",
            f.field,
            f.name.chars().take(200).flat_map(char::escape_debug).collect::<String>()
        ));
    }
    Ok(())
}

/// The scenario with each file's text put in place of its name: `tle` and `ground_stations` as
/// the text, `omm` as the JSON records of a CelesTrak OMM file, `isls` as the pairs of an
/// `isls.txt` ("a b" per line, Hypatia's format). `texts`
/// pairs each [`FileRef`] of [`files_to_read`] with its content.
pub fn inline_files(json: &str, texts: &[(FileRef, String)]) -> Result<String, String> {
    if texts.is_empty() {
        return Ok(json.to_string());
    }
    // Strictly, as the parser reads it: the text written back must not lose a duplicate key.
    let mut v = super::strict_json::parse_json(json).map_err(|e| e.to_string())?;
    for (f, text) in texts {
        let &(at, file_key, inline_key, _) =
            FILE_FIELDS.iter().find(|x| x.3 == f.field).ok_or_else(|| format!("{}: not a file field", f.field))?;
        let value = match inline_key {
            "isls" => Value::from(isl_pairs(f.field, text)?),
            "omm" => super::strict_json::parse_json(text).map_err(|e| {
                let at = if e.path.is_empty() { String::new() } else { format!(" at {}", e.path) };
                format!("{}: not OMM JSON (CelesTrak's format, an array of records){at}: {}", f.field, e.message)
            })?,
            _ => Value::from(text.as_str()),
        };
        let o = v.pointer_mut(at).and_then(Value::as_object_mut).ok_or_else(|| format!("{}: missing", f.field))?;
        // The name goes: the core refuses a scenario that gives both a file and its value.
        o.remove(file_key);
        o.insert(inline_key.into(), value);
    }
    Ok(v.to_string())
}

/// The pairs of an `isls.txt`: "a b" per line, blank lines skipped.
pub fn isl_pairs(field: &str, text: &str) -> Result<Vec<[u32; 2]>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let words: Vec<&str> = l.split_whitespace().collect();
            match words[..] {
                [a, b] => match (a.parse(), b.parse()) {
                    (Ok(a), Ok(b)) => Ok([a, b]),
                    _ => Err(format!("{field}: line {}: expected two satellite indices, found other text", i + 1)),
                },
                _ => Err(format!(
                    "{field}: line {}: expected two satellite indices \"a b\", found {} words",
                    i + 1,
                    words.len()
                )),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SC: &str = r#"{"topology": {"kind": "constellation", "ground_stations_file": "gs.txt",
        "constellation": {"tle_file": "tles.txt", "isls_file": "isls.txt", "tle": "inline"}}}"#;

    #[test]
    fn only_files_without_an_inline_value_are_read() {
        let names: Vec<&str> = files_to_read(SC).iter().map(|f| f.field).collect();
        assert_eq!(names, ["topology.constellation.isls_file", "topology.ground_stations_file"]);
        assert!(files_to_read("not json").is_empty());
    }

    #[test]
    fn isls_text_becomes_pairs_and_bad_lines_are_named() {
        let files = files_to_read(SC);
        let out =
            inline_files(SC, &[(files[0].clone(), "0 1\n\n1 2\n".into()), (files[1].clone(), "x".into())]).unwrap();
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["topology"]["constellation"]["isls"], serde_json::json!([[0, 1], [1, 2]]));
        assert_eq!(v["topology"]["ground_stations"], "x");
        assert!(v["topology"].get("ground_stations_file").is_none());
        let e = inline_files(SC, &[(files[0].clone(), "0 1\n2\n".into())]).unwrap_err();
        assert_eq!(
            e,
            "topology.constellation.isls_file: line 2: expected two satellite indices \"a b\", found 1 words"
        );
        let e = inline_files(SC, &[(files[0].clone(), "0 -1\n".into())]).unwrap_err();
        assert!(e.contains("line 1"), "{e}");
    }

    #[test]
    fn a_file_outside_the_scenario_folder_is_refused() {
        let f = |name: &str| FileRef { field: "topology.constellation.tle_file", name: name.into() };
        for bad in ["/etc/shadow", "../secret.txt", "a/../../b", "", "\\\\server\\x"] {
            let e = check_file_name(&f(bad)).unwrap_err();
            assert!(e.starts_with("topology.constellation.tle_file: "), "{e}");
        }
        for good in ["tles.txt", "hypatia/kuiper-630/tles.txt", "./tles.txt"] {
            assert!(check_file_name(&f(good)).is_ok(), "{good}");
        }
    }
}
