// SPDX-License-Identifier: MIT
// Mass properties of solids against known values and limits.

#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <numbers>

using namespace jounce;
using testing::tol;

TEST_CASE("solid primitives have the textbook mass and inertia", "[physics]") {
    const real pi = std::numbers::pi_v<real>;
    const MassProperties sphere = solidSphere(real(0.5), 1000);
    CHECK(sphere.mass == Approx(523.599).epsilon(1e-6)); // BENCH_SCENES.md's sphere
    CHECK(sphere.inertia(0, 0) == Approx(0.4 * 523.5987756 * 0.25).epsilon(tol(1e-9, 1e-5)));

    const MassProperties box = solidBox(Vec3(real(0.5), real(0.5), real(0.5)), 1000);
    CHECK(box.mass == Approx(1000));
    CHECK(box.inertia(1, 1) == Approx(1000.0 / 6));
    CHECK(box.inertia.isDiagonal());

    const MassProperties cyl = solidCylinder(1, 1, 1);
    CHECK(cyl.mass == Approx(2 * pi));
    CHECK(cyl.inertia(1, 1) == Approx(pi));                    // m r^2 / 2
    CHECK(cyl.inertia(0, 0) == Approx(2 * pi * (3 + 4) / 12)); // m (3 r^2 + h^2) / 12

    SECTION("a capsule with no straight part is a sphere") {
        const MassProperties cap = solidCapsule(real(0.5), 0, 1000);
        CHECK(cap.mass == Approx(sphere.mass));
        CHECK(cap.inertia.isApprox(sphere.inertia, tol(1e-12, 1e-5)));
    }
    SECTION("a capsule's inertia equals the cylinder plus two shifted hemispheres, integrated numerically") {
        // Monte-Carlo-free check: integrate slices of the capsule along its axis.
        const real r = real(0.3), hh = real(0.7), rho = 900;
        const MassProperties cap = solidCapsule(r, hh, rho);
        double mass = 0, iAxis = 0, iAcross = 0;
        const int n = 200000;
        const double top = hh + r, dy = 2 * top / n;
        for (int i = 0; i < n; ++i) {
            const double y = -top + (i + 0.5) * dy;
            const double over = std::abs(y) > hh ? std::abs(y) - hh : 0;
            const double rr = r * r - over * over; // slice radius squared
            const double dm = rho * pi * rr * dy;
            mass += dm;
            iAxis += dm * rr / 2;
            iAcross += dm * (rr / 4 + y * y);
        }
        CHECK(cap.mass == Approx(mass).epsilon(1e-6));
        CHECK(cap.inertia(1, 1) == Approx(iAxis).epsilon(1e-6));
        CHECK(cap.inertia(0, 0) == Approx(iAcross).epsilon(1e-6));
    }
}

TEST_CASE("the parallel-axis shift adds m (d.d E - d d^T)", "[physics]") {
    const MassProperties box = solidBox(Vec3(1, 2, 3), 1);
    const Vec3 d(0, 0, 2);
    const Mat3 shifted = shiftInertia(box.inertia, box.mass, d);
    CHECK(shifted(0, 0) == Approx(box.inertia(0, 0) + box.mass * 4));
    CHECK(shifted(2, 2) == Approx(box.inertia(2, 2)));
    const Mat3 diagonalShift = shiftInertia(Mat3::Zero(), 2, Vec3(1, 1, 0));
    CHECK(diagonalShift(0, 1) == Approx(-2));
}

TEST_CASE("user inertia must be symmetric positive definite and physical", "[physics]") {
    CHECK_NOTHROW(validateInertia(Mat3::Identity(), "I"));
    Mat3 asym = Mat3::Identity();
    asym(0, 1) = real(0.5);
    CHECK_THROWS_WITH(validateInertia(asym, "I"), Catch::Contains("symmetric"));
    CHECK_THROWS_WITH(validateInertia(Vec3(1, 1, 0).asDiagonal(), "I"), Catch::Contains("positive definite"));
    CHECK_THROWS_WITH(validateInertia(Vec3(1, -1, 1).asDiagonal(), "I"), Catch::Contains("positive definite"));
    CHECK_THROWS_WITH(validateInertia(Vec3(1, 1, 3).asDiagonal(), "I"), Catch::Contains("triangle"));
    Mat3 nan = Mat3::Identity();
    nan(2, 2) = std::numeric_limits<real>::quiet_NaN();
    CHECK_THROWS_WITH(validateInertia(nan, "I"), Catch::Contains("finite"));
    CHECK_THROWS_AS(solidBox(Vec3(1, 0, 1), 1), Error);
    CHECK_THROWS_AS(solidSphere(-1, 1), Error);
    CHECK_THROWS_AS(solidCapsule(1, -1, 1), Error);
    CHECK_THROWS_AS(solidCylinder(1, 1, 0), Error);
}
