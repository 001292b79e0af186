// SPDX-License-Identifier: MIT
// Builders for ARAP deformables: Choi 2017's bar (20 particles, 19 edges) and a graph
// sampled inside a closed mesh (the paper's dinosaur: about 100 particles, k-nearest
// edges), with a creature mesh made here.

#include <jounce/deformable/deformable_builders.hpp>

#include "common/guard.hpp"
#include "common/validate.hpp"
#include "physics/deformable/mesh_crossings.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace jounce {
namespace {

/// Gives every triangle the winding whose normal points away from `inside`, and every
/// vertex the normalised sum of its triangles' area-weighted normals (UnitY if none).
void orientAndNormals(ClosedMesh& mesh, const std::vector<Vec3>& insidePoint) {
    mesh.normals.assign(mesh.vertices.size(), Vec3::Zero());
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
        auto& tri = mesh.triangles[t];
        const Vec3 a = mesh.vertices[tri[0]], b = mesh.vertices[tri[1]], c = mesh.vertices[tri[2]];
        Vec3 n = (b - a).cross(c - a);
        if (n.dot((a + b + c) / 3 - insidePoint[t]) < 0) {
            std::swap(tri[1], tri[2]);
            n = -n;
        }
        for (const std::uint32_t v : tri) mesh.normals[v] += n;
    }
    for (Vec3& n : mesh.normals) n = n.norm() > 0 ? Vec3(n.normalized()) : Vec3(Vec3::UnitY());
}

/// The bar's lattice: rings along x, each a 5 x 5 grid across y and z.
struct BarLattice {
    int rings = 0;
    static constexpr int side = 5;
    std::uint32_t at(int r, int a, int b) const { return static_cast<std::uint32_t>((r * side + a) * side + b); }
};

void addQuad(ClosedMesh& mesh, std::vector<Vec3>& inside, std::uint32_t p, std::uint32_t q, std::uint32_t r, std::uint32_t s,
             const Vec3& centre) {
    mesh.triangles.push_back({p, q, r});
    mesh.triangles.push_back({p, r, s});
    inside.push_back(centre);
    inside.push_back(centre);
}

} // namespace

DeformableDesc arapBarDesc(const ArapBarDesc& bar, ArapBar* faces) {
    if (bar.particles < 2 || bar.particles > 1000)
        throw Error("ArapBarDesc.particles", std::to_string(bar.particles), "must lie in [2, 1000]");
    if (!(bar.length > 0) || !std::isfinite(bar.length)) throw Error("ArapBarDesc.length", toText(bar.length), "must be finite and > 0");
    if (!(bar.width > 0) || !std::isfinite(bar.width)) throw Error("ArapBarDesc.width", toText(bar.width), "must be finite and > 0");
    DeformableDesc d;
    d.density = bar.density;
    d.stiffness = bar.stiffness;
    d.iterations = bar.iterations;
    d.damping = bar.damping;
    const real spacing = bar.length / static_cast<real>(bar.particles);
    for (int i = 0; i < bar.particles; ++i) {
        OrientedParticleDesc p;
        p.position = bar.start + Vec3(spacing * (static_cast<real>(i) + real(0.5)), 0, 0);
        p.radii = Vec3(spacing / 2, bar.width / 2, bar.width / 2);
        d.particles.push_back(p);
        if (i > 0) d.edges.push_back({static_cast<std::uint32_t>(i - 1), static_cast<std::uint32_t>(i)});
    }
    // The render mesh: 4 rings per particle (and one), each a 5 x 5 grid; its surface.
    BarLattice lattice;
    lattice.rings = 4 * bar.particles + 1;
    ClosedMesh mesh;
    const int last = BarLattice::side - 1;
    for (int r = 0; r < lattice.rings; ++r)
        for (int a = 0; a < BarLattice::side; ++a)
            for (int b = 0; b < BarLattice::side; ++b)
                mesh.vertices.push_back(bar.start + Vec3(bar.length * static_cast<real>(r) / static_cast<real>(lattice.rings - 1),
                                                         bar.width * (static_cast<real>(a) / last - real(0.5)),
                                                         bar.width * (static_cast<real>(b) / last - real(0.5))));
    std::vector<Vec3> inside;
    const Vec3 middle = bar.start + Vec3(bar.length / 2, 0, 0);
    for (const int r : {0, lattice.rings - 1})
        for (int a = 0; a < last; ++a)
            for (int b = 0; b < last; ++b)
                addQuad(mesh, inside, lattice.at(r, a, b), lattice.at(r, a + 1, b), lattice.at(r, a + 1, b + 1), lattice.at(r, a, b + 1),
                        middle);
    for (int r = 0; r < lattice.rings - 1; ++r) {
        const Vec3 axis = bar.start + Vec3(bar.length * (static_cast<real>(r) + real(0.5)) / static_cast<real>(lattice.rings - 1), 0, 0);
        for (int k = 0; k < last; ++k)
            for (const int edge : {0, last}) {
                addQuad(mesh, inside, lattice.at(r, edge, k), lattice.at(r + 1, edge, k), lattice.at(r + 1, edge, k + 1),
                        lattice.at(r, edge, k + 1), axis);
                addQuad(mesh, inside, lattice.at(r, k, edge), lattice.at(r + 1, k, edge), lattice.at(r + 1, k + 1, edge),
                        lattice.at(r, k + 1, edge), axis);
            }
    }
    orientAndNormals(mesh, inside);
    d.vertices = mesh.vertices;
    d.normals = mesh.normals;
    d.triangles = mesh.triangles;
    if (faces != nullptr) {
        faces->startFace.clear();
        faces->endFace.clear();
        for (int a = 0; a < BarLattice::side; ++a)
            for (int b = 0; b < BarLattice::side; ++b) {
                faces->startFace.push_back(lattice.at(0, a, b));
                faces->endFace.push_back(lattice.at(lattice.rings - 1, a, b));
            }
        faces->endCentre = lattice.at(lattice.rings - 1, 2, 2);
    }
    return d;
}

