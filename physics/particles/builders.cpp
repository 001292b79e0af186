// SPDX-License-Identifier: MIT
// Builders of ropes and cloth from particles and constraints (soft bodies, balloons and
// granular blocks: soft_builders.cpp). Each goes through the world's public API, so
// every piece is validated.

#include <jounce/particles/particle_builders.hpp>

#include "common/guard.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

namespace jounce {

Rope buildRope(World& world, const RopeDesc& d) { return detail::guarded(world.errorHandler(), [&] {
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
}); }

Cloth buildCloth(World& world, const ClothDesc& d) { return detail::guarded(world.errorHandler(), [&] {
    if (d.nu < 2 || d.nv < 2 || d.nu > 4096 || d.nv > 4096)
        throw Error("ClothDesc.nu", std::to_string(d.nu) + " x " + std::to_string(d.nv), "each side needs 2 to 4096 particles");
    if (!(d.mass > 0) || !std::isfinite(d.mass)) throw Error("ClothDesc.mass", toText(d.mass), "must be finite and > 0");
    for (const auto& [u, v] : d.pinned)
        if (u < 0 || u >= d.nu || v < 0 || v >= d.nv)
            throw Error("ClothDesc.pinned", std::to_string(u) + ", " + std::to_string(v), "outside the grid");
    if (!(d.surfaceThickness >= 0) || !std::isfinite(d.surfaceThickness))
        throw Error("ClothDesc.surfaceThickness", toText(d.surfaceThickness), "must be finite and >= 0");
    if (d.hierarchyLevels < 0 || d.hierarchyLevels > 8)
        throw Error("ClothDesc.hierarchyLevels", std::to_string(d.hierarchyLevels), "must lie in [0, 8]");
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
    std::vector<std::array<ParticleId, 2>> edges; // stretch and shear: the hierarchy's graph
    // A link exists only when both ends lie on the grid: c.at(u, v) would wrap u = nu
    // round to (0, v + 1), so a shear from (u + 1, v) must check its first end too.
    const auto onGrid = [&](int u, int v) { return u >= 0 && u < d.nu && v >= 0 && v < d.nv; };
    const auto link = [&](std::vector<DistanceConstraintId>& set, int u0, int v0, int u1, int v1, real compliance) {
        if (!onGrid(u0, v0) || !onGrid(u1, v1)) return;
        set.push_back(world.createDistanceConstraint({c.at(u0, v0), c.at(u1, v1), -1, compliance}));
        if (&set != &c.bend) edges.push_back({c.at(u0, v0), c.at(u1, v1)});
    };
    for (int v = 0; v < d.nv; ++v)
        for (int u = 0; u < d.nu; ++u) {
            link(c.stretch, u, v, u + 1, v, d.stretchCompliance);
            link(c.stretch, u, v, u, v + 1, d.stretchCompliance);
        }
    for (int v = 0; v < d.nv; ++v)
        for (int u = 0; u < d.nu; ++u) {
            link(c.shear, u, v, u + 1, v + 1, d.shearCompliance);
            link(c.shear, u + 1, v, u, v + 1, d.shearCompliance);
        }
    for (int v = 0; v < d.nv; ++v)
        for (int u = 0; u < d.nu; ++u) {
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
    if (d.surfaceThickness > 0) {
        ParticleSurfaceDesc surface;
        surface.thickness = d.surfaceThickness;
        for (const auto& t : c.triangles) surface.triangles.push_back({c.particles[t[0]], c.particles[t[1]], c.particles[t[2]]});
        c.surface = world.createParticleSurface(surface);
    }
    if (d.hierarchyLevels > 0) {
        ParticleHierarchyDesc h;
        h.particles = c.particles;
        h.levels = d.hierarchyLevels;
        h.edges = std::move(edges);
        c.hierarchy = world.createParticleHierarchy(h);
    }
    return c;
}); }

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

} // namespace jounce
