// SPDX-License-Identifier: MIT
// jounce-bench --compare for the particle scenes cloth64 and softcube: Jounce's
// particle layer against Bullet's soft bodies (btSoftBody in a btSoftRigidDynamicsWorld);
// for sandpile, Jounce's grains against what a game without a particle layer would
// do: as many rigid spheres in Bullet (btDiscreteDynamicsWorld, see BulletGrains); and
// for mixed, Jounce's whole scene against its three parts run alone in Bullet, one
// after the other each frame (BulletMixed): pyramid10 as rigid boxes, the cloth as a
// btSoftBody on the ground, the grains as rigid spheres on the ground.
//
// Comparable settings, stated: Bullet gets the very particles and constraints Jounce
// built (same positions, masses and node order; one link per Jounce distance
// constraint: the cloth's stretch, shear and bending edges, the cube's edges), a static
// ground box and, for the cloth, a static sphere of radius 0.5. One step of 1/60 s per
// frame; Bullet's position iterations (piterations) = Jounce's substeps x sweeps (as
// set, --set particles.substeps / particles.iterations), so both spend the same number
// of passes over the constraints. Link
// stiffness 1 (Jounce's compliance 0), no air (Bullet's default air density would drag
// the cloth), no damping, collision margin = the particle radius; Bullet's soft-rigid
// collision is its default (SDF against rigid shapes). Sleeping off in both. Bullet
// solves no per-tetrahedron volume in this solver, so the cube keeps its shape by its
// edge links only (Jounce adds its tetrahedron volume constraints): the cube's volume
// figure shows what that costs Bullet.

#include "bench/engines.hpp"
#include "bench/report.hpp"
#include "scenes/particle_scenes.hpp"

#include <BulletSoftBody/btSoftBodyHelpers.h>
#include <BulletSoftBody/btSoftBodyRigidBodyCollisionConfiguration.h>
#include <BulletSoftBody/btSoftRigidDynamicsWorld.h>
#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>

