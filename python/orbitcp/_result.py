"""The result of one run: its summary as a dict, its traces as pandas DataFrames."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Optional

import pandas as pd


class Result:
    """What :func:`orbitcp.run` returns.

    ``summary``
        The JSON ``orbitcp run --summary`` prints, parsed: ``name``, ``seed``, ``end_s``,
        ``events``, ``flows`` (one dict per flow), ``fairness_jain``, ``links``...
    ``flows``
        The flows' summaries as a DataFrame, one row per flow (nested figures such as
        ``owd_ms`` flattened to ``owd_ms.mean``, ``owd_ms.p99``...).
    ``traces``
        A read-only mapping from a trace's name to a DataFrame with a ``t_s`` column and the
        trace's columns. The names are those of the files ``orbitcp run --csv DIR`` writes
        (``flow0_sender``, ``flow0_owd``, ``flow0_goodput``, ``flow0_jitter``, ``link1_queue``),
        and, where the run has them, ``flow0_jitter_arrival``, ``flow0_coding_rank``,
        ``flow0_coding_decodes`` (CTCP), ``flow0_hop2`` and ``flow0_hop2_retransmissions``
        (INTCP, per node), and ``flow0_owd_cdf`` / ``flow0_owd_arrival_cdf`` (columns
        ``quantile`` and ``owd_ms``). Empty when the run was made with ``traces=False``.
    ``trace(column, flow=None, link=None)``
        One column over time, found by name among a flow's (or a link's) traces:
        ``r.trace("cwnd", flow=0)`` is a DataFrame with ``t_s`` and ``cwnd``.
    """

    def __init__(self, result: dict[str, Any]):
        raw = result.pop("traces", None)
        self.summary: dict[str, Any] = result
        self.traces: Mapping[str, pd.DataFrame] = Traces(raw)

    @property
    def flows(self) -> pd.DataFrame:
        return pd.json_normalize(self.summary["flows"])

    def trace(self, column: str, flow: Optional[int] = None, link: Optional[int] = None) -> pd.DataFrame:
        if (flow is None) == (link is None):
            raise TypeError("trace(): give flow= or link=, one of them")
        prefix = f"flow{flow}_" if flow is not None else f"link{link}_"
        owners = [k for k in self.traces if k.startswith(prefix)]
        if not owners:
            raise KeyError(f"no traces for {prefix[:-1]} (traces: {', '.join(self.traces) or 'none'})")
        for key in owners:
            df = self.traces[key]
            if column in df.columns and column != "t_s":
                return df[["t_s", column]]
        cols = sorted({c for k in owners for c in self.traces[k].columns if c != "t_s"})
        raise KeyError(f"{prefix[:-1]} has no trace column {column!r} (columns: {', '.join(cols)})")

    def __repr__(self) -> str:
        flows = ", ".join(
            f"flow {f['id']} {f['transport']}/{f['cc']} {f['goodput_mbps']:.3f} Mbit/s"
            for f in self.summary["flows"]
        )
        return f"<orbitcp.Result {self.summary['name']!r}: {flows}; {len(self.traces)} traces>"


def _columns(cols: dict[str, Any]) -> pd.DataFrame:
    data = {"t_s": cols["t"]}
    data.update((k, v) for k, v in cols.items() if k != "t")
    return pd.DataFrame(data)


def _cdf(values: list[float]) -> pd.DataFrame:
    # The core samples the sorted delays at evenly spaced ranks: point i of n is quantile i/(n-1).
    n = len(values)
    return pd.DataFrame({"quantile": [i / max(n - 1, 1) for i in range(n)], "owd_ms": values})


class Traces(Mapping):
    """The traces by name; each DataFrame is built on first access."""

    def __init__(self, raw: Optional[dict[str, Any]]):
        self._make: dict[str, Any] = {}
        self._cache: dict[str, pd.DataFrame] = {}
        if not raw:
            return
        for f in raw["flows"]:
            p = f"flow{f['id']}_"
            for kind in ("sender", "owd", "goodput", "jitter", "jitter_arrival"):
                if f.get(kind) is not None:
                    self._make[p + kind] = (_columns, f[kind])
            if f.get("coding"):
                self._make[p + "coding_rank"] = (_columns, f["coding"]["rank"])
                self._make[p + "coding_decodes"] = (_columns, f["coding"]["decodes"])
            for h in f.get("hops") or []:
                self._make[f"{p}hop{h['node']}"] = (_columns, h["series"])
                self._make[f"{p}hop{h['node']}_retransmissions"] = (_columns, h["retransmissions"])
            self._make[p + "owd_cdf"] = (_cdf, f["owd_cdf_ms"])
            if f.get("owd_arrival_cdf_ms") is not None:
                self._make[p + "owd_arrival_cdf"] = (_cdf, f["owd_arrival_cdf_ms"])
        for link in raw["links"]:
            self._make[f"link{link['id']}_queue"] = (_columns, link["queue"])

    def __getitem__(self, key: str) -> pd.DataFrame:
        if key not in self._cache:
            try:
                make, data = self._make[key]
            except KeyError:
                raise KeyError(f"no trace {key!r} (traces: {', '.join(self._make) or 'none'})") from None
            self._cache[key] = make(data)
        return self._cache[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._make)

    def __len__(self) -> int:
        return len(self._make)

    def __repr__(self) -> str:
        return f"<orbitcp traces: {', '.join(self._make)}>"
