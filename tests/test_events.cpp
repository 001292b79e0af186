// SPDX-License-Identifier: MIT
// Contact events, sensors and the contact filter (issue 8): plain arrays read after
// the step, Box2D v3's style.

#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>
#include <utility>
#include <vector>

using namespace jounce;
using namespace testing;

namespace {

BodyId addBallAt(World& w, const Vec3& at, real radius = real(0.25)) {
    BodyDesc d;
    d.position = at;
    ColliderDesc c;
    c.shape = Sphere{radius};
    d.colliders.push_back(c);
    return w.createBody(d);
}

/// A static 2 m sensor box centred at `at`; returns its collider.
ColliderId addSensorBox(World& w, const Vec3& at) {
    BodyDesc d;
    d.type = BodyType::Static;
    d.position = at;
    ColliderDesc c;
    c.shape = Box{Vec3(1, 1, 1)};
    c.sensor = true;
    d.colliders.push_back(c);
    return w.colliderIdsOf(w.createBody(d)).front();
}

} // namespace

TEST_CASE("a ball asleep on the ground, woken by another landing on it, keeps touching the ground: no end, no new begin",
          "[physics][scene]") {
    // The step the second ball lands, the sleeping one is woken by the contact between
    // them, but its pair with the ground was not searched that step (it slept while the
    // contacts were found): it must stay touching, not end and begin again.
    World w;
    const BodyId ground = addGround(w);
    const BodyId below = addBallAt(w, Vec3(0, real(0.25), 0));
    for (int i = 0; i < 60 && w.body(below).awake; ++i) w.step(real(1) / 60);
    REQUIRE_FALSE(w.body(below).awake);
    const auto groundPair = [&](const ContactEvent& e) {
        return (e.bodyA == below && e.bodyB == ground) || (e.bodyA == ground && e.bodyB == below);
    };
    const BodyId above = addBallAt(w, Vec3(0, real(2), 0));
    int hits = 0, groundEnds = 0, groundBegins = 0;
    for (int i = 0; i < 60; ++i) {
        w.step(real(1) / 60);
        for (const ContactEvent& e : w.contactEvents().begin) {
            hits += (e.bodyA == above || e.bodyB == above) && (e.bodyA == below || e.bodyB == below) ? 1 : 0;
            groundBegins += groundPair(e) ? 1 : 0;
        }
        for (const ContactEvent& e : w.contactEvents().end) groundEnds += groundPair(e) ? 1 : 0;
    }
    CHECK(hits >= 1);
    CHECK(groundEnds == 0);
    CHECK(groundBegins == 0);
}

TEST_CASE("a ball dropped on the ground: one begin at the landing speed, persists while it rests, none asleep, an end when lifted",
          "[physics][scene]") {
    World w;
    const BodyId ground = addGround(w);
    // Bottom 1 m above the ground: it lands at sqrt(2 g 1) = 4.43 m/s.
    const BodyId ball = addBallAt(w, Vec3(0, real(1.25), 0));
    int begins = 0, ends = 0, persists = 0, touchingAwake = 0, asleep = 0;
    real landing = 0;
    for (int i = 0; i < 120; ++i) {
        const bool searched = w.body(ball).awake; // awake while the step looks for contacts
        w.step(real(1) / 60);
        const ContactEvents& e = w.contactEvents();
        for (const ContactEvent& b : e.begin) {
            ++begins;
            landing = b.approachSpeed;
            CHECK(((b.bodyA == ball && b.bodyB == ground) || (b.bodyA == ground && b.bodyB == ball)));
        }
        ends += static_cast<int>(e.end.size());
        persists += static_cast<int>(e.persist.size());
        if (begins == 0) CHECK(e.persist.empty());
        if (begins == 1 && e.begin.empty()) (searched ? touchingAwake : asleep) += 1;
    }
    CHECK(begins == 1);
    // Falling asleep on the ground ends nothing: the pair still touches, silently.
    CHECK(ends == 0);
    // Discrete steps meet the ground up to one step's fall early or late: g h = 0.16 m/s.
    CHECK(std::abs(landing - std::sqrt(2 * real(9.81))) < real(0.2));
    // A persist every step it begins awake (the step it falls asleep too: it was found
    // touching), none while asleep; it lands at step 28 and sleeps within the 1.5 s left.
    CHECK(persists == touchingAwake);
    CHECK(touchingAwake > 10);
    CHECK(asleep > 10);
    CHECK_FALSE(w.body(ball).awake);
    // Lifted away: the next step ends the contact, and nothing persists.
    w.setPosition(ball, Vec3(0, 5, 0));
    w.step(real(1) / 60);
    REQUIRE(w.contactEvents().end.size() == 1);
    CHECK(w.contactEvents().persist.empty());
    CHECK(w.contactEvents().begin.empty());
}

