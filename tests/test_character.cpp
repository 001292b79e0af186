// SPDX-License-Identifier: MIT
// The character mover (physics/character/, docs/character.md): walking, slopes, stairs,
// snapping down, platforms, pushing and being pushed, walls at any speed, bad input.

#include "expect_error.hpp"
#include "helpers.hpp"
#include "scenes/scene.hpp"

#include <jounce/jounce.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

using namespace jounce;
using testing::at;

namespace {

constexpr real frame = real(1) / 60;

BodyId addStaticBox(World& w, const Vec3& centre, const Vec3& half, const Quat& q = Quat::Identity()) {
    BodyDesc d;
    d.type = BodyType::Static;
    d.position = centre;
    d.orientation = q;
    d.colliders.push_back(testing::boxCollider(half));
    return w.createBody(d);
}

/// Runs `seconds` of game frames: the character's update, then the world's step.
void play(World& w, Character& c, real seconds, const Vec3& walk) {
    const int frames = static_cast<int>(std::lround(seconds / frame));
    for (int i = 0; i < frames; ++i) {
        c.update(w, frame, walk);
        w.step(frame);
    }
}

/// A ramp rising along +x at `angle`, its top surface through the origin's x at y = 0.
BodyId addRamp(World& w, real angle, real length) {
    const Quat q = testing::turn(angle, Vec3::UnitZ());
    // a slab 0.5 m thick whose top face passes through (0, 0, 0) at its lower end
    const Vec3 half(length / 2, real(0.25), 3);
    const Vec3 centre = q * Vec3(length / 2, -real(0.25), 0);
    return addStaticBox(w, centre, half, q);
}

/// The ground, a ramp at `angle` rising along +x from the origin, and a character 2 m
/// before its foot.
struct RampWorld {
    World w;
    Character c;
    RampWorld(real angle, real length) : c(makeRamp(w, angle, length), feet()) {}
    static World& makeRamp(World& w, real angle, real length) {
        testing::addGround(w);
        addRamp(w, angle, length);
        return w;
    }
    static CharacterDesc feet() {
        CharacterDesc d;
        d.position = Vec3(-2, 0, 0);
        return d;
    }
};

/// A kinematic slab 0.2 m thick at `centre` of half size `halfX` by `halfZ`, moving at
/// `velocity` (and turning at `spin`).
BodyId addPlatform(World& w, const Vec3& centre, real halfX, real halfZ, const Vec3& velocity, const Vec3& spin = Vec3::Zero()) {
    BodyDesc p;
    p.type = BodyType::Kinematic;
    p.position = centre;
    p.linearVelocity = velocity;
    p.angularVelocity = spin;
    p.colliders.push_back(testing::boxCollider(Vec3(halfX, real(0.1), halfZ)));
    return w.createBody(p);
}

/// A level of one triangle mesh: a profile in the x-y plane (each point after the first
/// joined to the one before) extruded over z in [-2, 2], its front faces up and toward -x
/// (the way a character walking +x meets them). Each straight piece is two triangles.
BodyId addProfileMesh(World& w, const std::vector<Vec3>& profile) {
    std::vector<Vec3> v;
    std::vector<std::array<std::uint32_t, 3>> t;
    for (const Vec3& p : profile) {
        v.push_back(Vec3(p.x(), p.y(), -2));
        v.push_back(Vec3(p.x(), p.y(), 2));
    }
    for (std::uint32_t i = 0; i + 1 < profile.size(); ++i) {
        const std::uint32_t a = 2 * i, b = 2 * i + 1, c = 2 * i + 3, d = 2 * i + 2;
        t.push_back({a, b, c});
        t.push_back({a, c, d});
    }
    return testing::addStaticMesh(w, v, t);
}

} // namespace

