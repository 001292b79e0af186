// SPDX-License-Identifier: MIT
#include "meshes.hpp"

#include <cmath>
#include <numbers>

namespace jounce::demo {
namespace {

using Float3 = std::array<float, 3>;

std::uint32_t nextIndex(const MeshData& mesh) {
    return static_cast<std::uint32_t>(mesh.vertices.size());
}

void addTriangle(MeshData& mesh, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    mesh.indices.insert(mesh.indices.end(), {a, b, c});
}

// One face of the unit box. u x v == n, so walking (-u-v), (u-v), (u+v), (-u+v) is
// counter-clockwise seen from outside.
void addBoxFace(MeshData& mesh, int axis, float sign) {
    Float3 n{}, u{}, v{};
    n[static_cast<std::size_t>(axis)] = sign;
    u[static_cast<std::size_t>((axis + 1) % 3)] = 1;
    v[static_cast<std::size_t>((axis + 2) % 3)] = 1;
    if (sign < 0) std::swap(u, v);
    const std::uint32_t base = nextIndex(mesh);
    constexpr std::array<std::array<float, 2>, 4> corners{{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}};
    for (const auto& [a, b] : corners) {
        Float3 p{};
        for (std::size_t k = 0; k < 3; ++k) p[k] = n[k] + a * u[k] + b * v[k];
        mesh.vertices.push_back({p, n});
    }
    addTriangle(mesh, base, base + 1, base + 2);
    addTriangle(mesh, base, base + 2, base + 3);
}

// Quads of a (rows+1) x (columns+1) vertex grid whose rows run from +y downwards and
// whose columns turn with increasing angle; (a, d, c), (a, c, b) faces outward.
void addGridQuads(MeshData& mesh, std::uint32_t base, int rows, int columns) {
    const auto stride = static_cast<std::uint32_t>(columns + 1);
    for (int i = 0; i < rows; ++i) {
        for (int j = 0; j < columns; ++j) {
            const std::uint32_t a = base + static_cast<std::uint32_t>(i) * stride +
                                    static_cast<std::uint32_t>(j);
            const std::uint32_t b = a + stride;
            const std::uint32_t c = b + 1;
            const std::uint32_t d = a + 1;
            addTriangle(mesh, a, d, c);
            addTriangle(mesh, a, c, b);
        }
    }
}

float angle(int j, int segments) {
    return 2 * std::numbers::pi_v<float> * static_cast<float>(j) / static_cast<float>(segments);
}

void addCap(MeshData& mesh, int segments, float y) {
    const Float3 normal{0, y, 0};
    const std::uint32_t centre = nextIndex(mesh);
    mesh.vertices.push_back({{0, y, 0}, normal});
    for (int j = 0; j <= segments; ++j) {
        const float phi = angle(j, segments);
        mesh.vertices.push_back({{std::cos(phi), y, std::sin(phi)}, normal});
    }
    for (int j = 0; j < segments; ++j) {
        const auto ring = centre + 1 + static_cast<std::uint32_t>(j);
        // Seen from above the ring runs clockwise, so the top cap takes it backwards.
        if (y > 0) {
            addTriangle(mesh, centre, ring + 1, ring);
        } else {
            addTriangle(mesh, centre, ring, ring + 1);
        }
    }
}

} // namespace

MeshData makeBox() {
    MeshData mesh;
    for (int axis = 0; axis < 3; ++axis) {
        addBoxFace(mesh, axis, 1);
        addBoxFace(mesh, axis, -1);
    }
    return mesh;
}

MeshData makeSphere(int rings, int segments) {
    MeshData mesh;
    for (int i = 0; i <= rings; ++i) {
        const float theta =
            std::numbers::pi_v<float> * static_cast<float>(i) / static_cast<float>(rings);
        for (int j = 0; j <= segments; ++j) {
            const float phi = angle(j, segments);
            const Float3 p{std::sin(theta) * std::cos(phi), std::cos(theta),
                           std::sin(theta) * std::sin(phi)};
            mesh.vertices.push_back({p, p});
        }
    }
    addGridQuads(mesh, 0, rings, segments);
    return mesh;
}

MeshData makeCylinder(int segments) {
    MeshData mesh;
    for (const float y : {1.0f, -1.0f}) {
        for (int j = 0; j <= segments; ++j) {
            const float phi = angle(j, segments);
            const float x = std::cos(phi);
            const float z = std::sin(phi);
            mesh.vertices.push_back({{x, y, z}, {x, 0, z}});
        }
    }
    addGridQuads(mesh, 0, 1, segments);
    addCap(mesh, segments, 1);
    addCap(mesh, segments, -1);
    return mesh;
}

MeshData makePlane() {
    MeshData mesh;
    addBoxFace(mesh, 1, 1);
    for (auto& vertex : mesh.vertices) vertex.position[1] = 0;
    return mesh;
}

} // namespace jounce::demo
