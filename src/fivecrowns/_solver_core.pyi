# The solver's core (_solver_core.pyx) has no Python API: its C functions are cimported
# by the solver's entry points (fivecrowns._solver) and the engine (_solver_core.pxd).
