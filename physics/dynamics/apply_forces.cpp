// SPDX-License-Identifier: MIT
// Stage 1 of the step: accumulate forces and torques (Millington 10.3).

#include "physics/dynamics/stages.hpp"

#include "common/parallel.hpp"

#include <type_traits>

namespace jounce::detail {
namespace {

bool receivesForces(const Body& b) { return b.isDynamic() && b.awake; }

void addForceAt(Body& b, const Vec3& force, const Vec3& worldPoint) {
    b.forceAccum += force;
    b.torqueAccum += (worldPoint - b.position).cross(force);
}

/// World point and velocity of one end of a spring.
struct EndState {
    Body* body = nullptr; // null for a world anchor
    Vec3 point;
    Vec3 velocity;
};

EndState endState(BodyArray& bodies, const Attachment& a) {
    if (a.body.isNull()) return {nullptr, a.point, Vec3::Zero()};
    Body& b = bodies[a.body];
    const Vec3 p = b.origin().toWorld(a.point); // attachment points are in the body-origin frame
    return {&b, p, b.velocityAt(p)};
}

template <typename Law> void applyTwoEnded(BodyArray& bodies, const Attachment& a, const Attachment& b, Law law) {
    const EndState ea = endState(bodies, a);
    const EndState eb = endState(bodies, b);
    const Vec3 f = law(ea.point, eb.point, ea.velocity, eb.velocity);
    if (ea.body && receivesForces(*ea.body)) addForceAt(*ea.body, f, ea.point);
    if (eb.body && receivesForces(*eb.body)) addForceAt(*eb.body, -f, eb.point);
}

struct Evaluate {
    BodyArray& bodies;
    const StepContext& ctx;

    void operator()(const GravityForce& g) const {
        Body& b = bodies[g.body];
        if (receivesForces(b)) b.forceAccum += g.acceleration / b.inverseMass;
    }
    void operator()(const Spring& s) const {
        applyTwoEnded(bodies, s.a, s.b, [&](const Vec3& pa, const Vec3& pb, const Vec3& va, const Vec3& vb) {
            return springForce(pa, pb, va, vb, s.stiffness, s.restLength, s.damping);
        });
    }
    void operator()(const Bungee& s) const {
        applyTwoEnded(bodies, s.a, s.b, [&](const Vec3& pa, const Vec3& pb, const Vec3& va, const Vec3& vb) {
            return bungeeForce(pa, pb, va, vb, s.stiffness, s.restLength, s.damping);
        });
    }
    void operator()(const Buoyancy& by) const {
        Body& b = bodies[by.body];
        if (!receivesForces(b)) return;
        const Vec3 p = b.origin().toWorld(by.centreOfBuoyancy);
        addForceAt(b, buoyancyForce(p.y(), by, ctx.gravity), p);
    }
    void operator()(const Aero& a) const {
        Body& b = bodies[a.body];
        if (!receivesForces(b)) return;
        const Vec3 p = b.origin().toWorld(a.point);
        const Vec3 air = b.transform().directionToLocal(a.wind - b.velocityAt(p));
        addForceAt(b, b.transform().directionToWorld(aeroTensor(a) * air), p);
    }
    void operator()(const Drag& d) const {
        Body& b = bodies[d.body];
        if (receivesForces(b)) b.forceAccum += dragForce(b.linearVelocity, d.k1, d.k2);
    }
    void operator()(const FakeSpring& s) const {
        Body& b = bodies[s.body];
        if (!receivesForces(b)) return;
        const real mass = 1 / b.inverseMass;
        // Where the damped oscillator would be after h (seeds/003 eq. 6.4 with damping,
        // solved with the mass and for every regime), and the force that lands us there.
        const Vec3 target = s.anchor + dampedOscillatorPosition(b.position - s.anchor, b.linearVelocity,
                                                                s.stiffness, s.damping, mass, ctx.h);
        b.forceAccum += forceToReach(b.position, b.linearVelocity, target, mass, ctx.h);
    }
};

} // namespace

void applyForces(BodyArray& bodies, const GeneratorArray& generators, const StepContext& ctx, TaskSystem* tasks) {
    // Each body's own forces on the workers (each writes only its body; with the default
    // pool mostly the bodies the same worker placed at the end of the last substep, still
    // in its cache), then the generators in order on this thread (one may push several
    // bodies).
    parallelFor(tasks, static_cast<std::uint32_t>(bodies.slotCount()), bodiesPerRange, [&](std::uint32_t first, std::uint32_t last) {
        for (std::uint32_t i = first; i < last; ++i) {
            if (!bodies.isAlive(i)) continue;
            Body& b = bodies.atSlot(i);
            if (receivesForces(b)) {
                b.forceAccum = b.userForce + ctx.gravity * (b.gravityScale / b.inverseMass);
                b.torqueAccum = b.userTorque;
            } else {
                b.forceAccum.setZero();
                b.torqueAccum.setZero();
            }
        }
    });
    const Evaluate evaluate{bodies, ctx};
    for (std::size_t i = 0; i < generators.slotCount(); ++i)
        if (generators.isAlive(i)) std::visit(evaluate, generators.atSlot(i));
}

} // namespace jounce::detail
