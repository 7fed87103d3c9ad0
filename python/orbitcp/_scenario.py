"""A scenario as the core takes it: JSON text, from a dict, a JSON string or a file path."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Union

from . import _native

Scenario = Union[Mapping, str, "os.PathLike[str]"]


def load(scenario: Scenario) -> tuple[str, str]:
    """``(name, text)``: the name errors are reported under (the file's path, or
    ``<scenario>``) and the scenario's JSON text, with the files it names (``tle_file``,
    ``isls_file``, ``ground_stations_file``) read and inlined the way ``orbitcp`` does (relative to the scenario file, or to the
    working directory for a dict or a JSON string).

    A ``str`` is JSON text when it starts with ``{`` (after white space), else a path. A file's
    text goes to the core unchanged, so a path gives exactly what ``orbitcp`` gives for that
    file.

    As ``orbitcp`` does, it reads only regular files, at most 64 MiB of a scenario file and of
    each file it names, and only files inside the scenario's folder (the file's folder, or the
    working directory for a dict or a JSON string): a name must be relative without ``..``, and
    its real path, symbolic links followed, must lie inside the folder's.
    """
    if isinstance(scenario, Mapping):
        try:
            # allow_nan=False: NaN and Infinity are not JSON; the core would refuse them less
            # clearly.
            text = json.dumps(scenario, allow_nan=False)
        except (TypeError, ValueError) as e:
            raise ValueError(f"<scenario>: not JSON-serialisable: {e}") from None
        return _inline_files("<scenario>", text, Path.cwd())
    if isinstance(scenario, str) and scenario.lstrip().startswith("{"):
        return _inline_files("<scenario>", scenario, Path.cwd())
    if isinstance(scenario, (str, os.PathLike)):
        path = Path(os.fspath(scenario))
        name = str(path)
        try:
            text = _read_text(path, name, _native.MAX_SCENARIO_BYTES)
        except FileNotFoundError:
            raise FileNotFoundError(
                f"scenario file not found: {name} (a str is read as JSON text when it starts "
                "with '{', else as the path of a scenario file)"
            ) from None
        except IsADirectoryError:
            raise IsADirectoryError(f"{name}: is a directory, not a scenario file") from None
        return _inline_files(name, text, path.parent)
    raise TypeError(
        "a scenario is a dict, a JSON string or the path of a JSON file "
        f"(str or os.PathLike), not {type(scenario).__name__}"
    )


def _read_text(path: Path, what: str, limit: int) -> str:
    """The text of a regular file of at most ``limit`` bytes, its bytes as they are (no newline
    translation), as ``orbitcp`` reads it; ``what`` names it in errors."""
    with open(path, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise ValueError(f"{what}: not a regular file")
        data = f.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"{what}: larger than {limit >> 20} MiB, the most orbitcp reads")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"{what}: not UTF-8 text ({e})") from None


def _inline_files(name: str, text: str, base_dir: Path) -> tuple[str, str]:
    files = _native.files_to_read(text)
    if not files:
        return name, text
    root = base_dir.resolve()
    texts = []
    for field, file_name in files:
        try:
            _native.check_file_name(field, file_name)
        except ValueError as e:
            raise ValueError(f"{name}: {e}") from None
        p = base_dir / file_name
        shown = f"{name}: {field}: {p}"
        try:
            real = p.resolve(strict=True)
        except OSError as e:
            raise FileNotFoundError(f"{shown}: {e.strerror or e}") from None
        if not real.is_relative_to(root):
            raise ValueError(
                f'{name}: {field}: "{file_name}" leads outside the scenario\'s folder (through a symbolic '
                "link); files a scenario names must stay in its folder"
            )
        try:
            texts.append((field, file_name, _read_text(real, shown, _native.MAX_FILE_BYTES)))
        except OSError as e:
            raise FileNotFoundError(f"{shown}: {e.strerror or e}") from None
    try:
        return name, _native.with_files(text, texts)
    except ValueError as e:
        raise ValueError(f"{name}: {e}") from None


def named_error(name: str, e: ValueError) -> ValueError:
    """The core's error under the scenario's name, as ``orbitcp`` prints it."""
    return ValueError(f"{name}:\n{e}")