namespace jounce::bench {
namespace {

using Point = std::array<double, 3>;

/// What both engines are built from: Jounce's particles and constraints as plain data.
struct SoftSceneData {
    std::vector<Vec3> positions;
    std::vector<real> masses;
    std::vector<std::array<std::uint32_t, 2>> links;      ///< node pairs
    std::vector<std::array<std::uint32_t, 3>> surface;    ///< closed surface (softcube) for the volume, else empty
    /// The cloth's stretch links (cloth64) and their rest lengths, for the worst strain at
    /// the end; else empty.
    std::vector<std::array<std::uint32_t, 2>> stretch;
    std::vector<real> stretchRest;
    real radius = 0;
    int passes = 20;                                      ///< Jounce's substeps x sweeps: btSoftBody's piterations
    bool sphere = false;                                  ///< cloth64: the static sphere at (0, 0.5, 0)
    bool grains = false;                                  ///< sandpile: loose grains, no links
};

class SoftEngine {
public:
    virtual ~SoftEngine() = default;
    virtual void step() = 0;
    virtual void sample(std::vector<Point>& x, double& maxSpeed) const = 0;
};

class JounceSoft final : public SoftEngine {
public:
    JounceSoft(const std::string& scene, const JounceOptions& options) {
        WorldSettings s = scene_.world().settings();
        s.sleep.enabled = false;
        if (options.adjust) options.adjust(s);
        scene_.world().setSettings(s);
        scene_.world().setThreads(options.threads);
        if (scene == "cloth64") {
            const Cloth cloth = scenes::buildCloth64(scene_);
            particles_ = cloth.particles;
            stretch_ = cloth.stretch;
        } else if (scene == "mixed") {
            const scenes::MixedParts parts = scenes::buildMixed(scene_);
            particles_ = parts.cloth.particles;
            clothCount_ = particles_.size();
            particles_.insert(particles_.end(), parts.sand.begin(), parts.sand.end());
        } else if (scene == "sandpile") {
            particles_ = scenes::buildSandpile(scene_);
        } else {
            const SoftBody cube = scenes::buildBenchSoftCube(scene_);
            particles_ = cube.particles;
            surface_ = cube.surface;
        }
    }
    void step() override {
        scene_.step();
        const Profile& p = scene_.world().profile();
        for (const auto& [stage, ms] : {std::pair{"backup", p.backup}, {"forces", p.forces}, {"integrate", p.integrate},
                                        {"broad_phase", p.broadPhase}, {"narrow_phase", p.narrowPhase}, {"group", p.group},
                                        {"resolve", p.resolve}, {"finish", p.finish}, {"particle_contacts", p.particleContacts},
                                        {"particle_project", p.particleProject}, {"particle_integrate", p.particleIntegrate},
                                        {"deformables", p.deformables}, {"sleep", p.sleep}, {"events", p.events}})
            stageMs_[stage] += ms;
        totalMs_ += p.total;
    }
    /// The stage (World::profile, the particle layer by its three parts) that took the most
    /// of the steps so far, and its share of the steps' time (Profile::total; "none"
    /// before a step).
    std::pair<std::string, double> largestStage() const {
        std::pair<std::string, double> largest{"none", 0};
        for (const auto& [stage, ms] : stageMs_)
            if (ms > largest.second) largest = {stage, ms};
        if (totalMs_ > 0) largest.second /= totalMs_;
        return largest;
    }
    void sample(std::vector<Point>& x, double& maxSpeed) const override {
        x.resize(particles_.size());
        maxSpeed = 0;
        for (std::size_t i = 0; i < particles_.size(); ++i) {
            const Particle p = scene_.world().particle(particles_[i]);
            x[i] = {double(p.position.x()), double(p.position.y()), double(p.position.z())};
            maxSpeed = std::max(maxSpeed, double(p.velocity.norm()));
        }
    }
    /// The scene as plain data, for Bullet (mixed: its cloth; mixedGrains: its grains).
    SoftSceneData data(const std::string& scene) const {
        if (scene == "mixed") return part(0, clothCount_, false);
        SoftSceneData d = part(0, particles_.size(), scene == "sandpile");
        d.sphere = scene == "cloth64";
        d.surface = surface_;
        std::map<std::uint32_t, std::uint32_t> node; // particle slot -> node
        for (std::size_t i = 0; i < particles_.size(); ++i) node[particles_[i].index] = static_cast<std::uint32_t>(i);
        for (const DistanceConstraintId id : stretch_) {
            const DistanceConstraint& c = scene_.world().distanceConstraint(id);
            d.stretch.push_back({node.at(c.a), node.at(c.b)});
            d.stretchRest.push_back(c.restLength);
        }
        return d;
    }
    SoftSceneData mixedGrains() const { return part(clothCount_, particles_.size(), true); }

private:
    /// particles_[first, last) as nodes 0, 1, ..., with the distance constraints among them.
    SoftSceneData part(std::size_t first, std::size_t last, bool grains) const {
        const World& w = scene_.world();
        SoftSceneData d;
        d.grains = grains;
        d.passes = w.settings().particles.substeps * w.settings().particles.iterations;
        std::map<std::uint32_t, std::uint32_t> node; // particle slot -> node
        for (std::size_t i = first; i < last; ++i) {
            const Particle p = w.particle(particles_[i]);
            node[particles_[i].index] = static_cast<std::uint32_t>(i - first);
            d.positions.push_back(p.position);
            d.masses.push_back(p.inverseMass > 0 ? 1 / p.inverseMass : 0);
            d.radius = p.radius;
        }
        for (const DistanceConstraintId id : w.distanceConstraintIds()) {
            const DistanceConstraint& c = w.distanceConstraint(id);
            if (node.contains(c.a) && node.contains(c.b)) d.links.push_back({node.at(c.a), node.at(c.b)});
        }
        return d;
    }

