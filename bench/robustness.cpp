// SPDX-License-Identifier: MIT
// jounce-robustness: the cases the solver must survive (issue 28), tried as a new user
// would: one step of 1/60 s, default settings, sleep on unless said. Each prints its
// figure beside the target the rebuilt solver must meet; the tests assert them once it
// does. A benchmark, not a test: it measures, it never fails.
//
// usage: jounce-robustness [--full] [--resolver] [--substeps N]
//   --full: 1000 thin-box drops per floor, not 100; --resolver: ContactSolver::Resolver
//   (the default is the soft step; --soft is accepted and changes nothing)

#include "scenes/rigid_scenes.hpp"
#include "scenes/scene.hpp"

#include <jounce/jounce.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numbers>
#include <vector>

namespace {

using namespace jounce;

constexpr real dt = real(1) / 60;

/// The settings every case's world starts from (--resolver: Millington's resolver).
WorldSettings settings;

/// A static floor box whose top is y = 0.
BodyId addFloor(World& w, real restitution = 0) {
    BodyDesc d;
    d.type = BodyType::Static;
    d.position = Vec3(0, real(-0.5), 0);
    ColliderDesc c;
    c.shape = Box{Vec3(50, real(0.5), 50)};
    c.material.friction = real(0.6);
    c.material.restitution = restitution;
    d.colliders.push_back(c);
    return w.createBody(d);
}

BodyId addBox(World& w, const Vec3& at, const Vec3& half, real mass, const Quat& q = Quat::Identity()) {
    BodyDesc d;
    d.position = at;
    d.orientation = q;
    ColliderDesc c;
    c.shape = Box{half};
    c.density = mass / (8 * half.prod());
    d.colliders.push_back(c);
    return w.createBody(d);
}

BodyId addBall(World& w, const Vec3& at, real radius, real mass, real restitution = 0) {
    BodyDesc d;
    d.position = at;
    ColliderDesc c;
    c.shape = Sphere{radius};
    c.density = mass / (4 * std::numbers::pi_v<real> / 3 * radius * radius * radius);
    c.material.restitution = restitution;
    d.colliders.push_back(c);
    return w.createBody(d);
}

/// How far apart a joint's two anchor points are [m] (0: the joint holds exactly).
real jointGap(const World& w, const Joint& j) {
    const Vec3 a = w.body(j.desc.a.body).transform().toWorld(j.desc.a.point);
    const Vec3 b = j.desc.b.body.isNull() ? j.desc.b.point : w.body(j.desc.b.body).transform().toWorld(j.desc.b.point);
    return (a - b).norm();
}

real worstJointGap(const World& w) {
    real worst = 0;
    for (const JointId id : w.jointIds()) worst = std::max(worst, jointGap(w, w.joint(id)));
    return worst;
}

void row(const char* name, const char* figure, double value, const char* target, bool met) {
    std::printf("| %s | %s | %.4g | %s | %s |\n", name, figure, value, target, met ? "yes" : "no");
}

/// 20 ball-jointed links of 1 kg (spheres of 5 cm, 0.2 m apart) hanging from a world
/// point 5 m up, tilted `swing` degrees from the vertical, a ball of `load` kg at the end.
struct Chain {
    World world{settings};
    BodyId load;
    real restLength = 0;
};

void buildChain(Chain& c, real load, real swingDegrees) {
    World& w = c.world;
    const real link = real(0.2), angle = swingDegrees * std::numbers::pi_v<real> / 180;
    const Vec3 anchor(0, 5, 0), down(std::sin(angle), -std::cos(angle), 0);
    BodyId previous{};
    for (int i = 0; i < 20; ++i) {
        const BodyId b = addBall(w, anchor + down * (link * (real(i) + real(0.5))), real(0.05), 1);
        JointDesc j;
        j.a = {b, -down * (link / 2)};
        j.b = previous.isNull() ? Attachment{BodyId{}, anchor} : Attachment{previous, down * (link / 2)};
        w.createJoint(j);
        previous = b;
    }
    const real radius = real(0.2);
    c.load = addBall(w, anchor + down * (link * 20 + radius), radius, load);
    JointDesc j;
    j.a = {c.load, -down * radius};
    j.b = {previous, down * (link / 2)};
    w.createJoint(j);
    c.restLength = link * 20 + radius;
}

void chains() {
    {
        Chain c;
        buildChain(c, 100, 0);
        real fastest = 0;
        for (int i = 0; i < 600; ++i) {
            c.world.step(dt);
            if (i >= 540) fastest = std::max(fastest, c.world.body(c.load).linearVelocity.norm());
        }
        const real stretch = (c.world.body(c.load).centerOfMass - Vec3(0, 5, 0)).norm() - c.restLength;
        row("chain of 20 x 1 kg holding 100 kg, 10 s", "stretch [m]", stretch, "< 0.01", stretch < real(0.01));
        row("", "load speed in the last second [m/s]", fastest, "at rest (< 0.01)", fastest < real(0.01));
    }
    for (const auto& [load, swing] : {std::pair{real(100), real(30)}, std::pair{real(10), real(10)}}) {
        Chain c;
        buildChain(c, load, swing);
        real worst = 0;
        for (int i = 0; i < 600; ++i) {
            c.world.step(dt);
            worst = std::max(worst, worstJointGap(c.world));
        }
        char name[96];
        std::snprintf(name, sizeof name, "the chain with %g kg swung from %g degrees, 10 s", double(load), double(swing));
        row(name, "worst joint gap [m]", worst, "< 0.05", worst < real(0.05));
    }
}

void heavyOnLight() {
    // A 1 m box of 1000 kg dropped 0.5 m onto a 0.2 m box of 1 kg (and onto one its size).
    for (const real lightHalf : {real(0.1), real(0.5)}) {
        World w(settings);
        addFloor(w);
        const real heavyHalf = real(0.5);
        const BodyId light = addBox(w, Vec3(0, lightHalf, 0), Vec3::Constant(lightHalf), 1);
        const BodyId heavy = addBox(w, Vec3(0, 2 * lightHalf + heavyHalf + real(0.5), 0), Vec3::Constant(heavyHalf), 1000);
        const real impact = std::sqrt(2 * real(9.81) * real(0.5));
        real sink = 0, fastest = 0;
        for (int i = 0; i < 300; ++i) {
            w.step(dt);
            const real gap = (w.body(heavy).centerOfMass.y() - heavyHalf) - (w.body(light).centerOfMass.y() + lightHalf);
            sink = std::max(sink, -gap);
            fastest = std::max(fastest, w.body(light).linearVelocity.norm());
        }
        char name[96];
        std::snprintf(name, sizeof name, "1 m box of 1000 kg dropped 0.5 m onto a %g m box of 1 kg", double(2 * lightHalf));
        row(name, "deepest sink into it [m]", sink, "< 0.01", sink < real(0.01));
        row("", "light box's top speed / impact speed", fastest / impact, "<= 1", fastest <= impact);
    }
    {
        World w(settings);
        addFloor(w);
        // 0.2 m boxes of 1 kg below and above a 1 m box of 1000 kg, 5 cm apart.
        const real halves[] = {real(0.1), real(0.5), real(0.1)}, masses[] = {1, 1000, 1};
        std::vector<BodyId> boxes;
        real y = 0;
        for (int k = 0; k < 3; ++k) {
            boxes.push_back(addBox(w, Vec3(0, y + halves[k], 0), Vec3::Constant(halves[k]), masses[k]));
            y += 2 * halves[k] + real(0.05);
        }
        real tilt = 0;
        for (int i = 0; i < 300; ++i) {
            w.step(dt);
            for (const BodyId b : boxes) {
                const Vec3 up = w.body(b).orientation * Vec3::UnitY();
                tilt = std::max(tilt, std::acos(std::clamp(std::abs(up.y()), real(-1), real(1))) * 180 / std::numbers::pi_v<real>);
            }
        }
        row("1 / 1000 / 1 kg sandwich dropped 5 cm", "worst tilt [degrees]", tilt, "< 5", tilt < 5);
    }
}

/// Apex heights of a ball's bottom over the floor, bounce after bounce.
std::vector<real> apexes(real restitution, int count) {
    World w(settings);
    addFloor(w);
    const real radius = real(0.1);
    const BodyId ball = addBall(w, Vec3(0, 1 + radius, 0), radius, 1, restitution);
    std::vector<real> out;
    real lastVy = 0;
    for (int i = 0; i < 60 * 200 && static_cast<int>(out.size()) < count; ++i) {
        w.step(dt);
        const BodyState b = w.body(ball);
        // The apex of the parabola through this step's state, not the step's height: a
        // step lands up to g h^2 (2.7 mm) past the top, a fifth of a 1.4 cm third bounce.
        // The velocity a step leaves is its average over the last integration step (the
        // world step, or the soft step's substep): g h / 2 faster than the ball at its end.
        const ResolverSettings& r = w.settings().resolver;
        const real h = r.solver == ContactSolver::SoftStep ? dt / static_cast<real>(r.soft.substeps) : dt;
        const real g = w.settings().gravity.norm(), u = b.linearVelocity.y() - g * h / 2;
        if (lastVy > 0 && b.linearVelocity.y() <= 0) out.push_back(b.centerOfMass.y() + u * u / (2 * g) - radius);
        lastVy = b.linearVelocity.y();
        if (!b.awake) break;
    }
    return out;
}

void bounces() {
    const std::vector<real> half = apexes(real(0.5), 3);
    real previous = 1;
    for (std::size_t k = 0; k < 3; ++k) {
        const real ratio = k < half.size() ? half[k] / previous : 0;
        char name[64];
        std::snprintf(name, sizeof name, "ball with e = 0.5 dropped 1 m, bounce %zu", k + 1);
        row(name, "apex / previous apex", ratio, "0.25 +- 0.015", std::abs(ratio - real(0.25)) <= real(0.015));
        if (k < half.size()) previous = half[k];
    }
    const std::vector<real> one = apexes(1, 100);
    real lowest = 1e9, highest = 0;
    for (const real a : one) {
        lowest = std::min(lowest, a);
        highest = std::max(highest, a);
    }
    row("ball with e = 1 dropped 1 m", "bounces (of 100)", static_cast<double>(one.size()), "100", one.size() == 100);
    row("", "lowest apex / drop height", one.empty() ? 0 : lowest, ">= 0.95", !one.empty() && lowest >= real(0.95));
    row("", "highest apex / drop height", one.empty() ? 0 : highest, "<= 1.01", !one.empty() && highest <= real(1.01));
}

class Room final : public scenes::Scene {
public:
    const char* name() const override { return "robustness"; }
    const char* description() const override { return "robustness"; }
};

void ragdoll() {
    Room room;
    room.world().setSettings(settings);
    addFloor(room.world());
    scenes::buildBoxRagdoll(room, Vec3(0, real(1.2), 0));
    real deepest = 0, worstGap = 0;
    for (int i = 0; i < 300; ++i) {
        room.world().step(dt);
        for (const Contact& c : room.world().resolvedContacts()) deepest = std::max(deepest, c.penetrationAtStart);
        worstGap = std::max(worstGap, worstJointGap(room.world()));
    }
    row("12-body ragdoll dropped on the floor", "deepest contact [m]", deepest, "< 0.02", deepest < real(0.02));
    row("", "worst joint gap [m]", worstGap, "(not set; was 0.27)", true);
}

/// A flat mesh floor of two triangles, top at y = 0.
BodyId addMeshFloor(World& w) {
    const std::vector<Vec3> v = {{-20, 0, -20}, {20, 0, -20}, {20, 0, 20}, {-20, 0, 20}};
    const std::vector<std::array<std::uint32_t, 3>> t = {{0, 2, 1}, {0, 3, 2}};
    BodyDesc d;
    d.type = BodyType::Static;
    ColliderDesc c;
    c.shape = makeTriangleMesh(v, t);
    d.colliders.push_back(c);
    return w.createBody(d);
}

void thinFastBoxes(int drops) {
    for (const bool mesh : {true, false}) {
        int through = 0;
        std::uint64_t state = 12345;
        const auto uniform = [&] {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            return static_cast<real>((state >> 11) * (1.0 / 9007199254740992.0));
        };
        for (int k = 0; k < drops; ++k) {
            World w(settings);
            if (mesh) addMeshFloor(w);
            else addFloor(w);
            const Vec3 axis = Vec3(uniform() - real(0.5), uniform() - real(0.5), uniform() - real(0.5)).normalized();
            const Quat q(Eigen::AngleAxis<real>(uniform() * 2 * std::numbers::pi_v<real>, axis));
            const BodyId box = addBox(w, Vec3(0, 2, 0), Vec3(real(0.5), real(0.01), real(0.5)), 1, q);
            w.setLinearVelocity(box, Vec3(0, -100, 0));
            for (int i = 0; i < 30; ++i) w.step(dt);
            if (w.body(box).centerOfMass.y() < real(-0.1)) ++through;
        }
        char name[96];
        std::snprintf(name, sizeof name, "2 cm box at 100 m/s onto a %s floor, %d random angles", mesh ? "mesh" : "box", drops);
        row(name, "passed through", through, "0", through == 0);
    }
}

void turntable() {
    World w(settings);
    BodyDesc d;
    d.type = BodyType::Kinematic;
    d.position = Vec3(0, real(0.1), 0);
    d.angularVelocity = Vec3(0, real(0.1), 0);
    ColliderDesc c;
    c.shape = Box{Vec3(3, real(0.1), 3)};
    c.material.friction = real(0.8);
    d.colliders.push_back(c);
    w.createBody(d);
    const BodyId box = addBox(w, Vec3(2, real(0.4), 0), Vec3::Constant(real(0.2)), 1);
    for (int i = 0; i < 1200; ++i) w.step(dt);
    const Vec3 at = w.body(box).centerOfMass;
    const real turned = std::atan2(-at.z(), at.x()); // about +y, x towards -z
    row("box on a kinematic turntable at 0.1 rad/s, 20 s", "angle ridden / turned", turned / 2, "1 +- 0.02",
        std::abs(turned / 2 - 1) <= real(0.02));
    row("", "awake at the end", w.body(box).awake ? 1 : 0, "1", w.body(box).awake);
}

} // namespace

int main(int argc, char** argv) {
    bool full = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--full") == 0) full = true;
        if (std::strcmp(argv[i], "--soft") == 0) settings.resolver.solver = ContactSolver::SoftStep;
        if (std::strcmp(argv[i], "--resolver") == 0) settings.resolver.solver = ContactSolver::Resolver;
        if (std::strcmp(argv[i], "--substeps") == 0 && i + 1 < argc) settings.resolver.soft.substeps = std::atoi(argv[++i]);
    }
    std::printf("| case | figure | value | target (issue 28) | met |\n|---|---|---|---|---|\n");
    chains();
    heavyOnLight();
    bounces();
    ragdoll();
    thinFastBoxes(full ? 1000 : 100);
    turntable();
    return 0;
}