TEST_CASE("character: solvePlanes finds the nearest clear move and clipVelocity stops motion into the planes", "[physics]") {
    // Two walls at a right angle (normals +x and +z), touching: a move into both ends in the corner.
    std::vector<CharacterPlane> planes{{Vec3::UnitX(), 0}, {Vec3::UnitZ(), real(0.1)}};
    const Vec3 move = solvePlanes(Vec3(-1, 0, -1), planes);
    CHECK(move.x() == Approx(0).margin(1e-4));
    CHECK(move.z() == Approx(-0.1).margin(1e-4));
    CHECK(planes[0].push == Approx(1).margin(1e-4));
    CHECK(planes[1].push == Approx(0.9).margin(1e-4));
    // A move away from a plane is untouched, and its velocity too.
    std::vector<CharacterPlane> floor{{Vec3::UnitY(), 0}};
    CHECK(solvePlanes(Vec3(1, 2, 3), floor).isApprox(Vec3(1, 2, 3)));
    CHECK(floor[0].push == 0);
    floor[0].push = 1;
    CHECK(clipVelocity(Vec3(1, -2, 3), floor).isApprox(Vec3(1, 0, 3)));
    CHECK(clipVelocity(Vec3(1, 2, 3), floor).isApprox(Vec3(1, 2, 3)));
    // A soft plane pushes at most its limit.
    std::vector<CharacterPlane> soft{{Vec3::UnitY(), 0, 0, real(0.25), false}};
    CHECK(solvePlanes(Vec3(0, -1, 0), soft).y() == Approx(-0.75));
}

TEST_CASE("character: walks across flat ground at its walking speed, on the ground all the way", "[physics][scene]") {
    World w;
    testing::addGround(w);
    Character c(w, CharacterDesc{});
    int airborne = 0;
    for (int i = 0; i < 120; ++i) {
        c.update(w, frame, Vec3(3, 0, 0));
        w.step(frame);
        if (!c.onGround()) ++airborne;
    }
    CHECK(airborne == 0);
    CHECK(c.position().x() == Approx(6).margin(1e-6));
    CHECK(std::abs(c.position().y()) < real(1e-3));
    CHECK(c.velocity().isApprox(Vec3(3, 0, 0), testing::tol(1e-6, 1e-3)));
}

TEST_CASE("character: falls as a projectile and lands on the ground", "[physics][scene]") {
    World w;
    testing::addGround(w);
    CharacterDesc d;
    d.position = Vec3(0, 5, 0);
    Character c(w, d);
    real landed = -1;
    for (int i = 0; i < 120 && landed < 0; ++i) {
        c.update(w, frame, Vec3::Zero());
        w.step(frame);
        if (c.onGround()) landed = real(i + 1) * frame;
    }
    // Semi-implicit Euler, h = 1/60: y_n = 5 - g h^2 n (n + 1) / 2 reaches 0 at n ~ 60 (t = 1.0 s).
    CHECK(landed == Approx(std::sqrt(2 * 5 / real(9.81))).margin(2 * frame));
    CHECK(std::abs(c.position().y()) < real(1e-3));
    CHECK(c.verticalSpeed() == 0);
}

TEST_CASE("character: walks up a 30 degree ramp and stands on it, slides down a 60 degree one and cannot walk up it", "[physics][scene]") {
    const real deg = std::numbers::pi_v<real> / 180;
    SECTION("30 degrees: walkable") {
        RampWorld r(30 * deg, 10);
        World& w = r.w;
        Character& c = r.c;
        play(w, c, 3, Vec3(2, 0, 0)); // 6 m: 2 m on the flat, then about 4 m up the ramp
        CHECK(c.onGround());
        CHECK(c.position().y() > real(1.5));
        const Vec3 standing = c.position();
        play(w, c, 2, Vec3::Zero());
        CHECK((c.position() - standing).norm() < real(1e-3)); // does not slide
        CHECK(c.onGround());
    }
    SECTION("60 degrees: too steep") {
        RampWorld r(60 * deg, 6);
        World& w = r.w;
        Character& c = r.c;
        real highest = 0;
        for (int i = 0; i < 180; ++i) {
            c.update(w, frame, Vec3(3, 0, 0));
            w.step(frame);
            highest = std::max(highest, c.position().y());
        }
        CHECK(highest < real(0.05));
        // Put on the slope 2 m up, it slides down to the foot.
        c.teleport(w, Vec3(real(1.0), 2, 0));
        play(w, c, 3, Vec3::Zero());
        CHECK(c.position().y() < real(0.05));
        CHECK(c.position().x() < real(0.5));
    }
}

