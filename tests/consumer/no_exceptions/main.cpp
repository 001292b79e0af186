// SPDX-License-Identifier: MIT
// A game built with -fno-exceptions: every bad call reaches the error handler, comes
// back empty and leaves the world as it was; then a valid scene runs.
#include <jounce/jounce.hpp>
#include <jounce/deformable/deformable_builders.hpp>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
#error "this consumer must be built with -fno-exceptions"
#endif

namespace {

int failures = 0;

void check(bool ok, const char* what) {
    if (!ok) {
        std::printf("FAILED: %s\n", what);
        ++failures;
    }
}

} // namespace

int main() {
    using namespace jounce;
    std::vector<std::string> fields;
    World world;
    world.setErrorHandler([&](const Error& e) {
        std::printf("handler: %s\n", e.what());
        fields.push_back(e.field());
    });
    const auto lastField = [&] { return fields.empty() ? std::string("(none)") : fields.back(); };

    BodyDesc groundDesc;
    groundDesc.type = BodyType::Static;
    groundDesc.colliders.push_back(makeCollider(HalfSpace{}, 1000));
    const BodyId ground = world.createBody(groundDesc);
    BodyDesc ballDesc;
    ballDesc.position = Vec3(0, 2, 0);
    ballDesc.colliders.push_back(makeCollider(Sphere{real(0.5)}, 1000));
    const BodyId ball = world.createBody(ballDesc);
    check(fields.empty() && !ground.isNull() && !ball.isNull(), "valid bodies are created without errors");

    // A NaN position.
    BodyDesc bad = ballDesc;
    bad.position = Vec3(0, std::numeric_limits<real>::quiet_NaN(), 0);
    check(world.createBody(bad).isNull(), "NaN position: null handle");
    check(lastField() == "BodyDesc.position", "NaN position: field BodyDesc.position");

    // A bad mass (no colliders to take it from).
    bad = BodyDesc{};
    bad.mass = -1;
    check(world.createBody(bad).isNull(), "bad mass: null handle");
    check(lastField() == "BodyDesc.mass", "bad mass: field BodyDesc.mass");

    // A stale handle.
    BodyDesc doomedDesc;
    const BodyId doomed = world.createBody(doomedDesc);
    world.destroyBody(doomed);
    const std::vector<std::uint8_t> afterDestroy = world.saveState();
    world.setPosition(doomed, Vec3(1, 2, 3));
    check(lastField() == "setPosition.id", "stale handle: field setPosition.id");
    check(world.body(doomed).position == Vec3::Zero(), "stale handle: body() gives a default body");
    check(!world.contains(doomed), "stale handle: still not in the world");

    // A bad time step.
    world.step(-1);
    check(lastField() == "step.dt", "bad dt: field step.dt");
    check(world.stepCount() == 0, "bad dt: no step taken");

    // A bad query, a bad shape, a bad builder description, a bad scene file.
    check(world.rayCastAll(Vec3(0, 0, 0), Vec3(std::numeric_limits<real>::quiet_NaN(), 0, 0)).empty(), "bad ray: no hits");
    check(lastField() == "rayCast.to", "bad ray: field rayCast.to");
    const std::vector<Vec3> flat{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
    check(makeConvexHull(flat, world.errorHandler()).hull == nullptr, "flat hull: empty shape");
    RopeDesc rope;
    rope.segments = 0;
    check(buildRope(world, rope).particles.empty(), "bad rope: no particles");
    check(lastField() == "RopeDesc.segments", "bad rope: field RopeDesc.segments");
    check(addScene(world, "{ not json").bodies.empty(), "bad scene: nothing added");
    check(world.saveState() == afterDestroy, "after every error the world is unchanged");

    const std::size_t errors = fields.size();
    check(errors == 9, "nine errors reported");

    // A valid scene runs: the ball falls onto the ground and rests there.
    for (int i = 0; i < 120; ++i) world.step(real(1) / 60);
    const double y = static_cast<double>(world.body(ball).position.y());
    std::printf("ball at y = %.4f after 2 s\n", y);
    check(std::abs(y - 0.5) < 0.05, "the ball rests on the ground");
    check(fields.size() == errors, "the valid scene reports no error");
    const auto hit = world.rayCastClosest(Vec3(0, 5, 0), Vec3(0, -5, 0));
    check(hit && hit->body == ball, "a ray down hits the ball first");
    std::printf("%s\n", failures == 0 ? "ok" : "FAILED");
    return failures == 0 ? 0 : 1;
}
