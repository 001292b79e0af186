// SPDX-License-Identifier: MIT
// Fireworks (Millington ch. 4): each firework has a type, an age and a fuse; when the
// fuse burns out it is removed and its type's payload rule spawns new fireworks at
// its position, with the parent's velocity plus a random kick. A launcher fires a
// rocket every second. Fireworks are tiny spheres drawn as particles; the particle
// layer (issue 5) will take them over.

#include "scenes/builtin.hpp"

#include <cmath>
#include <random>

namespace jounce::scenes {
namespace {

struct Payload {
    int type;
    int count;
};

struct Rule {
    real minFuse, maxFuse;     // [s]
    Vec3 minVelocity, maxVelocity;
    real damping; // Millington's: the share of velocity kept after 1 s (BodyDesc wants c = -ln d)
    Colour colour;
    std::vector<Payload> payloads;
};

// Type 0: the rocket; 1-3: bursts; 4-5: trailing sparks. Types only spawn higher types.
const std::vector<Rule>& rules() {
    static const std::vector<Rule> table = {
        {real(1.2), real(1.6), Vec3(-2, 16, -2), Vec3(2, 20, 2), real(0.9), {1.0f, 1.0f, 0.9f}, {{1, 12}, {2, 8}}},
        {real(0.6), real(1.0), Vec3(-6, -2, -6), Vec3(6, 6, 6), real(0.6), {1.0f, 0.3f, 0.2f}, {{4, 2}}},
        {real(0.8), real(1.2), Vec3(-4, 0, -4), Vec3(4, 8, 4), real(0.6), {0.3f, 0.5f, 1.0f}, {{3, 3}}},
        {real(0.3), real(0.6), Vec3(-2, -1, -2), Vec3(2, 2, 2), real(0.5), {1.0f, 0.9f, 0.2f}, {{5, 1}}},
        {real(0.4), real(0.8), Vec3(-1, -1, -1), Vec3(1, 1, 1), real(0.5), {1.0f, 0.6f, 0.8f}, {}},
        {real(0.3), real(0.5), Vec3(-1, -1, -1), Vec3(1, 1, 1), real(0.5), {0.6f, 1.0f, 0.6f}, {}},
    };
    return table;
}

class Fireworks final : public Scene {
public:
    Fireworks() : random_(2026) { addGround(40); }

    const char* name() const override { return "fireworks"; }
    const char* description() const override { return "Millington's fireworks: payload rules spawn new particles"; }
    Vec3 cameraTarget() const override { return Vec3(0, 12, 0); }
    real cameraDistance() const override { return 45; }
    std::vector<std::string> actions() const override { return {"Launch rocket"}; }
    void act(std::size_t) override { spawn(0, Vec3(0, real(0.5), 0), Vec3::Zero()); }

    void update(real h) override {
        time_ += h;
        if (time_ >= nextLaunch_) {
            spawn(0, Vec3(uniform(-3, 3), real(0.5), uniform(-3, 3)), Vec3::Zero());
            nextLaunch_ = time_ + 1;
        }
        burnFuses();
    }

private:
    struct Firework {
        BodyId body;
        int type;
        real burnsOutAt;
    };

    real uniform(real lo, real hi) { return std::uniform_real_distribution<real>(lo, hi)(random_); }
    Vec3 uniform(const Vec3& lo, const Vec3& hi) {
        return Vec3(uniform(lo.x(), hi.x()), uniform(lo.y(), hi.y()), uniform(lo.z(), hi.z()));
    }

    void spawn(int type, const Vec3& position, const Vec3& inheritedVelocity) {
        if (fireworks_.size() >= maxFireworks) return;
        const Rule& rule = rules()[static_cast<std::size_t>(type)];
        BodyDesc d;
        d.position = position;
        d.linearVelocity = inheritedVelocity + uniform(rule.minVelocity, rule.maxVelocity);
        d.mass = real(0.01);
        d.inertia = Mat3::Identity() * real(1e-5);
        d.linearDamping = -std::log(rule.damping); // rate [1/s]: exp(-c t) = d^t, the book's motion
        const BodyId id = addBody(d, {BodyId{}, Primitive::Particle, Vec3(real(0.15), 0, 0), rule.colour});
        fireworks_.push_back({id, type, time_ + uniform(rule.minFuse, rule.maxFuse)});
    }

    void burnFuses() {
        // Collect first, then spawn: spawning appends to the list we are walking.
        std::vector<Firework> burnt;
        for (auto it = fireworks_.begin(); it != fireworks_.end();) {
            if (time_ < it->burnsOutAt && world_.body(it->body).position.y() > 0) {
                ++it;
                continue;
            }
            burnt.push_back(*it);
            it = fireworks_.erase(it);
        }
        for (const Firework& f : burnt) {
            const BodyState b = world_.body(f.body);
            removeBody(f.body);
            for (const Payload& p : rules()[static_cast<std::size_t>(f.type)].payloads)
                for (int i = 0; i < p.count; ++i) spawn(p.type, b.position, b.linearVelocity);
        }
    }

    static constexpr std::size_t maxFireworks = 2000;
    std::mt19937 random_;
    std::vector<Firework> fireworks_;
    real time_ = 0;
    real nextLaunch_ = 0;
};

} // namespace

std::unique_ptr<Scene> makeFireworks() { return std::make_unique<Fireworks>(); }

} // namespace jounce::scenes
