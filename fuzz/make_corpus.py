#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the seed corpora in fuzz/corpus/<target>/ (docs/fuzzing.md).

Seeds are small, well-formed inputs from which the fuzzer mutates: every shape pair
with sensible sizes and poses, a few point clouds, small scene files, snapshot edit
scripts. Reals are written as doubles in both precisions (the float build's targets
read 8 bytes and round them: fuzz/fuzz_input.hpp). Run it again after changing an
input layout; crash
reproducers that were fixed are added by hand next to the seeds (named crash-*).
"""
import json
import pathlib
import shutil
import struct

ROOT = pathlib.Path(__file__).resolve().parent
CORPUS = ROOT / 'corpus'


def reals(*xs):
    return b''.join(struct.pack('<d', x) for x in xs)


def write(target, name, data):
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data if isinstance(data, bytes) else data.encode())


# ---- narrow phase: byte 0 = kindA + 7 kindB, byte 1 = extras, then the shapes --------
# Kinds in the order of jounce::Shape: sphere, box, capsule, halfSpace, convexHull, triangleMesh,
# cylinder.
def shape(kind):
    if kind == 0:
        return reals(0.5)
    if kind == 1:
        return reals(0.5, 0.4, 0.3)
    if kind == 2:
        return reals(0.3, 0.5)
    if kind == 3:
        return reals(0, 1, 0, 0)
    if kind == 4:  # a unit cube's 8 corners
        corners = [(x, y, z) for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)]
        return bytes([4]) + b''.join(reals(*c) for c in corners)
    if kind == 6:
        return reals(0.3, 0.4)
    # a flat quad of two triangles facing +y: 4 vertices, 2 triangles
    quad = [(-2, 0, -2), (2, 0, -2), (2, 0, 2), (-2, 0, 2)]
    return bytes([1, 1]) + b''.join(reals(*v) for v in quad) + bytes([0, 3, 2, 0, 2, 1])


def pose(y, tilt):
    return reals(0.1, y, 0.05) + reals(1, tilt, 0, 0)


def narrow_phase():
    for a in range(7):
        for b in range(7):
            extras = 7  # gjk, ray, time of impact
            tail = reals(0, 3, 0, 0, -3, 0)  # the ray
            tail += reals(0, 0, 0, 0, -1, 0, 0, 0, 1) + reals(0, 0, 0, 0, 0, 0, 0, 0, 0) + reals(0.01) + bytes([8])
            data = bytes([a + 7 * b, extras]) + shape(a) + shape(b) + pose(0.6, 0.1) + pose(0, 0) + reals(0.02) + tail
            write('narrow_phase', f'pair-{a}-{b}', data)


# ---- hull: count, scale, then per point a recipe byte and its numbers ----------------
def hull():
    scale_one = 64
    cube = [(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    write('hull', 'cube-raw', bytes([len(cube) - 1, scale_one]) + b''.join(bytes([0]) + reals(*p) for p in cube))
    # grid points (recipe 2): a 2x2x2 block plus its centre and face centres (coplanar points)
    grid = [(x, y, z) for x in (2, 6) for y in (2, 6) for z in (2, 6)] + [(4, 4, 4), (4, 4, 2), (4, 2, 4)]
    write('hull', 'grid', bytes([len(grid) - 1, scale_one]) + b''.join(bytes([2, *p]) for p in grid))
    # a tetrahedron, then duplicates (recipe 4) and nudged copies (recipe 5)
    tet = bytes([0]) + reals(0, 0, 0) + bytes([0]) + reals(1, 0, 0) + bytes([0]) + reals(0, 1, 0) + bytes([0]) + reals(0, 0, 1)
    extra = bytes([4, 1]) + bytes([4, 2]) + bytes([5, 3]) + reals(1, -1, 0.5)
    write('hull', 'duplicates', bytes([6, scale_one]) + tet + extra)
    # points in the plane of the first three (recipe 6) plus one off it; tiny and huge scales
    planar = tet[:3 * (1 + 8 * 3)] + b''.join(bytes([6]) + reals(s, t) for s, t in ((0.3, 0.3), (2, -1), (-1, 2)))
    write('hull', 'planar', bytes([6, scale_one]) + planar + bytes([0]) + reals(0.2, 0.2, 1e-9))
    write('hull', 'tiny', bytes([7, 0]) + b''.join(bytes([0]) + reals(*p) for p in cube))
    write('hull', 'huge', bytes([7, 127]) + b''.join(bytes([0]) + reals(*p) for p in cube))


# ---- scene files: the hand-written example and small files of every section ----------
def scene_file():
    shutil.copy(ROOT.parent / 'scenes/files/stack_and_rope.json', CORPUS / 'scene_file' / 'stack_and_rope.json')
    head = {'format': 'jounce-scene', 'version': 2}
    ground = {'type': 'static', 'colliders': [{'shape': {'type': 'halfSpace', 'normal': [0, 1, 0], 'offset': 0}}]}
    shapes = {
        'hull': {'type': 'convexHull', 'points': [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [0.3, 0.3, 0.3]]},
        'mesh': {'type': 'triangleMesh', 'vertices': [[-2, 0, -2], [2, 0, -2], [2, 0, 2], [-2, 0, 2]],
                 'triangles': [[0, 3, 2], [0, 2, 1]]},
    }
    write('scene_file', 'hull', json.dumps({**head, 'bodies': [ground, {'position': [0, 1, 0], 'colliders': [{'shape': shapes['hull']}]}]}))
    write('scene_file', 'mesh', json.dumps({**head, 'bodies': [
        {'type': 'static', 'colliders': [{'shape': shapes['mesh']}]},
        {'position': [0, 0.6, 0], 'colliders': [{'shape': {'type': 'capsule', 'radius': 0.2, 'halfHeight': 0.3}}]}]}))
    write('scene_file', 'particles', json.dumps({**head, 'bodies': [ground], 'particles': [
        {'position': [0, 2, 0], 'mass': 0.1, 'pinned': True}, {'position': [0.2, 2, 0], 'mass': 0.1}, {'position': [0.4, 2, 0], 'mass': 0.1}],
        'distanceConstraints': [{'a': 0, 'b': 1}, {'a': 1, 'b': 2}]}))
    write('scene_file', 'joint', json.dumps({**head, 'scene': {'timeStep': 0.01, 'substeps': 2}, 'bodies': [
        ground, {'position': [0, 2, 0], 'colliders': [{'shape': {'type': 'box', 'halfExtents': [0.2, 0.2, 0.2]}}]}],
        'joints': [{'type': 'rod', 'a': {'body': 1, 'point': [0, 0.2, 0]}, 'b': {'point': [0, 3, 0]}, 'length': 0.8}],
        'forceGenerators': [{'type': 'spring', 'a': {'body': 1}, 'b': {'point': [1, 3, 0]}, 'stiffness': 10, 'restLength': 1}]}))
    write('scene_file', 'minimal', json.dumps(head))


# ---- snapshots: byte 0 even = raw blob, odd = edit script of 4-byte edits -----------
def snapshot():
    write('snapshot', 'raw-header', b'\x00JOUNCESN' + struct.pack('<IBIQQ', 1, 8, 0x01020304, 0, 0xcbf29ce484222325))
    write('snapshot', 'edit-none', b'\x01')
    write('snapshot', 'edit-payload', b'\x01' + bytes([40, 0, 1, 0x80, 200, 0, 0, 7, 0x10, 1, 2, 1]))
    write('snapshot', 'edit-truncate', b'\x01' + bytes([0, 2, 3, 0]))
    write('snapshot', 'edit-version', b'\x01' + bytes([8, 0, 0, 2]))


if __name__ == '__main__':
    for target in ('narrow_phase', 'hull', 'scene_file', 'snapshot'):
        # Seeds are rewritten; fixed crash reproducers (crash-*) stay.
        (CORPUS / target).mkdir(parents=True, exist_ok=True)
        for old in (CORPUS / target).iterdir():
            if not old.name.startswith('crash-'):
                old.unlink()
    narrow_phase()
    hull()
    scene_file()
    snapshot()
