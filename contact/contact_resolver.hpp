// SPDX-License-Identifier: MIT
#pragma once
// The contact resolver itself (its public face, settings, statistics and records, is
// <jounce/contact/resolver.hpp>, which describes the passes): the per-contact rows it
// prepares, the compact bodies its sweeps read, and the stepping form's state. Only the
// world and the tests use it directly.

#include "contact/indexed_heap.hpp"

#include <jounce/contact/contact.hpp>
#include <jounce/contact/resolver.hpp>
#include <jounce/dynamics/body.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace jounce {

namespace detail {
struct BodyChange;

/// A body as the resolver's passes see it: its velocities and inverse mass, copied out
/// of the Body array when a pass begins (a Body is ~0.5 kB; the velocity pass touches
/// these 88 bytes (double) thousands of times per step). Index: body + 1; entry 0 is the
/// immovable world (noBody). Static and kinematic bodies have zero inverse mass (and
/// zero inverse inertia), so impulses leave them unchanged. A body locked along a world
/// axis has the inverse mass diag(linearFree) / m (MotionLocks: locked_mass.hpp).
struct SolverBody {
    Vec3 linearVelocity = Vec3::Zero();
    Vec3 angularVelocity = Vec3::Zero();
    real inverseMass = 0;
    Vec3 linearFree = Vec3::Ones(); ///< 1 along the world axes it may move along
    bool linearLocked = false;      ///< some linearFree component is 0
};

/// Sequential projection's per-contact constants, computed once per step (the passes
/// keep each body's inertia fixed while they push, as Millington's position pass does).
struct PushRow {
    std::array<Vec3, 2> turnPerPush{Vec3::Zero(), Vec3::Zero()}; ///< I^-1 (r x n) per side (0: does not move)
    std::array<Vec3, 2> rCrossN{Vec3::Zero(), Vec3::Zero()};     ///< r x n: separation per unit turn is a dot
    std::array<real, 2> perPush{0, 0}; ///< separation per unit push from each side: 1/m + (I^-1 (r x n) x r) . n
};

/// One direction of a contact (normal, tangent or bitangent), with what an impulse
/// along it does, precomputed: the relative velocity along it is
///     direction . (v0 - v1) + lever[0] . w0 - lever[1] . w1,
/// and an impulse j along it changes w0 by turn[0] j and w1 by -turn[1] j.
struct ImpulseAxis {
    Vec3 direction = Vec3::Zero();                         ///< unit, world
    std::array<Vec3, 2> lever{Vec3::Zero(), Vec3::Zero()}; ///< r x direction, per side
    std::array<Vec3, 2> turn{Vec3::Zero(), Vec3::Zero()};  ///< I^-1 (r x direction) per side (0: does not move)
};

/// Sequential impulses' per-contact data, prepared when an island's velocity pass
/// starts: the contact frame as three axes, and the inverses of the response D
/// (velocity change per unit impulse, contact frame) that each update needs.
struct ImpulseRow {
    std::array<std::uint32_t, 2> body{0, 0}; ///< solver bodies (body + 1; 0: the world)
    std::array<ImpulseAxis, 3> axis;         ///< normal, tangent, bitangent
    real normalResponse = 0;                 ///< D_00: normal velocity change per unit normal impulse
    real normalMass = 0;                     ///< 1 / D_00
    Eigen::Matrix<real, 2, 2> planarInverse = Eigen::Matrix<real, 2, 2>::Identity(); ///< inverse of D's planar block
    Eigen::Matrix<real, 1, 2> normalCoupling = Eigen::Matrix<real, 1, 2>::Zero(); ///< D_01, D_02: normal speed per unit friction impulse
    real friction = 0;
    Eigen::Matrix<real, 2, 1> slipTarget = Eigen::Matrix<real, 2, 1>::Zero(); ///< tangent, bitangent speeds friction aims at (the surface velocity) [m/s]
    real target = 0;                         ///< normal velocity the update aims at [m/s]
    Vec3 total = Vec3::Zero();               ///< accumulated impulse, contact frame [N s]
    std::int8_t lowerSide = -1;              ///< the side nearer the ground (shock propagation; -1: level, or a joint)
};
} // namespace detail

