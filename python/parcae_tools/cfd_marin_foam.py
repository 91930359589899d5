"""OpenFOAM's interFoam on the MARIN dam break with a box (the peer of docs/cfd_marin.md), on
the same structured grid as parcae's run, as an OpenFOAM user would set it up: blockMesh of the
tank, the box's cells removed (topoSet + subsetMesh: a staircase at the grid, the way a hex
mesh without snapping represents it), setFields for the water column, the laminar damBreak
tutorial's schemes and PIMPLE settings with GAMG for the pressure (the tutorial's PCG + DIC is
not what one would run at this size), adjustable time step at the tutorial's Courant numbers
(maxCo 1, maxAlphaCo 1), no surface tension (parcae has none), probes and interface heights
at the gauges as function objects.

    python -m parcae_tools.cfd_marin_foam --cells 80 [--np 1] [--end-time 6] -o RUN_DIR

RUN_DIR/probes.csv is written in parcae's format (time, H1..H4, P1..P8), with label.txt and
wall.json (interFoam's elapsed time and steps), so that `python -m parcae_tools.cfd_marin
report` plots it beside parcae's runs.
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import time

import numpy as np

HEADER = """FoamFile
{{
    version     2.0;
    format      ascii;
    class       {cls};
    object      {obj};
}}
"""

GAUGES = {"H1": 0.496, "H2": 0.992, "H3": 1.488, "H4": 2.638}
BOX = ((0.6635, 0.2985, 0.0), (0.8245, 0.7015, 0.161))


def _cells(cells_x):
    ny = max(4, round(cells_x / 3.22))
    return (cells_x, ny, ny), (3.22 / cells_x, 1.0 / ny, 1.0 / ny)


def staircase_box(cells_x):
    """The box as the removed cells (centres inside it) make it: (lo, hi) on grid lines."""
    _, h = _cells(cells_x)
    lo, hi = [], []
    for d in range(3):
        i0 = int(np.ceil(BOX[0][d] / h[d] - 0.5))
        i1 = int(np.floor(BOX[1][d] / h[d] - 0.5))
        lo.append(max(i0, 0) * h[d])
        hi.append((i1 + 1) * h[d])
    return lo, hi


def sensors(cells_x):
    """P1-P4 1 mm in front of the (staircase) box's front face, P5-P8 1 mm above its top (a
    probe exactly on a boundary face belongs to no cell)."""
    _, hi = staircase_box(cells_x)
    front, top = hi[0] + 0.001, hi[2] + 0.001
    out = {f"P{k + 1}": (front, 0.4745, z) for k, z in enumerate((0.021, 0.061, 0.101, 0.141))}
    for k, dx in enumerate((0.021, 0.061, 0.101, 0.141)):
        out[f"P{k + 5}"] = (hi[0] - dx, 0.4745, top)
    return out


def gauge_points(cells_x):
    """Heights of the alpha probes on a gauge's vertical line (two per cell): the water height
    is the integral of alpha along it."""
    (_, _, nz), _ = _cells(cells_x)
    n = 2 * nz
    return [(k + 0.5) / n for k in range(n)]


def _write(path: pathlib.Path, cls: str, body: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEADER.format(cls=cls, obj=path.name) + body)


def write_case(d: pathlib.Path, cells_x: int, end_time: float, np_: int) -> None:
    ny = max(4, round(cells_x / 3.22))
    _write(d / "system" / "blockMeshDict", "dictionary", f"""
vertices ((0 0 0) (3.22 0 0) (3.22 1 0) (0 1 0) (0 0 1) (3.22 0 1) (3.22 1 1) (0 1 1));
blocks (hex (0 1 2 3 4 5 6 7) ({cells_x} {ny} {ny}) simpleGrading (1 1 1));
boundary
(
    walls {{ type wall; faces ((0 4 7 3) (1 2 6 5) (0 1 5 4) (3 7 6 2) (0 3 2 1)); }}
    atmosphere {{ type patch; faces ((4 5 6 7)); }}
);
""")
    _write(d / "system" / "topoSetDict", "dictionary", """
actions
(
    { name fluid; type cellSet; action new; source boxToCell;
      box (0.6635 0.2985 0) (0.8245 0.7015 0.161); }
    { name fluid; type cellSet; action invert; }
);
""")
    _write(d / "system" / "setFieldsDict", "dictionary", """
