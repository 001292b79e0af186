// SPDX-License-Identifier: MIT
/// \file move_character.cpp
/// One update of the character mover (docs/character.md, "One update"):
///  1. the pushes its body took in the last step become velocity (momentum / mass);
///  2. the platform it stands on carries it (its feet kept where they were on it);
///  3. collide and slide: gather the planes it touches, solve for the nearest clear
///     move, sweep the core there; five rounds at most (Box2D v3's mover loop);
///  4. blocked by something steep while on the ground: try the same walk a stair higher;
///  5. the ground under it: walkable within maxSlope, or snapped down to it;
///  6. dynamic bodies it walked into are pushed (at most maxPushForce), the one it stands
///     on carries its weight; its velocity loses what the planes stopped;
///  7. its kinematic body is aimed at the new place for the next World::step.

#include "physics/character/stages.hpp"

#include "common/guard.hpp"
#include "common/validate.hpp"

#include <algorithm>
#include <cmath>

namespace jounce {

namespace {

using detail::CharacterShape;

/// What one collide-and-slide left: where the feet ended, and the planes (with the
/// contacts they came from) that pushed on the way.
struct Slide {
    Vec3 feet = Vec3::Zero();
    std::vector<CharacterPlane> planes;
    std::vector<CharacterContact> touched;
};

class Mover {
public:
    Mover(const World& world, const CharacterDesc& desc, BodyId self, const CharacterShape& shape)
        : world_(world), desc_(desc), self_(self), shape_(shape), margin_(2 * desc.encroach),
          minUp_(std::cos(desc.maxSlope)) {}

    /// Step 3: collide and slide from `feet` by `delta`.
    Slide slide(const Vec3& feet, const Vec3& delta) const {
        Slide out;
        out.feet = feet;
        const Vec3 target = feet + delta;
        for (int round = 0; round < 5; ++round) {
            const std::vector<CharacterContact> contacts = contactsAt(out.feet);
            std::vector<CharacterPlane> planes;
            std::vector<std::size_t> from; // the contact each plane came from
            for (std::size_t k = 0; k < contacts.size(); ++k) addPlanes(contacts[k], k, planes, from);
            const Vec3 move = solvePlanes(target - out.feet, planes);
            for (std::size_t k = 0; k < planes.size(); ++k) {
                if (planes[k].push <= 0) continue;
                out.planes.push_back(planes[k]);
                out.touched.push_back(contacts[from[k]]);
            }
            const detail::CharacterSweep sweep = detail::sweepCharacter(world_, desc_, self_, shape_, out.feet, move);
            const Vec3 step = sweep.nudge + sweep.fraction * move;
            out.feet += step;
            if (step.squaredNorm() < real(1e-8)) break;
        }
        return out;
    }

    /// Step 5: the walkable ground within the margin under the feet, if any.
    std::optional<CharacterContact> ground(const Vec3& feet, Vec3& surface) const {
        std::optional<CharacterContact> best;
        for (const CharacterContact& c : contactsAt(feet)) {
            Vec3 s;
            if (c.separation > margin_ || !detail::walkableContact(world_, desc_, shape_, feet, c, s)) continue;
            // The surface it rests on: the nearest (a floor 3 cm below a stair's edge it
            // stands on is not), the most upright of equals.
            const bool nearer = best && c.separation < best->separation - real(1e-4);
            const bool level = best && c.separation < best->separation + real(1e-4) && s.dot(shape_.up) > surface.dot(shape_.up);
            if (!best || nearer || level) {
                best = c;
                surface = s;
            }
        }
        return best;
    }

    /// Sweeps the core by `delta` and settles it out of what it sank into.
    Vec3 sweepAndSettle(const Vec3& feet, const Vec3& delta, bool& hit) const {
        const detail::CharacterSweep sweep = detail::sweepCharacter(world_, desc_, self_, shape_, feet, delta);
        hit = sweep.hit.has_value();
        return slide(feet + sweep.nudge + sweep.fraction * delta, Vec3::Zero()).feet;
    }

    /// Whether something too steep to walk on stopped the slide (a wall, a riser, a
    /// steep slope; not a walkable ramp, which the slide climbs by itself).
    bool blockedBySteep(const Slide& s) const {
        return std::any_of(s.planes.begin(), s.planes.end(), [&](const CharacterPlane& p) { return p.normal.dot(shape_.up) < minUp_; });
    }

