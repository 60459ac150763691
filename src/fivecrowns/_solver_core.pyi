# The solver's core (_solver_core.pyx): its C functions are cimported by the solver's
# entry points (fivecrowns._solver) and the engine (_solver_core.pxd); its one Python name
# says which route a row's masks take.

SSE2: bool
