// SPDX-License-Identifier: MIT
// Builders of soft bodies from particles: tetrahedralised boxes and balls, balloons,
// blocks of grains, Millington's blob and platform. Each goes through the world's
// public API, so every piece is validated.

#include <jounce/particles/particle_builders.hpp>

#include "common/guard.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <utility>

namespace jounce {
namespace {

void requirePositiveField(real value, const char* field) {
    if (!(value > 0) || !std::isfinite(value)) throw Error(field, toText(value), "must be finite and > 0");
}

/// What a tetrahedral lattice body is made of.
struct LatticeDesc {
    Vec3 origin = Vec3::Zero();       ///< lattice corner (0, 0, 0)
    Vec3 cell = Vec3::Ones();         ///< cell sides
    int cells = 1;                    ///< per side
    std::function<bool(int, int, int)> keep; ///< which cells belong to the body
    real mass = 1, radius = 0, edgeCompliance = 0, volumeCompliance = 0, friction = 0, restitution = 0;
    std::uint32_t group = 0;
};

/// The kept cells of a lattice, each cut into Kuhn's six tets: every tet walks from the
/// cell's corner 000 to 111 along the three axes in one of the six orders, so every cell
/// cuts its faces along the same diagonals and neighbours share faces exactly.
SoftBody buildLattice(World& world, const LatticeDesc& d) {
    const int c = d.cells, n = c + 1;
    const auto corner = [n](int i, int j, int k) { return static_cast<std::size_t>(i + n * (j + n * k)); };
    const auto kept = [&](int i, int j, int k) { return i >= 0 && j >= 0 && k >= 0 && i < c && j < c && k < c && d.keep(i, j, k); };
    // The corners the kept cells use, in lattice order.
    std::vector<std::uint8_t> used(static_cast<std::size_t>(n * n * n), 0);
    for (int k = 0; k < c; ++k)
        for (int j = 0; j < c; ++j)
            for (int i = 0; i < c; ++i)
                if (kept(i, j, k))
                    for (int q = 0; q < 8; ++q) used[corner(i + (q & 1), j + ((q >> 1) & 1), k + (q >> 2))] = 1;
    const auto count = static_cast<real>(std::count(used.begin(), used.end(), 1));
    if (count == 0) throw Error("buildLattice", "no cells", "the body has no cell inside it");
    const std::uint32_t group = d.group != 0 ? d.group : world.newParticleGroup();
    SoftBody body;
    body.cells = c;
    std::vector<std::uint32_t> slotOf(used.size(), 0);
    for (int k = 0; k < n; ++k)
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                if (!used[corner(i, j, k)]) continue;
                ParticleDesc p;
                p.position = d.origin + Vec3(d.cell.x() * i, d.cell.y() * j, d.cell.z() * k);
                p.mass = d.mass / count;
                p.radius = d.radius > 0 ? d.radius : d.cell.minCoeff() / 3;
                p.staticFriction = p.kineticFriction = d.friction;
                p.restitution = d.restitution;
                p.group = group;
                slotOf[corner(i, j, k)] = static_cast<std::uint32_t>(body.particles.size());
                body.particles.push_back(world.createParticle(p));
            }
    constexpr int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    std::map<std::pair<std::uint32_t, std::uint32_t>, bool> edges;
    for (int k = 0; k < c; ++k)
        for (int j = 0; j < c; ++j)
            for (int i = 0; i < c; ++i) {
                if (!kept(i, j, k)) continue;
                for (const auto& order : orders) {
                    std::array<int, 3> at{i, j, k};
                    std::array<std::uint32_t, 4> tet{};
                    tet[0] = slotOf[corner(at[0], at[1], at[2])];
                    for (int step = 0; step < 3; ++step) {
                        ++at[static_cast<std::size_t>(order[step])];
                        tet[static_cast<std::size_t>(step + 1)] = slotOf[corner(at[0], at[1], at[2])];
                    }
                    body.tetIndices.push_back(tet);
                    for (std::size_t a = 0; a < 4; ++a)
                        for (std::size_t b = a + 1; b < 4; ++b) edges[std::minmax(tet[a], tet[b])] = true;
                }
                // Faces with no kept cell beyond them are the surface, two triangles each,
                // wound counter-clockwise seen from outside.
                const auto at = [&](int di, int dj, int dk) { return slotOf[corner(i + di, j + dj, k + dk)]; };
                const auto quad = [&](std::uint32_t p00, std::uint32_t p10, std::uint32_t p11, std::uint32_t p01) {
                    body.surface.push_back({p00, p10, p11});
                    body.surface.push_back({p00, p11, p01});
                };
                if (!kept(i, j, k - 1)) quad(at(0, 0, 0), at(0, 1, 0), at(1, 1, 0), at(1, 0, 0));
                if (!kept(i, j, k + 1)) quad(at(0, 0, 1), at(1, 0, 1), at(1, 1, 1), at(0, 1, 1));
                if (!kept(i - 1, j, k)) quad(at(0, 0, 0), at(0, 0, 1), at(0, 1, 1), at(0, 1, 0));
                if (!kept(i + 1, j, k)) quad(at(1, 0, 0), at(1, 1, 0), at(1, 1, 1), at(1, 0, 1));
                if (!kept(i, j - 1, k)) quad(at(0, 0, 0), at(1, 0, 0), at(1, 0, 1), at(0, 0, 1));
                if (!kept(i, j + 1, k)) quad(at(0, 1, 0), at(0, 1, 1), at(1, 1, 1), at(1, 1, 0));
            }
    for (const auto& [edge, unused] : edges)
        body.edges.push_back(world.createDistanceConstraint({body.particles[edge.first], body.particles[edge.second], -1, d.edgeCompliance}));
    for (const auto& tet : body.tetIndices) {
        ParticleConstraintDesc v;
        v.kind = ParticleConstraintKind::TetVolume;
        for (std::size_t a = 0; a < 4; ++a) v.particles[a] = body.particles[tet[a]];
        v.compliance = d.volumeCompliance;
        body.tets.push_back(world.createParticleConstraint(v));
    }
    return body;
}

/// The material fields every soft-body desc shares.
template <typename Desc> void copyMaterial(const Desc& d, LatticeDesc& l) {
    l.mass = d.mass;
    l.edgeCompliance = d.edgeCompliance;
    l.volumeCompliance = d.volumeCompliance;
    l.friction = d.friction;
    l.restitution = d.restitution;
    l.group = d.group;
}

} // namespace

