// Builders of ropes, cloth, soft boxes and balloons from particles and constraints.
// Each goes through the world's public API, so every piece is validated.

#include <jounce/physics/particle_builders.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

namespace jounce {

Rope buildRope(World& world, const RopeDesc& d) {
    if (d.segments < 1 || d.segments > 100000)
        throw Error("RopeDesc.segments", std::to_string(d.segments), "must lie in [1, 100000]");
    if (!(d.mass > 0) || !std::isfinite(d.mass)) throw Error("RopeDesc.mass", toText(d.mass), "must be finite and > 0");
    const std::uint32_t group = d.group != 0 ? d.group : world.newParticleGroup();
    const real particleMass = d.mass / static_cast<real>(d.segments + 1);
    Rope rope;
    for (int i = 0; i <= d.segments; ++i) {
        ParticleDesc p;
        p.position = d.from + (d.to - d.from) * (static_cast<real>(i) / static_cast<real>(d.segments));
        p.mass = particleMass;
        p.pinned = (i == 0 && d.pinFrom) || (i == d.segments && d.pinTo);
        p.radius = d.radius;
        p.staticFriction = p.kineticFriction = d.friction;
        p.group = group;
        rope.particles.push_back(world.createParticle(p));
        if (i > 0) rope.links.push_back(world.createDistanceConstraint({rope.particles[static_cast<std::size_t>(i - 1)],
                                                                         rope.particles.back(), -1, d.compliance}));
    }
    return rope;
}

Cloth buildCloth(World& world, const ClothDesc& d) {
    if (d.nu < 2 || d.nv < 2 || d.nu > 4096 || d.nv > 4096)
        throw Error("ClothDesc.nu", std::to_string(d.nu) + " x " + std::to_string(d.nv), "each side needs 2 to 4096 particles");
    if (!(d.mass > 0) || !std::isfinite(d.mass)) throw Error("ClothDesc.mass", toText(d.mass), "must be finite and > 0");
    for (const auto& [u, v] : d.pinned)
        if (u < 0 || u >= d.nu || v < 0 || v >= d.nv)
            throw Error("ClothDesc.pinned", std::to_string(u) + ", " + std::to_string(v), "outside the grid");
    const std::uint32_t group = d.group != 0 ? d.group : world.newParticleGroup();
    Cloth c;
    c.nu = d.nu;
    c.nv = d.nv;
    const real particleMass = d.mass / static_cast<real>(d.nu * d.nv);
    for (int v = 0; v < d.nv; ++v)
        for (int u = 0; u < d.nu; ++u) {
            ParticleDesc p;
            p.position = d.corner + d.sideU * (static_cast<real>(u) / static_cast<real>(d.nu - 1)) +
                         d.sideV * (static_cast<real>(v) / static_cast<real>(d.nv - 1));
            p.mass = particleMass;
            p.pinned = std::find(d.pinned.begin(), d.pinned.end(), std::array<int, 2>{u, v}) != d.pinned.end();
            p.radius = d.radius;
            p.staticFriction = p.kineticFriction = d.friction;
            p.group = group;
            c.particles.push_back(world.createParticle(p));
        }
    const auto link = [&](std::vector<DistanceConstraintId>& set, int u0, int v0, int u1, int v1, real compliance) {
        if (u1 < 0 || u1 >= d.nu || v1 < 0 || v1 >= d.nv) return;
        set.push_back(world.createDistanceConstraint({c.at(u0, v0), c.at(u1, v1), -1, compliance}));
    };
    for (int v = 0; v < d.nv; ++v)
        for (int u = 0; u < d.nu; ++u) {
            link(c.stretch, u, v, u + 1, v, d.stretchCompliance);
            link(c.stretch, u, v, u, v + 1, d.stretchCompliance);
            link(c.shear, u, v, u + 1, v + 1, d.shearCompliance);
            link(c.shear, u + 1, v, u, v + 1, d.shearCompliance);
            if (d.bending == ClothDesc::Bending::SkipOne) {
                link(c.bend, u, v, u + 2, v, d.bendCompliance);
                link(c.bend, u, v, u, v + 2, d.bendCompliance);
            }
            if (u + 1 < d.nu && v + 1 < d.nv) {
                const auto index = [&](int uu, int vv) { return static_cast<std::uint32_t>(uu + d.nu * vv); };
                c.triangles.push_back({index(u, v), index(u + 1, v), index(u + 1, v + 1)});
                c.triangles.push_back({index(u, v), index(u + 1, v + 1), index(u, v + 1)});
            }
        }
    if (d.bending == ClothDesc::Bending::Dihedral || d.bending == ClothDesc::Bending::Isometric) {
        const ParticleConstraintKind kind =
            d.bending == ClothDesc::Bending::Dihedral ? ParticleConstraintKind::Bending : ParticleConstraintKind::IsometricBending;
        for (const auto& s : bendingStencils(c.triangles)) {
            ParticleConstraintDesc b;
            b.kind = kind;
            for (std::size_t i = 0; i < 4; ++i) b.particles[i] = c.particles[s[i]];
            b.compliance = d.bendCompliance;
            c.bendAngles.push_back(world.createParticleConstraint(b));
        }
    }
    return c;
}

std::vector<std::array<std::uint32_t, 4>> bendingStencils(const std::vector<std::array<std::uint32_t, 3>>& triangles) {
    // Each directed edge a -> b of a triangle remembers the triangle's third vertex; the
    // triangle across walks it b -> a. std::map keeps the order fixed (determinism).
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> opposite;
    for (const auto& t : triangles)
        for (std::size_t k = 0; k < 3; ++k) opposite[{t[k], t[(k + 1) % 3]}] = t[(k + 2) % 3];
    std::vector<std::array<std::uint32_t, 4>> stencils;
    for (const auto& [edge, c] : opposite) {
        if (edge.first > edge.second) continue; // each shared edge once
        const auto across = opposite.find({edge.second, edge.first});
        if (across != opposite.end()) stencils.push_back({edge.first, edge.second, c, across->second});
    }
    return stencils;
}

SoftBox buildSoftBox(World& world, const SoftBoxDesc& d) {
    if (d.cells < 1 || d.cells > 64) throw Error("SoftBoxDesc.cells", std::to_string(d.cells), "must lie in [1, 64]");
    if (!d.halfExtents.allFinite() || !(d.halfExtents.minCoeff() > 0))
        throw Error("SoftBoxDesc.halfExtents", toText(d.halfExtents), "each must be finite and > 0");
    if (!(d.mass > 0) || !std::isfinite(d.mass)) throw Error("SoftBoxDesc.mass", toText(d.mass), "must be finite and > 0");
    const int n = d.cells + 1;
    const Vec3 cell = 2 * d.halfExtents / static_cast<real>(d.cells);
    const std::uint32_t group = d.group != 0 ? d.group : world.newParticleGroup();
    SoftBox box;
    box.cells = d.cells;
    const auto index = [n](int i, int j, int k) { return static_cast<std::uint32_t>(i + n * (j + n * k)); };
    for (int k = 0; k < n; ++k)
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                ParticleDesc p;
                p.position = d.centre - d.halfExtents + Vec3(cell.x() * i, cell.y() * j, cell.z() * k);
                p.mass = d.mass / static_cast<real>(n * n * n);
                p.radius = d.radius > 0 ? d.radius : cell.minCoeff() / 3;
                p.staticFriction = p.kineticFriction = d.friction;
                p.restitution = d.restitution;
                p.group = group;
                box.particles.push_back(world.createParticle(p));
            }
    // Kuhn's six tets of a cell: each walks from corner 000 to 111 along the three axes
    // in one of the six orders, so every cell cuts its faces along the same diagonals.
    constexpr int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    std::map<std::pair<std::uint32_t, std::uint32_t>, bool> edges;
    for (int k = 0; k < d.cells; ++k)
        for (int j = 0; j < d.cells; ++j)
            for (int i = 0; i < d.cells; ++i)
                for (const auto& order : orders) {
                    std::array<int, 3> at{i, j, k};
                    std::array<std::uint32_t, 4> tet{};
                    tet[0] = index(at[0], at[1], at[2]);
                    for (int step = 0; step < 3; ++step) {
                        ++at[static_cast<std::size_t>(order[step])];
                        tet[static_cast<std::size_t>(step + 1)] = index(at[0], at[1], at[2]);
                    }
                    box.tetIndices.push_back(tet);
                    for (std::size_t a = 0; a < 4; ++a)
                        for (std::size_t b = a + 1; b < 4; ++b) edges[std::minmax(tet[a], tet[b])] = true;
                }
    for (const auto& [edge, unused] : edges)
        box.edges.push_back(world.createDistanceConstraint({box.particles[edge.first], box.particles[edge.second], -1, d.edgeCompliance}));
    for (const auto& tet : box.tetIndices) {
        ParticleConstraintDesc v;
        v.kind = ParticleConstraintKind::TetVolume;
        for (std::size_t a = 0; a < 4; ++a) v.particles[a] = box.particles[tet[a]];
        v.compliance = d.volumeCompliance;
        box.tets.push_back(world.createParticleConstraint(v));
    }
    // The six sides, two triangles per cell square, wound outward.
    for (int a = 0; a < d.cells; ++a)
        for (int b = 0; b < d.cells; ++b) {
            const auto quad = [&](std::uint32_t p00, std::uint32_t p10, std::uint32_t p11, std::uint32_t p01) {
                box.surface.push_back({p00, p10, p11});
                box.surface.push_back({p00, p11, p01});
            };
            const int last = d.cells;
            quad(index(a, b, 0), index(a, b + 1, 0), index(a + 1, b + 1, 0), index(a + 1, b, 0));                  // -z
            quad(index(a, b, last), index(a + 1, b, last), index(a + 1, b + 1, last), index(a, b + 1, last));      // +z
            quad(index(0, a, b), index(0, a, b + 1), index(0, a + 1, b + 1), index(0, a + 1, b));                  // -x
            quad(index(last, a, b), index(last, a + 1, b), index(last, a + 1, b + 1), index(last, a, b + 1));      // +x
            quad(index(a, 0, b), index(a + 1, 0, b), index(a + 1, 0, b + 1), index(a, 0, b + 1));                  // -y
            quad(index(a, last, b), index(a, last, b + 1), index(a + 1, last, b + 1), index(a + 1, last, b));      // +y
        }
    return box;
}

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

Balloon buildBalloon(World& world, const BalloonDesc& d) {
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
}

} // namespace jounce