TEST_CASE("character: steps up stairs no higher than stepHeight and not higher ones, snaps down walking down", "[physics][scene]") {
    World w;
    testing::addGround(w);
    // 8 stairs of 0.2 m rise and 0.4 m tread along +x from x = 1, then a landing.
    for (int i = 0; i < 8; ++i)
        addStaticBox(w, Vec3(1 + real(0.4) * i + 2, real(0.1) * (i + 1), 0), Vec3(2, real(0.1) * (i + 1), 2));
    CharacterDesc d;
    Character c(w, d);
    play(w, c, 3, Vec3(2, 0, 0)); // up eight stairs in about 2.3 s, then along the landing (it ends at x = 7.8)
    CHECK(c.onGround());
    CHECK(c.position().y() == Approx(1.6).margin(2e-3));
    CHECK(c.position().x() > 4);
    // Walking back down: on the ground in every frame (snapped down each stair).
    int airborne = 0;
    for (int i = 0; i < 150; ++i) {
        c.update(w, frame, Vec3(-2, 0, 0));
        w.step(frame);
        if (!c.onGround()) ++airborne;
    }
    CHECK(airborne == 0);
    CHECK(std::abs(c.position().y()) < real(2e-3));

    SECTION("control: without snapping it leaves the ground going down") {
        CharacterDesc loose;
        loose.snapDistance = 0;
        loose.position = Vec3(real(5.5), real(1.6), 0);
        World w2;
        testing::addGround(w2);
        for (int i = 0; i < 8; ++i)
            addStaticBox(w2, Vec3(1 + real(0.4) * i + 2, real(0.1) * (i + 1), 0), Vec3(2, real(0.1) * (i + 1), 2));
        Character c2(w2, loose);
        int off = 0;
        for (int i = 0; i < 150; ++i) {
            c2.update(w2, frame, Vec3(-4, 0, 0));
            w2.step(frame);
            if (!c2.onGround()) ++off;
        }
        CHECK(off > 10);
    }
    SECTION("a 0.5 m block is too high to step onto") {
        World w3;
        testing::addGround(w3);
        addStaticBox(w3, Vec3(3, real(0.25), 0), Vec3(1, real(0.25), 2));
        Character c3(w3, CharacterDesc{});
        play(w3, c3, 3, Vec3(2, 0, 0));
        CHECK(c3.position().y() < real(1e-3));
        CHECK(c3.position().x() == Approx(2 - 0.3).margin(0.01));
    }
}

TEST_CASE("character: on a triangle-mesh level climbs and snaps down mesh stairs and walks a 30 degree mesh ramp but not a 60 degree one", "[physics][scene]") {
    const real deg = std::numbers::pi_v<real> / 180;
    SECTION("stairs: 8 of 0.2 m rise and 0.4 m tread with the ground before them in 1 m strips") {
        std::vector<Vec3> profile;
        for (int x = -4; x <= 1; ++x) profile.push_back(Vec3(real(x), 0, 0));
        for (int i = 0; i < 8; ++i) {
            profile.push_back(Vec3(1 + real(0.4) * real(i), real(0.2) * real(i + 1), 0));       // the riser's top
            profile.push_back(Vec3(1 + real(0.4) * real(i + 1), real(0.2) * real(i + 1), 0)); // the tread's end
        }
        profile.push_back(Vec3(8, real(1.6), 0)); // the landing
        World w;
        addProfileMesh(w, profile);
        CharacterDesc d;
        d.position = Vec3(-2, 0, 0);
        Character c(w, d);
        play(w, c, 4, Vec3(2, 0, 0)); // 3 m to the stairs, up them, on along the landing
        CHECK(c.onGround());
        CHECK(c.position().y() == Approx(1.6).margin(2e-3));
        CHECK(c.position().x() > real(4.5));
        int airborne = 0;
        for (int i = 0; i < 180; ++i) {
            c.update(w, frame, Vec3(-2, 0, 0));
            w.step(frame);
            if (!c.onGround()) ++airborne;
        }
        CHECK(airborne == 0); // snapped down every stair
        CHECK(std::abs(c.position().y()) < real(2e-3));
        CHECK(c.position().x() < 0);
    }
    for (const real angle : {30 * deg, 60 * deg}) {
        INFO("a mesh ramp of " << angle / deg << " degrees");
        const real length = 6;
        World w;
        addProfileMesh(w, {Vec3(-4, 0, 0), Vec3(-3, 0, 0), Vec3(-2, 0, 0), Vec3(-1, 0, 0), Vec3(0, 0, 0),
                           Vec3(length * std::cos(angle), length * std::sin(angle), 0)});
        CharacterDesc d;
        d.position = Vec3(-2, 0, 0);
        Character c(w, d);
        real highest = 0;
        for (int i = 0; i < 180; ++i) {
            c.update(w, frame, Vec3(2, 0, 0));
            w.step(frame);
            highest = std::max(highest, c.position().y());
        }
        if (angle < 45 * deg) {
            CHECK(c.onGround());
            CHECK(c.position().y() > real(1.5)); // about 4 m up the slope
            const Vec3 standing = c.position();
            play(w, c, 2, Vec3::Zero());
            CHECK((c.position() - standing).norm() < real(1e-3)); // stands without sliding
        } else {
            CHECK(highest < real(0.05));
            c.teleport(w, Vec3(1, 2, 0)); // put on the slope: slides to its foot
            play(w, c, 3, Vec3::Zero());
            CHECK(c.position().y() < real(0.05));
            CHECK(c.position().x() < real(0.5));
        }
    }
}

