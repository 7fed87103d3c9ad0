//! Parquet output (`--format parquet`): a table the CLI writes as CSV, as a Parquet file with
//! the same columns and values, so that there is still one writer of each table's content.
//!
//! Each column's type comes from its cells, as `pandas.read_csv` types the CSV: `true` and
//! `false` (a JSON boolean's cells) are BOOLEAN, whole numbers INT64 (unsigned when some only fit
//! unsigned, as a run's derived `seed` can), other numbers DOUBLE, anything else a UTF-8 string
//! (the text the CSV holds: quotes undone, a formula guard `'` kept); an empty cell is a null,
//! and a column with no value at all is a DOUBLE of nulls, as `pandas.read_csv` reads it. The
//! provenance (`core_version`, `scenario_hash`) is also the file's key-value metadata.
//! Uncompressed: the files are small and this keeps the codecs (and their build time) out of
//! the binary. python/tests/test_parquet.py reads the CLI's files with pandas and polars and
//! compares them with its CSV.

use orbitcp_core::csv;
use parquet::basic::{LogicalType, Repetition, Type as Physical};
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::Type;
use std::sync::Arc;

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Bool,
    Int,
    /// Whole numbers that fit `u64` but not all `i64`: stored as INT64 with the unsigned
    /// logical type, so that a seed above `i64::MAX` is not rounded to a DOUBLE.
    UInt,
    Float,
    Text,
}

