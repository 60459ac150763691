"""``python -m fivecrowns.cli``: the same as ``fivecrowns``."""

from __future__ import annotations

from . import main

if __name__ == "__main__":
    raise SystemExit(main())