SoftBody buildSoftBox(World& world, const SoftBoxDesc& d) { return detail::guarded(world.errorHandler(), [&] {
    if (d.cells < 1 || d.cells > 64) throw Error("SoftBoxDesc.cells", std::to_string(d.cells), "must lie in [1, 64]");
    if (!isFinite(d.halfExtents) || !(d.halfExtents.minCoeff() > 0))
        throw Error("SoftBoxDesc.halfExtents", toText(d.halfExtents), "each must be finite and > 0");
    requirePositiveField(d.mass, "SoftBoxDesc.mass");
    LatticeDesc l;
    l.origin = d.centre - d.halfExtents;
    l.cell = 2 * d.halfExtents / static_cast<real>(d.cells);
    l.cells = d.cells;
    l.keep = [](int, int, int) { return true; };
    l.radius = d.radius;
    copyMaterial(d, l);
    return buildLattice(world, l);
}); }

SoftBody buildSoftSphere(World& world, const SoftSphereDesc& d) { return detail::guarded(world.errorHandler(), [&] {
    if (d.cells < 2 || d.cells > 64) throw Error("SoftSphereDesc.cells", std::to_string(d.cells), "must lie in [2, 64]");
    requirePositiveField(d.radius, "SoftSphereDesc.radius");
    requirePositiveField(d.mass, "SoftSphereDesc.mass");
    LatticeDesc l;
    const real side = 2 * d.radius / static_cast<real>(d.cells);
    l.origin = d.centre - Vec3::Constant(d.radius);
    l.cell = Vec3::Constant(side);
    l.cells = d.cells;
    const real half = static_cast<real>(d.cells) / 2;
    l.keep = [half](int i, int j, int k) {
        const Vec3 centre(static_cast<real>(i) + real(0.5) - half, static_cast<real>(j) + real(0.5) - half,
                          static_cast<real>(k) + real(0.5) - half);
        return centre.norm() <= half;
    };
    copyMaterial(d, l);
    return buildLattice(world, l);
}); }

