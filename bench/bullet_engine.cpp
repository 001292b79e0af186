// SPDX-License-Identifier: MIT
// A benchmark scene in Bullet 3.24 (libbullet-dev, single precision as Debian builds it
// by default): btDiscreteDynamicsWorld with btDbvtBroadphase and the sequential impulse
// solver, all at their defaults. BENCH_SCENES.md's mapping: Bullet multiplies the two
// bodies' friction, so each body gets sqrt(0.5); restitution 0; sleeping off is
// DISABLE_DEACTIVATION on every body.

#include "bench/engines.hpp"

#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <map>
#include <numbers>
#include <tuple>

namespace jounce::bench {
namespace {

class BulletEngine final : public Engine {
public:
    BulletEngine(const scenes::BenchSceneDesc& desc, bool sleep)
        : dispatcher_(&config_), world_(&dispatcher_, &broadphase_, &solver_, &config_) {
        world_.setGravity(btVector3(0, btScalar(scenes::benchGravity), 0));
        for (const scenes::BenchBody& b : desc.bodies) add(b, sleep);
    }
    ~BulletEngine() override {
        for (auto& body : bodies_) world_.removeRigidBody(body.get());
    }
    const char* name() const override { return "bullet"; }
    void step() override { world_.stepSimulation(btScalar(1.0 / 60), 1, btScalar(1.0 / 60)); }
    std::size_t contacts() const override {
        std::size_t n = 0;
        for (int i = 0; i < dispatcher_.getNumManifolds(); ++i)
            n += static_cast<std::size_t>(dispatcher_.getManifoldByIndexInternal(i)->getNumContacts());
        return n;
    }
    void sample(std::vector<BodySample>& out) const override {
        out.resize(dynamic_.size());
        for (std::size_t i = 0; i < dynamic_.size(); ++i) {
            const btRigidBody& b = *dynamic_[i];
            const btVector3& p = b.getWorldTransform().getOrigin();
            out[i] = {p.x(), p.y(), p.z(), b.getLinearVelocity().length(), b.getActivationState() == ISLAND_SLEEPING};
        }
    }

private:
    btCollisionShape* shapeFor(const scenes::BenchBody& b) {
        const auto key = std::make_tuple(b.shape == scenes::BenchBody::Shape::Box, double(b.size.x()), double(b.size.y()),
                                         double(b.size.z()));
        auto& shape = shapes_[key];
        if (!shape) {
            if (b.shape == scenes::BenchBody::Shape::Box)
                shape = std::make_unique<btBoxShape>(btVector3(btScalar(b.size.x()), btScalar(b.size.y()), btScalar(b.size.z())));
            else
                shape = std::make_unique<btSphereShape>(btScalar(b.size.x()));
        }
        return shape.get();
    }

    void add(const scenes::BenchBody& b, bool sleep) {
        btCollisionShape* shape = shapeFor(b);
        const double volume = b.shape == scenes::BenchBody::Shape::Box ? 8 * double(b.size.prod())
                                                                         : 4.0 / 3 * std::numbers::pi * std::pow(double(b.size.x()), 3);
        const btScalar mass = b.dynamic ? btScalar(double(scenes::benchDensity) * volume) : 0;
        btVector3 inertia(0, 0, 0);
        if (b.dynamic) shape->calculateLocalInertia(mass, inertia);
        btTransform start;
        start.setIdentity();
        start.setOrigin(btVector3(btScalar(b.position.x()), btScalar(b.position.y()), btScalar(b.position.z())));
        btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shape, inertia);
        info.m_startWorldTransform = start;
        info.m_friction = btScalar(std::sqrt(double(scenes::benchFriction)));
        info.m_restitution = 0;
        auto body = std::make_unique<btRigidBody>(info);
        if (b.dynamic && !sleep) body->setActivationState(DISABLE_DEACTIVATION);
        world_.addRigidBody(body.get());
        if (b.dynamic) dynamic_.push_back(body.get());
        bodies_.push_back(std::move(body));
    }

    btDefaultCollisionConfiguration config_;
    btCollisionDispatcher dispatcher_;
    btDbvtBroadphase broadphase_;
    btSequentialImpulseConstraintSolver solver_;
    btDiscreteDynamicsWorld world_;
    std::map<std::tuple<bool, double, double, double>, std::unique_ptr<btCollisionShape>> shapes_;
    std::vector<std::unique_ptr<btRigidBody>> bodies_;
    std::vector<const btRigidBody*> dynamic_;
};

} // namespace

std::unique_ptr<Engine> makeBulletEngine(const scenes::BenchSceneDesc& desc, bool sleep) {
    return std::make_unique<BulletEngine>(desc, sleep);
}

} // namespace jounce::bench