TEST_CASE("destroying a resting body ends its contact, naming its (now stale) handles", "[physics][scene]") {
    World w;
    addGround(w);
    const BodyId ball = addBallAt(w, Vec3(0, real(0.25), 0));
    for (int i = 0; i < 10; ++i) w.step(real(1) / 60);
    REQUIRE(w.contactEvents().persist.size() == 1);
    w.destroyBody(ball);
    w.step(real(1) / 60);
    REQUIRE(w.contactEvents().end.size() == 1);
    const ContactEvent& e = w.contactEvents().end[0];
    CHECK((e.bodyA == ball || e.bodyB == ball));
    CHECK_FALSE(w.contains(ball));
}

TEST_CASE("a sensor reports a ball falling through it and does not touch it", "[physics][scene]") {
    // The same fall with and without a sensor box in the way: bit-identical bodies,
    // one begin when the ball enters the box, one end when it leaves.
    const auto run = [](bool withSensor, int& begins, int& ends, int& firstIn, int& firstOut) {
        WorldSettings s;
        World w(s);
        const BodyId ball = addBallAt(w, Vec3(0, 10, 0));
        const ColliderId sensor = withSensor ? addSensorBox(w, Vec3(0, 5, 0)) : ColliderId{};
        begins = ends = 0;
        firstIn = firstOut = -1;
        for (int i = 0; i < 120; ++i) {
            w.step(real(1) / 60);
            for (const SensorEvent& e : w.sensorEvents().begin) {
                ++begins;
                CHECK(e.sensor == sensor);
                CHECK(e.visitorBody == ball);
                firstIn = i;
            }
            for (const SensorEvent& e : w.sensorEvents().end) {
                ++ends;
                CHECK(e.visitorBody == ball);
                firstOut = i;
            }
        }
        CHECK(w.contactEvents().begin.empty());
        return w.body(ball).position;
    };
    int b0 = 0, e0 = 0, in0 = 0, out0 = 0, b1 = 0, e1 = 0, in1 = 0, out1 = 0;
    const Vec3 free = run(false, b0, e0, in0, out0);
    const Vec3 sensed = run(true, b1, e1, in1, out1);
    CHECK(free == sensed);
    CHECK(b1 == 1);
    CHECK(e1 == 1);
    // Free fall from y = 10: the ball's bottom reaches the box top (y = 6) after
    // 10 - 0.25 - 6 = 3.75 m, t = 0.874 s, step ~52; its top leaves the bottom (y = 4)
    // after 10 + 0.25 - 4 = 6.25 m, t = 1.129 s, step ~68 (semi-implicit Euler runs a
    // step ahead of the closed form).
    CHECK(std::abs(in1 - 52) <= 1);
    CHECK(std::abs(out1 - 68) <= 1);
}

TEST_CASE("sensors do not stop particles", "[physics][particles]") {
    World w;
    addSensorBox(w, Vec3(0, 5, 0));
    const ParticleId p = addParticle(w, Vec3(0, 10, 0), 1);
    for (int i = 0; i < 90; ++i) w.step(real(1) / 60);
    // 1.5 s of free fall: well past the box (y < 4).
    CHECK(w.particle(p).position.y() < 0);
}