TEST_CASE("character: never passes through a thin wall or a mesh wall, at any speed", "[physics][scene]") {
    for (const real speed : {real(5), real(100), real(3000)}) {
        World w;
        testing::addGround(w);
        addStaticBox(w, Vec3(2, 1, 0), Vec3(real(0.01), 1, 2)); // 2 cm thick
        const std::vector<Vec3> corners{Vec3(-2, 0, -2), Vec3(-2, 0, 2), Vec3(-2, 2, 2), Vec3(-2, 2, -2)};
        const std::vector<std::array<std::uint32_t, 3>> faces{{0, 2, 1}, {0, 3, 2}}; // front faces +x
        const TriangleMesh wall = makeTriangleMesh(corners, faces);
        BodyDesc m;
        m.type = BodyType::Static;
        ColliderDesc mc;
        mc.shape = wall;
        m.colliders.push_back(mc);
        w.createBody(m);
        Character c(w, CharacterDesc{});
        play(w, c, real(0.5), Vec3(speed, 0, 0));
        CHECK(c.position().x() < real(1.99 - 0.29)); // the wall's face is at x = 1.99
        CHECK(c.position().x() > real(1.99 - 0.31));
        play(w, c, 1, Vec3(-speed, 0, 0));
        CHECK(c.position().x() > -2 + real(0.29));
        CHECK(c.position().x() < -2 + real(0.31));
    }
}

TEST_CASE("character: rides a moving platform and a turntable", "[physics][scene]") {
    World w;
    testing::addGround(w);
    SECTION("a platform moving at 1 m/s") {
        const BodyId platform = addPlatform(w, Vec3(0, real(0.5), 0), 2, 2, Vec3(1, 0, 0));
        CharacterDesc d;
        d.position = Vec3(0, real(0.6), 0);
        Character c(w, d);
        play(w, c, 2, Vec3::Zero());
        CHECK(c.ground() == platform);
        CHECK(c.position().x() == Approx(w.body(platform).position.x()).margin(0.02));
        CHECK(c.position().x() > real(1.9));
        CHECK(c.groundVelocity().isApprox(Vec3(1, 0, 0), real(1e-6)));
    }
    SECTION("a turntable at 1 rad/s") {
        const BodyId table = addPlatform(w, Vec3(0, real(0.1), 0), 4, 4, Vec3::Zero(), Vec3(0, 1, 0));
        CharacterDesc d;
        d.position = Vec3(2, real(0.2), 0);
        Character c(w, d);
        play(w, c, 2, Vec3::Zero());
        CHECK(c.ground() == table);
        const Vec3 flat(c.position().x(), 0, c.position().z());
        CHECK(flat.norm() == Approx(2).margin(0.01));
        // turned as the table did (about +y, x toward -z)
        CHECK(std::atan2(-c.position().z(), c.position().x()) == Approx(2 - frame).margin(0.05));
    }
}