/// Where a run of Gauss-Seidel sweeps over one island's contacts stands: the contacts
/// in the sweep order, cut into groups swept one after the other (the sweeps: one group,
/// the island; shock propagation: one group per level), each swept until a sweep of it
/// changes no contact by more than a tolerance, or `limit` sweeps. Positions and
/// velocities sweep the same way.
struct Sweeps {
    std::span<const std::uint32_t> ends; ///< each group's end in the sweep order, ascending (empty: one group up to `last`)
    std::uint32_t last = 0;              ///< the end of the one group when `ends` is empty
    std::size_t group = 0;               ///< the group being swept
    std::uint32_t first = 0, at = 0;     ///< its start, and the position of the next contact
    int done = 0, limit = 0;             ///< sweeps of it finished, sweeps allowed
    real largestChange = 0;              ///< in the current sweep
    bool settled = false;                ///< the last group finished by the tolerance, not the limit

    /// One group, [from, to).
    void start(std::uint32_t from, std::uint32_t to, int sweeps) {
        last = to;
        start(from, std::span<const std::uint32_t>{}, sweeps);
    }
    /// Groups [from, ends[0]), [ends[0], ends[1]), ...
    void start(std::uint32_t from, std::span<const std::uint32_t> groupEnds, int sweeps) {
        ends = groupEnds;
        first = at = from;
        group = 0;
        done = 0;
        limit = sweeps;
        largestChange = 0;
        settled = false;
        if (sweeps <= 0 || from == end()) stop();
    }
    std::size_t groups() const { return ends.empty() ? 1 : ends.size(); }
    std::uint32_t end() const { return ends.empty() ? last : ends[group]; }
    bool finished() const { return group >= groups(); }
    bool lastSweep() const { return done + 1 == limit; }
    void stop() { group = groups(); }
    /// After one contact: note its change; at the end of a sweep, move to the next group
    /// if no change in it exceeded `tolerance` (a negative tolerance never does) or the
    /// group had its `limit` sweeps. Squares work as well (the order is the same), and
    /// spare a square root per contact.
    void advance(real change, real tolerance) {
        largestChange = std::max(largestChange, change);
        if (++at < end()) return;
        ++done;
        settled = largestChange <= tolerance;
        if (settled || done >= limit) {
            first = end();
            ++group;
            done = 0;
        }
        at = first;
        largestChange = 0;
    }
};

class ContactResolver {
public:
    explicit ContactResolver(ResolverSettings settings = {});

    const ResolverSettings& settings() const { return settings_; }
    void setSettings(const ResolverSettings& s) { settings_ = s; }

    /// Called with every record during resolve() and the stepping form. No cost when
    /// unset.
    void setObserver(std::function<void(const ResolutionRecord&)> observer) { observer_ = std::move(observer); }

    /// Resolves `contacts`, grouped into islands: island k is the contact range
    /// [islandStarts[k], islandStarts[k + 1]) (pass {0, contacts.size()} for one island).
    /// The bodies are changed in place. `dt` is the step the contacts came from.
    void resolve(std::span<Body> bodies, std::span<Contact> contacts, std::span<const std::uint32_t> islandStarts,
                 real dt);

