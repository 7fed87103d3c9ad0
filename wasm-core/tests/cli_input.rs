//! The command-line tool and what it reads and prints back: bounded reads, files that stay in
//! the scenario's folder, errors that do not quote files, and terminal-safe output.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn orbitcp(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_orbitcp")).args(args).output().expect("the CLI runs")
}

/// A fresh folder for one test.
fn folder(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("orbitcp-cli-input-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().to_string()
}

/// A constellation scenario whose TLEs are the file `tle_file`.
fn with_tle_file(tle_file: &str) -> String {
    format!(
        r#"{{"version":1,"name":"t","duration_s":1,"topology":{{"kind":"constellation",
        "constellation":{{"tle_file":"{tle_file}"}},"src":"London","dst":"Paris"}},
        "flows":[{{"transport":"tcp","cc":"reno","bytes":1000}}]}}"#
    )
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const MIB: u64 = 1 << 20;

#[test]
fn a_scenario_or_a_named_file_over_64_mib_is_refused_by_name() {
    let dir = folder("size");
    // Sparse: 65 MiB long without taking the disk.
    let big = dir.join("big.txt");
    std::fs::File::create(&big).unwrap().set_len(65 * MIB).unwrap();
    let f = write(&dir, "big-tle.json", &with_tle_file("big.txt"));
    let o = orbitcp(&["validate", &f]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("topology.constellation.tle_file") && err.contains("big.txt"), "{err}");
    assert!(err.contains("larger than 64 MiB"), "{err}");
    let big_scenario = dir.join("big.json");
    std::fs::File::create(&big_scenario).unwrap().set_len(65 * MIB).unwrap();
    let o = orbitcp(&["run", big_scenario.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("big.json: larger than 64 MiB"), "{}", stderr(&o));
    // Standard input is bounded too: the program stops reading and says so.
    let mut child = Command::new(env!("CARGO_BIN_EXE_orbitcp"))
        .args(["validate", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let chunk = vec![b' '; MIB as usize];
        // The program closes the pipe once past the limit: the write then fails, as it should.
        for _ in 0..65 {
            if stdin.write_all(&chunk).is_err() {
                break;
            }
        }
    });
    let o = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("standard input: larger than 64 MiB"), "{}", stderr(&o));
}

#[test]
fn a_device_or_a_folder_is_refused_not_read() {
    for path in ["/dev/zero", "/tmp"] {
        let o = orbitcp(&["run", path]);
        assert_eq!(o.status.code(), Some(2), "{path}");
        assert_eq!(stderr(&o), format!("error: {path}: not a regular file\n"));
    }
    let dir = folder("device");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let f = write(&dir, "dir-tle.json", &with_tle_file("sub"));
    let o = orbitcp(&["validate", &f]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("sub: not a regular file"), "{}", stderr(&o));
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_cannot_lead_a_named_file_out_of_the_scenario_folder() {
    let dir = folder("symlink");
    std::os::unix::fs::symlink("/etc/passwd", dir.join("tles.txt")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.txt")).unwrap();
    for (name, target) in [("tles.txt", "passwd"), ("zero.txt", "zero")] {
        let f = write(&dir, "out.json", &with_tle_file(name));
        for cmd in ["run", "route", "validate"] {
            let o = orbitcp(&[cmd, &f]);
            assert_eq!(o.status.code(), Some(2), "{cmd} {target}");
            let err = stderr(&o);
            assert!(
                err.contains(&format!(
                    "topology.constellation.tle_file: \"{name}\" leads outside the scenario's folder"
                )),
                "{err}"
            );
            assert!(!err.contains("root:"), "the error quotes the file: {err}");
        }
    }
    // A link that stays in the folder is followed.
    let hypatia = concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios/hypatia/kuiper-630");
    std::fs::create_dir_all(dir.join("data")).unwrap();
    for f in ["tles.txt", "isls.txt", "ground_stations.txt"] {
        std::fs::copy(format!("{hypatia}/{f}"), dir.join("data").join(f)).unwrap();
    }
    std::fs::remove_file(dir.join("tles.txt")).unwrap();
    std::os::unix::fs::symlink("data/tles.txt", dir.join("tles.txt")).unwrap();
    let sc = std::fs::read_to_string(format!("{hypatia}/scenario.json"))
        .unwrap()
        .replace("\"isls.txt\"", "\"data/isls.txt\"")
        .replace("\"ground_stations.txt\"", "\"data/ground_stations.txt\"");
    let f = write(&dir, "in.json", &sc);
    let o = orbitcp(&["validate", &f]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn a_named_file_that_is_not_a_tle_is_named_by_line_not_quoted() {
    let dir = folder("not-tle");
    write(&dir, "secrets.txt", "root:x:0:0:root:/root:/bin/bash\ndaemon-password-hash:x:1:1\nmore:secret\n");
    let f = write(&dir, "s.json", &with_tle_file("secrets.txt"));
    let o = orbitcp(&["validate", &f]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("line 2: expected line 1 of an element set, found a line starting \"da\""), "{err}");
    assert!(!err.contains("password") && !err.contains("secret"), "the error quotes the file: {err}");
}

#[test]
fn user_text_reaches_the_terminal_with_control_characters_escaped() {
    let dir = folder("escape");
    let f = write(
        &dir,
        "esc.json",
        r#"{"version":1,"name":"x\u001b[31mRED\u202e","seed":1,"duration_s":5,
        "topology":{"kind":"chain","links":[{"rate_mbps":10,"delay_ms":5}]},
        "flows":[{"transport":"tcp","cc":"reno","bytes":1000}],"paper":{"source":"\u001b]0;pwn\u0007\u009b2J"}}"#,
    );
    let o = orbitcp(&["run", "--compare", &f]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.starts_with("x\\u{1b}[31mRED\\u{202e}\npaper: \\u{1b}]0;pwn\\u{7}\\u{9b}2J\n"), "{out:?}");
    // Errors too: a value quoted back, and a file name given on the command line.
    let bad = write(&dir, "bad.json", &std::fs::read_to_string(&f).unwrap().replace("\"reno\"", "\"re\\u0007no\""));
    let o = orbitcp(&["run", &bad]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(!err.contains('\u{7}') && err.contains("re\\u{7}no"), "{err:?}");
    let o = orbitcp(&["validate", "no\u{1b}[2Jsuch.json"]);
    assert_eq!(stderr(&o), "error: no\\u{1b}[2Jsuch.json: No such file or directory (os error 2)\n");
}