TEST_CASE("character: pushes a dynamic box with at most its push force, and is pushed by a box slid into it", "[physics][scene]") {
    const auto boxWorld = [](World& w, real mass, const Vec3& at, const Vec3& velocity) {
        BodyDesc b;
        b.position = at;
        b.linearVelocity = velocity;
        ColliderDesc box = testing::boxCollider(Vec3::Constant(real(0.4)));
        box.density = mass / real(0.512);
        b.colliders.push_back(box);
        return w.createBody(b);
    };
    SECTION("pushing a 20 kg box") {
        for (const real force : {real(1000), real(0)}) {
            World w;
            testing::addGround(w);
            const BodyId box = boxWorld(w, 20, Vec3(1, real(0.4), 0), Vec3::Zero());
            CharacterDesc d;
            d.maxPushForce = force;
            Character c(w, d);
            play(w, c, 2, Vec3(real(1.5), 0, 0));
            const real moved = w.body(box).position.x() - 1;
            if (force > 0) {
                CHECK(moved > real(1.5)); // it walks along behind the box
                CHECK(c.position().x() > real(1.5));
            } else {
                CHECK(std::abs(moved) < real(0.01));
                CHECK(c.position().x() < real(1 - 0.4 - 0.29));
            }
        }
    }
    SECTION("a 300 kg box on friction 0.6 needs 1766 N: 1000 N does not move it") {
        World w;
        testing::addGround(w);
        const BodyId box = boxWorld(w, 300, Vec3(1, real(0.4), 0), Vec3::Zero());
        Character c(w, CharacterDesc{});
        play(w, c, 2, Vec3(real(1.5), 0, 0));
        CHECK(std::abs(w.body(box).position.x() - 1) < real(0.01));
    }
    SECTION("a 40 kg box slid into it at 6 m/s: the character takes the momentum the box loses") {
        World w;
        testing::addGround(w, 0); // frictionless, so the box keeps its speed to the character
        const BodyId box = boxWorld(w, 40, Vec3(-3, real(0.4), 0), Vec3(6, 0, 0));
        Character c(w, CharacterDesc{});
        real lost = 0;
        for (int i = 0; i < 60 && lost == 0; ++i) {
            c.update(w, frame, Vec3::Zero());
            w.step(frame);
            if (w.body(box).linearVelocity.x() < real(5.9)) lost = 40 * (6 - w.body(box).linearVelocity.x());
        }
        REQUIRE(lost > 0);
        c.update(w, frame, Vec3::Zero()); // reads the hit's impulse on its body
        // Momentum: 80 kg times the push it took (one frame's pushDamping applied).
        CHECK(80 * c.pushVelocity().x() / std::exp(-4 * frame) == Approx(lost).epsilon(0.1)); // 225 against 242 N s
        CHECK(lost > 100); // the box stopped against it, mostly
        play(w, c, 1, Vec3::Zero());
        // Pushed v / pushDamping: 2.8 m/s / 4 = 0.70 m.
        CHECK(c.position().x() == Approx(2.82 / 4).margin(0.05));
    }
}

TEST_CASE("character: a jump rises to v^2 / 2g", "[physics][scene]") {
    World w;
    testing::addGround(w);
    Character c(w, CharacterDesc{});
    play(w, c, real(0.1), Vec3::Zero());
    c.jump(5);
    real top = 0;
    for (int i = 0; i < 90; ++i) {
        c.update(w, frame, Vec3::Zero());
        w.step(frame);
        top = std::max(top, c.position().y());
    }
    CHECK(top == Approx(25 / (2 * real(9.81))).margin(5 * frame));
    CHECK(c.onGround());
}

