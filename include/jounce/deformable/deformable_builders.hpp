// SPDX-License-Identifier: MIT
#pragma once
/// \file deformable_builders.hpp
/// Ready-made ARAP deformables (Choi 2017's test models): a bar of oriented particles
/// in a row, and a deformation graph sampled inside any closed triangle mesh, with a
/// bundled creature mesh to sample.

#include <jounce/world/world.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace jounce {

/// The paper's bar (Fig. 1, 2): `particles` ellipsoids in a row along +x from `start`,
/// joined by particles - 1 edges, with a box render mesh whose end faces are 5 x 5 grids
/// of vertices (the paper pins one end by its 25 vertices).
struct ArapBarDesc {
    Vec3 start = Vec3::Zero();   ///< centre of the end face at x = start.x
    real length = 2;             ///< [m]
    real width = real(0.2);      ///< square cross-section [m]
    int particles = 20;          ///< in [2, 1000]
    real density = 1000;
    real stiffness = 1e9;
    int iterations = 10;
    real damping = 0;
};

struct ArapBar {
    DeformableId id;
    std::vector<std::uint32_t> startFace; ///< the 25 vertices of the end face at x = start.x
    std::vector<std::uint32_t> endFace;   ///< the 25 at the far end
    std::uint32_t endCentre = 0;          ///< the vertex at the far end face's centre
};

/// The description of the bar (for changing it before creating), and the bar created.
DeformableDesc arapBarDesc(const ArapBarDesc& desc, ArapBar* faces = nullptr);
ArapBar buildArapBar(World& world, const ArapBarDesc& desc);
/// Holds the bar's start face where it rests with 25 stiff position handles (the
/// clamped end of Fig. 1 and 2); returns them.
std::vector<DeformableHandleId> clampArapBar(World& world, const ArapBar& bar);

/// A closed triangle mesh (counter-clockwise seen from outside) with vertex normals.
struct ClosedMesh {
    std::vector<Vec3> vertices, normals;
    std::vector<std::array<std::uint32_t, 3>> triangles;
};

/// The bundled creature: a four-legged animal with a neck, a head and a tail, about
/// `size` metres long, standing on y = 0 with its body along x; made here as a
/// star-shaped displaced icosphere (subdivisions 0..5), not downloaded.
ClosedMesh creatureMesh(real size = 1, int subdivisions = 4);

/// Whether p is inside the closed mesh (ray parity along an irrational direction).
bool insideMesh(const ClosedMesh& mesh, const Vec3& p);

/// A deformation graph sampled inside a closed mesh: candidate points on a fine grid
/// inside it, `particles` of them picked by farthest-point sampling (deterministic),
/// spheres of radius 0.6 x the distance to the nearest other particle, edges to each
/// particle's `neighbours` nearest (union, so the graph is symmetric), components
/// joined by their closest pair; the mesh itself is the render mesh.
struct SampledGraphDesc {
    int particles = 100;     ///< in [2, 10000]
    int neighbours = 4;      ///< k of the k-nearest-neighbour edges, in [1, 32]
    real density = 1000;
    real stiffness = 1e9;
    int iterations = 10;
    real damping = 0;
    int skinningNeighbours = 4;
};
DeformableDesc sampleDeformable(const ClosedMesh& mesh, const SampledGraphDesc& desc);

/// The creature, sampled, placed with its rest pose moved by `offset`.
DeformableId buildArapCreature(World& world, const Vec3& offset, const SampledGraphDesc& desc = {}, real size = 1);

/// Without exceptions (error.hpp): the error goes to `onError` and an empty value comes
/// back (a desc with no particles, which createDeformable rejects; an empty mesh). The
/// builders above that take a World report to the world's handler instead.
DeformableDesc arapBarDesc(const ArapBarDesc& desc, ArapBar* faces, const ErrorHandler& onError);
ClosedMesh creatureMesh(real size, int subdivisions, const ErrorHandler& onError);
DeformableDesc sampleDeformable(const ClosedMesh& mesh, const SampledGraphDesc& desc, const ErrorHandler& onError);

} // namespace jounce
