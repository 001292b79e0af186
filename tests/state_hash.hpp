// SPDX-License-Identifier: MIT
#pragma once
// The reliability suite's state hash (docs/reliability.md). Test-side only: it reads
// the world through the public API and is no part of the library, so a game never
// pays for it and the library never depends on how the tests compare worlds.
//
// FNV-1a (64 bit) over the raw bytes of the state that moves: equal hashes mean
// bit-identical worlds, so one integer says whether two runs (or two builds) agree.

#include <jounce/jounce.hpp>

#include <cstddef>
#include <cstdint>

namespace testing {

/// FNV-1a, 64 bit: xor each byte in, then multiply by the FNV prime. Cheap, and any
/// flipped bit of the input changes the result.
struct Fnv1a {
    std::uint64_t value = 14695981039346656037ull; ///< the offset basis
    void mix(const void* data, std::size_t n) {
        const auto* p = static_cast<const unsigned char*>(data);
        for (std::size_t i = 0; i < n; ++i) value = (value ^ p[i]) * 1099511628211ull;
    }
    void mix(const jounce::Vec3& v) { mix(v.data(), sizeof(jounce::real) * 3); }
    void mix(const jounce::Quat& q) { mix(q.coeffs().data(), sizeof(jounce::real) * 4); }
};

/// Every live body's position, orientation, linear and angular velocity (bodyIds()
/// order), every live particle's position and velocity (slot order), and every
/// deformable's particle positions and render vertices.
inline std::uint64_t motionHash(const jounce::World& world) {
    Fnv1a h;
    for (const jounce::BodyId id : world.bodyIds()) {
        const jounce::BodyState b = world.body(id);
        h.mix(b.centerOfMass); // the integrator's state: the centre of mass
        h.mix(b.orientation);
        h.mix(b.linearVelocity);
        h.mix(b.angularVelocity);
    }
    for (const jounce::ParticleId id : world.particleIds()) {
        const jounce::Particle p = world.particle(id);
        h.mix(p.position);
        h.mix(p.velocity);
    }
    for (const jounce::DeformableId id : world.deformableIds()) {
        for (const jounce::Vec3& x : world.deformable(id).position) h.mix(x);
        for (const jounce::Vec3& x : world.deformableVertices(id)) h.mix(x);
    }
    return h.value;
}

} // namespace testing