TEST_CASE("character: bad input names its field and changes nothing", "[physics]") {
    World w;
    testing::addGround(w);
    const auto bad = [&](auto edit, const char* field) {
        CharacterDesc d;
        edit(d);
        const std::size_t before = w.bodyCount();
        testing::expectError([&] { Character c(w, d); }, field);
        CHECK(w.bodyCount() == before);
    };
    const real nan = std::numeric_limits<real>::quiet_NaN();
    bad([&](CharacterDesc& d) { d.position.x() = nan; }, "CharacterDesc.position");
    bad([](CharacterDesc& d) { d.radius = 0; }, "CharacterDesc.radius");
    bad([](CharacterDesc& d) { d.height = real(0.5); }, "CharacterDesc.height");
    bad([&](CharacterDesc& d) { d.height = nan; }, "CharacterDesc.height");
    bad([](CharacterDesc& d) { d.mass = -1; }, "CharacterDesc.mass");
    bad([](CharacterDesc& d) { d.maxSlope = 2; }, "CharacterDesc.maxSlope");
    bad([](CharacterDesc& d) { d.stepHeight = -1; }, "CharacterDesc.stepHeight");
    bad([](CharacterDesc& d) { d.snapDistance = std::numeric_limits<real>::infinity(); }, "CharacterDesc.snapDistance");
    bad([](CharacterDesc& d) { d.maxPushForce = -1; }, "CharacterDesc.maxPushForce");
    bad([&](CharacterDesc& d) { d.pushDamping = nan; }, "CharacterDesc.pushDamping");
    bad([](CharacterDesc& d) { d.encroach = real(0.2); }, "CharacterDesc.encroach");
    bad([&](CharacterDesc& d) { d.gravity.y() = nan; }, "CharacterDesc.gravity");

    Character c(w, CharacterDesc{});
    play(w, c, real(0.2), Vec3(1, 0, 0));
    const Vec3 before = c.position();
    const std::uint64_t hash = testing::stateHash(w);
    testing::expectError([&] { c.update(w, 0, Vec3::Zero()); }, "update.dt");
    testing::expectError([&] { c.update(w, nan, Vec3::Zero()); }, "update.dt");
    testing::expectError([&] { c.update(w, 2, Vec3::Zero()); }, "update.dt");
    testing::expectError([&] { c.update(w, frame, Vec3(nan, 0, 0)); }, "update.walkVelocity");
    testing::expectError([&] { c.update(w, frame, Vec3(1e9, 0, 0)); }, "update.walkVelocity");
    testing::expectError([&] { c.jump(-1); }, "jump.speed");
    testing::expectError([&] { c.teleport(w, Vec3(nan, 0, 0)); }, "teleport.position");
    CHECK(c.position() == before);
    CHECK(testing::stateHash(w) == hash);
    testing::expectError([&] { c.jump(std::numeric_limits<real>::infinity()); }, "jump.speed");
    testing::expectError([&] { c.teleport(w, Vec3(0, real(1e6) - real(0.5), 0)); }, "teleport.position"); // its centre beyond
    bad([](CharacterDesc& d) { d.stepHeight = 2; }, "CharacterDesc.stepHeight");
    bad([](CharacterDesc& d) { d.position.y() = real(1e6) - real(0.5); }, "CharacterDesc.position"); // its centre beyond maxCoordinate
    CHECK(c.position() == before);
    CHECK(testing::stateHash(w) == hash);
    w.destroyBody(c.body());
    testing::expectError([&] { c.update(w, frame, Vec3::Zero()); }, "update.world");
    testing::expectError([&] { c.teleport(w, Vec3::Zero()); }, "teleport.world");
    CHECK(c.position() == before);
}

TEST_CASE("character: an update that would leave the world's bounds changes nothing, and errors go to the world's handler", "[physics]") {
    World w;
    CharacterDesc d;
    d.position = Vec3(0, -real(1e6) + 30, 0); // falling, nothing below
    Character c(w, d);
    bool failed = false;
    for (int i = 0; i < 600 && !failed; ++i) {
        const Vec3 before = c.position();
        const real speed = c.verticalSpeed();
        const std::uint64_t hash = testing::stateHash(w);
        try {
            c.update(w, frame, Vec3::Zero());
        } catch (const Error& e) {
            failed = true;
            CHECK(e.field() == "update.position");
            CHECK(c.position() == before);
            CHECK(c.verticalSpeed() == speed);
            CHECK(testing::stateHash(w) == hash);
        }
        if (!failed) w.step(frame);
    }
    CHECK(failed);

    std::vector<std::string> reported;
    World quiet(WorldSettings{}, [&](const Error& e) { reported.push_back(e.field()); });
    Character q(quiet, CharacterDesc{});
    q.update(quiet, 0, Vec3::Zero());
    q.update(quiet, frame, Vec3(std::numeric_limits<real>::quiet_NaN(), 0, 0));
    CHECK(reported == std::vector<std::string>{"update.dt", "update.walkVelocity"});
    CHECK(q.position() == Vec3::Zero());
}

