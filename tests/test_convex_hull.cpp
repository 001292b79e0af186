// SPDX-License-Identifier: MIT
// Quickhull: shape of the result, containment, mass properties and bad input.

#include "helpers.hpp"

#include <jounce/collision/convex_hull.hpp>

#include <catch2/catch.hpp>

#include <random>
#include <set>

using namespace jounce;
using testing::tol;

namespace {

std::vector<Vec3> boxCloud(const Vec3& h, std::mt19937& rng) {
    std::vector<Vec3> points;
    std::uniform_real_distribution<real> u(-1, 1);
    for (int i = 0; i < 200; ++i) points.push_back(Vec3(u(rng), u(rng), u(rng)).cwiseProduct(h)); // inside
    for (int c = 0; c < 8; ++c)
        points.push_back(Vec3(c & 1 ? h.x() : -h.x(), c & 2 ? h.y() : -h.y(), c & 4 ? h.z() : -h.z()));
    for (int i = 0; i < 50; ++i) points.push_back(Vec3(h.x(), u(rng) * h.y(), u(rng) * h.z()));    // on a face
    for (int i = 0; i < 20; ++i) points.push_back(Vec3(h.x(), h.y(), u(rng) * h.z()));             // on an edge
    points.push_back(points[205]);                                                                 // a duplicate corner
    std::shuffle(points.begin(), points.end(), rng);
    return points;
}

std::size_t edgeCount(const HullData& hull) {
    std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
    for (const HullFace& f : hull.faces)
        for (std::size_t k = 0; k < f.vertices.size(); ++k) {
            const auto a = f.vertices[k], b = f.vertices[(k + 1) % f.vertices.size()];
            edges.insert({std::min(a, b), std::max(a, b)});
        }
    return edges.size();
}

} // namespace

TEST_CASE("a cloud within round-off of a line through the hull is flagged, never a hull with empty faces (fuzz finding)",
          "[collision]") {
    // fuzz_hull: four points on the diagonal (one 2.4e10 m out) among a box's corners
    // gave a face with no corners, a zero normal and an infinite offset, which the
    // narrow phase then read past the end of.
    const std::vector<Vec3> points{{real(5.3146984165947376e-299), real(6.5725181830070456e-299), real(6.8641630681857277e-299)},
                                   {-2, -2, -2}, {2, 2, 2}, {2, 2, -2}, {2, -2, -2}, {2, 2, -2},
                                   {real(23630741889.002098), real(23630741889.002098), real(23630741889.002098)},
                                   {-2, 0, 2}, {2, -2, -2}, {-2, 2, 2},
                                   {real(5.3146984165903832e-299), real(6.5725181830026912e-299), real(6.8641630681813733e-299)}};
    try {
        const HullData hull = buildConvexHull(points);
        for (const HullFace& f : hull.faces) {
            CHECK(f.vertices.size() >= 3);
            CHECK(std::abs(f.normal.norm() - 1) < real(1e-3));
            CHECK(std::isfinite(f.offset));
        }
        CHECK(hull.vertices.size() + hull.faces.size() == hull.edges.size() + 2);
    } catch (const Error& e) {
        CHECK(e.field() == "buildConvexHull.points");
    }
}

TEST_CASE("the hull of a box's point cloud is the box: 8 corners, 6 quads", "[collision]") {
    std::mt19937 rng(1);
    const Vec3 h(real(0.5), 1, real(1.5));
    const HullData hull = buildConvexHull(boxCloud(h, rng));
    CHECK(hull.vertices.size() == 8);
    REQUIRE(hull.faces.size() == 6);
    for (const HullFace& f : hull.faces) {
        CHECK(f.vertices.size() == 4);
        CHECK(f.normal.cwiseAbs().maxCoeff() == Approx(1).margin(tol(1e-12, 1e-5)));
    }
    const MassProperties mp = hullMassProperties(hull, 700);
    const MassProperties box = solidBox(h, 700);
    CHECK(mp.mass == Approx(box.mass).epsilon(tol(1e-12, 1e-5)));
    CHECK(mp.centroid.norm() < tol(1e-12, 1e-5));
    CHECK(mp.inertia.isApprox(box.inertia, tol(1e-10, 1e-4)));
}

