// SPDX-License-Identifier: MIT
// Surfaces and the game kit's small parts (docs/integration.md): balls shot up through a
// one-way shelf land on it and a conveyor belt carries crates off its end (one contact
// modifier does both); a box slides down an icy ramp (friction combined by Min) beside
// one that holds on a rubber ramp; a ball on turf (rolling resistance) stops where one
// on bare boards rolls on; a 1 kg platform locked along y carries a 50 kg crate and tiles
// locked to a plane topple within it (motion locks); a sphere cast across the belt's end,
// ignoring the belt, is drawn red up to whatever breaks it. The action shoots more balls.

#include "scenes/builtin.hpp"

#include <cmath>
#include <numbers>

namespace jounce::scenes {
namespace surfaces_scene { // (a namespace of its own: the unity build joins the scenes' files)

constexpr real pi = std::numbers::pi_v<real>;
const Colour shelfColour{0.3f, 0.65f, 0.7f}, beltColour{0.25f, 0.25f, 0.28f}, crateColour{0.75f, 0.55f, 0.3f},
    ballColour{0.85f, 0.3f, 0.3f}, iceColour{0.75f, 0.88f, 0.95f}, rubberColour{0.35f, 0.3f, 0.3f},
    turfColour{0.3f, 0.6f, 0.3f}, boardColour{0.7f, 0.6f, 0.45f}, lockColour{0.55f, 0.45f, 0.75f},
    beamClear{0.2f, 0.9f, 0.3f}, beamBroken{0.95f, 0.2f, 0.2f};

constexpr real beltSpeed = 2;              ///< the belt's top surface along +z [m/s]
const Vec3 beamFrom(-4, real(1.25), 3);    ///< the scanner's sphere cast: from here...
const Vec3 beamMove(4, 0, 0);              ///< ...along this, across the belt's end
constexpr real beamRadius = real(0.1);

class Surfaces final : public Scene {
public:
    Surfaces() {
        BodyDesc ground;
        ground.type = BodyType::Static;
        ground.colliders.push_back(makeCollider(HalfSpace{}, 1000, {.friction = real(0.6)}));
        addBody(ground, {BodyId{}, Primitive::Plane, Vec3(30, 0, 30), {0.35f, 0.37f, 0.4f}});
        // The one-way shelf, 2.5 m up, and the belt: a static box whose top the modifier moves.
        shelf_ = addStaticBox(Vec3(-8, real(2.5), 0), Vec3(real(1.5), real(0.1), real(1.5)), Quat::Identity(), shelfColour, real(0.6));
        belt_ = addStaticBox(Vec3(-2, real(0.5), 0), Vec3(real(0.8), real(0.5), 4), Quat::Identity(), beltColour, real(0.8));
        world_.setContactModifier([shelf = shelf_, belt = belt_](ContactModification& c) {
            if (c.bodyA == shelf || c.bodyB == shelf) {
                const Vec3 up = c.bodyB == shelf ? c.normal : Vec3(-c.normal); // from the shelf to the other body
                if (up.y() < real(0.7)) c.enabled = false; // met from below or the side: let it through
            }
            if (c.bodyA == belt || c.bodyB == belt) c.surfaceVelocity = Vec3(0, 0, beltSpeed) * (c.bodyB == belt ? 1 : -1);
        });
        addRamps();
        addRollingLanes();
        addLocks();
        shootBalls();
    }
    const char* name() const override { return "surfaces"; }
    const char* description() const override {
        return "Contact hooks, materials, locks and casts: balls shot up through a one-way shelf land on it; a belt "
               "carries crates off its end; a box slides down an icy ramp beside one holding on rubber; a ball on turf "
               "stops, one on boards rolls on; a 1 kg platform locked along y carries a 50 kg crate; tiles locked to a "
               "plane topple in it; a sphere cast across the belt's end turns red where a crate breaks it. The action "
               "shoots more balls.";
    }
    Vec3 cameraTarget() const override { return Vec3(2, 1, 0); }
    real cameraDistance() const override { return 22; }
    real cameraYaw() const override { return real(0.35); }

