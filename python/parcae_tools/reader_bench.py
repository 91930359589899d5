"""Reader benchmark: time `parcae check` on a generated 1,000,000-hexahedron deck (~140 MB).

    python -m parcae_tools.reader_bench --parcae build/release/bin/parcae --json bench/reader.json

The deck is a 100 x 100 x 100 block of hexahedra written as LS-PrePost writes meshes (fixed
format, 8/16-column *NODE fields, 8-column *ELEMENT_SOLID fields). `parcae check` reads,
resolves and validates it without starting MPI (the parameter pass and the main pass both run).
Figure of merit: the median wall time over --repeat runs, and MB/s; with the machine metadata.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

from .bench import machine_metadata


def write_block_deck(path: pathlib.Path, n: int) -> None:
    node = lambda i, j, k: 1 + i + (n + 1) * (j + (n + 1) * k)  # noqa: E731
    with open(path, "w") as f:
        f.write("*KEYWORD\n*CONTROL_TERMINATION\n1.0e-6\n*PART\nblock\n"
                "         1         1         1\n*SECTION_SOLID\n         1         1\n"
                "*MAT_ELASTIC\n         1   7.85e-9  210000.0       0.3\n*NODE\n")
        for k in range(n + 1):
            f.write("".join(f"{node(i, j, k):8d}{float(i):16.8g}{float(j):16.8g}{float(k):16.8g}\n"
                            for j in range(n + 1) for i in range(n + 1)))
        f.write("*ELEMENT_SOLID\n")
        e = 1
        for k in range(n):
            rows = []
            for j in range(n):
                for i in range(n):
                    ids = (node(i, j, k), node(i + 1, j, k), node(i + 1, j + 1, k), node(i, j + 1, k),
                           node(i, j, k + 1), node(i + 1, j, k + 1), node(i + 1, j + 1, k + 1),
                           node(i, j + 1, k + 1))
                    rows.append(f"{e:8d}{1:8d}" + "".join(f"{x:8d}" for x in ids) + "\n")
                    e += 1
            f.write("".join(rows))
        f.write("*END\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--parcae", required=True)
    ap.add_argument("--json", required=True)
    ap.add_argument("--cells", type=int, default=100, help="block edge in elements (100: 1 M)")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="parcae_reader_") as tmp:
        deck = pathlib.Path(tmp) / "block.k"
        write_block_deck(deck, a.cells)
        size = deck.stat().st_size
        times = []
        for _ in range(a.repeat):
            t0 = time.monotonic()
            p = subprocess.run([a.parcae, "check", str(deck)], capture_output=True, text=True)
            times.append(time.monotonic() - t0)
            if p.returncode != 0:
                print(p.stderr, file=sys.stderr)
                return 1
    med = statistics.median(times)
    out = {"benchmark": "reader", "elements": a.cells ** 3, "deck_bytes": size,
           "times_s": [round(t, 3) for t in times], "median_s": round(med, 3),
           "mb_per_s": round(size / 1e6 / med, 1), "metadata": machine_metadata()}
    pathlib.Path(a.json).write_text(json.dumps(out, indent=1) + "\n")
    print(f"reader: {a.cells ** 3} elements, {size / 1e6:.0f} MB, median {med:.2f} s "
          f"({size / 1e6 / med:.0f} MB/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
