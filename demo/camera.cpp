// SPDX-License-Identifier: MIT
#include "camera.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace jounce::demo {
namespace {

constexpr float kFieldOfViewY = 45.0f * std::numbers::pi_v<float> / 180.0f;
constexpr float kRadiansPerPixel = 0.006f;
// Just short of straight up or down, where the look-at basis would degenerate.
constexpr float kMaxPitch = 1.55f;
constexpr float kZoomPerClick = 0.9f;
constexpr float kMinDistance = 0.05f;
constexpr float kMaxDistance = 5000.0f;

} // namespace

OrbitCamera::OrbitCamera(const Eigen::Vector3f& target, float distance, float yaw)
    : target_(target), distance_(std::clamp(distance, kMinDistance, kMaxDistance)), yaw_(yaw) {}

void OrbitCamera::orbit(float dx, float dy) {
    yaw_ -= dx * kRadiansPerPixel;
    pitch_ = std::clamp(pitch_ + dy * kRadiansPerPixel, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::pan(float dx, float dy, int viewportHeight) {
    // World units per pixel at the target's depth, so the grabbed point stays put.
    const float scale = 2 * distance_ * std::tan(kFieldOfViewY / 2) /
                        static_cast<float>(std::max(viewportHeight, 1));
    const Eigen::Vector3f forward = -offsetDirection();
    const Eigen::Vector3f right = forward.cross(Eigen::Vector3f::UnitY()).normalized();
    const Eigen::Vector3f up = right.cross(forward);
    target_ += scale * (-dx * right + dy * up);
}

void OrbitCamera::zoom(float clicks) {
    distance_ = std::clamp(distance_ * std::pow(kZoomPerClick, clicks), kMinDistance, kMaxDistance);
}

Eigen::Vector3f OrbitCamera::offsetDirection() const {
    return {std::cos(pitch_) * std::sin(yaw_), std::sin(pitch_), std::cos(pitch_) * std::cos(yaw_)};
}

Eigen::Vector3f OrbitCamera::eye() const { return target_ + distance_ * offsetDirection(); }

Eigen::Matrix4f OrbitCamera::view() const {
    const Eigen::Vector3f f = -offsetDirection();
    const Eigen::Vector3f s = f.cross(Eigen::Vector3f::UnitY()).normalized();
    const Eigen::Vector3f u = s.cross(f);
    const Eigen::Vector3f e = eye();
    Eigen::Matrix4f m = Eigen::Matrix4f::Identity();
    m.block<1, 3>(0, 0) = s.transpose();
    m.block<1, 3>(1, 0) = u.transpose();
    m.block<1, 3>(2, 0) = -f.transpose();
    m(0, 3) = -s.dot(e);
    m(1, 3) = -u.dot(e);
    m(2, 3) = f.dot(e);
    return m;
}

void OrbitCamera::rayThrough(float x, float y, int width, int height, Eigen::Vector3f& from,
                             Eigen::Vector3f& to) const {
    const float w = static_cast<float>(std::max(width, 1));
    const float h = static_cast<float>(std::max(height, 1));
    const Eigen::Matrix4f inverse = (projection(w / h) * view()).inverse();
    // Window y grows downward; normalised device y grows upward.
    const float nx = 2 * x / w - 1;
    const float ny = 1 - 2 * y / h;
    const Eigen::Vector4f nearPoint = inverse * Eigen::Vector4f(nx, ny, -1, 1);
    const Eigen::Vector4f farPoint = inverse * Eigen::Vector4f(nx, ny, 1, 1);
    from = nearPoint.head<3>() / nearPoint.w();
    to = farPoint.head<3>() / farPoint.w();
}

Eigen::Matrix4f OrbitCamera::projection(float aspect) const {
    // Near and far follow the distance so both a 0.1 m spring and a 1 km shot fit
    // in the 24-bit depth buffer.
    const float nearPlane = std::max(distance_ * 0.01f, 0.01f);
    const float farPlane = distance_ * 100.0f + 100.0f;
    const float f = 1.0f / std::tan(kFieldOfViewY / 2);
    Eigen::Matrix4f m = Eigen::Matrix4f::Zero();
    m(0, 0) = f / aspect;
    m(1, 1) = f;
    m(2, 2) = (farPlane + nearPlane) / (nearPlane - farPlane);
    m(2, 3) = 2 * farPlane * nearPlane / (nearPlane - farPlane);
    m(3, 2) = -1;
    return m;
}

} // namespace jounce::demo