    std::vector<std::string> actions() const override { return {"Shoot balls at the shelf"}; }
    void act(std::size_t) override { shootBalls(); }

    void update(real h) override {
        // A crate onto the belt's near end every 1.5 s; those it dropped off its far end go.
        clock_ += h;
        if (clock_ >= nextCrate_) {
            nextCrate_ += real(1.5);
            BodyDesc d;
            d.position = Vec3(-2, real(1.3), real(-3.4));
            d.colliders.push_back(makeCollider(Box{Vec3::Constant(real(0.25))}, 300, {.friction = real(0.6)}));
            crates_.push_back(addBody(d, {BodyId{}, Primitive::Box, Vec3::Constant(real(0.25)), crateColour}));
        }
        while (!crates_.empty() && world_.body(crates_.front()).position.z() > 4 && world_.body(crates_.front()).position.y() < real(0.3)) {
            removeBody(crates_.front()); // landed beyond the belt's end
            crates_.erase(crates_.begin());
        }
    }

    void draw(DrawList& out) const override {
        Scene::draw(out);
        // The scanner: a sphere cast across the belt's end, the belt itself left out.
        QueryFilter notBelt;
        notBelt.ignore = belt_;
        const std::optional<World::ShapeCastHit> hit =
            world_.shapeCastClosest(Sphere{beamRadius}, Transform{beamFrom, Quat::Identity()}, beamMove, notBelt);
        const Vec3 end = beamFrom + (hit ? hit->fraction : real(1)) * beamMove;
        out.lines.push_back({beamFrom, end, hit ? beamBroken : beamClear, false});
        if (hit) out.lines.push_back({hit->point, hit->point + hit->normal * real(0.4), beamBroken, true});
    }

private:
    BodyId shelf_, belt_;
    std::vector<BodyId> crates_;
    real clock_ = 0, nextCrate_ = 0;
    int shot_ = 0;

    /// Four balls shot straight up from under the shelf: they pass it and land on it.
    void shootBalls() {
        for (int k = 0; k < 4; ++k) {
            BodyDesc d;
            d.position = Vec3(real(-8.9) + real(0.6) * real(k), real(0.3), real(0.3) * real(shot_ % 3 - 1));
            d.linearVelocity = Vec3(0, 9, 0);
            d.colliders.push_back(makeCollider(Sphere{real(0.2)}, 500, {.friction = real(0.6), .restitution = real(0.2)}));
            addBody(d, {BodyId{}, Primitive::Sphere, Vec3(real(0.2), 0, 0), ballColour});
        }
        ++shot_;
    }

    /// Two ramps falling 20 degrees toward +z: ice (friction 0.02, combined by Min, so
    /// any box slips) and rubber (0.9); a box rests at the top of each.
    void addRamps() {
        const real angle = 20 * pi / 180;
        const Quat tilt(Eigen::AngleAxis<real>(angle, Vec3::UnitX()));
        const Material ice{.friction = real(0.02), .frictionCombine = CombineRule::Min};
        const Material rubber{.friction = real(0.9)};
        for (int k = 0; k < 2; ++k) {
            const real x = real(2.5) + real(2.2) * real(k);
            BodyDesc ramp;
            ramp.type = BodyType::Static;
            ramp.position = Vec3(x, real(1.2), 0);
            ramp.orientation = tilt;
            ramp.colliders.push_back(makeCollider(Box{Vec3(real(0.9), real(0.1), real(3.5))}, 1000, k == 0 ? ice : rubber));
            addBody(ramp, {BodyId{}, Primitive::Box, Vec3(real(0.9), real(0.1), real(3.5)), k == 0 ? iceColour : rubberColour});
            BodyDesc box;
            box.orientation = tilt;
            box.position = Vec3(x, real(1.2), 0) + tilt * Vec3(0, real(0.1) + real(0.3), real(-2.6));
            box.colliders.push_back(makeCollider(Box{Vec3::Constant(real(0.3))}, 400, {.friction = real(0.6)}));
            addBody(box, {BodyId{}, Primitive::Box, Vec3::Constant(real(0.3)), crateColour});
        }
    }

