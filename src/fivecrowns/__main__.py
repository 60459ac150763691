"""``python -m fivecrowns``: the command line (see :mod:`fivecrowns.cli`)."""

from __future__ import annotations

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
