"""Helpers shared by the tests (``tests/`` is on pytest's ``pythonpath``): imported as
``helpers.NAME``; none of them is a test file.

* :mod:`helpers.copying`: what a copy of a round or game must keep or share.
* :mod:`helpers.playing`: driving a round or game to a state, by bots or at random.
* :mod:`helpers.reference`: hand generators and a brute-force reference solver.
* :mod:`helpers.rollout_twins`: rounds of every kind, played by the compiled rollout engine
  and the Python engine and bots (also run by ``benchmarks/soak_rollout.py``).
* :mod:`helpers.solitaire_deals`: small solitaire deals.
* ``helpers/interrupt_target.py``: a script, one long call for ``test_interrupt.py`` (and
  ``benchmarks/soak_memory.py``) to stop with SIGINT.
"""