defaultFieldValues ( volScalarFieldValue alpha.water 0 );
regions ( boxToCell { box (1.992 0 0) (3.22 1 0.55);
                      fieldValues ( volScalarFieldValue alpha.water 1 ); } );
""")
    probes = " ".join(f"({x} {y} {z})" for x, y, z in sensors(cells_x).values())
    probes += " " + " ".join(f"({x} 0.5 {z})" for x in GAUGES.values()
                             for z in gauge_points(cells_x))
    _write(d / "system" / "controlDict", "dictionary", f"""
application interFoam; startFrom startTime; startTime 0; stopAt endTime; endTime {end_time};
deltaT 0.0001; writeControl adjustable; writeInterval {end_time}; purgeWrite 0;
writeFormat binary; writePrecision 8; writeCompression off; timeFormat general;
timePrecision 8; runTimeModifiable no; adjustTimeStep yes; maxCo 1; maxAlphaCo 1; maxDeltaT 1;
functions
{{
    probes {{ type probes; libs ("libsampling.so"); writeControl timeStep; writeInterval 1;
              fields (p alpha.water); probeLocations ({probes}); }}
}}
""")
    _write(d / "system" / "fvSchemes", "dictionary", """
ddtSchemes { default Euler; }
gradSchemes { default Gauss linear; }
divSchemes { div(rhoPhi,U) Gauss linearUpwind grad(U); div(phi,alpha) Gauss vanLeer;
             div(phirb,alpha) Gauss linear; div(((rho*nuEff)*dev2(T(grad(U))))) Gauss linear; }
laplacianSchemes { default Gauss linear corrected; }
interpolationSchemes { default linear; }
snGradSchemes { default corrected; }
""")
    _write(d / "system" / "fvSolution", "dictionary", """
solvers
{
    "alpha.water.*" { nAlphaCorr 2; nAlphaSubCycles 1; cAlpha 1; MULESCorr yes;
                      nLimiterIter 5; solver smoothSolver; smoother symGaussSeidel;
                      tolerance 1e-8; relTol 0; }
    "pcorr.*" { solver GAMG; smoother DIC; tolerance 1e-5; relTol 0; }
    p_rgh { solver GAMG; smoother DIC; tolerance 1e-7; relTol 0.05; }
    p_rghFinal { $p_rgh; relTol 0; }
    U { solver smoothSolver; smoother symGaussSeidel; tolerance 1e-6; relTol 0; }
}
PIMPLE { momentumPredictor no; nOuterCorrectors 1; nCorrectors 3; nNonOrthogonalCorrectors 0; }
relaxationFactors { equations { ".*" 1; } }
""")
    # Slabs along the tank (parcae's blocks are 2 x 1 x 1 too; Debian's OpenFOAM has no scotch).
    _write(d / "system" / "decomposeParDict", "dictionary",
           f"\nnumberOfSubdomains {np_};\nmethod simple;\n"
           f"simpleCoeffs {{ n ({np_} 1 1); delta 0.001; }}\n")
    _write(d / "constant" / "g", "uniformDimensionedVectorField",
           "\ndimensions [0 1 -2 0 0 0 0];\nvalue (0 0 -9.81);\n")
    _write(d / "constant" / "transportProperties", "dictionary", """
phases (water air);
water { transportModel Newtonian; nu 1e-06; rho 1000; }
air { transportModel Newtonian; nu 1.5e-05; rho 1.2; }
sigma 0;
""")
    _write(d / "constant" / "turbulenceProperties", "dictionary", "\nsimulationType laminar;\n")
    walls_and = "walls {{ type {w}; }}\n    atmosphere {{ {a} }}"
    fields = {
        "U": ("volVectorField", "[0 1 -1 0 0 0 0]", "uniform (0 0 0)",
              walls_and.format(w="noSlip", a="type pressureInletOutletVelocity; value uniform (0 0 0);")),
        "p_rgh": ("volScalarField", "[1 -1 -2 0 0 0 0]", "uniform 0",
                  walls_and.format(w="fixedFluxPressure", a="type totalPressure; p0 uniform 0;")),
        "alpha.water": ("volScalarField", "[0 0 0 0 0 0 0]", "uniform 0",
                        walls_and.format(w="zeroGradient",
                                         a="type inletOutlet; inletValue uniform 0; value uniform 0;")),
    }
    for name, (cls, dim, internal, bcs) in fields.items():
        _write(d / "0" / name, cls, f"""
