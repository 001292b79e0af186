// SPDX-License-Identifier: MIT
#pragma once
/// \file islands.hpp
/// Grouping (DESIGN.md step 5): bodies joined by contacts (and, later, joints and
/// particle constraints) form islands, found by union-find. Static and kinematic
/// bodies never join an island, so everything resting on one floor is not one island.
/// Each island is resolved on its own and sleeps as a whole.
///
/// Order: islands are numbered by their lowest body index, and each island's contacts
/// keep their input order, so the grouping never depends on anything but the data.

#include <jounce/contact/contact.hpp>
#include <jounce/dynamics/body.hpp>

#include <span>
#include <utility>
#include <vector>

namespace jounce {

class TaskSystem;

constexpr std::uint32_t noIsland = std::numeric_limits<std::uint32_t>::max();

struct Islands {
    std::vector<std::uint32_t> bodyIsland;    ///< per body: its island, or noIsland
    std::vector<std::uint32_t> bodies;        ///< dynamic bodies grouped by island
    std::vector<std::uint32_t> bodyStarts;    ///< island k: bodies[bodyStarts[k] .. bodyStarts[k+1])
    std::vector<std::uint32_t> contactOrder;  ///< contact indices grouped by island
    std::vector<std::uint32_t> contactStarts; ///< island k: contactOrder[contactStarts[k] .. contactStarts[k+1])
    std::vector<std::uint32_t> unionFind;     ///< scratch of buildIslands, kept for its capacity
    /// Scratch of buildIslands on several workers: each worker but the first joins its
    /// share of the links in a forest of its own.
    std::vector<std::vector<std::uint32_t>> forests;
    /// Per body slot, whether it is dynamic (buildIslands): one byte read for each of a
    /// link's bodies instead of a Body (0.6 kB) from all over memory.
    std::vector<std::uint8_t> dynamic;
    std::size_t count() const { return bodyStarts.empty() ? 0 : bodyStarts.size() - 1; }
};

/// Groups the dynamic bodies (every one gets an island, alone if it touches nothing)
/// and the contacts. `links` are extra pairs of body indices to join (joints). With
/// `tasks`, the bodies' kinds are read on its workers, and many links are joined in a
/// forest a worker, the forests then joined here: the same islands as one thread's.
void buildIslands(std::span<const Body> bodies, std::span<const std::uint8_t> alive, std::span<const Contact> contacts,
                  std::span<const std::pair<std::uint32_t, std::uint32_t>> links, Islands& out, TaskSystem* tasks = nullptr);

/// Millington's sleep settings (seeds/004 ch. 16 optimisation), his values as defaults.
struct SleepSettings {
    bool enabled = true;
    /// Motion (v.v + w.w, recency-weighted) below which a body may sleep [m^2/s^2].
    /// Millington's sleepEpsilon (his value is 0.3). 0.05, a speed of about 0.22 m/s:
    /// at 0.3 a body gliding steadily at 0.5 m/s (a puck, a rolling ball) fell asleep,
    /// and a pile of grains froze while some still slid at 1 m/s. A body that starts
    /// from rest and speeds up slower than about 0.4 m/s^2 may still fall asleep before
    /// it gets going, at either value (the motion it starts with decays first).
    real sleepThreshold = real(0.05);
    /// Share of the recency-weighted motion kept after one second: each step weighs the
    /// old motion by bias = motionBias^dt. Millington's baseBias (his value is 0.5).
    /// 0.15: a body starts (and wakes) with motion 2 sleepThreshold, so a body at rest
    /// may sleep once 0.15^t < 1/2, after 0.37 s (step 22 at 60 Hz), where 0.5 took a
    /// second; Box2D and Jolt put a body to sleep after half a second at rest.
    real motionBias = real(0.15);
    /// The most the recency-weighted motion holds, in sleepThresholds: a body that moved
    /// hard may sleep log(motionCap) / log(1 / motionBias) seconds after it comes to
    /// rest. Millington clamps at 10 (1.2 s at motionBias 0.15: a dropped pile of 1000
    /// boxes, at rest from step 115, slept from step 187); 2, the motion a body starts and
    /// wakes with, puts a hard-hit body to sleep as soon as a gently placed one (0.37 s,
    /// Box2D's and Jolt's half a second at rest: the pile sleeps from step 138). In
    /// [1, 1e6]; below 2 a woken body starts above the cap, and the next update clamps it.
    real motionCap = 2;
};

/// Step 8: updates each awake body's motion, motion = bias motion + (1 - bias)(v.v + w.w)
/// clamped at motionCap sleepThreshold; puts to sleep every island whose bodies can all sleep
/// and are all below sleepThreshold (their velocities are zeroed). Islands flagged in
/// `keepAwake` (by island, may be empty) stay awake: something joined to them (moving
/// particles) is not quiet yet. Returns how many bodies fell asleep.
int updateSleep(std::span<Body> bodies, const Islands& islands, real dt, const SleepSettings& settings,
                std::span<const std::uint8_t> keepAwake = {});

/// Flags (`moved`, by island) the islands with a contact on a kinematic body that moves
/// (a joint to one counts, slack or not: it will pull). Such an island is woken and does not
/// sleep: a box on a turning platform rides along instead of being left behind (Box2D
/// and Jolt keep bodies touching a moving kinematic body awake the same way). `links`:
/// the pairs of body indices that touch or are jointed (a manifold's, a joint's).
/// `islands`: buildIslands' over these bodies (its bodyIsland and dynamic are read).
void markMovedByKinematics(std::span<const Body> bodies, std::span<const std::pair<std::uint32_t, std::uint32_t>> links,
                           const Islands& islands, std::vector<std::uint8_t>& moved);

/// Wakes every body of an island in which any body is awake (a sleeping pile touched
/// by an awake ball wakes as a whole). Returns how many bodies it woke.
int wakeTouchedIslands(std::span<Body> bodies, const Islands& islands, real sleepThreshold);
/// Wakes every sleeping body of island k, with motion 2 sleepThreshold; returns how many.
int wakeIsland(std::span<Body> bodies, const Islands& islands, std::size_t k, real sleepThreshold);

} // namespace jounce
