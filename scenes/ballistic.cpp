// SPDX-License-Identifier: MIT
// Millington's ballistic demo (ch. 3): four kinds of round, each a small sphere with
// its own mass, muzzle velocity, effective gravity and damping. The book's figures:
//   pistol    2 kg,    (0, 0, 35) m/s, a = -1 m/s^2,  damping 0.99
//   artillery 200 kg,  (0, 30, 40),    a = -20,      damping 0.99
//   fireball  1 kg,    (0, 0, 10),     a = +0.6,     damping 0.9   (floats up)
//   laser     0.1 kg,  (0, 0, 100),    a = 0,        damping 0.99  (a bolt, not light)
// Effective gravity is the world's gravity times the body's gravityScale.

#include "scenes/builtin.hpp"

#include <cmath>
#include <deque>

namespace jounce::scenes {
namespace {

struct RoundKind {
    const char* name;
    real mass;
    Vec3 velocity;
    real accelerationY;
    real damping; // the book's: the share of velocity kept after 1 s (BodyDesc wants c = -ln d)
    real radius; // drawn size; the book's rounds are points
    Colour colour;
};

const RoundKind kinds[] = {
    {"Pistol", 2, Vec3(0, 0, 35), -1, real(0.99), real(0.3), {0.2f, 0.2f, 0.25f}},
    {"Artillery", 200, Vec3(0, 30, 40), -20, real(0.99), real(0.6), {0.55f, 0.1f, 0.1f}},
    {"Fireball", 1, Vec3(0, 0, 10), real(0.6), real(0.9), real(0.5), {1.0f, 0.55f, 0.1f}},
    {"Laser", real(0.1), Vec3(0, 0, 100), 0, real(0.99), real(0.2), {0.3f, 1.0f, 0.4f}},
};

class Ballistic final : public Scene {
public:
    Ballistic() {
        addGround(100);
        // Range markers every 10 m along the line of fire.
        for (int i = 1; i <= 10; ++i) {
            BodyDesc marker;
            marker.type = BodyType::Static;
            marker.position = Vec3(0, real(0.05), real(10 * i));
            addBody(marker, {BodyId{}, Primitive::Box, Vec3(real(1.5), real(0.05), real(0.1)), {0.7f, 0.7f, 0.7f}});
        }
    }
    const char* name() const override { return "ballistic"; }
    const char* description() const override {
        return "Millington's ballistic demo: pistol, artillery, fireball and laser rounds";
    }
    Vec3 cameraTarget() const override { return Vec3(0, 5, 25); }
    real cameraDistance() const override { return 45; }
    real cameraYaw() const override { return real(1.45); } // from the side of the range

    std::vector<std::string> actions() const override {
        std::vector<std::string> names;
        for (const RoundKind& k : kinds) names.emplace_back(std::string("Fire ") + k.name);
        names.emplace_back("Auto fire on/off");
        return names;
    }
    void act(std::size_t action) override {
        if (action < std::size(kinds)) fire(kinds[action]);
        else autoFire_ = !autoFire_;
    }

    void update(real h) override {
        time_ += h;
        if (autoFire_ && time_ >= nextShot_) {
            fire(kinds[shotCount_ % std::size(kinds)]);
            nextShot_ = time_ + real(0.5);
        }
        retireRounds();
    }

private:
    void fire(const RoundKind& k) {
        if (rounds_.size() >= maxRounds) {
            removeBody(rounds_.front().body);
            rounds_.pop_front();
        }
        BodyDesc d;
        d.position = Vec3(0, real(1.5), 0);
        d.linearVelocity = k.velocity;
        d.mass = k.mass;
        d.inertia = solidSphere(k.radius, 1).inertia * (k.mass / solidSphere(k.radius, 1).mass);
        d.gravityScale = k.accelerationY / settings().gravity.y();
        d.linearDamping = -std::log(k.damping); // rate [1/s]: exp(-c t) = d^t, the book's motion
        rounds_.push_back({addBody(d, {BodyId{}, Primitive::Sphere, Vec3(k.radius, 0, 0), k.colour}), time_});
        ++shotCount_;
    }
    const WorldSettings& settings() const { return world_.settings(); }

    /// A round is done when it lands, flies past 200 m, or is older than 5 s.
    void retireRounds() {
        for (auto it = rounds_.begin(); it != rounds_.end();) {
            const BodyState b = world_.body(it->body);
            const bool done = b.position.y() <= 0 || b.position.z() >= 200 || time_ - it->firedAt >= 5;
            if (!done) {
                ++it;
                continue;
            }
            removeBody(it->body);
            it = rounds_.erase(it);
        }
    }

    struct Round {
        BodyId body;
        real firedAt;
    };
    static constexpr std::size_t maxRounds = 16;
    std::deque<Round> rounds_;
    real time_ = 0;
    real nextShot_ = 0;
    std::size_t shotCount_ = 0;
    bool autoFire_ = true;
};

} // namespace

std::unique_ptr<Scene> makeBallistic() { return std::make_unique<Ballistic>(); }

} // namespace jounce::scenes
