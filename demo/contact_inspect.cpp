// SPDX-License-Identifier: MIT
#include "contact_inspect.hpp"

#include <jounce/collision/convex_hull.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <type_traits>
#include <variant>

namespace jounce::demo {
namespace {

using scenes::Colour;
using scenes::DrawList;

constexpr real kNormalLength = real(0.3);   // plus the penetration, as the contacts scene draws it
constexpr real kCrossHalf = real(0.1);
constexpr real kVelocityScale = real(0.5); // drawn length of a velocity [m per m/s]
constexpr real kMinArrow = real(0.03);       // a non-zero arrow stays visible [m]
constexpr real kLetterSize = real(0.12);     // height of the A and B labels [m]
constexpr real kLetterLift = real(0.15);     // above the body's centre [m]
constexpr int kCircleSegments = 24;

const Colour kPointColour{1.0f, 0.15f, 0.1f};
const Colour kNormalColour{1.0f, 0.9f, 0.1f};
const Colour kImpulseColour{1.0f, 0.3f, 1.0f};
// A cyan, B white: neither is a scene's fill colour (two-boxes fills its lower box orange,
// which an orange outline for B made read as B).
const std::array<Colour, 2> kBodyColour{{{0.2f, 0.95f, 1.0f}, {1.0f, 1.0f, 1.0f}}};
const std::array<Colour, 2> kBeforeColour{{{0.1f, 0.45f, 0.5f}, {0.5f, 0.5f, 0.5f}}};
const Colour kVelocityColour{0.3f, 1.0f, 0.3f};
const Colour kVelocityBeforeColour{0.15f, 0.45f, 0.15f};

void line(DrawList& out, const Vec3& a, const Vec3& b, const Colour& colour) { out.lines.push_back({a, b, colour, true}); }

// A line from `from` along `v` with a two-stroke head, at least kMinArrow long when v is not zero.
void arrow(DrawList& out, const Vec3& from, const Vec3& v, const Colour& colour) {
    const real length = v.norm();
    if (!(length > 0)) return;
    const Vec3 along = v / length;
    const Vec3 to = from + along * std::max(length, kMinArrow);
    const Vec3 side = along.cross(std::abs(along.y()) < real(0.9) ? Vec3::UnitY() : Vec3::UnitX()).normalized();
    const real head = std::min(std::max(length, kMinArrow) * real(0.25), real(0.08));
    line(out, from, to, colour);
    line(out, to, to - along * head + side * head * real(0.5), colour);
    line(out, to, to - along * head - side * head * real(0.5), colour);
}

// The letter A or B in strokes, in the world's x-y plane, its foot centred at `at`.
void letter(DrawList& out, char which, const Vec3& at, const Colour& colour) {
    const real h = kLetterSize, w = kLetterSize * real(0.6);
    const auto p = [&](real x, real y) { return Vec3(at + Vec3((x - real(0.5)) * w, y * h, 0)); };
    if (which == 'A') {
        line(out, p(0, 0), p(real(0.5), 1), colour);
        line(out, p(real(0.5), 1), p(1, 0), colour);
        line(out, p(real(0.25), real(0.5)), p(real(0.75), real(0.5)), colour);
        return;
    }
    const real B[][2] = {{0, 0}, {0, 1}, {real(0.8), 1}, {1, real(0.85)}, {1, real(0.65)}, {real(0.8), real(0.5)}, {0, real(0.5)},
                         {real(0.8), real(0.5)}, {1, real(0.35)}, {1, real(0.15)}, {real(0.8), 0}, {0, 0}};
    for (std::size_t k = 0; k + 1 < std::size(B); ++k) line(out, p(B[k][0], B[k][1]), p(B[k + 1][0], B[k + 1][1]), colour);
}

// A circle of radius r about `centre` in the plane spanned by unit vectors u and v.
void circle(DrawList& out, const Transform& pose, const Vec3& centre, const Vec3& u, const Vec3& v, real r,
            const Colour& colour) {
    const auto at = [&](int k) {
        const real a = 2 * std::numbers::pi_v<real> * static_cast<real>(k) / kCircleSegments;
        return pose.toWorld(centre + r * (std::cos(a) * u + std::sin(a) * v));
    };
    for (int k = 0; k < kCircleSegments; ++k) line(out, at(k), at(k + 1), colour);
}

// The edges of one collider's shape placed at `pose`. Half-spaces and triangle meshes
// are static-only shapes and are never outlined.
void outline(DrawList& out, const Shape& shape, const Transform& pose, const Colour& colour) {
    std::visit(
        [&](const auto& s) {
            using S = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<S, Box>) {
                const auto corner = [&](int k) {
                    const Vec3 sign((k & 1) ? 1 : -1, (k & 2) ? 1 : -1, (k & 4) ? 1 : -1);
                    return pose.toWorld(s.halfExtents.cwiseProduct(sign));
                };
                for (int k = 0; k < 8; ++k)
                    for (int bit : {1, 2, 4})
                        if ((k & bit) == 0) line(out, corner(k), corner(k | bit), colour);
            } else if constexpr (std::is_same_v<S, Sphere>) {
                const Vec3 x = Vec3::UnitX(), y = Vec3::UnitY(), z = Vec3::UnitZ();
                circle(out, pose, Vec3::Zero(), x, y, s.radius, colour);
                circle(out, pose, Vec3::Zero(), y, z, s.radius, colour);
                circle(out, pose, Vec3::Zero(), z, x, s.radius, colour);
            } else if constexpr (std::is_same_v<S, Capsule> || std::is_same_v<S, Cylinder>) {
                const Vec3 x = Vec3::UnitX(), z = Vec3::UnitZ(), top(0, s.halfHeight, 0);
                circle(out, pose, top, x, z, s.radius, colour);
                circle(out, pose, -top, x, z, s.radius, colour);
                for (const Vec3& side : {Vec3(x), Vec3(-x), Vec3(z), Vec3(-z)})
                    line(out, pose.toWorld(top + s.radius * side), pose.toWorld(-top + s.radius * side), colour);
            } else if constexpr (std::is_same_v<S, ConvexHull>) {
                if (!s.hull) return;
                const auto& vertices = s.hull->vertices;
                for (const HullFace& f : s.hull->faces)
                    for (std::size_t k = 0; k < f.vertices.size(); ++k)
                        line(out, pose.toWorld(vertices[f.vertices[k]]),
                             pose.toWorld(vertices[f.vertices[(k + 1) % f.vertices.size()]]), colour);
            }
        },
        shape);
}

// Outlines every collider of `id` as if the body's centre of mass stood at `bodyPose`
// (the frame a record's changes are in): each collider keeps its pose relative to it.
void outlineBody(DrawList& out, const World& world, BodyId id, const Transform& bodyPose, const Colour& colour) {
    const Transform now = world.body(id).centerOfMassTransform();
    for (const ColliderId c : world.colliderIdsOf(id)) {
        const Transform relative = now.inverse() * world.colliderPose(c);
        outline(out, world.collider(c).shape, bodyPose * relative, colour);
    }
}

std::string format(const char* pattern, auto... values) {
    char buffer[160];
    std::snprintf(buffer, sizeof buffer, pattern, values...);
    return buffer;
}

std::string bodyName(std::uint32_t slot) { return slot == noBody ? std::string("world") : format("#%u", slot); }

double d(real x) { return static_cast<double>(x); }

} // namespace