    BenchScene scene_;
    std::vector<ParticleId> particles_;                 ///< mixed: the cloth's, then the grains
    std::size_t clothCount_ = 0;                        ///< mixed: the cloth's particles in particles_
    std::vector<std::array<std::uint32_t, 3>> surface_; ///< softcube's, into particles_
    std::vector<DistanceConstraintId> stretch_;         ///< cloth64's stretch constraints
    std::map<std::string, double> stageMs_;             ///< every step's World::profile, by stage
    double totalMs_ = 0;                                ///< and their Profile::total
};

class BulletSoft final : public SoftEngine {
public:
    explicit BulletSoft(const SoftSceneData& d)
        : dispatcher_(&config_), world_(&dispatcher_, &broadphase_, &solver_, &config_) {
        const btVector3 g(0, btScalar(scenes::benchGravity), 0);
        world_.setGravity(g);
        btSoftBodyWorldInfo& info = world_.getWorldInfo();
        info.m_gravity = g;
        info.air_density = 0;
        info.m_broadphase = &broadphase_;
        info.m_dispatcher = &dispatcher_;
        info.m_sparsesdf.Initialize();
        addStatic(std::make_unique<btBoxShape>(btVector3(50, btScalar(0.5), 50)), btVector3(0, btScalar(-0.5), 0));
        if (d.sphere) addStatic(std::make_unique<btSphereShape>(btScalar(0.5)), btVector3(0, btScalar(0.5), 0));

        std::vector<btVector3> x;
        std::vector<btScalar> m;
        for (std::size_t i = 0; i < d.positions.size(); ++i) {
            x.emplace_back(btScalar(d.positions[i].x()), btScalar(d.positions[i].y()), btScalar(d.positions[i].z()));
            m.push_back(btScalar(d.masses[i]));
        }
        body_ = std::make_unique<btSoftBody>(&info, static_cast<int>(x.size()), x.data(), m.data());
        for (const auto& [a, b] : d.links) body_->appendLink(static_cast<int>(a), static_cast<int>(b));
        body_->m_cfg.piterations = d.passes;
        body_->m_cfg.kDP = 0;
        body_->m_materials[0]->m_kLST = 1;
        body_->getCollisionShape()->setMargin(btScalar(d.radius));
        body_->setActivationState(DISABLE_DEACTIVATION);
        world_.addSoftBody(body_.get());
    }
    ~BulletSoft() override {
        world_.removeSoftBody(body_.get());
        for (auto& r : statics_) world_.removeRigidBody(r.get());
    }
    void step() override { world_.stepSimulation(btScalar(1.0 / 60), 1, btScalar(1.0 / 60)); }
    void sample(std::vector<Point>& x, double& maxSpeed) const override {
        x.resize(static_cast<std::size_t>(body_->m_nodes.size()));
        maxSpeed = 0;
        for (int i = 0; i < body_->m_nodes.size(); ++i) {
            const btSoftBody::Node& n = body_->m_nodes[i];
            x[static_cast<std::size_t>(i)] = {double(n.m_x.x()), double(n.m_x.y()), double(n.m_x.z())};
            maxSpeed = std::max(maxSpeed, double(n.m_v.length()));
        }
    }

private:
    void addStatic(std::unique_ptr<btCollisionShape> shape, const btVector3& at) {
        btTransform t;
        t.setIdentity();
        t.setOrigin(at);
        motions_.push_back(std::make_unique<btDefaultMotionState>(t));
        statics_.push_back(std::make_unique<btRigidBody>(0, motions_.back().get(), shape.get()));
        world_.addRigidBody(statics_.back().get());
        shapes_.push_back(std::move(shape));
    }

