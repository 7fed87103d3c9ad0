"""The example notebook runs from top to bottom (nbclient, as a reader's Jupyter would) and draws
its figure, and the copy in git carries no outputs."""

from __future__ import annotations

import base64
from pathlib import Path

import nbformat
import pandas as pd
import pytest

from conftest import ROOT, run_cli

NOTEBOOK = ROOT / "python" / "examples" / "ctcp-fig2-dask.ipynb"


def test_the_notebook_in_git_has_its_outputs_stripped():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            assert cell.outputs == [], f"cell {i} carries outputs: clear them before committing"
            assert cell.execution_count is None, f"cell {i} carries an execution count"


def test_the_notebook_sweeps_fig2_on_dask_and_plots_it(cli, cli_sweep, tmp_path: Path):
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    # One cell more, to compare the notebook's table with the CLI's.
    table_csv = tmp_path / "table.csv"
    nb.cells.append(
        nbformat.v4.new_code_cell(f'table.drop(columns=["rtt_ms", "per"]).to_csv({str(table_csv)!r}, index=False)')
    )
    # The kernel starts in the notebook's own folder, as Jupyter would start it.
    client = nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOK.parent)}}
    )
    client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    errors = [o for o in outputs if o.output_type == "error"]
    assert not errors, f"the notebook raised: {errors[0].ename}: {errors[0].evalue}"

    printed = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    runs = run_cli(cli, "validate", str(ROOT / "scenarios" / "ctcp-fig2.json")).stdout
    assert f"({printed.split()[0]} runs)" in runs, f"the notebook printed {printed!r}; the CLI says {runs!r}"

    expected = cli_sweep(ROOT / "scenarios" / "ctcp-fig2.json", True)
    pd.testing.assert_frame_equal(pd.read_csv(table_csv), expected)

    pngs = [o.data["image/png"] for o in outputs if o.output_type == "display_data" and "image/png" in o.data]
    assert len(pngs) == 1, "the notebook draws one figure"
    png = base64.b64decode(pngs[0])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width = int.from_bytes(png[16:20], "big")
    assert width > 800, f"the figure has four panels side by side; it is only {width} px wide"