ArapBar buildArapBar(World& world, const ArapBarDesc& desc) { return detail::guarded(world.errorHandler(), [&] {
    ArapBar bar;
    const DeformableDesc d = arapBarDesc(desc, &bar);
    bar.id = world.createDeformable(d);
    return bar;
}); }

std::vector<DeformableHandleId> clampArapBar(World& world, const ArapBar& bar) { return detail::guarded(world.errorHandler(), [&] {
    std::vector<DeformableHandleId> handles;
    for (const std::uint32_t v : bar.startFace) {
        DeformableHandleDesc h;
        h.vertex = v;
        h.target = world.deformable(bar.id).restVertices[v];
        handles.push_back(world.createDeformableHandle(bar.id, h));
    }
    return handles;
}); }

ClosedMesh creatureMesh(real size, int subdivisions) {
    if (!(size > 0) || !std::isfinite(size)) throw Error("creatureMesh.size", toText(size), "must be finite and > 0");
    if (subdivisions < 0 || subdivisions > 5) throw Error("creatureMesh.subdivisions", std::to_string(subdivisions), "must lie in [0, 5]");
    // An icosphere: the icosahedron, each triangle split in four `subdivisions` times.
    const real t = (1 + std::sqrt(real(5))) / 2;
    std::vector<Vec3> v = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
                           {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
    for (Vec3& p : v) p.normalize();
    std::vector<std::array<std::uint32_t, 3>> f = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                                   {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                                   {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                                   {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
    for (int s = 0; s < subdivisions; ++s) {
        std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> midpoint;
        const auto mid = [&](std::uint32_t a, std::uint32_t b) {
            const auto key = std::minmax(a, b);
            const auto it = midpoint.find(key);
            if (it != midpoint.end()) return it->second;
            v.push_back(((v[a] + v[b]) / 2).normalized());
            return midpoint[key] = static_cast<std::uint32_t>(v.size() - 1);
        };
        std::vector<std::array<std::uint32_t, 3>> next;
        for (const auto& [a, b, c] : f) {
            const std::uint32_t ab = mid(a, b), bc = mid(b, c), ca = mid(c, a);
            next.insert(next.end(), {{a, ab, ca}, {b, bc, ab}, {c, ca, bc}, {ab, bc, ca}});
        }
        f = std::move(next);
    }
    // The creature: in each direction d from its centre, the farther of an ellipsoidal
    // body and the limbs (head on a neck, tail, four legs), each a bump of length L
    // around its direction.
    struct Limb {
        Vec3 direction;
        real length, width; // width: the bump's angular radius [rad]
    };
    const Limb limbs[] = {{Vec3(real(0.75), real(0.65), 0), real(0.62), real(0.28)},     // neck and head
                          {Vec3(-1, real(0.1), 0), real(0.7), real(0.22)},               // tail
                          {Vec3(real(0.45), -1, real(0.45)), real(0.5), real(0.2)},      // legs
                          {Vec3(real(0.45), -1, real(-0.45)), real(0.5), real(0.2)},
                          {Vec3(real(-0.45), -1, real(0.45)), real(0.5), real(0.2)},
                          {Vec3(real(-0.45), -1, real(-0.45)), real(0.5), real(0.2)}};
    ClosedMesh mesh;
    for (const Vec3& d : v) {
        const Vec3 body(real(0.42), real(0.2), real(0.2));
        real radius = 1 / d.cwiseQuotient(body).norm();
        for (const Limb& limb : limbs) {
            const real angle = std::acos(std::clamp(d.dot(limb.direction.normalized()), real(-1), real(1)));
            const real fall = std::exp(-(angle / limb.width) * (angle / limb.width));
            radius = std::max(radius, limb.length * std::pow(fall, real(0.25)) * (fall > real(0.05) ? 1 : 0));
        }
        mesh.vertices.push_back(d * (radius * size / 2));
    }
    mesh.triangles = f;
    real lowest = std::numeric_limits<real>::infinity();
    for (const Vec3& p : mesh.vertices) lowest = std::min(lowest, p.y());
    for (Vec3& p : mesh.vertices) p.y() -= lowest; // standing on y = 0
    const Vec3 centre(0, -lowest, 0);
    orientAndNormals(mesh, std::vector<Vec3>(mesh.triangles.size(), centre)); // star-shaped about its centre
    return mesh;
}

bool insideMesh(const ClosedMesh& mesh, const Vec3& p) {
    // Count crossings of a ray from p: odd inside, even outside.
    const Vec3 dir = detail::crossingRay();
    int crossings = 0;
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
        if (detail::rayCrosses(mesh, t, dir, p)) ++crossings;
    return crossings % 2 == 1;
}

DeformableDesc sampleDeformable(const ClosedMesh& mesh, const SampledGraphDesc& g) {
    if (g.particles < 2 || g.particles > 10000)
        throw Error("SampledGraphDesc.particles", std::to_string(g.particles), "must lie in [2, 10000]");
    if (g.neighbours < 1 || g.neighbours > 32)
        throw Error("SampledGraphDesc.neighbours", std::to_string(g.neighbours), "must lie in [1, 32]");
    if (mesh.triangles.size() < 4) throw Error("sampleDeformable.mesh", std::to_string(mesh.triangles.size()) + " triangles", "not a closed mesh");
    for (std::size_t i = 0; i < mesh.vertices.size(); ++i)
        detail::requirePoint(mesh.vertices[i], ("sampleDeformable.mesh.vertices[" + std::to_string(i) + "]").c_str());
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
        for (const std::uint32_t v : mesh.triangles[t])
            if (v >= mesh.vertices.size())
                throw Error("sampleDeformable.mesh.triangles[" + std::to_string(t) + "]", std::to_string(v),
                            "names no vertex (" + std::to_string(mesh.vertices.size()) + " vertices)");
    // Candidates: a grid of about 30 points a particle inside the mesh's box.
    Vec3 lo = mesh.vertices.front(), hi = lo;
    for (const Vec3& p : mesh.vertices) {
        lo = lo.cwiseMin(p);
        hi = hi.cwiseMax(p);
    }
    const real cell = std::cbrt((hi - lo).prod() / (30 * static_cast<real>(g.particles)));
    std::vector<Vec3> candidates;
    const detail::CrossingGrid grid(mesh); // insideMesh's answers, testing a few triangles a point
    for (real x = lo.x() + cell / 2; x < hi.x(); x += cell)
        for (real y = lo.y() + cell / 2; y < hi.y(); y += cell)
            for (real z = lo.z() + cell / 2; z < hi.z(); z += cell)
                if (grid.inside(Vec3(x, y, z))) candidates.emplace_back(x, y, z);
    if (candidates.size() < static_cast<std::size_t>(g.particles))
        throw Error("SampledGraphDesc.particles", std::to_string(g.particles),
                    "more than the mesh holds (" + std::to_string(candidates.size()) + " inside points)");
    // Farthest-point sampling from the candidate nearest the centroid.
    const Vec3 centroid = std::accumulate(candidates.begin(), candidates.end(), Vec3(Vec3::Zero())) / static_cast<real>(candidates.size());
    std::vector<real> gap(candidates.size(), std::numeric_limits<real>::infinity());
    std::vector<Vec3> chosen;
    std::size_t next = 0;
    for (std::size_t c = 1; c < candidates.size(); ++c)
        if ((candidates[c] - centroid).norm() < (candidates[next] - centroid).norm()) next = c;
    while (chosen.size() < static_cast<std::size_t>(g.particles)) {
        chosen.push_back(candidates[next]);
        for (std::size_t c = 0; c < candidates.size(); ++c) gap[c] = std::min(gap[c], (candidates[c] - chosen.back()).norm());
        next = static_cast<std::size_t>(std::max_element(gap.begin(), gap.end()) - gap.begin());
    }
    // k-nearest edges (both ways once), then join components by their closest pair.
    const std::size_t n = chosen.size();
    std::vector<std::array<std::uint32_t, 2>> edges;
    std::vector<real> nearest(n, std::numeric_limits<real>::infinity());
    for (std::uint32_t i = 0; i < n; ++i) {
        std::vector<std::pair<real, std::uint32_t>> byDistance;
        for (std::uint32_t j = 0; j < n; ++j)
            if (j != i) byDistance.emplace_back((chosen[i] - chosen[j]).norm(), j);
        const auto k = static_cast<std::ptrdiff_t>(std::min<std::size_t>(static_cast<std::size_t>(g.neighbours), n - 1));
        std::partial_sort(byDistance.begin(), byDistance.begin() + k, byDistance.end());
        nearest[i] = byDistance.front().first;
        for (std::ptrdiff_t m = 0; m < k; ++m) edges.push_back({std::min(i, byDistance[static_cast<std::size_t>(m)].second), std::max(i, byDistance[static_cast<std::size_t>(m)].second)});
    }
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    std::vector<std::uint32_t> component(n);
    const auto label = [&] {
        std::iota(component.begin(), component.end(), 0u);
        for (bool changed = true; changed;) {
            changed = false;
            for (const auto& [a, b] : edges) {
                const std::uint32_t m = std::min(component[a], component[b]);
                if (component[a] != m || component[b] != m) changed = true;
                component[a] = component[b] = m;
            }
        }
    };
    for (label(); std::any_of(component.begin(), component.end(), [](std::uint32_t c) { return c != 0; }); label()) {
        std::array<std::uint32_t, 2> best{0, 0};
        real bestDistance = std::numeric_limits<real>::infinity();
        for (std::uint32_t i = 0; i < n; ++i)
            for (std::uint32_t j = 0; j < n; ++j)
                if (component[i] == 0 && component[j] != 0 && (chosen[i] - chosen[j]).norm() < bestDistance) {
                    bestDistance = (chosen[i] - chosen[j]).norm();
                    best = {std::min(i, j), std::max(i, j)};
                }
        edges.push_back(best);
    }
    DeformableDesc d;
    d.density = g.density;
    d.stiffness = g.stiffness;
    d.iterations = g.iterations;
    d.damping = g.damping;
    d.skinningNeighbours = g.skinningNeighbours;
    for (std::size_t i = 0; i < n; ++i) {
        OrientedParticleDesc p;
        p.position = chosen[i];
        p.radii = Vec3::Constant(real(0.6) * nearest[i]);
        d.particles.push_back(p);
    }
    d.edges = edges;
    d.vertices = mesh.vertices;
    d.normals = mesh.normals;
    d.triangles = mesh.triangles;
    return d;
}

DeformableId buildArapCreature(World& world, const Vec3& offset, const SampledGraphDesc& desc, real size) { return detail::guarded(world.errorHandler(), [&] {
    ClosedMesh mesh = creatureMesh(size, 3);
    for (Vec3& p : mesh.vertices) p += offset;
    return world.createDeformable(sampleDeformable(mesh, desc));
}); }

DeformableDesc arapBarDesc(const ArapBarDesc& desc, ArapBar* faces, const ErrorHandler& onError) {
    return detail::guarded(onError, [&] { return arapBarDesc(desc, faces); });
}

ClosedMesh creatureMesh(real size, int subdivisions, const ErrorHandler& onError) {
    return detail::guarded(onError, [&] { return creatureMesh(size, subdivisions); });
}

DeformableDesc sampleDeformable(const ClosedMesh& mesh, const SampledGraphDesc& desc, const ErrorHandler& onError) {
    return detail::guarded(onError, [&] { return sampleDeformable(mesh, desc); });
}

} // namespace jounce