TEST_CASE("random clouds: every point inside, faces convex and closed (V - E + F = 2)", "[collision]") {
    std::mt19937 rng(2);
    std::normal_distribution<real> n(0, 1);
    for (int trial = 0; trial < 20; ++trial) {
        std::vector<Vec3> points;
        const int count = 10 + trial * 50;
        for (int i = 0; i < count; ++i) points.push_back(Vec3(n(rng), n(rng), real(0.3) * n(rng)));
        const HullData hull = buildConvexHull(points);
        const real slack = 10 * hull.tolerance;
        for (const HullFace& f : hull.faces) {
            for (const Vec3& p : points) REQUIRE(f.normal.dot(p) - f.offset <= slack);
            for (std::uint32_t v : f.vertices) REQUIRE(std::abs(f.normal.dot(hull.vertices[v]) - f.offset) <= slack);
            // Counter-clockwise from outside: consecutive edges turn about +normal.
            const Vec3& a = hull.vertices[f.vertices[0]];
            const Vec3& b = hull.vertices[f.vertices[1]];
            const Vec3& c = hull.vertices[f.vertices[2]];
            REQUIRE((b - a).cross(c - b).dot(f.normal) > 0);
        }
        CHECK(static_cast<long>(hull.vertices.size()) - static_cast<long>(edgeCount(hull)) +
                  static_cast<long>(hull.faces.size()) == 2);
        // Same input, same hull.
        const HullData again = buildConvexHull(points);
        CHECK(again.vertices == hull.vertices);
        CHECK(again.faces.size() == hull.faces.size());
    }
}

TEST_CASE("hull mass properties of a shifted, turned box", "[collision]") {
    const Quat q(Eigen::AngleAxis<real>(real(0.8), Vec3(1, 2, 3).normalized()));
    const Vec3 shift(3, -1, 2), h(1, real(0.25), real(0.5));
    std::vector<Vec3> corners;
    for (int c = 0; c < 8; ++c) corners.push_back(shift + q * Vec3(c & 1 ? h.x() : -h.x(), c & 2 ? h.y() : -h.y(), c & 4 ? h.z() : -h.z()));
    const MassProperties mp = hullMassProperties(buildConvexHull(corners), 1000);
    const MassProperties box = solidBox(h, 1000);
    const Mat3 r = q.toRotationMatrix();
    CHECK(mp.centroid.isApprox(shift, tol(1e-12, 1e-5)));
    CHECK(mp.inertia.isApprox(r * box.inertia * r.transpose(), tol(1e-10, 1e-4)));
}

TEST_CASE("degenerate point sets are reported, never crash", "[collision]") {
    auto fails = [](std::vector<Vec3> points, const std::string& words) {
        CAPTURE(words);
        CHECK_THROWS_WITH(buildConvexHull(points), Catch::Contains(words));
    };
    fails({Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY()}, "at least 4");
    fails({Vec3::Ones(), Vec3::Ones(), Vec3::Ones(), Vec3::Ones(), Vec3::Ones()}, "coincident");
    fails({Vec3::Zero(), Vec3(1, 1, 1), Vec3(2, 2, 2), Vec3(3, 3, 3), Vec3(real(0.5), real(0.5), real(0.5))}, "collinear");
    fails({Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY(), Vec3(1, 1, 0), Vec3(real(0.3), real(0.7), 0)}, "coplanar");
    fails({Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY(), Vec3(0, 0, std::numeric_limits<real>::quiet_NaN())}, "finite");
    CHECK_NOTHROW(buildConvexHull(std::vector<Vec3>{Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ()}));
}
