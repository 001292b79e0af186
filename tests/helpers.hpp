#pragma once
// Shared test helpers: precision-aware tolerances and a bitwise hash of world state.

#include "state_hash.hpp"

#include <jounce/jounce.hpp>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace testing {

using jounce::real;
constexpr bool isDouble = std::is_same_v<real, double>;

/// `inDouble` in double builds, `inFloat` in float builds.
constexpr real tol(double inDouble, double inFloat) { return static_cast<real>(isDouble ? inDouble : inFloat); }

/// FNV-1a over the bytes of every live body's state, in handle order. Equal hashes
/// mean bit-identical positions, orientations, velocities and accumulators.
inline std::uint64_t stateHash(const jounce::World& world) {
    Fnv1a fnv;
    auto mix = [&fnv](const void* data, std::size_t n) { fnv.mix(data, n); };
    for (const jounce::BodyId id : world.bodyIds()) {
        const jounce::BodyState b = world.body(id);
        mix(&id, sizeof id);
        mix(b.centerOfMass.data(), sizeof(real) * 3);
        mix(b.orientation.coeffs().data(), sizeof(real) * 4);
        mix(b.linearVelocity.data(), sizeof(real) * 3);
        mix(b.angularVelocity.data(), sizeof(real) * 3);
        mix(&b.inverseMass, sizeof(real));
        mix(b.inertia.data(), sizeof(real) * 9);
        mix(&b.linearDamping, sizeof(real));
        mix(&b.angularDamping, sizeof(real));
        mix(&b.gravityScale, sizeof(real));
        mix(&b.awake, sizeof(bool));
        mix(&b.userData, sizeof b.userData);
    }
    // Particles: every slot's position and velocity, in slot order.
    const jounce::ParticleSystem& ps = world.particles();
    for (std::size_t i = 0; i < ps.slotCount(); ++i) {
        if (!ps.isAlive(i)) continue;
        mix(&i, sizeof i);
        mix(ps.x[i].data(), sizeof(real) * 3);
        mix(ps.v[i].data(), sizeof(real) * 3);
    }
    // Deformables: every particle's pose and velocities.
    for (const jounce::DeformableId id : world.deformableIds()) {
        const jounce::Deformable& d = world.deformable(id);
        mix(&id, sizeof id);
        for (std::size_t i = 0; i < d.size(); ++i) {
            mix(d.position[i].data(), sizeof(real) * 3);
            mix(d.velocity[i].data(), sizeof(real) * 3);
            mix(d.rotation[i].data(), sizeof(real) * 9);
            mix(d.angularVelocity[i].data(), sizeof(real) * 3);
        }
        mix(&d.asleep, sizeof d.asleep);
    }
    const auto generators = world.forceGeneratorIds();
    const std::size_t n = generators.size();
    mix(&n, sizeof n);
    for (const auto id : generators) mix(&id, sizeof id);
    const auto step = world.stepCount();
    mix(&step, sizeof step);
    const auto& s = world.settings();
    mix(s.gravity.data(), sizeof(real) * 3);
    return fnv.value;
}

/// A small deterministic generator (Knuth's MMIX LCG): uniform() in [-1, 1).
struct Lcg {
    std::uint64_t state;
    explicit Lcg(std::uint64_t seed) : state(seed) {}
    real uniform() {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<real>((state >> 11) * (1.0 / 9007199254740992.0)) * 2 - 1;
    }
};

/// Under ASan/UBSan (the third build of ./jounce test) long scene runs take this share of
/// their steps: the figures are still asserted, on a shorter run, and the full runs are
/// asserted by the other two builds.
#ifdef JOUNCE_SANITIZED
inline constexpr int sanitizedStepDivisor = 5;
#else
inline constexpr int sanitizedStepDivisor = 1;
#endif

/// Round-off for exact geometric answers: 1e-12 in double, 1e-5 in float.
inline const real eps = tol(1e-12, 1e-5);

/// A pose, and a turn by `angle` radians about `axis` (any length).
/// Kinetic (linear and rotational) plus gravitational potential energy, potential 0 at
/// y = 0, of the dynamic bodies [J].
inline real bodyEnergy(const jounce::World& w) {
    const jounce::Vec3 g = w.settings().gravity;
    real e = 0;
    for (const jounce::BodyId id : w.bodyIds()) {
        const jounce::BodyState b = w.body(id);
        if (!b.isDynamic()) continue;
        const real m = 1 / b.inverseMass;
        const jounce::Vec3 spin = b.orientation.conjugate() * b.angularVelocity; // body frame
        e += real(0.5) * m * b.linearVelocity.squaredNorm() + real(0.5) * spin.dot(b.inertia * spin) -
             m * b.gravityScale * g.dot(b.centerOfMass);
    }
    return e;
}

inline jounce::Transform at(const jounce::Vec3& p, const jounce::Quat& q = jounce::Quat::Identity()) { return {p, q}; }
inline jounce::Quat turn(real angle, const jounce::Vec3& axis) {
    return jounce::Quat(Eigen::AngleAxis<real>(angle, axis.normalized()));
}

/// A box collider of 1000 kg/m^3 with friction 0.5 and no restitution.
inline jounce::ColliderDesc boxCollider(const jounce::Vec3& halfExtents) {
    return jounce::ColliderDesc{jounce::Box{halfExtents}, jounce::Transform{}, 1000, jounce::Material{real(0.5), 0},
                                jounce::CollisionFilter{}};
}

/// A dynamic body with the mass properties of a solid box.
inline jounce::BodyDesc boxDesc(const jounce::Vec3& halfExtents, real density, const jounce::Vec3& at = jounce::Vec3::Zero()) {
    jounce::BodyDesc d;
    const jounce::MassProperties mp = jounce::solidBox(halfExtents, density);
    d.mass = mp.mass;
    d.inertia = mp.inertia;
    d.position = at;
    return d;
}

inline jounce::World worldWithoutGravity() {
    jounce::WorldSettings s;
    s.gravity.setZero();
    return jounce::World(s);
}

/// A particle of the given mass at `at` (pinned: inverse mass 0) in collision group
/// `group` (1 by default: test particles of one test do not collide with each other).
inline jounce::ParticleId addParticle(jounce::World& w, const jounce::Vec3& at, real mass, bool pinned = false,
                                      std::uint32_t group = 1) {
    jounce::ParticleDesc d;
    d.position = at;
    d.mass = mass;
    d.pinned = pinned;
    d.group = group;
    return w.createParticle(d);
}

/// A static 40 m x 40 m slab whose top is y = 0, with the given friction.
inline jounce::BodyId addGround(jounce::World& w, real friction = real(0.6)) {
    jounce::BodyDesc d;
    d.type = jounce::BodyType::Static;
    d.position = jounce::Vec3(0, real(-0.5), 0);
    jounce::ColliderDesc c;
    c.shape = jounce::Box{jounce::Vec3(20, real(0.5), 20)};
    c.material.friction = friction;
    d.colliders.push_back(c);
    return w.createBody(d);
}

} // namespace testing
