// SPDX-License-Identifier: MIT
#pragma once
/// \file camera.hpp
/// An orbit camera: it circles `target` at `distance`, y up. Float throughout,
/// because it only feeds OpenGL.

#include <Eigen/Core>

namespace jounce::demo {

class OrbitCamera {
public:
    OrbitCamera() = default;
    OrbitCamera(const Eigen::Vector3f& target, float distance, float yaw = 0.6f);

    /// Turns around the target by a mouse drag of (dx, dy) pixels.
    void orbit(float dx, float dy);
    /// Slides the target so the point under the cursor follows a drag of (dx, dy)
    /// pixels in a viewport `viewportHeight` pixels tall.
    void pan(float dx, float dy, int viewportHeight);
    /// Wheel clicks; positive moves closer.
    void zoom(float clicks);

    Eigen::Vector3f eye() const;
    const Eigen::Vector3f& target() const { return target_; }
    float distance() const { return distance_; }
    Eigen::Matrix4f view() const;
    /// The line of sight through window point (x, y) of a width x height window, from
    /// the near plane (`from`) to the far plane (`to`): what the mouse points at.
    void rayThrough(float x, float y, int width, int height, Eigen::Vector3f& from, Eigen::Vector3f& to) const;
    /// Unit view direction.
    Eigen::Vector3f forward() const { return -offsetDirection(); }
    Eigen::Matrix4f projection(float aspect) const;

private:
    Eigen::Vector3f offsetDirection() const;

    Eigen::Vector3f target_ = Eigen::Vector3f(0, 2, 0);
    float distance_ = 20;
    float yaw_ = 0.6f;   ///< [rad] about +y; 0 looks along -z
    float pitch_ = 0.4f; ///< [rad] above the horizon
};

} // namespace jounce::demo
