//! `--format parquet`: the sweep table and the run traces as Parquet, read back here and compared
//! with the CSV the same command writes, cell by cell, with the provenance as metadata.
#![cfg(feature = "cli")]

use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn orbitcp(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_orbitcp")).args(args).output().expect("the CLI runs")
}

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("orbitcp-parquet-test-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

const SWEEP: &str = r#"{"version":1,"name":"pq","duration_s":3,"seed":2,
  "topology":{"kind":"chain","links":[{"rate_mbps":8,"delay_ms":15,"loss":{"model":"bernoulli","p":0.01}}]},
  "flows":[{"transport":"tcp","cc":"reno","bytes":40000},{"transport":"ctcp","variant":"v1","bytes":40000}],
  "sweep":{"grid":{"flows[0].label":["x, \"y\""],"flows[0].cc":["reno","cubic"]},"runs":2}}"#;

/// A Parquet file read back.
struct Table {
    names: Vec<String>,
    rows: Vec<Vec<Field>>,
    metadata: Vec<(String, String)>,
}

fn read(path: &Path) -> Table {
    let reader = SerializedFileReader::new(std::fs::File::open(path).unwrap()).unwrap();
    let kv = reader
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .map(|kv| kv.iter().map(|k| (k.key.clone(), k.value.clone().unwrap_or_default())).collect())
        .unwrap_or_default();
    // From the schema: a trace with no points still has its columns.
    let names =
        reader.metadata().file_metadata().schema_descr().columns().iter().map(|c| c.name().to_string()).collect();
    let rows: Vec<Vec<Field>> = reader
        .get_row_iter(None)
        .unwrap()
        .map(|r| r.unwrap().get_column_iter().map(|(_, f)| f.clone()).collect())
        .collect();
    Table { names, rows, metadata: kv }
}

/// A CSV cell's value as pandas reads it, against a Parquet field.
fn same(cell: &str, f: &Field) -> bool {
    match f {
        Field::Null => cell.is_empty(),
        Field::Bool(v) => cell == if *v { "true" } else { "false" },
        Field::Long(v) => cell.parse::<i64>() == Ok(*v),
        Field::ULong(v) => cell.parse::<u64>() == Ok(*v),
        Field::Double(v) => cell.parse::<f64>() == Ok(*v),
        Field::Str(s) => {
            let unquoted = cell.strip_prefix('"').and_then(|c| c.strip_suffix('"')).map(|c| c.replace("\"\"", "\""));
            unquoted.as_deref().unwrap_or(cell) == s
        }
        _ => false,
    }
}

fn compare(csv_text: &str, path: &Path) -> Vec<(String, String)> {
    let rows = orbitcp_core::csv::parse(csv_text).unwrap();
    let Table { names, rows: values, metadata: kv } = read(path);
    assert_eq!(names.len(), rows[0].len());
    assert_eq!(values.len(), rows.len() - 1);
    for (row, fields) in rows[1..].iter().zip(&values) {
        for ((cell, f), name) in row.iter().zip(fields).zip(&names) {
            assert!(same(cell, f), "{}: column {name}: CSV {cell:?}, Parquet {f:?}", path.display());
        }
    }
    kv
}

#[test]
fn a_parquet_sweep_table_has_the_csv_values_and_the_provenance() {
    let scenario = dir().join("sweep.json");
    std::fs::write(&scenario, SWEEP).unwrap();
    let s = scenario.to_str().unwrap();
    for aggregate in [false, true] {
        let mut args = vec!["sweep", s, "--threads", "2"];
        if aggregate {
            args.push("--aggregate");
        }
        let csv = orbitcp(&args);
        assert!(csv.status.success());
        let csv = String::from_utf8(csv.stdout).unwrap();
        let out = dir().join(format!("sweep-{aggregate}.parquet"));
        args.extend(["--format", "parquet", "-o", out.to_str().unwrap()]);
        let o = orbitcp(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let kv = compare(&csv, &out);
        let hash = csv.lines().nth(1).unwrap().rsplit(',').next().unwrap().to_string();
        assert!(kv.contains(&("scenario_hash".into(), hash)), "{kv:?}");
        assert!(kv.contains(&("core_version".into(), env!("CARGO_PKG_VERSION").into())), "{kv:?}");
    }
    // Binary to a terminal is no use: Parquet needs -o.
    let o = orbitcp(&["sweep", s, "--format", "parquet"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn run_traces_as_parquet_have_the_csv_values() {
    let scenario = dir().join("run.json");
    let mut v: serde_json::Value = serde_json::from_str(SWEEP).unwrap();
    v.as_object_mut().unwrap().remove("sweep");
    std::fs::write(&scenario, v.to_string()).unwrap();
    let (csv_dir, pq_dir) = (dir().join("csv"), dir().join("pq"));
    let s = scenario.to_str().unwrap();
    assert!(orbitcp(&["run", s, "--summary", "--csv", csv_dir.to_str().unwrap()]).status.success());
    let o = orbitcp(&["run", s, "--summary", "--csv", pq_dir.to_str().unwrap(), "--format", "parquet"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let result: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let mut n = 0;
    for e in std::fs::read_dir(&csv_dir).unwrap() {
        let p = e.unwrap().path();
        let stem = p.file_stem().unwrap().to_str().unwrap().to_string();
        let kv = compare(&std::fs::read_to_string(&p).unwrap(), &pq_dir.join(format!("{stem}.parquet")));
        assert!(kv.contains(&("scenario_hash".into(), result["scenario_hash"].as_str().unwrap().into())));
        n += 1;
    }
    assert!(n >= 5, "every trace: {n}");
}
