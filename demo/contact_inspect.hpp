// SPDX-License-Identifier: MIT
#pragma once
/// \file contact_inspect.hpp
/// What the panel's contact statistics and the 'step contact' mode read from a World.
/// No GL and no ImGui here, so jounce-demo-tests compiles this file and checks it.
///
/// The step-contact mode. The World keeps its resolver's stepping form to itself and
/// cannot be copied (its broad phase is move-only), so the mode cannot resolve one
/// contact of a step that has not happened. Instead it runs the real step once, with
/// World::setResolverObserver collecting every ResolutionRecord, and then reveals the
/// records one at a time. While a record arrives the world is in the middle of that
/// step, so the observer also keeps what is visible only then: the contact as the
/// resolver left it (point, normal, penetration) and the poses of the record's bodies
/// right after it. The rest of the world is drawn as it is at the end of the step.

#include "scenes/scene.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace jounce::demo {

/// Counts for the panel, from the world's last step.
struct WorldCounts {
    std::size_t dynamicBodies = 0;
    std::size_t sleepingBodies = 0; ///< dynamic bodies with awake == false
};
WorldCounts countBodies(const World& world);

/// One record of the recorded step, with what could be seen only while it happened.
struct SteppedRecord {
    ResolutionRecord record;
    Vec3 point = Vec3::Zero();  ///< the contact's point [m], right after the record
    Vec3 normal = Vec3::UnitY(); ///< from body 1 toward body 0
    real penetration = 0;       ///< right after the record [m]
    std::size_t contactCount = 0; ///< size of the contact array the record indexes
    /// record.body[i]'s pose right after the record (identity for noBody).
    std::array<Transform, 2> pose{};
};

class ContactStepper {
public:
    /// Records past this many are counted but not kept (a pile can make millions).
    static constexpr std::size_t kMaxRecords = 50000;

    /// Runs scene.step() once with an observer that keeps every record (up to
    /// kMaxRecords), then enters the mode showing record 0. The step itself is the
    /// ordinary one: the observer only reads. If the step throws, the observer is
    /// removed, the mode stays off and the exception propagates.
    void record(scenes::Scene& scene);

    bool active() const { return active_; }
    /// Leaves the mode and forgets the records.
    void leave();

    /// Shows the next record; false (and stays) at the last one or when inactive.
    bool next();
    /// Shows record `index` (clamped to the last).
    void show(std::size_t index);

    std::size_t index() const { return index_; }
    const std::vector<SteppedRecord>& records() const { return records_; }
    /// Every record of the step, kept or not.
    std::size_t total() const { return total_; }
    /// The record shown, or nullptr when inactive or the step had none (every island
    /// asleep, no contacts).
    const SteppedRecord* current() const;
    /// Number of the recorded step (World::stepCount() after it).
    std::uint64_t step() const { return step_; }
    /// The handle of body slot `slot` when the step ran, or the null handle.
    BodyId bodyId(std::uint32_t slot) const;

private:
    bool active_ = false;
    std::vector<SteppedRecord> records_;
    std::size_t total_ = 0;
    std::size_t index_ = 0;
    std::uint64_t step_ = 0;
    std::vector<BodyId> slotIds_; ///< slot index -> handle (null for dead slots)
};

/// The panel's lines for one record: kind, contacts, island; for a soft-step visit its
/// substep, colour, block and lane; bodies, before / after; for a position record each
/// body's move and turn, for the others each body's velocities before -> after and the
/// impulse.
std::vector<std::string> describeRecord(const SteppedRecord& r);

/// The drawing's legend, in the colours drawRecord uses (the panel shows it).
struct LegendItem {
    const char* text;
    scenes::Colour colour;
};
std::vector<LegendItem> recordLegend();

/// Appends the drawing of the shown record to `out`: the contact point (a cross) and
/// normal; outlines of the record's dynamic bodies at their pose right after it (A
/// cyan, B white), labelled with stroke letters A and B; for a position record also,
/// dimmer, the pose just before it; for the others each body's velocity before (dim
/// green) and after (green) from its centre, and the impulse on A as the velocity
/// change it gives A, all at 0.5 m per m/s. Everything is drawn as overlay lines.
void drawRecord(const World& world, const ContactStepper& stepper, scenes::DrawList& out);

} // namespace jounce::demo
