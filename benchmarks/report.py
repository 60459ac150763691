"""Print the solver's benchmark table: hands per second and ratios.

    python benchmarks/report.py [--quick]

The same table as ``fivecrowns bench``; the figures in the README come from it.
"""

from __future__ import annotations

import sys

from fivecrowns.bench import report

if __name__ == "__main__":
    print(report(quick="--quick" in sys.argv[1:]))