TEST_CASE("character: standing on a feather-light box does not stop its update, jumping off a platform keeps its speed", "[physics][scene]") {
    SECTION("a 1 mg box") {
        World w;
        testing::addGround(w);
        BodyDesc b;
        b.position = Vec3(0, real(0.1), 0);
        b.colliders.push_back(makeCollider(Box{Vec3(1, real(0.1), 1)}, 1000));
        b.massFromColliders = false;
        b.mass = real(1e-6); // the character's weight, 13 N s a frame, would throw it at 1.3e7 m/s
        b.inertia = Mat3::Identity() * real(1e-6) / 3;
        const BodyId feather = w.createBody(b);
        CharacterDesc d;
        d.position = Vec3(0, real(0.2), 0);
        Character c(w, d);
        play(w, c, 1, Vec3(real(0.5), 0, 0));
        CHECK(c.onGround());
        CHECK(w.body(feather).position.allFinite());
        CHECK(c.position().allFinite());
    }
    SECTION("a jump from a platform moving at 3 m/s lands where the platform went") {
        World w;
        const BodyId platform = addPlatform(w, Vec3(0, real(0.5), 0), 4, 2, Vec3(3, 0, 0));
        CharacterDesc d;
        d.position = Vec3(0, real(0.6), 0);
        Character c(w, d);
        play(w, c, real(0.5), Vec3::Zero());
        // (measured after an update: the carry brings a standing character up to where
        // the platform's last step took its place on it)
        c.update(w, frame, Vec3::Zero());
        REQUIRE(c.ground() == platform);
        const real offset = c.position().x() - w.body(platform).position.x();
        w.step(frame);
        c.jump(4);
        bool left = false;
        for (int i = 0; i < 90; ++i) {
            c.update(w, frame, Vec3::Zero());
            w.step(frame);
            left = left || !c.onGround();
        }
        c.update(w, frame, Vec3::Zero());
        CHECK(left);
        CHECK(c.ground() == platform);
        CHECK(c.position().x() - w.body(platform).position.x() == Approx(offset).margin(0.01)); // 2.4 m travelled in the air
    }
    SECTION("pushing a box along a moving platform") {
        World w;
        const BodyId platform = addPlatform(w, Vec3(0, real(0.5), 0), 6, 2, Vec3(2, 0, 0));
        BodyDesc b;
        b.position = Vec3(1, real(1.0), 0);
        b.colliders.push_back(makeCollider(Box{Vec3::Constant(real(0.4))}, 20 / real(0.512), {.friction = real(0.5)}));
        const BodyId box = w.createBody(b);
        CharacterDesc d;
        d.position = Vec3(-1, real(0.6), 0);
        Character c(w, d);
        play(w, c, 2, Vec3(real(1.5), 0, 0));
        // On the platform, the box went ahead of where the platform carried it.
        CHECK(w.body(box).position.x() - w.body(platform).position.x() > 2);
    }
}

TEST_CASE("character: the character scene walks through its level, knocks the crate tower over and climbs the stairs", "[physics][scene]") {
    const std::unique_ptr<scenes::Scene> scene = scenes::makeScene("character");
    World& w = scene->world();
    BodyId hero{};
    std::vector<std::pair<BodyId, Vec3>> crates;
    for (const BodyId id : w.bodyIds()) {
        const BodyState b = w.body(id);
        if (b.isDynamic()) crates.emplace_back(id, b.position);
        else if (b.type == BodyType::Kinematic && std::holds_alternative<Capsule>(w.collider(w.colliderIdsOf(id)[0]).shape)) hero = id;
    }
    REQUIRE(!hero.isNull());
    REQUIRE(crates.size() == 20);
    scene->control(1, 0); // walk straight ahead (-z) at 4 m/s
    real highest = 0;
    for (int i = 0; i < 240; ++i) {
        scene->step();
        highest = std::max(highest, w.body(hero).position.y() - real(0.9));
    }
    real farthest = 0;
    for (const auto& [id, start] : crates) farthest = std::max(farthest, (w.body(id).position - start).norm());
    CHECK(farthest > real(0.5));          // the tower in its way went over
    CHECK(highest == Approx(1.2).margin(0.01)); // up the stairs to the 1.2 m landing
    CHECK(w.body(hero).position.z() < -6);
}

