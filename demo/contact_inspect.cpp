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
constexpr real kImpulseLength = real(1.5);  // drawn length of the step's largest impulse [m]
constexpr real kMinImpulseLength = real(0.05); // a non-zero impulse stays visible
constexpr int kCircleSegments = 24;

const Colour kPointColour{1.0f, 0.15f, 0.1f};
const Colour kNormalColour{1.0f, 0.9f, 0.1f};
const Colour kImpulseColour{1.0f, 0.3f, 1.0f};
const std::array<Colour, 2> kBodyColour{{{0.2f, 0.95f, 1.0f}, {1.0f, 0.6f, 0.15f}}};
const std::array<Colour, 2> kBeforeColour{{{0.1f, 0.45f, 0.5f}, {0.5f, 0.3f, 0.08f}}};

void line(DrawList& out, const Vec3& a, const Vec3& b, const Colour& colour) { out.lines.push_back({a, b, colour, true}); }

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
            } else if constexpr (std::is_same_v<S, Capsule>) {
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
    for (const SteppedRecord& s : records_) largestImpulse_ = std::max(largestImpulse_, s.record.impulseWorld.norm());
    active_ = true;
    index_ = 0;
}

void ContactStepper::leave() {
    active_ = false;
    records_.clear();
    total_ = 0;
    index_ = 0;
    step_ = 0;
    largestImpulse_ = 0;
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

std::vector<std::string> describeRecord(const SteppedRecord& s) {
    const ResolutionRecord& r = s.record;
    const bool position = r.kind == ResolutionRecord::Kind::Position;
    std::vector<std::string> lines;
    lines.push_back(format("%-9s contact %u of %zu, island %u", position ? "Position" : "Velocity", r.contact,
                           s.contactCount, r.island));
    lines.push_back("bodies    " + bodyName(r.body[0]) + " (A), " + bodyName(r.body[1]) + " (B)");
    if (position)
        lines.push_back(format("depth     %.4f -> %.4f mm", d(r.before) * 1000, d(r.after) * 1000));
    else
        lines.push_back(format("v normal  %.4f -> %.4f m/s", d(r.before), d(r.after)));
    const char* linearUnit = position ? "mm" : "mm/s";
    const char* angularUnit = position ? "mrad" : "mrad/s";
    for (std::size_t i = 0; i < 2; ++i) {
        if (r.body[i] == noBody) continue;
        const Vec3 v = r.linearChange[i] * 1000, w = r.angularChange[i] * 1000;
        lines.push_back(format("%s lin    (%.4f, %.4f, %.4f) %s", i == 0 ? "A" : "B", d(v.x()), d(v.y()), d(v.z()),
                               linearUnit));
        lines.push_back(format("%s ang    (%.4f, %.4f, %.4f) %s", i == 0 ? "A" : "B", d(w.x()), d(w.y()), d(w.z()),
                               angularUnit));
    }
    if (!position) {
        const Vec3& c = r.impulseContact;
        const Vec3& w = r.impulseWorld;
        lines.push_back(format("J contact (%.3f, %.3f, %.3f) N s", d(c.x()), d(c.y()), d(c.z())));
        lines.push_back(format("J world   (%.3f, %.3f, %.3f) N s", d(w.x()), d(w.y()), d(w.z())));
    }
    return lines;
}

void drawRecord(const World& world, const ContactStepper& stepper, scenes::DrawList& out) {
    const SteppedRecord* s = stepper.current();
    if (s == nullptr) return;
    const ResolutionRecord& r = s->record;
    for (std::size_t i = 0; i < 2; ++i) {
        const BodyId id = stepper.bodyId(r.body[i]);
        if (id.isNull() || !world.contains(id) || !world.body(id).isDynamic()) continue;
        const Transform& after = s->pose[i];
        outlineBody(out, world, id, after, kBodyColour[i]);
        if (r.kind == ResolutionRecord::Kind::Position) {
            // The pose before the record: the change undone (the turn to first order).
            Transform before{after.position - r.linearChange[i], after.orientation};
            const Vec3& turn = r.angularChange[i];
            if (turn.norm() > 0) before.orientation = Quat(Eigen::AngleAxis<real>(-turn.norm(), turn.normalized())) * after.orientation;
            outlineBody(out, world, id, before, kBeforeColour[i]);
        }
    }
    for (int axis = 0; axis < 3; ++axis)
        line(out, s->point - Vec3::Unit(axis) * kCrossHalf, s->point + Vec3::Unit(axis) * kCrossHalf, kPointColour);
    line(out, s->point, s->point + s->normal * (kNormalLength + std::max(s->penetration, real(0))), kNormalColour);
    const real impulse = r.impulseWorld.norm();
    if (impulse > 0 && stepper.largestImpulse() > 0) {
        const real length = std::max(kImpulseLength * impulse / stepper.largestImpulse(), kMinImpulseLength);
        line(out, s->point, s->point + r.impulseWorld / impulse * length, kImpulseColour);
    }
}

} // namespace jounce::demo
