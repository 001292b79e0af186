// SPDX-License-Identifier: MIT
/// \file vehicle.cpp
/// The ray-cast vehicle (docs/vehicle.md): each frame, each wheel's ray finds the
/// ground and its spring and damper push the chassis up (Bullet's btRaycastVehicle's
/// suspension); then the tyres' friction, solved on a copy of the chassis's velocities
/// a few sweeps over the wheels (Gauss-Seidel, each wheel's impulse kept within mu times
/// its load), carries the drive, the brakes and the grip across the wheels.

#include <jounce/vehicle/vehicle.hpp>

#include "common/guard.hpp"
#include "common/validate.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

namespace jounce {

namespace {

void validate(const World& world, const VehicleDesc& d) {
    if (!world.contains(d.chassis)) throw Error("VehicleDesc.chassis", "", "not a live body of this world");
    if (!world.body(d.chassis).isDynamic()) throw Error("VehicleDesc.chassis", "", "must be a dynamic body");
    if (d.wheels.empty() || d.wheels.size() > 16)
        throw Error("VehicleDesc.wheels", std::to_string(d.wheels.size()), "must hold 1 to 16 wheels");
    for (std::size_t k = 0; k < d.wheels.size(); ++k) {
        const WheelDesc& w = d.wheels[k];
        const std::string at = "VehicleDesc.wheels[" + std::to_string(k) + "].";
        detail::requirePoint(w.mount, (at + "mount").c_str());
        detail::requireWithin(w.down, detail::maxCoordinate, "maxCoordinate", (at + "down").c_str());
        detail::requireWithin(w.axle, detail::maxCoordinate, "maxCoordinate", (at + "axle").c_str());
        if (!(w.down.norm() > real(1e-6))) throw Error(at + "down", "0", "must not be zero");
        if (!(w.axle.cross(w.down).norm() > real(1e-3) * w.axle.norm() * w.down.norm()))
            throw Error(at + "axle", "", "must be across down (not along it, not zero)");
        detail::requireExtent(w.radius, (at + "radius").c_str());
        detail::requireExtent(w.restLength, (at + "restLength").c_str());
        detail::requirePositive(w.stiffness, (at + "stiffness").c_str());
        if (w.stiffness > detail::maxStiffness) throw Error(at + "stiffness", toText(w.stiffness), "must be at most maxStiffness");
        detail::requireNonNegative(w.damping, (at + "damping").c_str());
        if (w.damping > detail::maxStiffness) throw Error(at + "damping", toText(w.damping), "must be at most maxStiffness");
        detail::requireNonNegative(w.friction, (at + "friction").c_str());
        if (w.friction > 100) throw Error(at + "friction", toText(w.friction), "must be at most 100");
    }
    detail::requireNonNegative(d.engineTorque, "VehicleDesc.engineTorque");
    detail::requireNonNegative(d.brakeTorque, "VehicleDesc.brakeTorque");
    if (d.engineTorque > detail::maxLoad) throw Error("VehicleDesc.engineTorque", toText(d.engineTorque), "must be at most maxLoad");
    if (d.brakeTorque > detail::maxLoad) throw Error("VehicleDesc.brakeTorque", toText(d.brakeTorque), "must be at most maxLoad");
    detail::requireFinite(d.maxSteer, "VehicleDesc.maxSteer");
    if (!(d.maxSteer >= 0 && d.maxSteer < std::numbers::pi_v<real> / 2))
        throw Error("VehicleDesc.maxSteer", toText(d.maxSteer), "must be in [0, pi/2) [rad]");
}

void requireUnitRange(real x, real lo, const char* field) {
    detail::requireFinite(x, field);
    if (x < lo || x > 1) throw Error(field, toText(x), lo < 0 ? "must be in [-1, 1]" : "must be in [0, 1]");
}

/// The chassis's velocities, changed by the tyres' impulses as the sweeps go.
struct ChassisMotion {
    Vec3 v, w, centre;
    real inverseMass;
    Mat3 inverseInertia; ///< world frame
    Vec3 at(const Vec3& p) const { return v + w.cross(p - centre); }
    void apply(const Vec3& j, const Vec3& p) {
        v += j * inverseMass;
        w += inverseInertia * (p - centre).cross(j);
    }
    real massAlong(const Vec3& p, const Vec3& d) const {
        const Vec3 rd = (p - centre).cross(d);
        const real k = inverseMass + rd.dot(inverseInertia * rd);
        return k > 0 ? 1 / k : 0;
    }
};

/// An impulse the update gives a body when it commits.
struct WheelKick {
    BodyId body{};
    Vec3 impulse = Vec3::Zero();
    Vec3 point = Vec3::Zero();
};

/// What World::applyImpulse accepts: a finite impulse within maxLoad whose change of
/// velocity stays within maxSpeed (its check, made here first).
bool fits(const BodyState& b, const Vec3& j, const Vec3& p) {
    if (!isFinite(j) || j.cwiseAbs().maxCoeff() > detail::maxLoad) return false;
    using Wide = long double;
    const Mat3 r = b.orientation.toRotationMatrix();
    const Wide linear = static_cast<Wide>(j.cwiseAbs().maxCoeff()) * b.inverseMass;
    const Wide angular = 3 * static_cast<Wide>((r * b.inverseInertia * r.transpose()).cwiseAbs().maxCoeff()) *
                         static_cast<Wide>((p - b.position).cross(j).cwiseAbs().maxCoeff());
    return linear <= detail::maxSpeed && angular <= detail::maxSpeed;
}

/// The share of a wheel's impulse a dynamic ground takes back: all of it, unless that
/// would fling a feather-light body faster than a tenth of maxSpeed.
real reactionShare(const BodyState& g, const Vec3& j, const Vec3& p) {
    real share = 1;
    for (int halve = 0; halve < 200 && !fits(g, j * (share * 10), p); ++halve) share /= 2;
    return share;
}

/// One touching wheel's tyre, as the friction sweeps see it.
struct Tyre {
    std::size_t wheel = 0;
    Vec3 point, forward, side, groundVelocity;
    real limit = 0;       ///< mu times the load over the frame [N s]
    real drive = 0;       ///< the engine's impulse along forward [N s]
    real brake = 0;       ///< the most the brake may resist [N s]
    real resist = 0;      ///< the brake's impulse so far [N s]
    real along = 0, across = 0; ///< the impulses so far [N s]
};

} // namespace

Vehicle::Vehicle(const World& world, const VehicleDesc& desc) : desc_(desc) {
    bool valid = false;
    detail::guarded(world.errorHandler(), [&] {
        validate(world, desc);
        valid = true;
    });
    if (!valid) desc_.wheels.clear(); // (an error handler that returns: a vehicle without wheels, valid() false)
    wheels_.resize(desc_.wheels.size());
    for (std::size_t k = 0; k < wheels_.size(); ++k) wheels_[k].length = desc_.wheels[k].restLength;
}

void Vehicle::update(World& world, real dt, const VehicleInput& input) { detail::guarded(world.errorHandler(), [&] {
    detail::requireFinite(dt, "update.dt");
    if (!(dt > 0 && dt <= 1)) throw Error("update.dt", toText(dt), "must be in (0, 1] [s]");
    requireUnitRange(input.throttle, -1, "update.input.throttle");
    requireUnitRange(input.brake, 0, "update.input.brake");
    requireUnitRange(input.steer, -1, "update.input.steer");
    if (!world.contains(desc_.chassis)) throw Error("update.world", "", "the vehicle's chassis is not in this world (destroyed?)");
    const BodyState body = world.body(desc_.chassis);
    const Transform pose = body.transform();
    const Mat3 turn = body.orientation.toRotationMatrix();
    ChassisMotion chassis{body.linearVelocity, body.angularVelocity, body.centerOfMass, body.inverseMass,
                          turn * body.inverseInertia * turn.transpose()};

    std::vector<WheelState> next(desc_.wheels.size());
    std::vector<std::pair<std::size_t, Vec3>> springs; // wheel, impulse on the chassis at its contact
    std::vector<Tyre> tyres;
    const auto driven = static_cast<real>(std::count_if(desc_.wheels.begin(), desc_.wheels.end(), [](const WheelDesc& w) { return w.driven; }));

    // 1. Rays and springs.
    for (std::size_t k = 0; k < desc_.wheels.size(); ++k) {
        const WheelDesc& w = desc_.wheels[k];
        WheelState& s = next[k];
        s.steer = w.steered ? input.steer * desc_.maxSteer : 0;
        s.angle = wheels_[k].angle;
        const Vec3 down = pose.directionToWorld(w.down.normalized());
        const Vec3 mount = pose.toWorld(w.mount);
        const real reach = w.restLength + w.radius;
        s.length = w.restLength;
        std::optional<World::RayHit> hit;
        for (const World::RayHit& h : world.rayCastAll(mount, mount + down * reach, desc_.mask))
            if (h.body != desc_.chassis && !world.collider(h.collider).sensor) {
                hit = h;
                break;
            }
        // A wheel whose suspension leans more than 60 degrees from the ground's normal
        // (a car on its side) carries nothing: its spring would push along the ground.
        if (!hit || -down.dot(hit->normal) < real(0.5)) continue;
        s.touching = true;
        s.ground = hit->body;
        s.contact = hit->point;
        s.normal = hit->normal;
        s.length = std::max(real(0), hit->fraction * reach - w.radius);
        const BodyState ground = world.body(hit->body);
        const Vec3 groundVelocity = ground.velocityAt(hit->point);
        // Hooke's spring on the compression and a damper on its rate, pushing only. The
        // rate is the length's change since the last update (a wheel that just touched:
        // the chassis's speed toward the ground), not the chassis's velocity, which
        // after a step holds part of that step's gravity even at rest.
        const real closing = wheels_[k].touching ? (wheels_[k].length - s.length) / dt
                                                 : (chassis.at(hit->point) - groundVelocity).dot(down);
        s.load = std::max(real(0), w.stiffness * (w.restLength - s.length) + w.damping * closing);
        springs.emplace_back(k, hit->normal * (s.load * dt));
        chassis.apply(hit->normal * (s.load * dt), hit->point);

        // The tyre's frame on the ground: its axle turned by the steer about the
        // chassis's up, the forward across it in the ground's plane.
        const Vec3 up = -down;
        const Vec3 axle = Quat(Eigen::AngleAxis<real>(s.steer, up)) * pose.directionToWorld(w.axle.normalized());
        Vec3 forward = axle.cross(hit->normal);
        if (forward.norm() < real(1e-6)) continue; // the axle along the normal: no grip
        forward.normalize();
        Tyre t;
        t.wheel = k;
        t.point = hit->point;
        t.forward = forward;
        t.side = hit->normal.cross(forward);
        t.groundVelocity = groundVelocity;
        t.limit = w.friction * s.load * dt;
        if (w.driven && driven > 0) t.drive = input.throttle * desc_.engineTorque / driven / w.radius * dt;
        t.brake = input.brake * desc_.brakeTorque / w.radius * dt;
        tyres.push_back(t);
    }

    // 2. The tyres: sweeps over the wheels on the chassis's velocities, with the share
    // of the coming step's gravity that moves the chassis in it: the tyres' impulse
    // comes at the step's start, gravity through its n substeps (semi-implicit: the
    // position moves by v dt + g dt^2 (n + 1) / (2 n)), so holding v + g dt (n + 1) / (2 n)
    // at zero keeps a braked car still on a slope (without gravity a car parked on 15
    // degrees crept 13 cm in 5 s; with all of it 8 cm, with half 2.6 cm). Across, the grip
    // stops sliding; along, a braking wheel resists rolling up to its brake, a driven one
    // pushes with its torque over its radius; both within mu times the load.
    const ResolverSettings& solver = world.settings().resolver;
    const real n = solver.solver == ContactSolver::SoftStep ? static_cast<real>(solver.soft.substeps) : 1;
    chassis.v += world.settings().gravity * (body.gravityScale * dt * (n + 1) / (2 * n));
    for (int sweep = 0; sweep < 4; ++sweep) {
        for (Tyre& t : tyres) {
            const Vec3 slip = chassis.at(t.point) - t.groundVelocity;
            real across = t.across - chassis.massAlong(t.point, t.side) * slip.dot(t.side);
            // The drive pushes; the brake resists the wheel's rolling on top of it.
            if (t.brake > 0) t.resist = std::clamp(t.resist - chassis.massAlong(t.point, t.forward) * slip.dot(t.forward), -t.brake, t.brake);
            real along = t.drive + t.resist;
            const real total = std::hypot(along, across);
            if (total > t.limit) {
                along *= t.limit / total;
                across *= t.limit / total;
            }
            chassis.apply(t.side * (across - t.across) + t.forward * (along - t.along), t.point);
            t.along = along;
            t.across = across;
        }
    }

    // Commit: the springs' and tyres' impulses on the chassis, and the opposite on a
    // dynamic ground (no more than a light ground body can take: World::applyImpulse
    // refuses a change of velocity beyond maxSpeed). Every impulse is checked before
    // any is applied: an error leaves the world as it was.
    std::vector<WheelKick> kicks;
    const auto push = [&](std::size_t k, const Vec3& j, const Vec3& p) {
        kicks.push_back({desc_.chassis, j, p});
        const BodyState g = world.body(next[k].ground);
        if (g.isDynamic()) kicks.push_back({next[k].ground, -j * reactionShare(g, j, p), p});
    };
    for (const auto& [k, j] : springs) push(k, j, next[k].contact);
    for (const Tyre& t : tyres) {
        const Vec3 j = t.side * t.across + t.forward * t.along;
        next[t.wheel].tyreImpulse = j;
        push(t.wheel, j, t.point);
        next[t.wheel].spin = (chassis.at(t.point) - t.groundVelocity).dot(t.forward) / desc_.wheels[t.wheel].radius;
        if (t.brake > 0 && std::abs(t.resist) >= t.brake) next[t.wheel].spin = 0; // locked
    }
    for (const WheelKick& k : kicks)
        if (!fits(world.body(k.body), k.impulse, k.point))
            throw Error("update", toText(k.impulse.norm()), "an impulse the chassis cannot take (its velocity would change by more than maxSpeed): lower the wheels' stiffness or damping");
    for (const WheelKick& k : kicks) world.applyImpulse(k.body, k.impulse, k.point);
    for (std::size_t k = 0; k < next.size(); ++k) {
        if (!next[k].touching) next[k].spin = wheels_[k].spin;
        next[k].angle = std::remainder(wheels_[k].angle + next[k].spin * dt, 2 * std::numbers::pi_v<real>);
    }
    wheels_ = std::move(next);
}); }

Transform Vehicle::wheelPose(const World& world, std::size_t k) const { return detail::guarded(world.errorHandler(), [&] {
    if (k >= desc_.wheels.size()) throw Error("wheelPose.wheel", std::to_string(k), "must name one of the vehicle's " + std::to_string(desc_.wheels.size()) + " wheels");
    if (!world.contains(desc_.chassis)) throw Error("wheelPose.world", "", "the vehicle's chassis is not in this world (destroyed?)");
    const WheelDesc& w = desc_.wheels[k];
    const WheelState& s = wheels_[k];
    const Transform pose = world.body(desc_.chassis).transform();
    const Vec3 down = w.down.normalized();
    // In the chassis's frame: x onto the axle, turned by the steer about up, rolled about
    // the axle; then the chassis's turn (so the roll's reference turns with the car).
    const Quat steer(Eigen::AngleAxis<real>(s.steer, -down));
    const Quat toAxle = Quat::FromTwoVectors(Vec3::UnitX(), w.axle.normalized());
    const Quat roll(Eigen::AngleAxis<real>(s.angle, Vec3::UnitX()));
    return Transform{pose.toWorld(w.mount + down * s.length), (pose.orientation * steer * toAxle * roll).normalized()};
}); }

} // namespace jounce