dimensions {dim};
internalField {internal};
boundaryField
{{
    {bcs}
}}
""")


FOAM_BASHRC = "/usr/share/openfoam/etc/bashrc"


def _foam(cmd, d, log):
    """Runs an OpenFOAM command in its environment; returns the exit status."""
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    with open(d / log, "w") as f:
        return subprocess.run(["bash", "-c", f"source {FOAM_BASHRC} >/dev/null 2>&1; "
                               + " ".join(cmd)], cwd=d, stdout=f, stderr=subprocess.STDOUT,
                              env=env).returncode


def _run(cmd, d, log):
    if _foam(cmd, d, log) != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: see {d / log}")


def _table(path: pathlib.Path) -> np.ndarray:
    rows = []
    for line in path.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        vals = line.replace("(", " ").replace(")", " ").split()
        try:
            rows.append([float(v) for v in vals])
        except ValueError:
            continue
    return np.array(rows)


def collect(d: pathlib.Path) -> None:
    """postProcessing -> probes.csv (time, H1..H4, P1..P8)."""
    p = _table(next((d / "postProcessing" / "probes").glob("*/p")))
    a = _table(next((d / "postProcessing" / "probes").glob("*/alpha.water")))
    n = (a.shape[1] - 1 - 8) // len(GAUGES)
    t = p[:, 0]
    cols = {"time": t}
    for i, g in enumerate(GAUGES):
        line = a[:, 1 + 8 + i * n: 1 + 8 + (i + 1) * n]
        cols[g] = np.clip(line, 0, 1).sum(axis=1) / n  # the tank is 1 m high
    for i in range(8):
        cols[f"P{i + 1}"] = p[:, 1 + i]
    with open(d / "probes.csv", "w") as f:
        f.write(",".join(cols) + "\n")
        for k in range(len(t)):
            f.write(",".join(f"{cols[c][k]:.9g}" for c in cols) + "\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cells", type=int, default=80)
    ap.add_argument("--np", type=int, default=1)
    ap.add_argument("--end-time", type=float, default=6.0)
    ap.add_argument("-o", "--outdir", required=True)
    a = ap.parse_args(argv)
    if not shutil.which("interFoam") or not os.path.exists(FOAM_BASHRC):
        print("interFoam not found: scripts/setup_peers.sh installs OpenFOAM", file=sys.stderr)
        return 1
    d = pathlib.Path(a.outdir).resolve()
    if d.exists():
        shutil.rmtree(d)
    write_case(d, a.cells, a.end_time, a.np)
    _run(["blockMesh"], d, "log.blockMesh")
    _run(["topoSet"], d, "log.topoSet")
    _run(["subsetMesh", "-overwrite", "-patch", "walls", "fluid"], d, "log.subsetMesh")
    _run(["setFields"], d, "log.setFields")
    cmd = ["interFoam"]
    if a.np > 1:
        _run(["decomposePar"], d, "log.decomposePar")
        cmd = ["mpirun", "-np", str(a.np), "--oversubscribe", "interFoam", "-parallel"]
    t0 = time.monotonic()
    rc = _foam(cmd, d, "log.interFoam")
    wall = time.monotonic() - t0
    if rc != 0:
        print(f"interFoam failed: {d / 'log.interFoam'}", file=sys.stderr)
        return rc
    steps = sum(1 for line in open(d / "log.interFoam") if line.startswith("Time = "))
    collect(d)
    ny = max(4, round(a.cells / 3.22))
    (d / "label.txt").write_text(f"interFoam {a.cells}x{ny}x{ny} (np {a.np})\n")
    (d / "wall.json").write_text(json.dumps({"wall_s": wall, "steps": steps, "np": a.np,
                                             "settings": "GAMG p_rgh, maxCo 1, maxAlphaCo 1, "
                                             "PIMPLE nCorrectors 3, MULES"}))
    print(f"interFoam: {steps} steps, {wall:.1f} s -> {d / 'probes.csv'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