TEST_CASE("a contact filter vetoes a pair: the vetoed ball falls through the ground", "[physics][scene]") {
    World w;
    const BodyId ground = addGround(w);
    const BodyId kept = addBallAt(w, Vec3(-2, 1, 0));
    const BodyId vetoed = addBallAt(w, Vec3(2, 1, 0));
    const ColliderId vetoedCollider = w.colliderIdsOf(vetoed).front();
    int calls = 0;
    w.setContactFilter([&](ColliderId a, ColliderId b) {
        ++calls;
        return a != vetoedCollider && b != vetoedCollider;
    });
    for (int i = 0; i < 60; ++i) w.step(real(1) / 60);
    CHECK(calls > 0);
    CHECK(w.body(kept).position.y() > real(0.2));
    CHECK(w.body(vetoed).position.y() < real(-0.5));
    for (const ContactEvent& e : w.contactEvents().persist) CHECK((e.bodyA != vetoed && e.bodyB != vetoed));
    (void)ground;
    // Cleared: the pair collides again.
    w.setContactFilter({});
    w.setPosition(vetoed, Vec3(2, 1, 0));
    w.setLinearVelocity(vetoed, Vec3::Zero());
    for (int i = 0; i < 60; ++i) w.step(real(1) / 60);
    CHECK(w.body(vetoed).position.y() > real(0.2));
}

TEST_CASE("a ball asleep inside a sensor stays in its overlaps until it is moved out", "[physics][scene]") {
    World w;
    addGround(w);
    addSensorBox(w, Vec3::Zero());
    const BodyId ball = addBallAt(w, Vec3(0, real(0.5), 0));
    bool slept = false;
    for (int i = 0; i < 600 && !slept; ++i) {
        w.step(real(1) / 60);
        slept = !w.body(ball).awake;
        CHECK(w.sensorEvents().overlaps.size() == 1);
    }
    REQUIRE(slept);
    for (int i = 0; i < 10; ++i) {
        w.step(real(1) / 60);
        CHECK(w.sensorEvents().overlaps.size() == 1);
        CHECK(w.sensorEvents().end.empty());
    }
    w.setPosition(ball, Vec3(5, real(0.25), 0));
    w.step(real(1) / 60);
    CHECK(w.sensorEvents().end.size() == 1);
    CHECK(w.sensorEvents().overlaps.empty());
}

namespace {

using PairKey = std::pair<std::uint64_t, std::uint64_t>;
PairKey pairKey(const ContactEvent& e) {
    return {std::uint64_t{e.colliderA.index} << 32 | e.colliderA.generation, std::uint64_t{e.colliderB.index} << 32 | e.colliderB.generation};
}

/// 576 bouncing balls (more manifolds than one chunk of the events' build holds), on
/// `threads` threads: every step's begins, persists and ends checked against the pairs
/// that touched the step before, and all of them hashed.
std::uint64_t bounceBalls(std::uint32_t threads, int steps, int& begins, int& ends) {
    World w;
    WorldSettings s = w.settings();
    s.sleep.enabled = false; // every touching pair is reported each step
    w.setSettings(s);
    w.setThreads(threads);
    addGround(w);
    for (int i = 0; i < 24; ++i)
        for (int j = 0; j < 24; ++j) {
            BodyDesc d;
            d.position = Vec3(real(0.21) * real(i - 12), real(0.2) + real(0.03) * real((7 * i + 3 * j) % 10), real(0.21) * real(j - 12));
            ColliderDesc c;
            c.shape = Sphere{real(0.1)};
            c.material.restitution = real(0.7); // they bounce: pairs end and begin again
            d.colliders.push_back(c);
            w.createBody(d);
        }
    std::uint64_t hash = 14695981039346656037ull;
    std::set<PairKey> touched; // the pairs touching after the step before
    for (int step = 0; step < steps; ++step) {
        w.step(real(1) / 60);
        const ContactEvents& e = w.contactEvents();
        const auto rising = [](const std::vector<ContactEvent>& list) {
            return std::adjacent_find(list.begin(), list.end(), [](const ContactEvent& a, const ContactEvent& b) {
                       return !(pairKey(a) < pairKey(b));
                   }) == list.end();
        };
        CHECK(rising(e.begin));
        CHECK(rising(e.persist));
        CHECK(rising(e.end));
        std::set<PairKey> touching;
        for (const ContactEvent& x : e.begin) {
            CHECK(touched.count(pairKey(x)) == 0); // a begin did not touch before
            touching.insert(pairKey(x));
        }
        for (const ContactEvent& x : e.persist) {
            CHECK(touched.count(pairKey(x)) == 1); // a persist did
            touching.insert(pairKey(x));
        }
        std::size_t ended = 0;
        for (const ContactEvent& x : e.end) {
            CHECK(touched.count(pairKey(x)) == 1); // an end did, and does not now
            CHECK(touching.count(pairKey(x)) == 0);
            ++ended;
        }
        CHECK(e.persist.size() + ended == touched.size()); // every pair that touched persists or ends
        begins += static_cast<int>(e.begin.size());
        ends += static_cast<int>(ended);
        touched.swap(touching);
        for (const auto* list : {&e.begin, &e.persist, &e.end}) {
            hash = (hash ^ list->size()) * 1099511628211ull;
            for (const ContactEvent& x : *list) {
                unsigned char bytes[sizeof(ContactEvent)];
                std::memcpy(bytes, &x, sizeof x);
                for (const unsigned char b : bytes) hash = (hash ^ b) * 1099511628211ull;
            }
        }
    }
    return hash;
}

} // namespace

