"""`make data`: fetch the real data sets the book may not commit, and check them.

    python tools/data.py                       # download polblogs from its original source
    python tools/data.py --polblogs PATH       # or copy a local polblogs.gml (or polblogs.zip)

Political blogs (Adamic & Glance 2005) has no stated licence, so the repository holds only the
results computed from it. This fetches Mark Newman's distribution (``polblogs.zip``) into
``data/raw/polblogs/polblogs.gml`` (or ``$BANDIT_DATA/polblogs/`` when BANDIT_DATA is set) and checks
its content with :func:`bandit_lib.grapl20.polblogs_gml.check_polblogs`; a copy that fails a check,
a de-duplicated one for instance, is refused with the numbers that differ and nothing is written.
HCB needs no fetching: it is committed in ``data/raw/hcb``.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

POLBLOGS_URL = "http://www-personal.umich.edu/~mejn/netdata/polblogs.zip"


def _gml_from(raw: bytes, name: str) -> str:
    """The GML text of a polblogs.gml or of a zip holding one."""
    if raw.startswith(b"PK\x03\x04"):
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            members = [m for m in archive.namelist() if m.endswith(".gml")]
            if not members:
                raise ValueError(f"{name} holds no .gml file (it holds {archive.namelist()})")
            raw = archive.read(members[0])
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{name} is not a GML text file (byte {exc.start} is not UTF-8)") from None


def fetch_polblogs(source: str | None, target_dir: Path) -> Path:
    from bandit_lib.grapl20.polblogs_gml import check_polblogs

    if source is None:
        print(f"downloading {POLBLOGS_URL} ...")
        try:
            with urllib.request.urlopen(POLBLOGS_URL, timeout=60) as answer:
                raw, name = answer.read(), POLBLOGS_URL
        except (urllib.error.URLError, OSError) as exc:
            raise SystemExit(
                f"could not download {POLBLOGS_URL} ({exc}). Download polblogs.zip from Mark Newman's network data "
                "page yourself and run `make data POLBLOGS=/path/to/polblogs.zip` (a .gml works too)."
            ) from None
    else:
        path = Path(source).expanduser()
        if not path.is_file():
            raise SystemExit(f"no file at POLBLOGS={source!r}")
        raw, name = path.read_bytes(), str(path)
    text = _gml_from(raw, name)
    try:
        content = check_polblogs(text, source=name)
    except ValueError as exc:
        raise SystemExit(f"refused: {exc}") from None
    target_dir.mkdir(parents=True, exist_ok=True)
    target = target_dir / "polblogs.gml"
    with tempfile.NamedTemporaryFile("w", dir=target_dir, delete=False, suffix=".tmp") as tmp:
        tmp.write(text)
    Path(tmp.name).replace(target)
    print(
        f"polblogs: {target} ({content['component nodes']} nodes, {content['component edges']} edges in the "
        f"largest component; {content['file edge records']} edge records in the file): checks passed"
    )
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--polblogs", default=None, help="a local polblogs.gml or polblogs.zip (default: download)")
    args = parser.parse_args(argv)
    from bandit_lib.infra.profiles import data_dirs

    fetch_polblogs(args.polblogs, data_dirs()[0] / "polblogs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