    btSoftBodyRigidBodyCollisionConfiguration config_;
    btCollisionDispatcher dispatcher_;
    btDbvtBroadphase broadphase_;
    btSequentialImpulseConstraintSolver solver_;
    btSoftRigidDynamicsWorld world_;
    std::vector<std::unique_ptr<btCollisionShape>> shapes_;
    std::vector<std::unique_ptr<btDefaultMotionState>> motions_;
    std::vector<std::unique_ptr<btRigidBody>> statics_;
    std::unique_ptr<btSoftBody> body_;
};

/// The sand pile as Bullet's rigid spheres: one btSphereShape of the grains' radius and
/// mass per grain, at the grains' start positions, on the same ground box, one step of
/// 1/60 s with Bullet's 10 solver iterations. Bullet has one friction coefficient and
/// multiplies the two bodies': grains get sqrt(0.5) and the ground 0.775, so grain on
/// grain slides at 0.5 and grain on ground at 0.548, Jounce's kinetic coefficients
/// (sqrt(0.5 x 0.5) and sqrt(0.5 x 0.6)); Jounce also has static friction (1 and 0.775).
/// Spheres roll where Jounce's grains (points) cannot: without rolling friction they
/// spread into one layer (0.4 degrees, 27 ms a step on the reference machine), so each
/// gets rolling and spinning friction 0.1 and they make a pile (12 degrees), which is
/// what a game wanting a heap would set.
class BulletGrains final : public SoftEngine {
public:
    explicit BulletGrains(const SoftSceneData& d) : dispatcher_(&config_), world_(&dispatcher_, &broadphase_, &solver_, &config_) {
        world_.setGravity(btVector3(0, btScalar(scenes::benchGravity), 0));
        ground_ = std::make_unique<btBoxShape>(btVector3(50, btScalar(0.5), 50));
        add(ground_.get(), 0, btVector3(0, btScalar(-0.5), 0), btScalar(0.775));
        sphere_ = std::make_unique<btSphereShape>(btScalar(d.radius));
        for (std::size_t i = 0; i < d.positions.size(); ++i)
            add(sphere_.get(), btScalar(d.masses[i]),
                btVector3(btScalar(d.positions[i].x()), btScalar(d.positions[i].y()), btScalar(d.positions[i].z())),
                btScalar(std::sqrt(0.5)));
    }
    ~BulletGrains() override {
        for (auto& b : bodies_) world_.removeRigidBody(b.get());
    }
    void step() override { world_.stepSimulation(btScalar(1.0 / 60), 1, btScalar(1.0 / 60)); }
    void sample(std::vector<Point>& x, double& maxSpeed) const override {
        x.clear();
        maxSpeed = 0;
        for (std::size_t i = 1; i < bodies_.size(); ++i) { // bodies_[0] is the ground
            const btVector3 p = bodies_[i]->getWorldTransform().getOrigin();
            x.push_back({double(p.x()), double(p.y()), double(p.z())});
            maxSpeed = std::max(maxSpeed, double(bodies_[i]->getLinearVelocity().length()));
        }
    }

private:
    void add(btCollisionShape* shape, btScalar mass, const btVector3& at, btScalar friction) {
        btTransform t;
        t.setIdentity();
        t.setOrigin(at);
        btVector3 inertia(0, 0, 0);
        if (mass > 0) shape->calculateLocalInertia(mass, inertia);
        motions_.push_back(std::make_unique<btDefaultMotionState>(t));
        btRigidBody::btRigidBodyConstructionInfo info(mass, motions_.back().get(), shape, inertia);
        info.m_friction = friction;
        info.m_rollingFriction = btScalar(0.1);
        info.m_spinningFriction = btScalar(0.1);
        bodies_.push_back(std::make_unique<btRigidBody>(info));
        if (mass > 0) bodies_.back()->setActivationState(DISABLE_DEACTIVATION); // sleeping off, as in Jounce
        world_.addRigidBody(bodies_.back().get());
    }