/// A cell written as a number by the CSV writer (never quoted, digits and a sign, point or
/// exponent only, so a text cell such as `nan` stays text).
fn numeric(cell: &str) -> bool {
    !cell.is_empty() && cell.chars().all(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E'))
}

fn kind(cells: &[&str]) -> Kind {
    let present: Vec<&str> = cells.iter().copied().filter(|c| !c.is_empty()).collect();
    let all = |f: &dyn Fn(&str) -> bool| present.iter().all(|c| f(c));
    if present.is_empty() {
        Kind::Float
    } else if all(&|c| c == "true" || c == "false") {
        Kind::Bool
    } else if all(&|c| numeric(c) && c.parse::<i64>().is_ok()) {
        Kind::Int
    } else if all(&|c| numeric(c) && c.parse::<u64>().is_ok()) {
        Kind::UInt
    } else if all(&|c| numeric(c) && c.parse::<f64>().is_ok()) {
        Kind::Float
    } else {
        Kind::Text
    }
}

/// A text cell's value: its quotes undone.
fn unquote(cell: &str) -> String {
    match cell.strip_prefix('"').and_then(|c| c.strip_suffix('"')) {
        Some(inner) => inner.replace("\"\"", "\""),
        None => cell.to_string(),
    }
}

/// The Parquet file of a CSV table the CLI wrote, with `metadata` as key-value pairs.
pub fn from_csv(text: &str, metadata: &[(&str, &str)]) -> Result<Vec<u8>, String> {
    let rows = csv::parse(text)?;
    let Some((header, body)) = rows.split_first() else { return Err("an empty table".into()) };
    if let Some((i, r)) = body.iter().enumerate().find(|(_, r)| r.len() != header.len()) {
        return Err(format!("line {}: {} cells for {} columns", i + 2, r.len(), header.len()));
    }
    let columns: Vec<Vec<&str>> = (0..header.len()).map(|c| body.iter().map(|r| r[c].as_str()).collect()).collect();
    let kinds: Vec<Kind> = columns.iter().map(|c| kind(c)).collect();
    let err = |e: parquet::errors::ParquetError| e.to_string();
    let fields = header
        .iter()
        .zip(&kinds)
        .map(|(name, k)| {
            let (physical, logical) = match k {
                Kind::Bool => (Physical::BOOLEAN, None),
                Kind::Int => (Physical::INT64, None),
                Kind::UInt => (Physical::INT64, Some(LogicalType::integer(64, false))),
                Kind::Float => (Physical::DOUBLE, None),
                Kind::Text => (Physical::BYTE_ARRAY, Some(LogicalType::String)),
            };
            Type::primitive_type_builder(&unquote(name), physical)
                .with_repetition(Repetition::OPTIONAL)
                .with_logical_type(logical)
                .build()
                .map(Arc::new)
                .map_err(err)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let schema = Arc::new(Type::group_type_builder("orbitcp").with_fields(fields).build().map_err(err)?);
    let kv = metadata.iter().map(|(k, v)| KeyValue::new(k.to_string(), v.to_string())).collect();
    let props = Arc::new(WriterProperties::builder().set_key_value_metadata(Some(kv)).build());
    let mut out = Vec::new();
    let mut writer = SerializedFileWriter::new(&mut out, schema, props).map_err(err)?;
    let mut group = writer.next_row_group().map_err(err)?;
    let mut c = 0;
    while let Some(mut col) = group.next_column().map_err(err)? {
        let cells = &columns[c];
        let defs: Vec<i16> = cells.iter().map(|v| i16::from(!v.is_empty())).collect();
        let present = cells.iter().filter(|v| !v.is_empty());
        match kinds[c] {
            Kind::Bool => {
                let v: Vec<bool> = present.map(|s| *s == "true").collect();
                col.typed::<BoolType>().write_batch(&v, Some(&defs), None).map_err(err)?;
            }
            Kind::Int => {
                let v: Vec<i64> = present.map(|s| s.parse().unwrap_or_default()).collect();
                col.typed::<Int64Type>().write_batch(&v, Some(&defs), None).map_err(err)?;
            }
            Kind::UInt => {
                // The same 64 bits; the column's logical type says to read them unsigned.
                let v: Vec<i64> = present.map(|s| s.parse::<u64>().unwrap_or_default() as i64).collect();
                col.typed::<Int64Type>().write_batch(&v, Some(&defs), None).map_err(err)?;
            }
            Kind::Float => {
                let v: Vec<f64> = present.map(|s| s.parse().unwrap_or_default()).collect();
                col.typed::<DoubleType>().write_batch(&v, Some(&defs), None).map_err(err)?;
            }
            Kind::Text => {
                let v: Vec<ByteArray> = present.map(|s| ByteArray::from(unquote(s).into_bytes())).collect();
                col.typed::<ByteArrayType>().write_batch(&v, Some(&defs), None).map_err(err)?;
            }
        }
        col.close().map_err(err)?;
        c += 1;
    }
    group.close().map_err(err)?;
    writer.close().map_err(err)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::Field;

    #[test]
    fn every_cell_reads_back_as_its_csv_value() {
        let text = "\"a, \"\"b\"\"\",n,x,e,'=f,b,u\n\"q, r\",3,0.25,,s,true,3\n'-1,-4,1e-7,,t,,18446744073709551615\n";
        let bytes = from_csv(text, &[("core_version", "9.9.9"), ("scenario_hash", "fnv1a64:00")]).unwrap();
        let path = std::env::temp_dir().join(format!("orbitcp-parquet-unit-{}.parquet", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        let reader = SerializedFileReader::new(std::fs::File::open(&path).unwrap()).unwrap();
        let kv = reader.metadata().file_metadata().key_value_metadata().unwrap();
        assert!(kv.iter().any(|k| k.key == "core_version" && k.value.as_deref() == Some("9.9.9")));
        let rows: Vec<Vec<(String, Field)>> = reader
            .get_row_iter(None)
            .unwrap()
            .map(|r| r.unwrap().get_column_iter().map(|(n, f)| (n.clone(), f.clone())).collect())
            .collect();
        let names: Vec<&str> = rows[0].iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["a, \"b\"", "n", "x", "e", "'=f", "b", "u"]);
        let values: Vec<Vec<Field>> = rows.iter().map(|r| r.iter().map(|(_, f)| f.clone()).collect()).collect();
        assert_eq!(
            values,
            [
                vec![
                    Field::Str("q, r".into()),
                    Field::Long(3),
                    Field::Double(0.25),
                    Field::Null,
                    Field::Str("s".into()),
                    Field::Bool(true),
                    Field::ULong(3)
                ],
                vec![
                    Field::Str("'-1".into()),
                    Field::Long(-4),
                    Field::Double(1e-7),
                    Field::Null,
                    Field::Str("t".into()),
                    Field::Null,
                    Field::ULong(u64::MAX)
                ],
            ]
        );
    }
}
