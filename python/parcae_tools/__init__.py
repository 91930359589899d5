"""parcae_tools: post-processing and benchmarking helpers for the parcae explicit solver.

Modules:
    glstat -- read glstat files (LS-DYNA's ASCII layout, as LS-DYNA and parcae write them)
    vtk    -- read .pvd collections and VTK XML UnstructuredGrid (.vtu) files
    bench  -- machine metadata and benchmark-result summaries
"""

__version__ = "0.1.0"

from .glstat import read_glstat, read_glstat_states  # noqa: E402,F401
from .vtk import read_pvd, read_vtu_ascii_or_binary  # noqa: E402,F401
