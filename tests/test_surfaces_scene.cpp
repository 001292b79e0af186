// SPDX-License-Identifier: MIT
// The surfaces scene (scenes/surfaces.cpp): every part of it does what its description
// says, measured on the bodies: the one-way shelf, the belt, ice against rubber, turf
// against boards (the rolling distance v^2 / (2 (5/7) c g)), the lock carrying its load,
// tiles toppling in their plane, and the scanner's shape cast broken by the crates.

#include "helpers.hpp"
#include "scenes/scene.hpp"

#include <jounce/jounce.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <memory>
#include <vector>

using namespace jounce;

namespace {

/// The dynamic bodies whose first collider is `kind`, with where they started.
template <class Kind> std::vector<std::pair<BodyId, Vec3>> bodiesOf(const World& w) {
    std::vector<std::pair<BodyId, Vec3>> out;
    for (const BodyId id : w.bodyIds()) {
        const BodyState b = w.body(id);
        if (b.isDynamic() && std::holds_alternative<Kind>(w.collider(w.colliderIdsOf(id)[0]).shape)) out.emplace_back(id, b.position);
    }
    return out;
}

/// Whether the scene draws its scanner's line shorter than its 4 m (something in the way).
bool beamBroken(const scenes::Scene& scene) {
    scenes::DrawList list;
    scene.draw(list);
    for (const scenes::DrawLine& l : list.lines)
        if ((l.a - Vec3(-4, real(1.25), 3)).norm() < real(1e-6)) return (l.b - l.a).norm() < real(3.99);
    FAIL("no scanner line");
    return false;
}

} // namespace

TEST_CASE("the surfaces scene: one-way shelf and belt and ice and turf and locks and the scanner do what it says", "[demo][scene]") {
    const std::unique_ptr<scenes::Scene> scene = scenes::makeScene("surfaces");
    World& w = scene->world();
    const auto spheres = bodiesOf<Sphere>(w); // four balls under the shelf, two on the lanes
    REQUIRE(spheres.size() == 6);
    const auto boxes = bodiesOf<Box>(w);      // two ramp boxes, the locked platform, its crate, six tiles
    REQUIRE(boxes.size() == 10);
    BodyId platform{}, heavy{};
    std::vector<BodyId> tiles;
    BodyId ice{}, rubber{};
    Vec3 iceStart = Vec3::Zero(), rubberStart = Vec3::Zero();
    for (const auto& [id, start] : boxes) {
        const BodyState b = w.body(id);
        if (b.locks.linearY) platform = id;
        else if (b.locks.linearZ) tiles.push_back(id);
        else if (std::abs(b.mass - 50) < real(0.01)) heavy = id;
        else if (start.x() < real(3.5)) { ice = id; iceStart = start; }
        else { rubber = id; rubberStart = start; }
    }
    REQUIRE(!platform.isNull());
    REQUIRE(!heavy.isNull());
    REQUIRE(tiles.size() == 6);
    REQUIRE((!ice.isNull() && !rubber.isNull()));
    BodyId turf{}, boards{};
    for (const auto& [id, start] : spheres)
        if (start.x() > 7) (start.x() < real(8.5) ? turf : boards) = id;
    REQUIRE((!turf.isNull() && !boards.isNull()));

    int broken = 0, clear = 0;
    real platformOff = 0, tileOff = 0;
    real beltSpeed = 0;
    for (int i = 0; i < 60 * 8; ++i) {
        scene->step();
        (beamBroken(*scene) ? broken : clear) += 1;
        platformOff = std::max(platformOff, std::abs(w.body(platform).position.y() - real(1.5)));
        for (const BodyId t : tiles) tileOff = std::max(tileOff, std::abs(w.body(t).position.z() - 5));
        if (i == 60 * 4) // a crate riding the belt's middle by now
            for (const auto& [id, start] : bodiesOf<Box>(w))
                if (std::abs(w.body(id).position.x() + 2) < real(0.1) && std::abs(w.body(id).position.z()) < 2)
                    beltSpeed = std::max(beltSpeed, w.body(id).linearVelocity.z());
        if (i == 60 * 3) {
            // Up through the shelf and resting on it (its top at 2.6 m; a ball's centre 0.2 above).
            int onShelf = 0;
            for (const auto& [id, start] : spheres)
                if (start.x() < -6 && std::abs(w.body(id).position.y() - real(2.8)) < real(0.02)) ++onShelf;
            CHECK(onShelf >= 3);
        }
    }
    INFO("beam broken in " << broken << " frames, clear in " << clear << "; belt crate at " << beltSpeed << " m/s");
    CHECK(beltSpeed == Approx(2).margin(0.05));
    CHECK(broken > 30);
    CHECK(clear > 30);
    // Ice: slid off its ramp; rubber: held where it was put.
    CHECK((w.body(ice).position - iceStart).norm() > 2);
    CHECK((w.body(rubber).position - rubberStart).norm() < real(0.01));
    // Turf: a ball rolling at 3 m/s slows at (5/7) c g and stops after v^2 / (2 (5/7) c g).
    const real expected = 9 / (2 * real(5) / 7 * real(0.1) * real(9.81));
    const real rolled = w.body(turf).position.z() + 6;
    INFO("the turf ball rolled " << rolled << " m (expected " << expected << "), the boards ball to z = " << w.body(boards).position.z());
    CHECK(std::abs(rolled - expected) < real(0.1) * expected);
    CHECK(w.body(turf).linearVelocity.norm() < real(0.05));
    CHECK(w.body(boards).position.z() > 10); // rolled the length of its lane to the bumper
    // Locks: the platform never moved along y, and carries the 50 kg crate on its top.
    CHECK(platformOff == 0);
    CHECK(w.body(heavy).position.y() == Approx(2).margin(0.01));
    CHECK(tileOff == 0);
    real highest = 0;
    for (const BodyId t : tiles) highest = std::max(highest, w.body(t).position.y());
    CHECK(highest < real(2.5)); // the leaning tower of six (its top was at 2.75) went over
}