WorldCounts countBodies(const World& world) {
    WorldCounts counts;
    for (const BodyId id : world.bodyIds()) {
        const BodyState b = world.body(id);
        if (!b.isDynamic()) continue;
        ++counts.dynamicBodies;
        if (!b.awake) ++counts.sleepingBodies;
    }
    return counts;
}

void ContactStepper::record(scenes::Scene& scene) {
    leave();
    World& world = scene.world();
    // The handles of the body slots, refreshed when a record names a slot not seen
    // yet (a scene's update() may create bodies just before the step).
    const auto refreshIds = [this, &world] {
        slotIds_.clear();
        for (const BodyId id : world.bodyIds()) {
            if (slotIds_.size() <= id.index) slotIds_.resize(id.index + std::size_t{1});
            slotIds_[id.index] = id;
        }
    };
    refreshIds();
    const auto idOf = [&](std::uint32_t slot) {
        if (slot != noBody && (slot >= slotIds_.size() || slotIds_[slot].isNull())) refreshIds();
        return bodyId(slot);
    };
    world.setResolverObserver([&](const ResolutionRecord& r) {
        ++total_;
        if (records_.size() >= kMaxRecords) return;
        // Called from inside World::step: the contacts and bodies read here are the
        // very arrays the resolver is changing, right after this record's change.
        SteppedRecord s;
        s.record = r;
        const std::vector<Contact>& contacts = world.resolvedContacts();
        s.contactCount = contacts.size();
        if (r.contact < contacts.size()) {
            const Contact& c = contacts[r.contact];
            s.point = c.point;
            s.normal = c.normal;
            s.penetration = c.penetration;
        }
        for (std::size_t i = 0; i < 2; ++i) {
            const BodyId id = idOf(r.body[i]);
            if (!id.isNull() && world.contains(id)) s.pose[i] = world.body(id).centerOfMassTransform();
        }
        records_.push_back(s);
    });
    struct RemoveObserver {
        World& world;
        ~RemoveObserver() { world.setResolverObserver({}); }
    } guard{world};
    try {
        scene.step();
    } catch (...) {
        leave();
        throw;
    }
    refreshIds();
    step_ = world.stepCount();
    active_ = true;
    index_ = 0;
}