TEST_CASE("character: the showcase scene opens the demo where walking ahead knocks its pyramid about and the ragdoll falls and the car stays parked and the cloth and rope hang", "[physics][scene]") {
    REQUIRE(scenes::sceneNames().front() == "showcase");
    const std::unique_ptr<scenes::Scene> scene = scenes::makeScene("showcase");
    World& w = scene->world();
    std::vector<std::pair<BodyId, Vec3>> crates; // the pyramid's: 80 kg/m^3 cubes of 0.5 m (10 kg)
    for (const BodyId id : w.bodyIds()) {
        const BodyState b = w.body(id);
        if (b.isDynamic() && std::abs(b.mass - 10) < real(0.01)) crates.emplace_back(id, b.position);
    }
    REQUIRE(crates.size() == 15);
    // The ragdoll's limbs (dynamic capsules that are not the character), the car's chassis
    // (the dynamic box near (-4.5, 1, 2.5)), the cloth's and the rope's particles.
    std::vector<BodyId> limbs;
    BodyId chassis{};
    for (const BodyId id : w.bodyIds()) {
        const BodyState b = w.body(id);
        if (!b.isDynamic()) continue;
        const Shape& shape = w.collider(w.colliderIdsOf(id)[0]).shape;
        if (std::holds_alternative<Capsule>(shape)) limbs.push_back(id);
        else if ((b.position - Vec3(real(-4.5), 1, real(2.5))).norm() < real(0.5)) chassis = id;
    }
    REQUIRE(limbs.size() >= 10);
    REQUIRE(!chassis.isNull());
    const Vec3 parked = w.body(chassis).position;
    REQUIRE(w.particleCount() == 16 * 12 + 31);
    scene->control(1, 0);
    real ropeLowest = 10; // over the run: the rope swings down from the horizontal and back up
    for (int i = 0; i < 180; ++i) {
        scene->step();
        for (const ParticleId id : w.particleIds())
            if (w.particle(id).position.x() < -2) ropeLowest = std::min(ropeLowest, w.particle(id).position.y());
    }
    int moved = 0;
    for (const auto& [id, start] : crates) moved += (w.body(id).position - start).norm() > real(0.3) ? 1 : 0;
    CHECK(moved >= 5);
    // The ragdoll fell from 3 m onto the ramp and the ground; the car sits parked on its springs.
    real highestLimb = 0;
    for (const BodyId id : limbs) highestLimb = std::max(highestLimb, w.body(id).position.y());
    CHECK(highestLimb < real(1.8));
    CHECK((w.body(chassis).position - parked).norm() < real(0.3));
    CHECK(w.body(chassis).linearVelocity.norm() < real(0.2));
    // The cloth hangs from its bar (its lowest row about 2.2 m below it) and the 2.5 m rope
    // swung down from its post, pinned 3.9 m up: every particle above the ground.
    real clothLowest = 10, lowest = 10;
    for (const ParticleId id : w.particleIds()) {
        const Vec3 p = w.particle(id).position;
        lowest = std::min(lowest, p.y());
        if (std::abs(p.z() + 5) < real(0.6) && std::abs(p.x()) < 2) clothLowest = std::min(clothLowest, p.y());
    }
    INFO("cloth's lowest particle at " << clothLowest << " m, rope's at " << ropeLowest << " m");
    CHECK(lowest > 0);
    CHECK(clothLowest == Approx(real(3.1) - real(2.2)).margin(0.25));
    CHECK(ropeLowest < real(1.6)); // its end passed within 0.2 m of straight down (1.4 m)
}