    // The stepping form. begin() prepares the contacts; then each stepPosition() call
    // resolves the deepest remaining penetration of the first unfinished island and
    // returns true, or returns false when every island's positions are done. After
    // that, stepVelocity() does the same for velocities.
    void begin(std::span<Body> bodies, std::span<Contact> contacts, std::span<const std::uint32_t> islandStarts,
               real dt);
    bool stepPosition(ResolutionRecord& record);
    bool stepVelocity(ResolutionRecord& record);
    const ResolverStats& stats() const { return stats_; }

private:
    bool advancePosition(ResolutionRecord& record);
    bool advanceVelocity(ResolutionRecord& record);
    void startPositions(std::size_t island);
    void finishPositions();
    void startVelocities(std::size_t island);
    void finishVelocities();
    bool nextPosition(ResolutionRecord& record);
    bool nextDeepest(ResolutionRecord& record);
    real bounceKey(const Contact& c) const;
    void bounceFromGap(const Contact& c);
    void orderByLevel();
    void sortByLevel(std::uint32_t first, std::uint32_t last);
    int lowerSide(const Contact& c) const;
    bool nextPush(ResolutionRecord& record);
    void finishPositionRecord(ResolutionRecord& record, const Contact& c, const detail::BodyChange& change);
    bool nextVelocity(ResolutionRecord& record);
    Vec3 sweepVelocity(detail::ImpulseRow& row);
    ResolutionRecord recordFor(ResolutionRecord::Kind kind, std::uint32_t index) const;
    void notify(const ResolutionRecord& record) const {
        if (observer_) observer_(record);
    }

    ResolverSettings settings_;
    std::function<void(const ResolutionRecord&)> observer_;
    ResolverStats stats_;

    // The current run.
    std::span<Body> bodies_;
    std::span<Contact> contacts_;
    std::vector<std::uint32_t> islandStarts_;
    real dt_ = 0;
    /// Whether each resolution fills a record and leaves the Body array up to date
    /// (the stepping form, or resolve() with an observer). Off, the passes work on
    /// their compact copies and write the bodies back once at the end; the numbers are
    /// the same either way.
    bool recording_ = true;
    std::vector<std::uint32_t> contactsOfBodyStart_; ///< CSR: contacts touching each body
    std::vector<std::uint32_t> contactsOfBody_;
    std::vector<std::uint32_t> touched_;     ///< bodies some contact touches, in index order
    std::size_t island_ = 0;     ///< island being resolved
    bool islandStarted_ = false;
    int iterations_ = 0;         ///< in this island and phase
    bool positionsDone_ = false;
    bool velocitiesDone_ = false;
    IndexedMaxHeap heap_;        ///< the island's contacts by penetration or desired velocity change
    std::vector<real> keys_;     ///< scratch: heap keys by contact
    std::vector<detail::SolverBody> solver_; ///< compact bodies (index body + 1; 0: the world)
    std::vector<Mat3> inverseInertia_;       ///< world inverse inertia by solver body, fixed for a pass
    std::vector<detail::PushRow> pushRows_;       ///< sequential projection, by contact
    std::vector<detail::ImpulseRow> impulseRows_; ///< velocity pass, in sweep order
    std::vector<std::uint32_t> rowOf_;            ///< each contact's place in the sweep order (and its row)
    std::vector<Vec3> pushLinear_, pushAngular_; ///< sequential projection: each body's move this step (index body + 1)
    std::vector<Vec3> startPosition_;        ///< sequential projection: each body's pose when the step began
    std::vector<Quat> startOrientation_;
    std::vector<std::uint32_t> bodyLevel_;  ///< contacts from a static body (0: static)
    std::vector<std::uint32_t> sweepOrder_; ///< per island, its contacts bottom-up
    std::vector<std::uint32_t> contactLevel_; ///< orderByLevel: the lower level of each contact's bodies
    std::vector<std::uint32_t> contactTop_;   ///< orderByLevel: the upper level of each contact's bodies
    std::vector<std::uint32_t> shockEnds_;    ///< the island's shock propagation groups (ends in the sweep order)
    Sweeps shock_;                            ///< the island's shock propagation passes (SequentialImpulses)
    std::vector<std::uint32_t> frontier_;   ///< scratch for orderByLevel
    std::vector<std::uint32_t> levelCount_; ///< orderByLevel: counting sort's buckets
    std::vector<std::uint32_t> byTop_;      ///< orderByLevel: the order after the first counting pass
    Sweeps sweeps_;              ///< the island's sweeps (Sequential, SequentialImpulses)
    bool bouncing_ = false;      ///< SequentialImpulses: still in the collision (bounce) pass
};

} // namespace jounce
