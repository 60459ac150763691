"""Print the solver's benchmark table: hands per second and ratios.

    python benchmarks/report.py [--quick]

The same table as ``fivecrowns bench``; the figures in the README come from it.
"""

from __future__ import annotations

from _harness import parser
from fivecrowns.bench import report

if __name__ == "__main__":
    # The timing, seeding and table of this one live in fivecrowns.bench, so that
    # ``fivecrowns bench`` prints the same table from an installed package.
    args = parser(__doc__, quick=False).parse_args()
    print(report(quick=args.quick))
