"""Deals for the solitaire and outs tests: hand-made piles with known answers."""

from __future__ import annotations

import fivecrowns as fc
from fivecrowns.solitaire import Solitaire


def total_cards(game: Solitaire) -> int:
    """Cards in the piles, the draw pile and the discards."""
    return int(game.pile_counts.sum()) + game.draw_remaining + len(game.discards)


def run(suit: str, lo: int, hi: int) -> list[str]:
    return [f"{fc.Rank(r).label}{suit}" for r in range(lo, hi + 1)]


def complete_piles() -> tuple[dict[int, list[str]], list[str]]:
    """Eleven piles that are complete when dealt, and the 28 cards left over.

    Clubs, diamonds and hearts each give two piles (3 + 8, 4 + 7, 5 + 6 cards); piles 9
    to 13 are runs from 3 of one suit, piles 12 and 13 with jokers added."""
    piles = {3: run("C", 3, 5), 8: run("C", 6, 13), 4: run("D", 3, 6), 7: run("D", 7, 13),
             5: run("H", 3, 7), 6: run("H", 8, 13), 9: run("S", 3, 11), 10: run("T", 3, 12),
             11: run("C", 3, 13), 12: run("D", 3, 13) + ["JK"],
             13: run("H", 3, 13) + ["JK", "JK"]}
    rest = ["QS", "KS", "KT"] + run("S", 3, 13) + run("T", 3, 13) + ["JK"] * 3
    return piles, rest



def small_deal(draw: str) -> Solitaire:
    """Piles 3, 4, 5 chosen by hand; the others complete and out of the way."""
    piles, _ = complete_piles()
    piles[3] = ["4S", "5S", "8T"]                 # 3s wild: 6S or 3S completes it
    piles[4] = ["4H", "QS", "QT", "3T"]           # 4H is wild: QS QT 4H, 3T left over
    piles[5] = ["3D", "4D", "5D", "6D", "JK"]     # complete when dealt (5D and JK wild)
    return Solitaire.from_cards(piles, draw=draw)

