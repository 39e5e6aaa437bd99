#!/usr/bin/env python3
"""Writes the hostile BSP query lines of issue 31 to tests/fixtures/hostile/bsp/.

Each line is one `bsp_sweep`, `bsp_slide` or `bsp_stats` query on a single brush with many
planes: before the brush construction was bounded these took tens of seconds or hung.

    python3 scripts/hostile-bsp-fixtures.py

The output is deterministic (no random numbers), so re-running it changes nothing.
"""
import json
import math
import os

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "hostile", "bsp")


def sphere_planes(n):
    """n planes tangent to the unit sphere, normals on a Fibonacci spiral (4 decimals)."""
    planes = []
    golden = math.pi * (3.0 - math.sqrt(5.0))
    for i in range(n):
        z = 1.0 - 2.0 * (i + 0.5) / n
        r = math.sqrt(1.0 - z * z)
        t = golden * i
        planes.append([round(r * math.cos(t), 4), round(r * math.sin(t), 4), round(z, 4), 1])
    return planes


def parallel_planes(n):
    """A 2 x 2 x 1 box whose top is n - 5 planes nearly parallel to it (normals within 1e-4
    of +z, spread on a spiral), a very flat dome: nearly parallel planes everywhere."""
    planes = [[1, 0, 0, 1], [-1, 0, 0, 1], [0, 1, 0, 1], [0, -1, 0, 1], [0, 0, -1, 0]]
    for i in range(n - 5):
        a = 1e-4 * (i + 1) / (n - 5)
        t = 2.399963 * i
        planes.append([float("%.3g" % (a * math.cos(t))), float("%.3g" % (a * math.sin(t))), 1, 1])
    return planes


def line(op, planes, ident):
    q = {"id": ident, "op": op, "brushes": [planes], "shape": {"kind": "sphere", "radius": 0.1},
         "start": [3, 0.1, 0.2], "end": [-3, 0.1, 0.2]}
    return json.dumps(q, separators=(",", ":")) + "\n"


def main():
    os.makedirs(OUT, exist_ok=True)
    cases = [
        ("sphere-1000-sweep.jsonl", "bsp_sweep", sphere_planes(1000)),
        ("sphere-1000-slide.jsonl", "bsp_slide", sphere_planes(1000)),
        ("sphere-3000-stats.jsonl", "bsp_stats", sphere_planes(3000)),
        ("parallel-1000-sweep.jsonl", "bsp_sweep", parallel_planes(1000)),
    ]
    for i, (name, op, planes) in enumerate(cases):
        with open(os.path.join(OUT, name), "w") as f:
            f.write(line(op, planes, i + 1))


if __name__ == "__main__":
    main()
