// SPDX-License-Identifier: MIT
#pragma once
// Shared test helpers: precision-aware tolerances and a bitwise hash of world state.

#include "state_hash.hpp"

#include <jounce/jounce.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace testing {

using jounce::real;
constexpr bool isDouble = std::is_same_v<real, double>;

/// `inDouble` in double builds, `inFloat` in float builds.
constexpr real tol(double inDouble, double inFloat) { return static_cast<real>(isDouble ? inDouble : inFloat); }

/// FNV-1a over the world's whole state: the snapshot saveState writes, which holds every
/// member World::visitState declares (world.hpp), so a member added there is hashed here
/// with no edit. Equal hashes mean bit-identical worlds: objects, handles, warm-start
/// cache, sleep and event state, settings and step count. (motionHash, state_hash.hpp,
/// is the narrower hash of what moves, which the golden values pin.)
inline std::uint64_t stateHash(const jounce::World& world) {
    const std::vector<std::uint8_t> blob = world.saveState();
    Fnv1a fnv;
    fnv.mix(blob.data(), blob.size());
    return fnv.value;
}

/// Whether a world restored from `world`'s snapshot and `world` itself, both stepped
/// `steps` more steps of `h`, end bit-identical (stateHash).
inline bool stepsAsItsSnapshot(jounce::World& world, int steps, real h) {
    jounce::World copy;
    copy.restoreState(world.saveState());
    for (int i = 0; i < steps; ++i) {
        world.step(h);
        copy.step(h);
    }
    return stateHash(copy) == stateHash(world);
}

/// The period of a signal sampled every `step` seconds, from its upward crossings of its
/// mean (interpolated between samples) [s]; 0 with fewer than two crossings.
inline real periodOf(const std::vector<real>& x, real step) {
    real mean = 0;
    for (const real v : x) mean += v;
    mean /= static_cast<real>(x.size());
    std::vector<real> ups;
    for (std::size_t i = 1; i < x.size(); ++i)
        if (x[i - 1] < mean && x[i] >= mean) ups.push_back(static_cast<real>(i - 1) + (mean - x[i - 1]) / (x[i] - x[i - 1]));
    if (ups.size() < 2) return 0;
    return (ups.back() - ups.front()) / static_cast<real>(ups.size() - 1) * step;
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

/// Under ASan/UBSan (the second build of ./jounce test) long scene runs take this share of
/// their steps: the figures are still asserted, on a shorter run, and the full runs are
/// asserted by the other build (double, gcc).
#ifdef JOUNCE_SANITIZED
inline constexpr int sanitizedStepDivisor = 5;
#else
inline constexpr int sanitizedStepDivisor = 1;
#endif

/// Round-off for exact geometric answers: 1e-12 in double, 1e-5 in float.
inline const real eps = tol(1e-12, 1e-5);

/// The largest distance between a joint's two anchors (a = b's point) over the world's joints [m].
inline real worstJointGap(const jounce::World& w) {
    real worst = 0;
    for (const jounce::JointId id : w.jointIds()) {
        const jounce::JointDesc& d = w.joint(id).desc;
        const jounce::Vec3 a = w.body(d.a.body).transform().toWorld(d.a.point);
        const jounce::Vec3 b = d.b.body.isNull() ? d.b.point : w.body(d.b.body).transform().toWorld(d.b.point);
        worst = std::max(worst, (a - b).norm());
    }
    return worst;
}

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

/// A joint motion with limits on its coordinate and nothing else.
inline jounce::JointMotion limitedTo(real lower, real upper) {
    jounce::JointMotion m;
    m.limited = true;
    m.lower = lower;
    m.upper = upper;
    return m;
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

/// Settings for the soft step (the default solver, named: these tests are about it), with
/// sleep on or off.
inline jounce::WorldSettings softSettings(bool sleep = true) {
    jounce::WorldSettings s;
    s.resolver.solver = jounce::ContactSolver::SoftStep;
    s.sleep.enabled = sleep;
    return s;
}

/// Switches a world to Millington's resolver (the default is the soft step): for tests of
/// the resolver's own behaviour and of the book's once-per-step integration.
inline void useResolver(jounce::World& w) {
    jounce::WorldSettings s = w.settings();
    s.resolver.solver = jounce::ContactSolver::Resolver;
    w.setSettings(s);
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

/// A static body of one triangle mesh (makeTriangleMesh's corners and counter-clockwise triangles).
inline jounce::BodyId addStaticMesh(jounce::World& w, const std::vector<jounce::Vec3>& vertices,
                                    const std::vector<std::array<std::uint32_t, 3>>& triangles) {
    jounce::BodyDesc d;
    d.type = jounce::BodyType::Static;
    d.colliders.push_back(jounce::makeCollider(jounce::makeTriangleMesh(vertices, triangles), 1000));
    return w.createBody(d);
}

} // namespace testing