std::vector<ParticleId> buildGranularBlock(World& world, const GranularDesc& d) { return detail::guarded(world.errorHandler(), [&] {
    if (d.nx < 1 || d.ny < 1 || d.nz < 1 || d.nx > 1000 || d.ny > 1000 || d.nz > 1000)
        throw Error("GranularDesc.nx", std::to_string(d.nx) + " x " + std::to_string(d.ny) + " x " + std::to_string(d.nz),
                    "each count must lie in [1, 1000]");
    requirePositiveField(d.spacing, "GranularDesc.spacing");
    if (!(d.jitter >= 0) || !std::isfinite(d.jitter)) throw Error("GranularDesc.jitter", toText(d.jitter), "must be finite and >= 0");
    std::vector<ParticleId> grains;
    const real halfX = d.spacing * static_cast<real>(d.nx - 1) / 2, halfZ = d.spacing * static_cast<real>(d.nz - 1) / 2;
    for (int y = 0; y < d.ny; ++y)
        for (int z = 0; z < d.nz; ++z)
            for (int x = 0; x < d.nx; ++x) {
                const std::uint32_t k = static_cast<std::uint32_t>(x + d.nx * (z + d.nz * y)) * 2654435761u;
                const Vec3 offset(real((k >> 8) % 1001) / 1000 - real(0.5), 0, real((k >> 18) % 1001) / 1000 - real(0.5));
                ParticleDesc p;
                p.position = d.bottomCentre +
                             Vec3(d.spacing * static_cast<real>(x) - halfX, d.spacing * static_cast<real>(y), d.spacing * static_cast<real>(z) - halfZ) +
                             offset * (2 * d.jitter);
                p.radius = d.radius;
                p.mass = d.grainMass;
                p.staticFriction = d.staticFriction;
                p.kineticFriction = d.kineticFriction;
                grains.push_back(world.createParticle(p));
            }
    return grains;
}); }

Blob buildBlob(World& world, const BlobDesc& d) { return detail::guarded(world.errorHandler(), [&] {
    requirePositiveField(d.radius, "BlobDesc.radius");
    requirePositiveField(d.spacing, "BlobDesc.spacing");
    requirePositiveField(d.mass, "BlobDesc.mass");
    if (d.radius / d.spacing > 50) throw Error("BlobDesc.spacing", toText(d.spacing), "too fine for the radius (over 50 per radius)");
    const int across = static_cast<int>(std::floor(d.radius / d.spacing + real(1e-6)));
    std::vector<Vec3> at;
    for (int k = -across; k <= across; ++k)
        for (int j = -across; j <= across; ++j)
            for (int i = -across; i <= across; ++i) {
                const Vec3 offset = Vec3(real(i), real(j), real(k)) * d.spacing;
                if (offset.norm() <= d.radius + real(1e-9)) at.push_back(d.centre + offset);
            }
    const std::uint32_t group = d.group != 0 ? d.group : world.newParticleGroup();
    Blob blob;
    for (const Vec3& x : at) {
        ParticleDesc p;
        p.position = x;
        p.mass = d.mass / static_cast<real>(at.size());
        p.radius = d.spacing / 2;
        p.staticFriction = p.kineticFriction = d.friction;
        p.group = group;
        blob.particles.push_back(world.createParticle(p));
    }
    ParticleClusterDesc cluster;
    cluster.particles = blob.particles;
    cluster.shapeStiffness = d.shapeStiffness;
    cluster.rigidDamping = d.rigidDamping;
    blob.cluster = world.createParticleCluster(cluster);
    return blob;
}); }