    /// Two lanes along +z, turf (rolling resistance 0.1: a ball slows at (5/7) 0.1 g and
    /// stops in 6.4 m from 3 m/s) and bare boards, a ball rolling down each at 3 m/s.
    void addRollingLanes() {
        for (int k = 0; k < 2; ++k) {
            const real x = real(8) + real(1.6) * real(k);
            const Material surface{.friction = real(0.7), .rollingResistance = k == 0 ? real(0.1) : real(0)};
            BodyDesc lane;
            lane.type = BodyType::Static;
            lane.position = Vec3(x, real(0.05), 2);
            lane.colliders.push_back(makeCollider(Box{Vec3(real(0.6), real(0.05), 9)}, 1000, surface));
            addBody(lane, {BodyId{}, Primitive::Box, Vec3(real(0.6), real(0.05), 9), k == 0 ? turfColour : boardColour});
            BodyDesc ball;
            ball.position = Vec3(x, real(0.1) + real(0.25), -6);
            ball.linearVelocity = Vec3(0, 0, 3);
            ball.angularVelocity = Vec3(3 / real(0.25), 0, 0); // rolling: v = w x r
            ball.canSleep = false;
            ball.colliders.push_back(makeCollider(Sphere{real(0.25)}, 600, {.friction = real(0.7)}));
            addBody(ball, {BodyId{}, Primitive::Sphere, Vec3(real(0.25), 0, 0), ballColour});
        }
        addStaticBox(Vec3(real(8.8), real(0.3), real(11.3)), Vec3(real(1.6), real(0.3), real(0.2)), Quat::Identity(), boardColour, real(0.7));
    }

    /// A 1 kg platform locked along y (and every rotation) 1.5 m up, a 50 kg crate dropped
    /// on it: the lock carries the load. Beside it, six tiles locked to the z = 5 plane
    /// stacked off-centre: they topple within the plane.
    void addLocks() {
        BodyDesc platform;
        platform.position = Vec3(14, real(1.5), -2);
        platform.colliders.push_back(makeCollider(Box{Vec3(real(1.2), real(0.1), real(1.2))}, real(1) / real(1.152), {.friction = real(0.6)}));
        platform.locks.linearY = platform.locks.angularX = platform.locks.angularY = platform.locks.angularZ = true;
        addBody(platform, {BodyId{}, Primitive::Box, Vec3(real(1.2), real(0.1), real(1.2)), lockColour});
        BodyDesc crate;
        crate.position = Vec3(14, 3, -2);
        crate.colliders.push_back(makeCollider(Box{Vec3::Constant(real(0.4))}, 50 / real(0.512), {.friction = real(0.6)}));
        addBody(crate, {BodyId{}, Primitive::Box, Vec3::Constant(real(0.4)), crateColour});
        for (int k = 0; k < 6; ++k) {
            BodyDesc tile;
            tile.position = Vec3(real(13.5) + real(0.2) * real(k), real(0.25) + real(0.5) * real(k), 5);
            tile.locks.linearZ = tile.locks.angularX = tile.locks.angularY = true;
            tile.colliders.push_back(makeCollider(Box{Vec3(real(0.4), real(0.25), real(0.3))}, 300, {.friction = real(0.5)}));
            addBody(tile, {BodyId{}, Primitive::Box, Vec3(real(0.4), real(0.25), real(0.3)), lockColour});
        }
    }
};

} // namespace surfaces_scene

std::unique_ptr<Scene> makeSurfaces() { return std::make_unique<surfaces_scene::Surfaces>(); }

} // namespace jounce::scenes
