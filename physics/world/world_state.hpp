// SPDX-License-Identifier: MIT
#pragma once
// The tools the world's state declaration drives (World::visitState in world.hpp lists
// every member of the persistent state once, with its name and whether a step changes
// it; docs/architecture.md, "The world's state"):
//
// - writeState / readState: the snapshot's payload, each declared member through its
//   io() in physics/io/snapshot.cpp, in declaration order (the order is the format);
// - StepBackup: the copy a step takes of the members it changes, put back if it fails;
// - World::checkRestored (physics/io/snapshot_check.cpp) checks each member of a restored
//   state, with one check per member type: a member of a new type does not compile
//   until it has one;
// - the tests' state hash hashes the snapshot (tests/helpers.hpp).
//
// So a member added to the declaration is saved, restored, checked, hashed and backed up
// with no other list to edit. Every tool here takes any `State` with a static
// `visitState(self, visitor)`, which is how tests/test_snapshot.cpp runs them on a small
// state of its own.

#include <jounce/world/world.hpp>

#include "common/parallel.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

namespace jounce::detail {

/// Runs a state's declaration (World::visitState is private: the tools below, and the
/// tests, reach it through here). `visitor(name, member, Step)` is called once per
/// declared member, in order; `member` is const when `state` is.
struct StateAccess {
    template <class State, class Visitor> static void visit(State& state, Visitor&& visitor) {
        std::remove_const_t<State>::visitState(state, visitor);
    }
};

/// The snapshot's payload: every declared member, in order, through io(ar, member)
/// (which the caller's archive finds: physics/io/snapshot.cpp and physics/io/archive.hpp).
template <class Archive, class State> void writeState(Archive& ar, const State& state) {
    // The writer only reads the members; io() takes them by reference for both directions.
    StateAccess::visit(state, [&](const char*, const auto& member, Step) {
        io(ar, const_cast<std::remove_cvref_t<decltype(member)>&>(member));
    });
}
template <class Archive, class State> void readState(Archive& ar, State& state) {
    StateAccess::visit(state, [&](const char*, auto& member, Step) { io(ar, member); });
}

/// What the backup keeps of a member a step changes, and how it puts it back: by
/// default a copy of the whole member. Assigning into the same copy every step reuses
/// its buffers, so once a scene has settled the backup allocates nothing.
template <class T> struct Saved {
    T copy;
    void save(const T& member) { copy = member; }
    void restore(T& member) const { member = copy; }
};

/// Of the colliders, only their fat boxes: nothing else of a collider changes in a step,
/// and copying the shapes would touch every shared hull's reference count each step.
template <> struct Saved<SlotArray<Collider, ColliderTag>> {
    std::vector<Aabb> fatBoxes; ///< by slot; dead slots' entries unused
    /// Shared among the workers, if any, as the bodies are (a box from each collider:
    /// spheres4096's 4096 took 20-40 us on the calling thread while the workers waited).
    void save(const SlotArray<Collider, ColliderTag>& colliders, TaskSystem* tasks = nullptr) {
        fatBoxes.resize(colliders.slotCount());
        parallelFor(tasks, static_cast<std::uint32_t>(colliders.slotCount()), 512, [&](std::uint32_t first, std::uint32_t last) {
            for (std::uint32_t i = first; i < last; ++i)
                if (colliders.isAlive(i)) fatBoxes[i] = colliders.atSlot(i).fatBox;
        });
    }
    void restore(SlotArray<Collider, ColliderTag>& colliders) const {
        for (std::size_t i = 0; i < colliders.slotCount(); ++i)
            if (colliders.isAlive(i)) colliders.atSlot(i).fatBox = fatBoxes[i];
    }
};

/// Of the particle layer, everything, except while it holds nothing at all (a world of
/// rigid bodies alone): then its few numbers. Assigning its thirty-odd empty lists cost
/// the column 1.4 % of its step.
template <> struct Saved<ParticleSystem> {
    // A field added to ParticleSystem stops the build here: check it in holdsNothing (a
    // list) or copy it in save (a number), and update the size.
    static_assert(sizeof(ParticleSystem) == (sizeof(real) == 8 ? 1320 : 1312), "a new ParticleSystem field: back it up here");
    ParticleSystem copy;
    static bool holdsNothing(const ParticleSystem& ps) {
        return ps.x.empty() && ps.p.empty() && ps.v.empty() && ps.w.empty() && ps.radius.empty() && ps.group.empty() &&
               ps.staticFriction.empty() && ps.kineticFriction.empty() && ps.restitution.empty() && ps.userData.empty() &&
               ps.force.empty() && ps.fatBox.empty() && ps.asleep.empty() && ps.motion.empty() && ps.stepVelocity.empty() &&
               ps.previousVelocity.empty() && ps.hasHistory.empty() && ps.slots.slotCount() == 0 &&
               ps.distances.slotCount() == 0 && ps.attachments.slotCount() == 0 && ps.constraints.slotCount() == 0 &&
               ps.volumes.slotCount() == 0 && ps.clusters.slotCount() == 0 && ps.surfaces.slotCount() == 0 &&
               ps.hierarchies.slotCount() == 0 && ps.freeGroups.groupStart.empty() && ps.freeGroups.members.empty();
    }
    void save(const ParticleSystem& ps) {
        if (!holdsNothing(ps) || !holdsNothing(copy)) {
            copy = ps;
            return;
        }
        copy.topologyVersion = ps.topologyVersion;
        copy.freeGroups.builtFor = ps.freeGroups.builtFor;
        copy.groupsIssued = ps.groupsIssued;
        copy.lastSubstep = ps.lastSubstep;
    }
    void restore(ParticleSystem& ps) const { ps = copy; }
};

/// Of the bodies, what a step moves: pose, velocities, the world inertia that follows the
/// pose, the force and impulse accumulators, sleep and the kinematic target. Their type,
/// mass properties, damping, flags, locks and user data change through the API alone,
/// never in a step (a game's callbacks may not change the world while it steps), so they
/// are not copied: 432 bytes a body instead of 672 in the double build (240 instead of
/// 352 in float). Every slot, dead ones too (a snapshot stores them). The test "the body
/// backup leaves out only what no step writes" steps a busy world and checks it.
template <> struct Saved<SlotArray<Body, BodyTag>> {
    // A field added to Body stops the build here: say whether a step may change it (then
    // it belongs in Motion) and update the size.
    static_assert(sizeof(Body) == (sizeof(real) == 8 ? 672 : 352), "a new Body field: back it up here if a step changes it");
    struct Motion {
        Vec3 position, linearVelocity, angularVelocity;
        Quat orientation;
        Mat3 inverseInertiaWorld;
        Vec3 userForce, userTorque, forceAccum, torqueAccum, lastFrameAcceleration, impulseAccum, angularImpulseAccum;
        Transform target;
        real motion;
        bool awake, hasTarget;
    };
    std::vector<Motion> bySlot;
    /// Shared among the workers, if any: each copies the bodies the last step's
    /// per-body passes gave it, from its own cache.
    void save(const SlotArray<Body, BodyTag>& bodies, TaskSystem* tasks = nullptr) {
        bySlot.resize(bodies.slotCount());
        parallelFor(tasks, static_cast<std::uint32_t>(bodies.slotCount()), 256, [&](std::uint32_t first, std::uint32_t last) {
            for (std::uint32_t i = first; i < last; ++i) {
                const Body& b = bodies.atSlot(i);
                bySlot[i] = {b.position, b.linearVelocity, b.angularVelocity, b.orientation, b.inverseInertiaWorld,
                             b.userForce, b.userTorque, b.forceAccum, b.torqueAccum, b.lastFrameAcceleration,
                             b.impulseAccum, b.angularImpulseAccum, b.target, b.motion, b.awake, b.hasTarget};
            }
        });
    }
    void restore(SlotArray<Body, BodyTag>& bodies) const {
        for (std::size_t i = 0; i < bodies.slotCount(); ++i) {
            Body& b = bodies.atSlot(i);
            const Motion& m = bySlot[i];
            b.position = m.position;
            b.linearVelocity = m.linearVelocity;
            b.angularVelocity = m.angularVelocity;
            b.orientation = m.orientation;
            b.inverseInertiaWorld = m.inverseInertiaWorld;
            b.userForce = m.userForce;
            b.userTorque = m.userTorque;
            b.forceAccum = m.forceAccum;
            b.torqueAccum = m.torqueAccum;
            b.lastFrameAcceleration = m.lastFrameAcceleration;
            b.impulseAccum = m.impulseAccum;
            b.angularImpulseAccum = m.angularImpulseAccum;
            b.target = m.target;
            b.motion = m.motion;
            b.awake = m.awake;
            b.hasTarget = m.hasTarget;
        }
    }
};

/// The step's backup (the all-or-nothing rule: a failed step leaves the state bit for bit
/// as it was): a Saved<T> for each member the declaration marks Step::changes, in
/// declaration order. Members marked otherwise are not copied (Step says how each is
/// put back): that is what keeps the backup as cheap as the state a step touches.
class StepBackup {
public:
    /// `tasks`: workers for the members whose copy they can share (the bodies), or none.
    template <class State> void save(const State& state, TaskSystem* tasks = nullptr) {
        std::size_t next = 0;
        StateAccess::visit(state, [&](const char*, const auto& member, Step step) {
            if (step != Step::changes) return;
            auto& copy = saved<std::remove_cvref_t<decltype(member)>>(next++);
            if constexpr (requires { copy.save(member, tasks); })
                copy.save(member, tasks);
            else
                copy.save(member);
        });
    }
    /// Puts back what the last save() copied (call save() first).
    template <class State> void restore(State& state) const {
        std::size_t next = 0;
        StateAccess::visit(state, [&](const char*, auto& member, Step step) {
            if (step == Step::changes) saved<std::remove_cvref_t<decltype(member)>>(next++).restore(member);
        });
    }

private:
    struct AnySaved {
        virtual ~AnySaved() = default;
    };
    template <class T> struct SavedMember final : AnySaved {
        Saved<T> saved;
    };

    /// The i-th changing member's copy, made on the first save (the only allocation
    /// here). A declaration lists its members in one fixed order, so slot i always
    /// holds the same type.
    template <class T> Saved<T>& saved(std::size_t i) {
        if (i == members_.size()) members_.push_back(std::make_unique<SavedMember<T>>());
        return static_cast<SavedMember<T>&>(*members_[i]).saved;
    }
    template <class T> const Saved<T>& saved(std::size_t i) const {
        return static_cast<const SavedMember<T>&>(*members_.at(i)).saved;
    }

    std::vector<std::unique_ptr<AnySaved>> members_;
};

/// One declared member of a world as its snapshot holds it: for tests and for finding
/// which member two worlds that should agree differ in. The members' bytes, in order,
/// are saveState's payload (physics/io/snapshot.cpp).
struct StateMember {
    const char* name;
    Step step;
    std::vector<std::uint8_t> bytes;
};
std::vector<StateMember> stateMembers(const World& world);

} // namespace jounce::detail
