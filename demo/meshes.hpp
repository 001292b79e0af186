// SPDX-License-Identifier: MIT
#pragma once
/// \file meshes.hpp
/// Unit meshes on the CPU. The renderer scales them per instance, so one mesh serves
/// every size: box half extents 1, sphere radius 1, cylinder radius 1 and half
/// height 1 along y, plane half size 1 in x and z with normal +y. Triangles wind
/// counter-clockwise seen from outside (the lighting relies on it for two-sided
/// planes).

#include <array>
#include <cstdint>
#include <vector>

namespace jounce::demo {

struct Vertex {
    std::array<float, 3> position;
    std::array<float, 3> normal;
};

struct MeshData {
    std::vector<Vertex> vertices;
    std::vector<std::uint32_t> indices;
};

MeshData makeBox();
/// UV sphere; `rings` >= 2 latitude bands, `segments` >= 3 longitude slices.
MeshData makeSphere(int rings, int segments);
/// Capped cylinder with `segments` >= 3 slices.
MeshData makeCylinder(int segments);
MeshData makePlane();

} // namespace jounce::demo