    btDefaultCollisionConfiguration config_;
    btCollisionDispatcher dispatcher_;
    btDbvtBroadphase broadphase_;
    btSequentialImpulseConstraintSolver solver_;
    btDiscreteDynamicsWorld world_;
    std::unique_ptr<btCollisionShape> ground_, sphere_;
    std::vector<std::unique_ptr<btDefaultMotionState>> motions_;
    std::vector<std::unique_ptr<btRigidBody>> bodies_;
};

/// mixed's three parts, each run alone in its own Bullet world, stepped one after the
/// other each frame: pyramid10's boxes (bench/bullet_engine.cpp, sleeping off), the
/// 32 x 32 cloth as a btSoftBody on the ground (BulletSoft) and the 1000 grains as rigid
/// spheres on the ground (BulletGrains). Its step time is the sum of the three: what a
/// game without Jounce would pay for the same things, none of them touching another.
class BulletMixed final : public SoftEngine {
public:
    BulletMixed(const SoftSceneData& cloth, const SoftSceneData& grains)
        : boxes_(makeBulletEngine(scenes::benchSceneDesc("pyramid10"), false)), cloth_(cloth), grains_(grains) {}
    void step() override {
        timed(0, [&] { boxes_->step(); });
        timed(1, [&] { cloth_.step(); });
        timed(2, [&] { grains_.step(); });
    }
    /// Each part's share of the steps' time: the boxes, the cloth, the grains.
    std::array<double, 3> shares() const {
        const double total = ms_[0] + ms_[1] + ms_[2];
        if (total <= 0) return {0, 0, 0}; // no step yet
        return {ms_[0] / total, ms_[1] / total, ms_[2] / total};
    }
    /// The cloth's nodes, then the grains.
    void sample(std::vector<Point>& x, double& maxSpeed) const override {
        std::vector<Point> more;
        double speed = 0;
        cloth_.sample(x, maxSpeed);
        grains_.sample(more, speed);
        x.insert(x.end(), more.begin(), more.end());
        maxSpeed = std::max(maxSpeed, speed);
    }

private:
    template <class Step> void timed(std::size_t part, const Step& step) {
        const auto t0 = std::chrono::steady_clock::now();
        step();
        ms_[part] += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    }
    std::array<double, 3> ms_{};
    std::unique_ptr<Engine> boxes_;
    BulletSoft cloth_;
    BulletGrains grains_;
};

/// A pile's angle of repose [degrees] from its grains' centres: atan(H / R), H the
/// highest grain's top above the ground (y = 0) and R the horizontal distance from the
/// pile's axis (the grains' mean x, z) within which 90 % of the grains lie.
double reposeAngle(const std::vector<Point>& x, double radius) {
    if (x.empty()) return 0;
    double cx = 0, cz = 0, top = 0;
    for (const Point& p : x) {
        cx += p[0] / double(x.size());
        cz += p[2] / double(x.size());
        top = std::max(top, p[1] + radius);
    }
    std::vector<double> out;
    for (const Point& p : x) out.push_back(std::hypot(p[0] - cx, p[2] - cz));
    const auto k = out.begin() + static_cast<std::ptrdiff_t>(0.9 * double(out.size() - 1));
    std::nth_element(out.begin(), k, out.end());
    return std::atan2(top, *k) * 180 / 3.14159265358979323846;
}

/// Volume enclosed by a closed, outward-wound triangle surface (divergence theorem).
double enclosedVolume(const std::vector<Point>& x, const std::vector<std::array<std::uint32_t, 3>>& surface) {
    double v = 0;
    for (const auto& t : surface) {
        const Point &a = x[t[0]], &b = x[t[1]], &c = x[t[2]];
        v += a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
    }
    return v / 6;
}

struct SoftFigures : StepTimes {
    long steps = 0;
    double maxSpeed = 0, lowestY = 0, centroidY = 0, volumeRatio = 0, repose = 0;
    double maxStretch = -1; ///< worst |length / rest - 1| of the stretch links at the end (-1: none)
    std::size_t particles = 0, escaped = 0;
    bool nonFinite = false;
    bool exploded() const { return nonFinite || maxSpeed > 50; }
};

SoftFigures runSoft(SoftEngine& engine, const SoftSceneData& d, long steps) {
    SoftFigures f;
    std::vector<Point> x;
    double speed = 0;
    engine.sample(x, speed);
    const double volume0 = d.surface.empty() ? 0 : enclosedVolume(x, d.surface);
    const auto length = [&](const std::array<std::uint32_t, 2>& l) {
        const Point &a = x[l[0]], &b = x[l[1]];
        return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
    };
    std::vector<double> ms;
    for (long i = 0; i < steps; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        engine.step();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        ++f.steps;
        engine.sample(x, speed);
        if (!std::isfinite(speed)) f.nonFinite = true;
        else f.maxSpeed = std::max(f.maxSpeed, speed);
    }
    static_cast<StepTimes&>(f) = stepTimes(ms);
    f.particles = x.size();
    f.lowestY = x.empty() ? 0 : x[0][1];
    for (const Point& p : x) {
        if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2])) f.nonFinite = true;
        f.lowestY = std::min(f.lowestY, p[1]);
        f.centroidY += p[1] / double(x.size());
        if (!(p[1] >= -1)) ++f.escaped;
    }
    if (volume0 > 0) f.volumeRatio = enclosedVolume(x, d.surface) / volume0;
    for (std::size_t k = 0; k < d.stretch.size(); ++k)
        f.maxStretch = std::max(f.maxStretch, std::abs(length(d.stretch[k]) / double(d.stretchRest[k]) - 1));
    if (d.grains) f.repose = reposeAngle(x, d.radius);
    return f;
}

