// SPDX-License-Identifier: MIT
#pragma once
/// \file vehicle.hpp
/// A ray-cast vehicle (docs/vehicle.md): a dynamic chassis held up by wheels that are
/// rays, not bodies, as Bullet's btRaycastVehicle and Jolt's WheeledVehicle make them.
/// Each wheel casts a ray from its mount along its suspension; where the ray meets the
/// ground, a spring and damper push the chassis up, and the tyre's friction (within a
/// friction circle of mu times the load) carries the engine's drive, the brakes and the
/// grip across the wheel. Call `update` once a frame before World::step.

#include <jounce/world/world.hpp>

#include <vector>

namespace jounce {

struct WheelDesc {
    Vec3 mount = Vec3::Zero();       ///< where the suspension starts, chassis frame [m]
    Vec3 down = -Vec3::UnitY();      ///< the suspension's travel, chassis frame (any length > 0)
    Vec3 axle = Vec3::UnitX();       ///< the wheel's axle at zero steer, chassis frame (across `down`)
    real radius = real(0.35);        ///< [m] > 0
    real restLength = real(0.4);     ///< the spring's length unloaded, mount to wheel centre [m] > 0
    real stiffness = 30000;          ///< [N/m] > 0
    real damping = 3000;             ///< [N s/m] >= 0
    real friction = 1;               ///< the tyre's mu >= 0
    bool steered = false;            ///< turned by the input's steer
    bool driven = false;             ///< takes a share of the engine's torque
};

struct VehicleDesc {
    BodyId chassis{};                ///< a dynamic body the game made (its colliders are the car's shape)
    std::vector<WheelDesc> wheels;   ///< 1 to 16
    real engineTorque = 2000;        ///< at full throttle, shared among the driven wheels [N m] >= 0
    real brakeTorque = 4000;         ///< per wheel at full brake [N m] >= 0
    real maxSteer = real(0.6);       ///< [rad] in [0, pi/2)
    std::uint32_t mask = 0xffffffffu;///< the categories the wheels' rays meet
};

struct VehicleInput {
    real throttle = 0;  ///< [-1, 1]: forward (+) or reverse
    real brake = 0;     ///< [0, 1]
    real steer = 0;     ///< [-1, 1]: + turns left (each steered wheel turns by steer * maxSteer about its suspension, up)
};

/// What one wheel found in the last update.
struct WheelState {
    bool touching = false;
    BodyId ground{};
    Vec3 contact = Vec3::Zero();     ///< where the ray met the ground [world]
    Vec3 normal = Vec3::UnitY();     ///< the ground's normal there
    real length = 0;                 ///< the suspension's length now [m]
    real load = 0;                   ///< the suspension's force [N]
    real steer = 0;                  ///< [rad]
    real spin = 0;                   ///< the wheel's rolling speed [rad/s] (for drawing)
    real angle = 0;                  ///< its rolled angle [rad] (for drawing)
    Vec3 tyreImpulse = Vec3::Zero(); ///< the tyre's friction impulse on the chassis this update [N s]
};

class Vehicle {
public:
    /// Validates `desc` (throws jounce::Error naming the field, VehicleDesc.wheels[2].radius,
    /// ...): the chassis must be a live dynamic body of `world`.
    Vehicle(const World& world, const VehicleDesc& desc);

    /// One frame of `dt` [s] in (0, 1]: each wheel's ray, spring, drive, brake and grip,
    /// applied to the chassis (and to a dynamic ground, oppositely) as impulses. Errors
    /// (update.dt, update.input.throttle, update.world: the chassis is gone) change nothing.
    void update(World& world, real dt, const VehicleInput& input);

    const VehicleDesc& desc() const { return desc_; }
    /// False for a vehicle whose description a world's error handler refused (it has no
    /// wheels and its updates do nothing).
    bool valid() const { return !desc_.wheels.empty(); }
    const std::vector<WheelState>& wheels() const { return wheels_; }
    /// Wheel `k`'s pose for drawing: its centre at the suspension's length, turned by its
    /// steer and rolled by its angle (axle along the pose's x). Errors: wheelPose.wheel,
    /// wheelPose.world.
    Transform wheelPose(const World& world, std::size_t k) const;

private:
    VehicleDesc desc_;
    std::vector<WheelState> wheels_;
};

} // namespace jounce
