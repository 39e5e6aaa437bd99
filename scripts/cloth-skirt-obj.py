#!/usr/bin/env python3
"""Writes assets/meshes/cloth-skirt.obj: an open cone frustum (a skirt), the cloth of the
built-in scene cloth-skirt-on-ball.

The waist (top ring) is narrower than the ball it falls on, so it catches on the ball and
the wider hem hangs around it. Triangles are kept near equilateral: each ring has the same
number of vertices, every other ring is turned by half a step, and the rings are spaced in
proportion to their radius (geometric spacing), so the row spacing follows the arc step.

Usage: scripts/cloth-skirt-obj.py > assets/meshes/cloth-skirt.obj
"""
import math

AROUND = 60          # vertices on each ring
WAIST_R = 0.32       # top ring radius, m
HEM_R = 0.80         # bottom ring radius, m
HEIGHT = 0.62        # waist above hem, m

slant = math.hypot(HEM_R - WAIST_R, HEIGHT)
k = (HEM_R - WAIST_R) / slant            # radius gained per metre of slant
step = 2 * math.pi / AROUND * math.sqrt(3) / 2   # row spacing over radius (equilateral)
rings = round(math.log(HEM_R / WAIST_R) / math.log(1 + k * step)) + 1

radii = [WAIST_R * (HEM_R / WAIST_R) ** (i / (rings - 1)) for i in range(rings)]
print("# cloth-skirt.obj: an open cone frustum (a skirt) for the cloth scene cloth-skirt-on-ball.")
print("# Made by scripts/cloth-skirt-obj.py: %d rings of %d vertices, waist radius %.2f m at" % (rings, AROUND, WAIST_R))
print("# y = 0, hem radius %.2f m at y = -%.2f m; alternate rings turned by half a step and" % (HEM_R, HEIGHT))
print("# rings spaced in proportion to their radius, so triangles stay near equilateral.")
print("# Vertices ring by ring from the waist; faces wind so that normals point outwards.")
for i, r in enumerate(radii):
    y = -HEIGHT * (r - WAIST_R) / (HEM_R - WAIST_R)
    shift = 0.5 * (i % 2)
    for j in range(AROUND):
        a = 2 * math.pi * (j + shift) / AROUND
        print("v %.6f %.6f %.6f" % (r * math.cos(a), y, r * math.sin(a)))


def index(i, j):
    return i * AROUND + (j % AROUND) + 1


for i in range(rings - 1):
    for j in range(AROUND):
        # Ring i+1 is turned by +half a step from ring i when i is even, -half when odd.
        if i % 2 == 0:
            a, b, c, d = index(i, j), index(i, j + 1), index(i + 1, j), index(i + 1, j + 1)
            # a b on ring i; c sits between a and b below them, d between b and the next.
            print("f %d %d %d" % (a, b, c))
            print("f %d %d %d" % (b, d, c))
        else:
            a, b, c, d = index(i, j), index(i, j + 1), index(i + 1, j), index(i + 1, j + 1)
            # c sits below and before a: c, a, d, b zigzag.
            print("f %d %d %d" % (a, d, c))
            print("f %d %d %d" % (a, b, d))
