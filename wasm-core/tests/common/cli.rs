//! Helpers of the command-line tests (`cli.rs`, `cli_signals.rs`), which include this file by
//! path: it needs the `orbitcp` binary, which the other integration tests do not build against.

use std::process::{Child, Command, Stdio};

/// Writes `text` to `name` in a folder of this test process's own, and returns its path.
pub fn write_tmp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("orbitcp-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().to_string()
}

/// Starts the CLI with no standard input and both outputs piped.
pub fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_orbitcp"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the CLI runs")
}