void ContactStepper::leave() {
    active_ = false;
    records_.clear();
    total_ = 0;
    index_ = 0;
    step_ = 0;
}

bool ContactStepper::next() {
    if (!active_ || index_ + 1 >= records_.size()) return false;
    ++index_;
    return true;
}

void ContactStepper::show(std::size_t index) {
    index_ = records_.empty() ? 0 : std::min(index, records_.size() - 1);
}

const SteppedRecord* ContactStepper::current() const {
    return active_ && index_ < records_.size() ? &records_[index_] : nullptr;
}

BodyId ContactStepper::bodyId(std::uint32_t slot) const {
    return slot < slotIds_.size() ? slotIds_[slot] : BodyId{};
}

const char* kindName(ResolutionRecord::Kind kind) {
    switch (kind) {
    case ResolutionRecord::Kind::Position: return "Position";
    case ResolutionRecord::Kind::Velocity: return "Velocity";
    case ResolutionRecord::Kind::WarmStart: return "Warm start";
    case ResolutionRecord::Kind::Solve: return "Solve";
    case ResolutionRecord::Kind::Relax: return "Relax";
    case ResolutionRecord::Kind::Bounce: return "Bounce";
    }
    return "?";
}

std::vector<std::string> describeRecord(const SteppedRecord& s) {
    const ResolutionRecord& r = s.record;
    const bool position = r.kind == ResolutionRecord::Kind::Position;
    const bool soft = !position && r.kind != ResolutionRecord::Kind::Velocity;
    std::vector<std::string> lines;
    if (r.points > 1)
        lines.push_back(format("%-9s contacts %u-%u of %zu, island %u", kindName(r.kind), r.contact, r.contact + r.points - 1,
                               s.contactCount, r.island));
    else
        lines.push_back(format("%-9s contact %u of %zu, island %u", kindName(r.kind), r.contact, s.contactCount, r.island));
    if (soft) {
        if (r.colour == ResolutionRecord::noColour)
            lines.push_back(format("substep %u, row by row (an island with joints or a held body)", r.substep));
        else
            lines.push_back(format("substep %u, colour %u, block %u, lane %u", r.substep, r.colour, r.block, r.lane));
    }
    lines.push_back("bodies    " + bodyName(r.body[0]) + " (A), " + bodyName(r.body[1]) + " (B)");
    if (position)
        lines.push_back(format("depth     %.4f -> %.4f mm", d(r.before) * 1000, d(r.after) * 1000));
    else
        lines.push_back(format("v normal  %.4f -> %.4f m/s", d(r.before), d(r.after)));
    for (std::size_t i = 0; i < 2; ++i) {
        if (r.body[i] == noBody) continue;
        const char* side = i == 0 ? "A" : "B";
        if (position) {
            const Vec3 v = r.linearChange[i] * 1000, w = r.angularChange[i] * 1000;
            lines.push_back(format("%s moved  (%.4f, %.4f, %.4f) mm", side, d(v.x()), d(v.y()), d(v.z())));
            lines.push_back(format("%s turned (%.4f, %.4f, %.4f) mrad", side, d(w.x()), d(w.y()), d(w.z())));
            continue;
        }
        const BodyVelocity& a = r.velocityBefore[i];
        const BodyVelocity& b = r.velocityAfter[i];
        lines.push_back(format("%s v  (%.3f, %.3f, %.3f) -> (%.3f, %.3f, %.3f) m/s", side, d(a.linear.x()), d(a.linear.y()),
                               d(a.linear.z()), d(b.linear.x()), d(b.linear.y()), d(b.linear.z())));
        lines.push_back(format("%s w  (%.3f, %.3f, %.3f) -> (%.3f, %.3f, %.3f) rad/s", side, d(a.angular.x()),
                               d(a.angular.y()), d(a.angular.z()), d(b.angular.x()), d(b.angular.y()), d(b.angular.z())));
    }
    if (!position) {
        const Vec3& c = r.impulseContact;
        const Vec3& w = r.impulseWorld;
        lines.push_back(format("J contact (%.3f, %.3f, %.3f) N s", d(c.x()), d(c.y()), d(c.z())));
        lines.push_back(format("J world   (%.3f, %.3f, %.3f) N s", d(w.x()), d(w.y()), d(w.z())));
    }
    return lines;
}