Platform buildPlatform(World& world, const PlatformDesc& d) { return detail::guarded(world.errorHandler(), [&] {
    requirePositiveField(d.width, "PlatformDesc.width");
    requirePositiveField(d.particleMass, "PlatformDesc.particleMass");
    requirePositiveField(d.cableHeight, "PlatformDesc.cableHeight");
    const Vec3 along = d.to - d.from;
    if (!isFinite(along) || !(along.norm() > real(1e-6))) throw Error("PlatformDesc.to", toText(d.to), "must differ from `from`");
    // Across: horizontal and perpendicular to the platform (z when it runs along x).
    Vec3 across = along.cross(Vec3::UnitY());
    if (!(across.norm() > real(1e-6))) across = Vec3::UnitZ();
    across = across.normalized() * (d.width / 2);
    const std::uint32_t group = d.group != 0 ? d.group : world.newParticleGroup();
    Platform platform;
    for (const real side : {real(-1), real(1)})
        for (int k = 0; k < 3; ++k) {
            ParticleDesc p;
            p.position = d.from + along * (real(k) / 2) + across * side;
            p.mass = d.particleMass;
            p.pinned = k == 0;
            p.radius = d.radius;
            p.group = group;
            platform.particles.push_back(world.createParticle(p));
        }
    const auto rod = [&](int a, int b) {
        platform.rods.push_back(world.createDistanceConstraint({platform.particles[static_cast<std::size_t>(a)],
                                                                platform.particles[static_cast<std::size_t>(b)], -1, 0}));
    };
    for (int k = 0; k < 2; ++k) {
        rod(k, k + 1);         // along row 0
        rod(3 + k, 4 + k);     // along row 1
        rod(k, 4 + k);         // a diagonal of each half
    }
    for (int k = 1; k < 3; ++k) rod(k, 3 + k); // across (the pinned end needs none)
    for (const int end : {2, 5}) {
        ParticleAttachmentDesc cable;
        cable.particle = platform.particles[static_cast<std::size_t>(end)];
        cable.target.point = world.particle(cable.particle).position + Vec3(0, d.cableHeight, 0);
        cable.restLength = d.cableHeight;
        platform.cables.push_back(world.createParticleAttachment(cable));
    }
    return platform;
}); }

void applyAerodynamics(World& world, const std::vector<ParticleId>& particles,
                       const std::vector<std::array<std::uint32_t, 3>>& triangles, const AeroDesc& d) { return detail::guarded(world.errorHandler(), [&] {
    if (!isFinite(d.wind)) throw Error("AeroDesc.wind", toText(d.wind), "every component must be finite");
    for (const auto& [value, field] : {std::pair{d.airDensity, "AeroDesc.airDensity"}, std::pair{d.drag, "AeroDesc.drag"},
                                       std::pair{d.lift, "AeroDesc.lift"}})
        if (!(value >= 0) || !std::isfinite(value)) throw Error(field, toText(value), "must be finite and >= 0");
    for (const auto& t : triangles)
        for (const std::uint32_t i : t)
            if (i >= particles.size()) throw Error("applyAerodynamics.triangles", std::to_string(i), "indexes past the particles");
    const ParticleSystem& ps = world.particles();
    std::vector<Vec3> forces(particles.size(), Vec3::Zero());
    for (const auto& t : triangles) {
        std::array<std::uint32_t, 3> slot{};
        for (std::size_t k = 0; k < 3; ++k) {
            if (!world.contains(particles[t[k]])) throw Error("applyAerodynamics.particles", std::to_string(t[k]), "not a live particle");
            slot[k] = particles[t[k]].index;
        }
        const Vec3 normalArea = (ps.x[slot[1]] - ps.x[slot[0]]).cross(ps.x[slot[2]] - ps.x[slot[0]]) / 2;
        const real area = normalArea.norm();
        if (!(area > 0)) continue;
        const Vec3 n = normalArea / area;
        const Vec3 u = d.wind - (ps.v[slot[0]] + ps.v[slot[1]] + ps.v[slot[2]]) / 3;
        const real speed = u.norm(), un = u.dot(n);
        if (!(speed > 0)) continue;
        const real q = real(0.5) * d.airDensity * area * speed * un; // 1/2 rho A |u| (u . n)
        Vec3 force = d.drag * q * n;
        // Lift: across the flow, in the plane of u and n, towards n's side of it.
        const Vec3 acrossFlow = n - u * (un / (speed * speed));
        if (acrossFlow.norm() > real(1e-9)) force += d.lift * std::abs(q) * acrossFlow.normalized() * (un >= 0 ? 1 : -1);
        for (const std::uint32_t i : t) forces[i] += force / 3;
    }
    for (std::size_t i = 0; i < particles.size(); ++i)
        if (!forces[i].isZero(0)) world.applyParticleForce(particles[i], forces[i]);
}); }

