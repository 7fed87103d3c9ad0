"""``--format parquet``: the files the CLI writes (``sweep -o``, ``merge -o``, ``run --csv``) are
read by pandas (pyarrow engine) and by polars as the table its CSV holds: the same column names
in the same order, the same dtype family, every cell equal (floats exactly), and the provenance
(core version, scenario hash) in the file's key-value metadata as pyarrow reads it."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import DATA, ROOT, SMALL_SWEEP, run_cli

# pandas 3 reads floats exactly by default (and deprecates the option); pandas 2 needs asking.
EXACT_FLOATS = {} if int(pd.__version__.split(".")[0]) >= 3 else {"float_precision": "round_trip"}

SWEEPS = {
    # A label that needs the formula guard and quoting, empty completion cells, a paper column
    # with empty cells, and derived seeds above the largest signed 64-bit integer.
    "small-sweep": SMALL_SWEEP,
    # A boolean grid path, an integer grid path with a null, a number-like label ('-1).
    "parquet-types": DATA / "parquet-types.json",
    # A grid over whole flows: every cell of its first column is quoted JSON.
    "intcp-multicast": ROOT / "scenarios" / "intcp-multicast.json",
}
RUNS = {
    # One TCP flow over four links: ssthresh has empty cells; t_s of whole seconds is integer.
    "default": ROOT / "scenarios" / "default.json",
    # Four INTCP flows over ten links: 26 trace files.
    "intcp-multicast": ROOT / "scenarios" / "intcp-multicast.json",
}
READERS = ["pandas", "polars"]


# --- reading both files with both readers ------------------------------------------------


def pandas_csv(path: Path) -> pd.DataFrame:
    # Only an empty cell is missing: the CLI writes no other marker, so text such as "NA" is text.
    return pd.read_csv(path, keep_default_na=False, na_values=[""], **EXACT_FLOATS)


def polars_csv(path: Path) -> pl.DataFrame:
    # The whole file decides each column's type, not its first 100 rows.
    return pl.read_csv(path, infer_schema_length=None)


def pandas_family(s: pd.Series) -> str:
    t = s.dtype
    if pd.api.types.is_bool_dtype(t):
        return "bool"
    if pd.api.types.is_integer_dtype(t):
        return "int"
    if pd.api.types.is_float_dtype(t):
        return "float"
    if pd.api.types.is_string_dtype(t):
        return "str"
    return str(t)


def polars_family(s: pl.Series) -> str:
    t = s.dtype
    if t == pl.Boolean:
        return "bool"
    if t.is_integer():
        return "int"
    if t.is_float():
        return "float"
    if t == pl.String:
        return "str"
    return str(t)


def pandas_columns(df: pd.DataFrame) -> dict[str, tuple[str, list]]:
    return {c: (pandas_family(df[c]), [None if pd.isna(v) else v for v in df[c].tolist()]) for c in df.columns}


def polars_columns(df: pl.DataFrame) -> dict[str, tuple[str, list]]:
    return {c: (polars_family(df[c]), df[c].to_list()) for c in df.columns}


def read(reader: str, csv: Path, parquet: Path) -> tuple[list[str], list[str], dict, dict]:
    """Column names and ``{name: (dtype family, cells)}`` of the CSV and of the Parquet file."""
    if reader == "pandas":
        c, p = pandas_csv(csv), pd.read_parquet(parquet, engine="pyarrow")
        return list(c.columns), list(p.columns), pandas_columns(c), pandas_columns(p)
    c, p = polars_csv(csv), pl.read_parquet(parquet)
    return c.columns, p.columns, polars_columns(c), polars_columns(p)


def assert_same_table(reader: str, csv: Path, parquet: Path) -> dict[str, tuple[str, list]]:
    csv_names, pq_names, csv_cols, pq_cols = read(reader, csv, parquet)
    assert pq_names == csv_names, f"{parquet.name}: column names"
    for name in csv_names:
        (csv_family, csv_cells), (pq_family, pq_cells) = csv_cols[name], pq_cols[name]
        if all(v is None for v in csv_cells):
            # A column with no value at all (or a trace with no points) says nothing of its type
            # in CSV (pandas reads float64, polars String); the CLI writes a DOUBLE of nulls.
            assert pq_family == "float", f"{parquet.name}: {name}: an empty column is {pq_family}"
        else:
            assert pq_family == csv_family, f"{parquet.name}: {name}: dtype {pq_family}, CSV {csv_family}"
        # Lists compare element by element with ==: floats exactly, None only with None.
        assert pq_cells == csv_cells, f"{parquet.name}: {name}: cells differ"
    return pq_cols


def provenance(parquet: Path) -> dict[str, str]:
    kv = pq.read_metadata(parquet).metadata or {}
    return {k.decode(): v.decode() for k, v in kv.items()}


@pytest.fixture(scope="module")
def core_version(cli) -> str:
    out = run_cli(cli, "--version").stdout.split()
    assert out[0] == "orbitcp", out
    return out[1]


# --- sweep and merge --------------------------------------------------------------------


@pytest.fixture(scope="module")
def sweep_files(cli, tmp_path_factory):
    """``(csv, parquet)`` of ``orbitcp sweep [--aggregate] S -o FILE``, each sweep run once."""
    out = tmp_path_factory.mktemp("sweeps")
    cache = {}

    def get(name: str, aggregate: bool) -> tuple[Path, Path]:
        key = (name, aggregate)
        if key not in cache:
            stem = out / f"{name}{'-aggregate' if aggregate else ''}"
            args = ["sweep", str(SWEEPS[name]), *(["--aggregate"] if aggregate else [])]
            run_cli(cli, *args, "-o", f"{stem}.csv")
            run_cli(cli, *args, "--format", "parquet", "-o", f"{stem}.parquet")
            cache[key] = (Path(f"{stem}.csv"), Path(f"{stem}.parquet"))
        return cache[key]

    return get


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("aggregate", [False, True], ids=["raw", "aggregate"])
@pytest.mark.parametrize("name", list(SWEEPS))
def test_a_parquet_sweep_table_is_its_csv(sweep_files, reader, aggregate, name):
    csv, parquet = sweep_files(name, aggregate)
    cols = assert_same_table(reader, csv, parquet)
    assert len(cols["flow"][1]) > 0
    if not aggregate:
        assert sorted(set(cols["job"][1])) == list(range(job_count(SWEEPS[name]))), "every job has its rows"


def job_count(path: Path) -> int:
    sweep = json.loads(path.read_text())["sweep"]
    n = sweep.get("runs", 1)
    for values in sweep["grid"].values():
        n *= len(values)
    return n


@pytest.mark.parametrize("aggregate", [False, True], ids=["raw", "aggregate"])
@pytest.mark.parametrize("name", list(SWEEPS))
def test_a_parquet_sweep_table_carries_the_provenance(sweep_files, core_version, aggregate, name):
    csv, parquet = sweep_files(name, aggregate)
    table = pandas_csv(csv)
    meta = provenance(parquet)
    assert meta["core_version"] == core_version
    assert [meta["core_version"]] == table["core_version"].unique().tolist()
    assert [meta["scenario_hash"]] == table["scenario_hash"].unique().tolist()
    assert meta["scenario_hash"].startswith("fnv1a64:")


def test_the_cells_that_need_care_are_in_the_tables_and_typed(sweep_files):
    """The comparisons above cover what they should: each kind of tricky cell is there."""
    small = pq.read_table(sweep_files("small-sweep", False)[1])
    assert set(small["flows[1].label"].to_pylist()) == {"plain", "'=risky, \"quoted\""}
    assert small["completion_s"].null_count > 0 and small["paper_goodput_mbps"].null_count > 0
    types = pq.read_table(sweep_files("parquet-types", False)[1])
    assert types.schema.field("flows[0].cache").type == pa.bool_()
    assert types["flows[0].cache"].to_pylist().count(False) > 0
    # A derived seed above 2**63 - 1, kept to the last digit: unsigned, not rounded to a double.
    assert types.schema.field("seed").type == pa.uint64()
    assert max(types["seed"].to_pylist()) > 2**63 - 1
    assert types.schema.field("flows[0].bytes").type == pa.int64()
    assert types["flows[0].bytes"].null_count > 0
    assert set(types["flows[1].label"].to_pylist()) == {"'-1", 'a "b", c'}
    assert types.schema.field("coding_overhead").type == pa.float64()
    assert types["coding_overhead"].null_count == types.num_rows
    multicast = pq.read_table(sweep_files("intcp-multicast", False)[1])
    flows = multicast["flows"].to_pylist()
    assert all(isinstance(json.loads(f), list) for f in flows)


@pytest.mark.parametrize("aggregate", [False, True], ids=["raw", "aggregate"])
def test_merged_shards_as_parquet_are_the_csv(cli, core_version, tmp_path: Path, aggregate):
    shards = []
    for k in (1, 2):
        shard = tmp_path / f"shard{k}.csv"
        run_cli(cli, "sweep", str(SMALL_SWEEP), "--shard", f"{k}/2", "-o", str(shard))
        shards.append(str(shard))
    flags = ["--aggregate"] if aggregate else []
    csv, parquet = tmp_path / "merged.csv", tmp_path / "merged.parquet"
    run_cli(cli, "merge", *shards, *flags, "-o", str(csv))
    run_cli(cli, "merge", *shards, *flags, "--format", "parquet", "-o", str(parquet))
    for reader in READERS:
        assert_same_table(reader, csv, parquet)
    meta = provenance(parquet)
    assert meta["core_version"] == core_version
    assert [meta["scenario_hash"]] == pandas_csv(csv)["scenario_hash"].unique().tolist()


# --- run --csv DIR --format parquet ------------------------------------------------------


@pytest.mark.parametrize("name", list(RUNS))
def test_parquet_traces_are_the_csv_traces(cli, core_version, tmp_path: Path, name):
    path = str(RUNS[name])
    csv_dir, pq_dir = tmp_path / "csv", tmp_path / "parquet"
    result = json.loads(run_cli(cli, "run", "--summary", path, "--csv", str(csv_dir)).stdout)
    pq_result = json.loads(run_cli(cli, "run", "--summary", path, "--csv", str(pq_dir), "--format", "parquet").stdout)
    assert pq_result == result
    stems = sorted(p.stem for p in csv_dir.glob("*.csv"))
    assert len(stems) >= 5, stems
    assert sorted(p.stem for p in pq_dir.glob("*.parquet")) == stems
    assert not list(pq_dir.glob("*.csv")), "--format parquet writes no CSV"
    for stem in stems:
        for reader in READERS:
            cols = assert_same_table(reader, csv_dir / f"{stem}.csv", pq_dir / f"{stem}.parquet")
            assert list(cols)[0] == "t_s"
        meta = provenance(pq_dir / f"{stem}.parquet")
        assert meta["core_version"] == result["core_version"] == core_version
        assert meta["scenario_hash"] == result["scenario_hash"]