TEST_CASE("contact events: begins, persists and ends account for every pair, the same on 1, 2 and 4 threads", "[contact][scene]") {
    // 90 steps in every build, sanitized ones too (none of the pairs begins to touch in
    // the first 18: 90 / sanitizedStepDivisor left nothing to check).
    const int steps = 90;
    int begins = 0, ends = 0;
    const std::uint64_t one = bounceBalls(1, steps, begins, ends);
    CHECK(begins > 576); // each ball lands at least once, and neighbours meet
    CHECK(ends > 0);     // and they bounce off
    for (const std::uint32_t threads : {2u, 4u}) {
        INFO(threads << " threads");
        int b = 0, e = 0;
        CHECK(bounceBalls(threads, steps, b, e) == one);
        CHECK(b == begins);
        CHECK(e == ends);
    }
}

TEST_CASE("a bouncing ball reports a begin at every bounce and an end as it leaves, though the speculative contact turns it back before it comes within the touch depth",
          "[contact][scene]") {
    // Dropped 1 m with e = 0.7, the ball turns back each time while its gap at the
    // step's start is up to a few centimetres, wider than the touch depth (half the 1 cm
    // collision margin): the speculative contact closes the gap within the step and
    // bounces it. Each bounce is a touch: a begin the step it turns (or the step before,
    // when the gap closes then), at the speed it met, and an end once it flies off.
    World w;
    const BodyId ground = addGround(w);
    BodyDesc d;
    d.position = Vec3(0, real(1.25), 0);
    ColliderDesc c;
    c.shape = Sphere{real(0.25)};
    c.material.restitution = real(0.7);
    d.colliders.push_back(c);
    const BodyId ball = w.createBody(d);
    int bounces = 0, bouncesWithBegin = 0, begins = 0, ends = 0;
    int lastBegin = -10;
    real firstSpeed = 0;
    real before = 0;
    for (int i = 0; i < 150; ++i) {
        w.step(real(1) / 60);
        const ContactEvents& e = w.contactEvents();
        for (const ContactEvent& b : e.begin) {
            CHECK(((b.bodyA == ball && b.bodyB == ground) || (b.bodyA == ground && b.bodyB == ball)));
            if (begins++ == 0) firstSpeed = b.approachSpeed;
            lastBegin = i;
        }
        ends += static_cast<int>(e.end.size());
        const real vy = w.body(ball).linearVelocity.y();
        // A bounce worth hearing: it left at more than 0.5 m/s.
        if (before < 0 && vy > real(0.5)) {
            ++bounces;
            bouncesWithBegin += i - lastBegin <= 1 ? 1 : 0;
        }
        before = vy;
    }
    INFO("bounces " << bounces << ", with a begin " << bouncesWithBegin << ", begins " << begins << ", ends " << ends);
    // 1 m, then 0.49 m, 0.24 m, 0.12 m, 0.06 m: leaving at 3.1, 2.2, 1.5, 1.1 and 0.75 m/s.
    CHECK(bounces >= 4);
    CHECK(bouncesWithBegin == bounces);
    CHECK(ends >= bounces);
    // It met the ground at sqrt(2 g 1 m) = 4.43 m/s, within a step's fall (g h = 0.16 m/s).
    CHECK(std::abs(firstSpeed - std::sqrt(2 * real(9.81))) < real(0.2));
}
