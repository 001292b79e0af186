// SPDX-License-Identifier: MIT
// A benchmark scene in ODE 0.16 (libode-dev, double precision): dWorldQuickStep at its
// defaults (20 iterations, ERP 0.2, CFM 1e-5), a hash space, and BENCH_SCENES.md's
// contact: dContactApprox1 with mu 0.5, restitution 0, up to 8 points per pair (as ODE's
// own box-stack demo). ODE's default is no sleeping; "sleep on" turns its auto-disable on
// at its default thresholds.

#include "bench/engines.hpp"

#include <ode/ode.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace jounce::bench {
namespace {

/// dInitODE2 / dCloseODE once for the process (ODE keeps global collision tables).
struct OdeLibrary {
    OdeLibrary() { dInitODE2(0); }
    ~OdeLibrary() { dCloseODE(); }
};

class OdeEngine final : public Engine {
public:
    OdeEngine(const scenes::BenchSceneDesc& desc, bool sleep) {
        static const OdeLibrary library;
        world_ = dWorldCreate();
        space_ = dHashSpaceCreate(nullptr);
        contacts_ = dJointGroupCreate(0);
        dWorldSetGravity(world_, 0, scenes::benchGravity, 0);
        dWorldSetAutoDisableFlag(world_, sleep ? 1 : 0);
        for (const scenes::BenchBody& b : desc.bodies) add(b);
    }
    ~OdeEngine() override {
        dJointGroupDestroy(contacts_);
        dSpaceDestroy(space_); // destroys the geoms in it
        dWorldDestroy(world_); // and the bodies
    }
    const char* name() const override { return "ode"; }
    void step() override {
        points_ = 0;
        dSpaceCollide(space_, this, &OdeEngine::nearCallback);
        dWorldQuickStep(world_, 1.0 / 60);
        dJointGroupEmpty(contacts_);
    }
    void sample(std::vector<BodySample>& out) const override {
        out.resize(dynamic_.size());
        for (std::size_t i = 0; i < dynamic_.size(); ++i) {
            const dReal* p = dBodyGetPosition(dynamic_[i]);
            const dReal* v = dBodyGetLinearVel(dynamic_[i]);
            out[i] = {p[0], p[1], p[2], std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), dBodyIsEnabled(dynamic_[i]) == 0};
        }
    }

    std::size_t contacts() const override { return points_; }

private:
    void add(const scenes::BenchBody& b) {
        const bool isBox = b.shape == scenes::BenchBody::Shape::Box;
        const dReal hx = b.size.x(), hy = b.size.y(), hz = b.size.z();
        const dGeomID geom = isBox ? dCreateBox(space_, 2 * hx, 2 * hy, 2 * hz) : dCreateSphere(space_, hx);
        if (!b.dynamic) {
            dGeomSetPosition(geom, b.position.x(), b.position.y(), b.position.z());
            return;
        }
        const dBodyID body = dBodyCreate(world_);
        dMass mass;
        if (isBox) dMassSetBox(&mass, scenes::benchDensity, 2 * hx, 2 * hy, 2 * hz);
        else dMassSetSphere(&mass, scenes::benchDensity, hx);
        dBodySetMass(body, &mass);
        dGeomSetBody(geom, body);
        dBodySetPosition(body, b.position.x(), b.position.y(), b.position.z());
        dynamic_.push_back(body);
    }

    static void nearCallback(void* self, dGeomID a, dGeomID b) {
        auto* engine = static_cast<OdeEngine*>(self);
        const dBodyID ba = dGeomGetBody(a), bb = dGeomGetBody(b);
        if (!ba && !bb) return; // static against static
        std::array<dContact, 8> points{};
        const int n = dCollide(a, b, static_cast<int>(points.size()), &points[0].geom, sizeof(dContact));
        for (int i = 0; i < n; ++i) {
            dContact& c = points[static_cast<std::size_t>(i)];
            c.surface.mode = dContactApprox1;
            c.surface.mu = scenes::benchFriction;
            const dJointID joint = dJointCreateContact(engine->world_, engine->contacts_, &c);
            dJointAttach(joint, ba, bb);
        }
        engine->points_ += static_cast<std::size_t>(std::max(n, 0));
    }

    dWorldID world_{};
    dSpaceID space_{};
    dJointGroupID contacts_{};
    std::size_t points_ = 0; ///< contact joints made in the last step
    std::vector<dBodyID> dynamic_;
};

} // namespace

std::unique_ptr<Engine> makeOdeEngine(const scenes::BenchSceneDesc& desc, bool sleep) {
    return std::make_unique<OdeEngine>(desc, sleep);
}

} // namespace jounce::bench