std::vector<std::pair<std::string, std::string>> softFields(const std::vector<SoftFigures>& runs, bool cube, bool grains) {
    const StepTimes times = medianStepTimes(runs);
    const SoftFigures& f = runs.back();
    return {{"steps", std::to_string(f.steps)},
            {"ms_per_step_median", number(times.msMedian)},
            {"ms_per_step_max", number(times.msMax)},
            {"ms_total", number(times.msTotal)},
            {"particles", std::to_string(f.particles)},
            {"max_particle_speed", number(f.maxSpeed)},
            {"lowest_y", number(f.lowestY)},
            {"centroid_y", number(f.centroidY)},
            {"volume_ratio", cube ? number(f.volumeRatio) : "null"},
            {"repose_deg", grains ? number(f.repose) : "null"},
            {"max_stretch", f.maxStretch >= 0 ? number(f.maxStretch) : "null"},
            {"particles_escaped", std::to_string(f.escaped)},
            {"exploded", f.exploded() ? "true" : "false"},
            {"any_nan", f.nonFinite ? "true" : "false"}};
}

} // namespace

int compareSoftBodies(const std::string& scene, long steps, int runs, bool json, const JounceOptions& options) {
    const bool mixed = scene == "mixed";
    SoftSceneData data, grains;
    {
        const JounceSoft built(scene, options);
        data = built.data(scene);
        if (mixed) grains = built.mixedGrains();
    }
    std::map<std::string, std::vector<SoftFigures>> results;
    std::vector<std::pair<std::string, double>> largestStages;
    std::array<double, 3> bulletShares{}; ///< mixed: the last run's parts
    for (int r = 0; r < runs; ++r) {
        {
            JounceSoft engine(scene, options);
            results["jounce"].push_back(runSoft(engine, data, steps));
            largestStages.push_back(engine.largestStage());
        }
        if (mixed) {
            BulletMixed engine(data, grains);
            results["bullet"].push_back(runSoft(engine, data, steps));
            bulletShares = engine.shares();
        } else if (data.grains) {
            BulletGrains engine(data);
            results["bullet"].push_back(runSoft(engine, data, steps));
        } else {
            BulletSoft engine(data);
            results["bullet"].push_back(runSoft(engine, data, steps));
        }
        if (!json)
            std::fprintf(stderr, "run %d/%d jounce %.3f ms/step, bullet %.3f ms/step\n", r + 1, runs,
                         results["jounce"].back().msMedian, results["bullet"].back().msMedian);
    }
    std::vector<double> ratios;
    for (int r = 0; r < runs; ++r)
        ratios.push_back(results["jounce"][std::size_t(r)].msMedian / results["bullet"][std::size_t(r)].msMedian);
    const double ratio = median(ratios);
    const bool cube = scene == "softcube";
    // The largest stage of the median run (by Jounce's step time).
    std::pair<std::string, double> largest = largestStages.front();
    {
        std::vector<std::size_t> byTime(largestStages.size());
        for (std::size_t i = 0; i < byTime.size(); ++i) byTime[i] = i;
        std::sort(byTime.begin(), byTime.end(),
                  [&](std::size_t a, std::size_t b) { return results["jounce"][a].msMedian < results["jounce"][b].msMedian; });
        largest = largestStages[byTime[byTime.size() / 2]];
    }
    const auto j = softFields(results["jounce"], cube, data.grains), b = softFields(results["bullet"], cube, data.grains);
    if (json) {
        std::string line = "{\"scene\": " + jsonString(scene) + ", \"sleep\": false, \"runs\": " + std::to_string(runs) +
                           ", \"engines\": {";
        for (const auto& [name, fs] : {std::pair{"jounce", &j}, std::pair{"bullet", &b}}) {
            line += std::string(name == std::string("jounce") ? "" : ", ") + jsonString(name) + ": {";
            for (std::size_t i = 0; i < fs->size(); ++i)
                line += (i ? ", " : "") + jsonString((*fs)[i].first) + ": " + (*fs)[i].second;
            line += "}";
        }
        line += "}, \"ratio\": {\"bullet\": " + number(ratio) + "}, \"jounce_threads\": " + std::to_string(options.threads) +
                ", \"jounce_set\": " + jsonString(options.described);
        if (!data.grains) line += ", \"bullet_piterations\": " + std::to_string(data.passes);
        if (mixed)
            line += ", \"jounce_largest_stage\": " + jsonString(largest.first) + ", \"jounce_largest_stage_share\": " +
                    number(largest.second);
        line += "}";
        std::printf("%s\n", line.c_str());
        return 0;
    }
    const std::string bullet = mixed ? "pyramid10, the cloth as btSoftBody (piterations " + std::to_string(data.passes) +
                                           ") and the grains as rigid spheres, each alone, one after the other"
                               : data.grains ? std::string("rigid spheres, 10 iterations")
                                             : "btSoftBody, piterations " + std::to_string(data.passes);
    std::printf("%s, sleep off, %d runs interleaved, %ld steps of 1/60 s (Bullet: %s)\n", scene.c_str(), runs, steps,
                bullet.c_str());
    if (!options.described.empty() || options.threads != 1)
        std::printf("jounce: %s%sthreads %u\n", options.described.c_str(), options.described.empty() ? "" : ", ", options.threads);
    std::printf("%-22s %14s %14s\n", "figure", "jounce", "bullet");
    for (std::size_t i = 0; i < j.size(); ++i) std::printf("%-22s %14s %14s\n", j[i].first.c_str(), j[i].second.c_str(), b[i].second.c_str());
    std::printf("%-22s %14s %14s\n", "jounce / engine", "1", number(ratio).c_str());
    if (mixed) {
        std::printf("jounce's largest stage: %s, %.0f %% of its step\n", largest.first.c_str(), 100 * largest.second);
        std::printf("bullet's parts (last run): boxes %.0f %%, cloth %.0f %%, grains %.0f %% of its step\n", 100 * bulletShares[0],
                    100 * bulletShares[1], 100 * bulletShares[2]);
    }
    return 0;
}

} // namespace jounce::bench
