// SPDX-License-Identifier: MIT
// The demo camera's picking ray: a world point projected to the window must lie on
// the ray rayThrough() gives for that pixel (mouse picking depends on it).

#include <catch2/catch.hpp>

#include "demo/camera.hpp"

#include <Eigen/Geometry>

TEST_CASE("the picking ray through a pixel passes through what is drawn there", "[demo]") {
    using jounce::demo::OrbitCamera;
    OrbitCamera camera(Eigen::Vector3f(1, 2, 3), 12, 0.7f);
    camera.orbit(40, -25);
    const int width = 1280, height = 720;
    const Eigen::Matrix4f vp = camera.projection(float(width) / float(height)) * camera.view();
    for (const Eigen::Vector3f& p : {Eigen::Vector3f(1, 2, 3), Eigen::Vector3f(2, 0, 1), Eigen::Vector3f(-1, 3, 4)}) {
        const Eigen::Vector4f clip = vp * Eigen::Vector4f(p.x(), p.y(), p.z(), 1);
        const float x = (clip.x() / clip.w() + 1) / 2 * width;
        const float y = (1 - clip.y() / clip.w()) / 2 * height;
        Eigen::Vector3f from, to;
        camera.rayThrough(x, y, width, height, from, to);
        const Eigen::Vector3f d = (to - from).normalized();
        const float offLine = (p - from - d * d.dot(p - from)).norm();
        CHECK(offLine < 1e-3f * (p - camera.eye()).norm());
        CHECK(d.dot(camera.forward()) > 0);
    }
}