    /// Step 4: the walk `walk` from `start` a stair higher, if that gets the feet
    /// farther along it onto walkable ground above `start`.
    std::optional<Vec3> stepUp(const Vec3& start, const Vec3& walk, const Vec3& reached) const {
        const Vec3 rise = shape_.up * desc_.stepHeight;
        const detail::CharacterSweep up = detail::sweepCharacter(world_, desc_, self_, shape_, start, rise);
        const Vec3 raised = start + up.nudge + up.fraction * rise;
        const Slide across = slide(raised, walk);
        const real lift = (raised - start).dot(shape_.up);
        bool hit = false;
        const Vec3 landed = sweepAndSettle(across.feet, -shape_.up * (lift + desc_.encroach), hit);
        Vec3 surface;
        if (!hit || !ground(landed, surface)) return std::nullopt;
        const Vec3 along = walk.normalized();
        const bool higher = (landed - start).dot(shape_.up) > real(1e-3);
        const bool farther = (landed - start).dot(along) > (reached - start).dot(along) + real(1e-3);
        if (!higher || !farther) return std::nullopt;
        return landed;
    }

private:
    std::vector<CharacterContact> contactsAt(const Vec3& feet) const {
        return detail::gatherCharacterContacts(world_, desc_, self_, shape_, feet, margin_);
    }

    /// The contact's plane; for a contact too steep to walk on (a steep slope, or a
    /// stair's edge: stairs are climbed by stepUp), also a wall across it (its normal
    /// laid flat, touching where the contact is), so walking into it does not climb it
    /// while falling still slides down it.
    void addPlanes(const CharacterContact& c, std::size_t k, std::vector<CharacterPlane>& planes,
                   std::vector<std::size_t>& from) const {
        planes.push_back({c.normal, c.separation});
        from.push_back(k);
        const real upward = c.normal.dot(shape_.up);
        if (upward <= real(0.05) || upward >= minUp_) return;
        const Vec3 flat = c.normal - shape_.up * upward;
        const real length = flat.norm();
        if (length < real(1e-6)) return; // (maxSlope ~0: an upright normal a hair off)
        // Sunk into it, the wall holds the character where it is across it rather than
        // pushing it back: the contact's own plane pushes it out, along its normal.
        planes.push_back({flat / length, std::max(real(0), c.separation / length)});
        from.push_back(k);
    }

