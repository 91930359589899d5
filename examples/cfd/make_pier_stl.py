#!/usr/bin/env python3
"""Writes pier.stl: a bridge pier for channel_pier.yaml, a vertical prism with a round nose and
tail (a stadium 0.2 m long and 0.08 m wide in plan, 0.3 m tall, its foot at the origin's
floor), as a closed ASCII STL with outward normals.

    python3 examples/cfd/make_pier_stl.py > examples/cfd/pier.stl
"""
import math


def outline(n=12, half_length=0.06, radius=0.04):
    """Counter-clockwise plan outline: two half circles joined by straight sides."""
    pts = []
    for end, cx in ((-1, half_length), (1, -half_length)):
        for k in range(n + 1):
            a = -math.pi / 2 + math.pi * k / n if end < 0 else math.pi / 2 + math.pi * k / n
            pts.append((cx + radius * math.cos(a), radius * math.sin(a)))
    return pts


def main():
    pts, h = outline(), 0.3
    tris = []
    n = len(pts)
    for i in range(n):
        (x0, y0), (x1, y1) = pts[i], pts[(i + 1) % n]
        tris.append(((x0, y0, 0), (x1, y1, 0), (x1, y1, h)))
        tris.append(((x0, y0, 0), (x1, y1, h), (x0, y0, h)))
        tris.append(((0, 0, h), (x0, y0, h), (x1, y1, h)))  # top, fan from the centre
        tris.append(((0, 0, 0), (x1, y1, 0), (x0, y0, 0)))  # bottom
    print("solid pier")
    for t in tris:
        print("  facet normal 0 0 0\n    outer loop")
        for v in t:
            print("      vertex %.6f %.6f %.6f" % v)
        print("    endloop\n  endfacet")
    print("endsolid pier")


if __name__ == "__main__":
    main()
