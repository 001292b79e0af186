// SPDX-License-Identifier: MIT
// Force laws (Millington ch. 5-6 and 11, with the fixes listed in the header).

#include <jounce/dynamics/force_generators.hpp>

#include <algorithm>
#include <cmath>

namespace jounce {

Aero aeroSurface(BodyId body, const Mat3& tensor, const Vec3& point, const Vec3& wind) {
    Aero a;
    a.body = body;
    a.point = point;
    a.wind = wind;
    a.tensor = a.tensorMin = a.tensorMax = tensor;
    return a;
}

Vec3 springForce(const Vec3& pa, const Vec3& pb, const Vec3& va, const Vec3& vb, real stiffness,
                 real restLength, real damping) {
    const Vec3 d = pa - pb;
    const real length = d.norm();
    if (length == 0) return Vec3::Zero();
    const Vec3 dir = d / length;
    // Extension > 0 pulls A toward B; < 0 (compressed) pushes A away from B.
    const real extension = length - restLength;
    const real closingRate = (va - vb).dot(dir);
    return -(stiffness * extension + damping * closingRate) * dir;
}

Vec3 bungeeForce(const Vec3& pa, const Vec3& pb, const Vec3& va, const Vec3& vb, real stiffness,
                 real restLength, real damping) {
    if ((pa - pb).norm() <= restLength) return Vec3::Zero();
    const Vec3 f = springForce(pa, pb, va, vb, stiffness, restLength, damping);
    // The dashpot may not turn a pull into a push while the cord shortens quickly.
    return f.dot(pa - pb) < 0 ? f : Vec3::Zero();
}

real submergedShare(real y, real waterHeight, real maxDepth) {
    return std::clamp((waterHeight + maxDepth - y) / (2 * maxDepth), real(0), real(1));
}

Vec3 buoyancyForce(real y, const Buoyancy& b, const Vec3& gravity) {
    return -b.liquidDensity * b.volume * submergedShare(y, b.waterHeight, b.maxDepth) * gravity;
}

Vec3 dragForce(const Vec3& v, real k1, real k2) {
    const real speed = v.norm();
    if (speed == 0) return Vec3::Zero();
    return -(k1 + k2 * speed) * v;
}

Mat3 aeroTensor(const Aero& a) {
    if (a.control < 0) return a.tensor + (-a.control) * (a.tensorMin - a.tensor);
    return a.tensor + a.control * (a.tensorMax - a.tensor);
}

namespace {
/// e^{-gt} C(t) and e^{-gt} S(t) for the oscillator x = e^{-gt}(x0 C + (v0 + g x0) S),
/// with s = w0^2 - g^2: C = cos(wt), S = sin(wt)/w (s > 0); cosh and sinh (s < 0).
/// A series in s t^2 covers the critical point, where the two forms meet.
struct OscillatorTerms {
    real c, s;
};

OscillatorTerms oscillatorTerms(real gamma, real s, real t) {
    const real decay = std::exp(-gamma * t);
    const real st2 = s * t * t;
    if (std::abs(st2) < real(1e-4)) {
        const real c = 1 - st2 / 2 + st2 * st2 / 24;
        const real sn = t * (1 - st2 / 6 + st2 * st2 / 120);
        return {decay * c, decay * sn};
    }
    if (s > 0) {
        const real w = std::sqrt(s);
        return {decay * std::cos(w * t), decay * std::sin(w * t) / w};
    }
    const real w = std::sqrt(-s);
    // e^{-gt} cosh(wt) = (e^{(w-g)t} + e^{-(w+g)t}) / 2 never overflows since w < g.
    const real grow = std::exp((w - gamma) * t);
    const real fall = std::exp(-(w + gamma) * t);
    return {(grow + fall) / 2, (grow - fall) / (2 * w)};
}
} // namespace

Vec3 dampedOscillatorPosition(const Vec3& x0, const Vec3& v0, real stiffness, real damping,
                              real mass, real t) {
    const real gamma = damping / (2 * mass);
    const real s = stiffness / mass - gamma * gamma;
    const OscillatorTerms k = oscillatorTerms(gamma, s, t);
    return x0 * k.c + (v0 + gamma * x0) * k.s;
}

Vec3 forceToReach(const Vec3& x, const Vec3& v, const Vec3& target, real mass, real h) {
    return mass * (target - x - h * v) / (h * h);
}

} // namespace jounce
