// SPDX-License-Identifier: MIT
#pragma once
// Shared by the world-level fuzz targets (scene files, snapshots): step an accepted
// world a few times and require it to stay finite.

#include "fuzz/fuzz_input.hpp"

#include <jounce/common/error.hpp>
#include <jounce/world/world.hpp>

namespace jounce::fuzz {

/// Prints a body's state when replaying verbosely.
inline void showBody(const BodyState& b) {
    show("position", b.position);
    show("centre of mass", b.centerOfMass);
    show("orientation", b.orientation);
    show("linear velocity", b.linearVelocity);
    show("angular velocity", b.angularVelocity);
    show("inverse mass", b.inverseMass);
}

/// Every body, particle and deformable vertex finite, orientations unit.
inline void requireFiniteWorld(const World& world, const char* where) {
    for (const BodyId id : world.bodyIds()) {
        const BodyState b = world.body(id);
        if (verbose()) {
            std::fprintf(stderr, "body %u (%s)\n", unsigned(id.index), where);
            showBody(b);
        }
        requireFinite(b.position, where);
        requireFinite(b.centerOfMass, where);
        requireFinite(b.linearVelocity, where);
        requireFinite(b.angularVelocity, where);
        if (!isFinite(b.orientation) || std::abs(b.orientation.norm() - 1) > unitTolerance)
            finding("body orientation not a finite unit quaternion", where);
    }
    for (const ParticleId id : world.particleIds()) {
        const Particle p = world.particle(id);
        show("particle position", p.position);
        show("particle velocity", p.velocity);
        requireFinite(p.position, where);
        requireFinite(p.velocity, where);
    }
    for (const DeformableId id : world.deformableIds())
        for (const Vec3& v : world.deformableVertices(id)) {
            show("deformable vertex", v);
            requireFinite(v, where);
        }
}

/// A few steps at `dt` (clamped into the world's accepted range by the caller's
/// choice); a step may flag a blow-up with jounce::Error (the world is then restored),
/// which is fine; whatever it leaves must be finite.
inline void stepAndCheck(World& world, real dt, int substeps, int steps) {
    requireFiniteWorld(world, "before stepping");
    for (int i = 0; i < steps; ++i) {
        try {
            world.step(dt, substeps);
        } catch (const Error& e) {
            if (verbose()) std::fprintf(stderr, "step %d flagged: %s\n", i, e.what());
            requireFiniteWorld(world, "after a flagged step");
            return;
        }
        requireFiniteWorld(world, "after a step");
    }
}

} // namespace jounce::fuzz
