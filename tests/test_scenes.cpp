// The shared scenes, run as the demo and jounce-bench run them.

#include "helpers.hpp"
#include "scenes/bench_scenes.hpp"
#include "scenes/scene.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace jounce;
using jounce::scenes::makeScene;

namespace {

bool allFinite(const World& w) {
    for (const BodyId id : w.bodyIds()) {
        const Body& b = w.body(id);
        if (!b.position.allFinite() || !b.linearVelocity.allFinite() || !b.angularVelocity.allFinite()) return false;
    }
    return true;
}

} // namespace

TEST_CASE("every scene runs 600 steps with finite state and draws something", "[physics][scene]") {
    for (const std::string& name : scenes::sceneNames()) {
        CAPTURE(name);
        auto scene = makeScene(name);
        // The benchmark scenes are big (up to 4096 bodies): a few steps here, the full
        // runs are jounce-bench's and the [contact] tests'.
        const int steps = scenes::isBenchScene(name) ? 20 : 600;
        for (int i = 0; i < steps; ++i) scene->step();
        CHECK(allFinite(scene->world()));
        scenes::DrawList list;
        scene->draw(list);
        CHECK(list.items.size() > 1);
    }
    CHECK_THROWS_WITH(makeScene("no-such-scene"), Catch::Contains("unknown scene"));
}

TEST_CASE("scenes are deterministic: two runs hash equal at every step", "[physics][scene]") {
    for (const char* name : {"fireworks", "springs", "ballistic"}) {
        CAPTURE(name);
        auto a = makeScene(name), b = makeScene(name);
        for (int i = 0; i < 300; ++i) {
            a->step();
            b->step();
            REQUIRE(testing::stateHash(a->world()) == testing::stateHash(b->world()));
        }
    }
}

TEST_CASE("ballistic rounds fly with the book's accelerations", "[physics][scene]") {
    auto scene = makeScene("ballistic");
    scene->act(4); // auto fire off
    scene->act(1); // artillery: (0, 30, 40) m/s, -20 m/s^2, damping 0.99
    const BodyId round = scene->visuals().back().body;
    const real h = scene->timeStep();
    const Vec3 v0 = scene->world().body(round).linearVelocity;
    CHECK(v0.isApprox(Vec3(0, 30, 40)));
    scene->step();
    const Vec3 v1 = scene->world().body(round).linearVelocity;
    CHECK(v1.y() == Approx((30 - 20 * h) * std::pow(real(0.99), h)).epsilon(testing::tol(1e-12, 1e-5)));
    CHECK(v1.z() == Approx(40 * std::pow(real(0.99), h)).epsilon(testing::tol(1e-12, 1e-5)));
}

TEST_CASE("the spinning scene shows the intermediate-axis flip", "[physics][scene]") {
    auto scene = makeScene("spinning");
    const auto& v = scene->visuals();
    REQUIRE(v.size() == 3);
    real minMiddle = 1, minMajor = 1;
    for (int i = 0; i < 600; ++i) {
        scene->step();
        const Body& major = scene->world().body(v[0].body);
        const Body& middle = scene->world().body(v[1].body);
        const Vec3 wm = middle.orientation.conjugate() * middle.angularVelocity;
        const Vec3 wM = major.orientation.conjugate() * major.angularVelocity;
        minMiddle = std::min(minMiddle, wm.y() / wm.norm());
        minMajor = std::min(minMajor, wM.x() / wM.norm());
    }
    CHECK(minMiddle < real(-0.9));
    CHECK(minMajor > real(0.99));
}

TEST_CASE("fireworks spawn payloads and retire them", "[physics][scene]") {
    auto scene = makeScene("fireworks");
    std::size_t most = 0;
    for (int i = 0; i < 600; ++i) {
        scene->step();
        most = std::max(most, scene->world().bodyCount());
    }
    CHECK(most > 30);                              // bursts happened (a rocket alone is 1 body)
    CHECK(scene->world().bodyCount() < most);      // and burnt-out fireworks were removed
}

TEST_CASE("dragging: a kinematic body follows the target, a dynamic one is pulled there", "[physics][scene]") {
    auto contacts = makeScene("contacts");
    const BodyId box = contacts->visuals()[2].body; // ground, block, then the kinematic box
    REQUIRE(contacts->world().body(box).type == BodyType::Kinematic);
    const Vec3 held = contacts->world().body(box).position + Vec3(real(0.2), 0, 0);
    REQUIRE(contacts->grab(box, held));
    const Vec3 target = held + Vec3(1, real(0.5), -1);
    contacts->dragTo(target);
    contacts->step();
    const Body& b = contacts->world().body(box);
    CHECK((b.position + Vec3(real(0.2), 0, 0) - target).norm() < testing::tol(1e-9, 1e-4));
    contacts->release();
    CHECK(contacts->grabbed().isNull());
    CHECK_FALSE(contacts->grab(contacts->visuals()[1].body, Vec3::Zero())); // static block

    auto spinning = makeScene("spinning"); // no gravity: only the drag spring acts
    const BodyId heavy = spinning->visuals()[0].body;
    const Vec3 start = spinning->world().body(heavy).position;
    REQUIRE(spinning->grab(heavy, start));
    spinning->dragTo(start + Vec3(0, 2, 0));
    for (int i = 0; i < 180; ++i) spinning->step();
    const Body& h = spinning->world().body(heavy);
    // The held point is the centre of mass, so the spring pulls it without turning it.
    CHECK((h.position - (start + Vec3(0, 2, 0))).norm() < real(0.05));
    spinning->release();
    CHECK(spinning->world().forceGeneratorIds().empty());
}