    const World& world_;
    const CharacterDesc& desc_;
    BodyId self_;
    const CharacterShape& shape_;
    real margin_;
    real minUp_;
};

/// Step 1: the impulse the step put on the character's body (every solved contact
/// point's normal impulse, taken in its substeps and bounces), as a world vector [N s].
/// World::resolvedContacts holds the last substep's contacts: a world stepped in
/// several substeps (step(dt, n)) shows the last one's pushes only.
Vec3 impulseOn(const World& world, BodyId body) {
    Vec3 total = Vec3::Zero();
    for (const Contact& c : world.resolvedContacts()) {
        const real j = c.accumulatedImpulse.x() + c.bounceImpulse.x();
        if (c.body[0] == body.index) total += c.normal * j; // the normal points toward body 0
        else if (c.body[1] == body.index) total -= c.normal * j;
    }
    return total;
}

/// The mass a body shows to an impulse along `n` at `point` (1 / (1/m + (r x n) I^-1 (r x n))).
real effectiveMass(const BodyState& b, const Vec3& point, const Vec3& n) {
    const Vec3 rn = (point - b.centerOfMass).cross(n);
    const Mat3 r = b.orientation.toRotationMatrix();
    const real w = b.inverseMass * b.locks.linearShare(n) + rn.dot(r * b.inverseInertia * r.transpose() * rn);
    return w > 0 ? 1 / w : 0;
}

/// At most `j` along unit `n` at `point`, and no more than changes the body's velocity
/// by a tenth of maxSpeed (World::applyImpulse refuses more: a feather-light box under
/// an 80 kg character would otherwise stop the update halfway).
real boundedImpulse(const BodyState& b, const Vec3& point, const Vec3& n, real j) {
    const real cap = detail::maxSpeed / 10;
    const Mat3 r = b.orientation.toRotationMatrix();
    const real linear = n.cwiseAbs().maxCoeff() * b.inverseMass;
    const real angular = 3 * (r * b.inverseInertia * r.transpose()).cwiseAbs().maxCoeff() *
                         (point - b.position).cross(n).cwiseAbs().maxCoeff();
    if (linear * j > cap) j = cap / linear;
    if (angular * j > cap) j = cap / angular;
    return j;
}

/// Where a body will stand after `dt` more at its present velocities (a turn by the
/// exact rotation about its centre of mass): a platform's pose at the end of the step
/// the update prepares.
Transform predictedPose(const BodyState& b, real dt) {
    const real angle = b.angularVelocity.norm() * dt;
    const Quat turn = angle > 0 ? Quat(Eigen::AngleAxis<real>(angle, b.angularVelocity.normalized())) : Quat::Identity();
    const Vec3 centre = b.centerOfMass + b.linearVelocity * dt;
    return Transform{centre + turn * (b.position - b.centerOfMass), (turn * b.orientation).normalized()};
}

/// An impulse the update gives a body when it commits.
struct Kick {
    BodyId body{};
    Vec3 impulse = Vec3::Zero();
    Vec3 point = Vec3::Zero();
};

} // namespace

void Character::update(World& world, real dt, const Vec3& walkVelocity) { detail::guarded(world.errorHandler(), [&] {
    detail::requireFinite(dt, "update.dt");
    if (!(dt > 0 && dt <= 1)) throw Error("update.dt", toText(dt), "must be in (0, 1] [s]");
    detail::requireSpeed(walkVelocity, "update.walkVelocity");
    if (!world.contains(body_)) throw Error("update.world", "", "the character's body is not in this world (destroyed?)");

    // Everything is worked out in locals first; the character and the world change
    // together at the end, after the last check (an error leaves both as they were).
    const CharacterShape shape = detail::characterShape(desc_, up_);
    const Mover mover(world, desc_, body_, shape);
    const Vec3 start = position_;

    // 1. Pushes: the momentum bodies gave its body, on its mass; across gravity only
    // (what lands on its head presses it into the ground, which holds).
    // (once per step: a second update before the next step reads nothing again)
    const bool fresh = world.stepCount() != pushesRead_;
    const Vec3 taken = fresh ? Vec3(impulseOn(world, body_) / desc_.mass) : Vec3(Vec3::Zero());
    Vec3 push = (push_ + taken - up_ * taken.dot(up_)) * std::exp(-desc_.pushDamping * dt);

    // 2. The platform's carry: the feet's place on it is kept in the pose the platform
    // was expected to reach in the last step; the carry takes them to where that place
    // is now (nothing, for a platform that kept its velocities) and on to where it will
    // be at the end of the coming step (unless jumping: the jump keeps the platform's
    // velocity instead). Swept like any move.
    const bool jumped = jumpSpeed_ >= 0;
    Vec3 carry = Vec3::Zero();
    if (onGround_ && world.contains(ground_)) {
        const BodyState g = world.body(ground_);
        if (g.type != BodyType::Static) {
            const Vec3 now = g.transform().toWorld(groundAnchor_);
            const Vec3 next = jumped ? now : predictedPose(g, dt).toWorld(g.transform().toLocal(now));
            carry = next - position_;
        }
    }
    const Vec3 carried = carry.squaredNorm() > 0 ? mover.slide(start, carry).feet : start;

    // Falling, standing or jumping: the fall is a velocity of its own, gravity's
    // integral since it left the ground, less what surfaces stopped (so it slides down
    // a steep slope at g sin(angle), as a frictionless block would). A jump keeps the
    // platform's velocity across gravity.
    Vec3 fall = fall_;
    if (jumped) fall = up_ * jumpSpeed_ + (groundVelocity_ - up_ * groundVelocity_.dot(up_));
    else if (onGround_) fall = Vec3::Zero();
    else fall -= up_ * (gravity_ * dt);
    const Vec3 walk = walkVelocity - up_ * walkVelocity.dot(up_);
    Vec3 wanted = walk + push + fall;
    // No faster than half maxSpeed in all (a fall of hours would be more).
    if (wanted.norm() > detail::maxSpeed / 2) wanted *= detail::maxSpeed / 2 / wanted.norm();

    // 3. Collide and slide.
    Slide moved = mover.slide(carried, wanted * dt);

    // 4. Stairs: on the ground and stopped short by something too steep to walk, try the
    // walk a stair higher.
    const Vec3 across = (walk + push) * dt;
    if (onGround_ && !jumped && desc_.stepHeight > 0 && across.norm() > real(1e-6) && mover.blockedBySteep(moved)) {
        const Vec3 along = across.normalized();
        if ((moved.feet - carried).dot(along) < real(0.9) * across.norm()) {
            if (const std::optional<Vec3> stepped = mover.stepUp(carried, across, moved.feet)) moved.feet = *stepped;
        }
    }

    // 5. The ground: found under the feet, or snapped down to while walking off a step.
    Vec3 surface = up_;
    std::optional<CharacterContact> ground = mover.ground(moved.feet, surface);
    const bool rising = fall.dot(up_) > real(1e-3);
    if (!ground && onGround_ && !jumped && !rising && desc_.snapDistance > 0) {
        bool hit = false;
        const Vec3 down = mover.sweepAndSettle(moved.feet, -up_ * desc_.snapDistance, hit);
        Vec3 s = up_;
        if (hit) {
            if (std::optional<CharacterContact> g = mover.ground(down, s)) {
                moved.feet = down;
                ground = g;
                surface = s;
            }
        }
    }
    const bool standing = ground.has_value() && !rising;
    // Standing: down onto the ground it found within the margin (a fall's last frame
    // may end a little above it).
    if (standing && ground->separation > real(1e-4)) {
        bool hit = false;
        moved.feet = mover.sweepAndSettle(moved.feet, -up_ * ground->separation, hit);
    }
    const Transform pose = shape.pose(moved.feet);
    detail::requirePoint(pose.position, "update.position"); // where it would go

    // 6. Bodies walked into, pushed (once each, along the contact, at most maxPushForce);
    // the closing speed counts the platform's carry.
    std::vector<Kick> kicks;
    const Vec3 moving = wanted + carry / dt;
    for (const CharacterContact& c : moved.touched) {
        if (!world.contains(c.body)) continue;
        if (std::any_of(kicks.begin(), kicks.end(), [&](const Kick& k) { return k.body == c.body; })) continue;
        const BodyState b = world.body(c.body);
        if (!b.isDynamic()) continue;
        const Vec3 into = -c.normal;
        const real closing = moving.dot(into) - b.velocityAt(c.point).dot(into);
        if (closing <= 0) continue;
        const real j = boundedImpulse(b, c.point, into, std::min(effectiveMass(b, c.point, into) * closing, desc_.maxPushForce * dt));
        if (j > 0) kicks.push_back({c.body, into * j, c.point});
    }
    // ... and the ground it stands on carries its weight: at most ten times the ground's
    // own (a light board under the character is pressed down, not shot away; what the
    // character really weighs goes through it to what holds it, which the solver does
    // not see).
    if (standing && world.contains(ground->body)) {
        const BodyState g = world.body(ground->body);
        const real weight = std::min(desc_.mass, 10 * g.mass) * gravity_ * dt;
        if (g.isDynamic()) kicks.push_back({ground->body, -up_ * boundedImpulse(g, ground->point, -up_, weight), ground->point});
    }

    // Commit: the world, then the character.
    for (const Kick& k : kicks) world.applyImpulse(k.body, k.impulse, k.point);
    world.moveKinematic(body_, pose);
    fall_ = standing ? Vec3::Zero() : clipVelocity(fall, moved.planes);
    push_ = clipVelocity(push, moved.planes);
    push_ -= up_ * push_.dot(up_);
    jumpSpeed_ = -1;
    pushesRead_ = world.stepCount();
    onGround_ = standing;
    position_ = moved.feet;
    velocity_ = (position_ - start) / dt;
    contacts_ = moved.touched;
    ground_ = standing ? ground->body : BodyId{};
    groundNormal_ = standing ? surface : up_;
    groundVelocity_ = Vec3::Zero();
    if (standing) {
        // Its place on the ground, in the pose the ground will have when the coming
        // step ends (the character's new place is for then too).
        const BodyState g = world.body(ground_);
        groundAnchor_ = predictedPose(g, dt).toLocal(position_);
        groundVelocity_ = g.velocityAt(position_);
    }
}); }

} // namespace jounce