std::vector<LegendItem> recordLegend() {
    return {{"A after", kBodyColour[0]},          {"B after", kBodyColour[1]},
            {"A, B before (moves)", kBeforeColour[1]}, {"point", kPointColour},
            {"normal (B toward A)", kNormalColour},   {"impulse on A (B if A is static) as its dv", kImpulseColour},
            {"velocity after", kVelocityColour},      {"velocity before", kVelocityBeforeColour}};
}

void drawRecord(const World& world, const ContactStepper& stepper, scenes::DrawList& out) {
    const SteppedRecord* s = stepper.current();
    if (s == nullptr) return;
    const ResolutionRecord& r = s->record;
    const bool position = r.kind == ResolutionRecord::Kind::Position;
    std::array<real, 2> mass{0, 0}; // the impulse is drawn as the velocity change it gives a body
    for (std::size_t i = 0; i < 2; ++i) {
        const BodyId id = stepper.bodyId(r.body[i]);
        if (id.isNull() || !world.contains(id) || !world.body(id).isDynamic()) continue;
        const Transform& after = s->pose[i];
        outlineBody(out, world, id, after, kBodyColour[i]);
        letter(out, i == 0 ? 'A' : 'B', after.position + Vec3(0, kLetterLift, 0), kBodyColour[i]);
        mass[i] = world.body(id).mass;
        if (position) {
            // The pose before the record: the change undone (the turn to first order).
            Transform before{after.position - r.linearChange[i], after.orientation};
            const Vec3& turn = r.angularChange[i];
            if (turn.norm() > 0) before.orientation = Quat(Eigen::AngleAxis<real>(-turn.norm(), turn.normalized())) * after.orientation;
            outlineBody(out, world, id, before, kBeforeColour[i]);
            continue;
        }
        // The velocities before and after, from the centre, at a fixed scale.
        arrow(out, after.position, r.velocityBefore[i].linear * kVelocityScale, kVelocityBeforeColour);
        arrow(out, after.position, r.velocityAfter[i].linear * kVelocityScale, kVelocityColour);
    }
    for (int axis = 0; axis < 3; ++axis)
        line(out, s->point - Vec3::Unit(axis) * kCrossHalf, s->point + Vec3::Unit(axis) * kCrossHalf, kPointColour);
    line(out, s->point, s->point + s->normal * (kNormalLength + std::max(s->penetration, real(0))), kNormalColour);
    if (position) return;
    if (mass[0] > 0)
        arrow(out, s->point, r.impulseWorld / mass[0] * kVelocityScale, kImpulseColour);
    else if (mass[1] > 0)
        arrow(out, s->point, -r.impulseWorld / mass[1] * kVelocityScale, kImpulseColour);
}

} // namespace jounce::demo
