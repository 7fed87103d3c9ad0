//! Reading what a command is given: the scenario (a file, or standard input) and the files it
//! names (`tle_file`, `omm_file`, `isls_file`, `ground_stations_file`), which the core cannot
//! read itself (`scenario::files`).
//!
//! Every read is bounded (`scenario::files::MAX_SCENARIO_BYTES`, `MAX_FILE_BYTES`), so that
//! `/dev/zero` or a runaway file is refused by name instead of filling the memory; only regular
//! files are read (standard input may be a pipe). A named file must stay in the scenario's
//! folder: its name is checked by the core (relative, no `..`), and here its real path, links
//! followed, must lie inside the folder's real path, so that a symbolic link in the folder
//! cannot lead elsewhere on the machine.

use crate::Failure;
use orbitcp_core::scenario::{self, files};
use std::io::Read;
use std::path::{Path, PathBuf};

/// `limit` in the units people read it in: `64 MiB`.
fn size(limit: u64) -> String {
    if limit.is_multiple_of(1 << 20) {
        format!("{} MiB", limit >> 20)
    } else {
        format!("{limit} bytes")
    }
}

/// At most `limit` bytes of `r` as text; `what` names the source in errors.
fn read_bounded(r: impl Read, what: &str, limit: u64) -> Result<String, Failure> {
    let mut bytes = Vec::new();
    r.take(limit + 1).read_to_end(&mut bytes).map_err(|e| Failure::Runtime(format!("{what}: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(Failure::Invalid(format!("{what}: larger than {}, the most orbitcp reads", size(limit))));
    }
    String::from_utf8(bytes).map_err(|e| Failure::Invalid(format!("{what}: not UTF-8 text ({e})")))
}

/// A regular file's text, at most `limit` bytes; `what` names it in errors.
fn read_regular(path: &Path, what: &str, limit: u64) -> Result<String, Failure> {
    let file = std::fs::File::open(path).map_err(|e| Failure::Runtime(format!("{what}: {e}")))?;
    let meta = file.metadata().map_err(|e| Failure::Runtime(format!("{what}: {e}")))?;
    if !meta.is_file() {
        return Err(Failure::Invalid(format!("{what}: not a regular file")));
    }
    if meta.len() > limit {
        return Err(Failure::Invalid(format!("{what}: larger than {}, the most orbitcp reads", size(limit))));
    }
    read_bounded(file, what, limit)
}

/// The scenario's text and the name to report it by; `-` reads standard input. The files it
/// names are read into it.
pub fn read_scenario(path: &str) -> Result<(String, String), Failure> {
    let (name, text) = if path == "-" {
        let name = "<stdin>".to_string();
        let text = read_bounded(std::io::stdin().lock(), "standard input", files::MAX_SCENARIO_BYTES)?;
        (name, text)
    } else {
        (path.to_string(), read_regular(Path::new(path), path, files::MAX_SCENARIO_BYTES)?)
    };
    let text = inline_files(path, &name, text)?;
    Ok((name, text))
}

/// A sweep shard's text (`orbitcp merge`): a regular file, its size bounded only by the file.
pub fn read_shard(path: &Path, name: &str) -> Result<String, Failure> {
    read_regular(path, name, u64::MAX - 1)
}

/// The scenario's folder: the file's, or the working directory for standard input.
fn folder(path: &str) -> PathBuf {
    let parent = if path == "-" { None } else { Path::new(path).parent() };
    match parent {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The core does no I/O: the files a scenario names are read here, relative to the scenario
/// file (to the working directory for standard input), and their text handed to the core.
fn inline_files(path: &str, name: &str, text: String) -> Result<String, Failure> {
    let named = files::files_to_read(&text);
    if named.is_empty() {
        return Ok(text);
    }
    let dir = folder(path);
    let root =
        dir.canonicalize().map_err(|e| Failure::Runtime(format!("{name}: its folder {}: {e}", dir.display())))?;
    let mut texts = Vec::new();
    for f in named {
        // A name that leaves the scenario's folder is the scenario's fault (exit 2); a file
        // that cannot be read is an I/O error (exit 1).
        files::check_file_name(&f).map_err(|e| Failure::Invalid(format!("{name}: {e}")))?;
        let shown = format!("{name}: {}: {}", f.field, dir.join(&f.name).display());
        let real = dir.join(&f.name).canonicalize().map_err(|e| Failure::Runtime(format!("{shown}: {e}")))?;
        if !real.starts_with(&root) {
            return Err(Failure::Invalid(format!(
                "{name}: {}: \"{}\" leads outside the scenario's folder (through a symbolic link); \
                 files a scenario names must stay in its folder",
                f.field, f.name
            )));
        }
        texts.push((f, read_regular(&real, &shown, files::MAX_FILE_BYTES)?));
    }
    scenario::files::inline_files(&text, &texts).map_err(|e| Failure::Invalid(format!("{name}: {e}")))
}
