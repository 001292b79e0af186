// SPDX-License-Identifier: MIT
// jounce-cloth-strain: how tight a 64 x 64 cloth hangs per millisecond, by substeps,
// iterations and levels of hierarchical PBD (docs/particles.md's table).
//
// usage: jounce-cloth-strain [--quick]
// The cloth (0.5 kg, 2 m, stretch compliance 0, shear 1e-2, skip-one bending 1e-3) is
// released flat, held by its top row or by its two top corners, and run for 2 s at
// 60 Hz; the figures are the worst stretch-edge strain over the second second and the
// mean wall time per step.

#include <jounce/jounce.hpp>
#include <jounce/particles/particle_builders.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

namespace {

using jounce::real;

struct Run {
    bool corners = false;
    int substeps = 10, iterations = 2, levels = 0;
};

void measure(const Run& r, int steps) {
    jounce::WorldSettings s;
    s.sleep.enabled = false;
    s.particles.substeps = r.substeps;
    s.particles.iterations = r.iterations;
    jounce::World w(s);
    jounce::ClothDesc d;
    d.corner = jounce::Vec3(-1, 3, 0);
    d.sideU = jounce::Vec3(2, 0, 0);
    d.sideV = jounce::Vec3(0, -2, 0);
    d.nu = d.nv = 64;
    d.mass = real(0.5);
    d.hierarchyLevels = r.levels;
    if (r.corners) d.pinned = {{0, 0}, {63, 0}};
    else
        for (int u = 0; u < 64; ++u) d.pinned.push_back({u, 0});
    const jounce::Cloth cloth = jounce::buildCloth(w, d);
    real worst = 0;
    double ms = 0;
    for (int i = 0; i < steps; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        w.step(real(1) / 60);
        ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (i < steps / 2) continue;
        for (const jounce::DistanceConstraintId id : cloth.stretch) {
            const jounce::DistanceConstraint& c = w.distanceConstraint(id);
            const real length = (w.particles().x[c.a] - w.particles().x[c.b]).norm();
            worst = std::max(worst, (length - c.restLength) / c.restLength);
        }
    }
    std::printf("| %s | %d x %d | %d | %.4g | %.2f |\n", r.corners ? "two corners" : "top row", r.substeps, r.iterations,
                r.levels, static_cast<double>(worst), ms / steps);
}

} // namespace

int main(int argc, char** argv) {
    const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
    std::printf("| held by | substeps x iterations | levels | worst strain | ms/step |\n|---|---|---|---|---|\n");
    const Run runs[] = {{false, 1, 10, 0}, {false, 1, 10, 3}, {false, 5, 2, 0}, {false, 5, 2, 3},  {false, 10, 2, 0},
                        {false, 10, 2, 3}, {false, 30, 1, 0}, {true, 10, 2, 0},  {true, 5, 2, 3},   {true, 10, 2, 3},
                        {true, 60, 1, 0}};
    for (const Run& r : runs) measure(r, quick ? 12 : 120);
    return 0;
}