namespace {

/// An icosahedron's 12 vertices (on the unit sphere) and 20 outward triangles.
void icosahedron(std::vector<Vec3>& vertices, std::vector<std::array<std::uint32_t, 3>>& triangles) {
    const real t = (1 + std::sqrt(real(5))) / 2;
    vertices = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
                {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
    for (Vec3& v : vertices) v.normalize();
    triangles = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                 {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
                 {3, 8, 9},  {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
}

/// Splits each triangle into four at its edges' midpoints, pushed out onto the sphere.
void subdivide(std::vector<Vec3>& vertices, std::vector<std::array<std::uint32_t, 3>>& triangles) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> midpoints;
    const auto midpoint = [&](std::uint32_t a, std::uint32_t b) {
        const auto key = std::minmax(a, b);
        const auto found = midpoints.find(key);
        if (found != midpoints.end()) return found->second;
        vertices.push_back((vertices[a] + vertices[b]).normalized());
        const auto made = static_cast<std::uint32_t>(vertices.size() - 1);
        midpoints[key] = made;
        return made;
    };
    std::vector<std::array<std::uint32_t, 3>> finer;
    for (const auto& t : triangles) {
        const std::uint32_t ab = midpoint(t[0], t[1]), bc = midpoint(t[1], t[2]), ca = midpoint(t[2], t[0]);
        finer.push_back({t[0], ab, ca});
        finer.push_back({t[1], bc, ab});
        finer.push_back({t[2], ca, bc});
        finer.push_back({ab, bc, ca});
    }
    triangles = std::move(finer);
}

} // namespace

Balloon buildBalloon(World& world, const BalloonDesc& d) { return detail::guarded(world.errorHandler(), [&] {
    if (d.subdivisions < 0 || d.subdivisions > 5)
        throw Error("BalloonDesc.subdivisions", std::to_string(d.subdivisions), "must lie in [0, 5]");
    if (!(d.radius > 0) || !std::isfinite(d.radius)) throw Error("BalloonDesc.radius", toText(d.radius), "must be finite and > 0");
    if (!(d.mass > 0) || !std::isfinite(d.mass)) throw Error("BalloonDesc.mass", toText(d.mass), "must be finite and > 0");
    std::vector<Vec3> unit;
    Balloon balloon;
    icosahedron(unit, balloon.triangles);
    for (int s = 0; s < d.subdivisions; ++s) subdivide(unit, balloon.triangles);
    real meanEdge = 0;
    for (const auto& t : balloon.triangles) meanEdge += (unit[t[0]] - unit[t[1]]).norm() * d.radius;
    meanEdge /= static_cast<real>(balloon.triangles.size());
    const std::uint32_t group = d.group != 0 ? d.group : world.newParticleGroup();
    for (const Vec3& u : unit) {
        ParticleDesc p;
        p.position = d.centre + u * d.radius;
        p.mass = d.mass / static_cast<real>(unit.size());
        p.radius = d.particleRadius > 0 ? d.particleRadius : meanEdge / 2;
        p.staticFriction = p.kineticFriction = d.friction;
        p.group = group;
        balloon.particles.push_back(world.createParticle(p));
    }
    std::map<std::pair<std::uint32_t, std::uint32_t>, bool> edges;
    for (const auto& t : balloon.triangles)
        for (std::size_t k = 0; k < 3; ++k) edges[std::minmax(t[k], t[(k + 1) % 3])] = true;
    for (const auto& [edge, unused] : edges)
        balloon.edges.push_back(
            world.createDistanceConstraint({balloon.particles[edge.first], balloon.particles[edge.second], -1, d.stretchCompliance}));
    ParticleVolumeDesc v;
    for (const auto& t : balloon.triangles) v.triangles.push_back({balloon.particles[t[0]], balloon.particles[t[1]], balloon.particles[t[2]]});
    v.pressure = d.pressure;
    v.compliance = d.volumeCompliance;
    v.mode = d.mode;
    balloon.volume = world.createParticleVolume(v);
    return balloon;
}); }


} // namespace jounce
