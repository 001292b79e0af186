// SPDX-License-Identifier: MIT
// A game's first use of Jounce: drop a ball for one second and check where it is.
#include <jounce/jounce.hpp>

#include <cmath>
#include <cstdio>

int main() {
    jounce::World world;
    jounce::BodyDesc ball;
    ball.position = jounce::Vec3(0, 10, 0);
    const jounce::BodyId id = world.createBody(ball);
    for (int i = 0; i < 60; ++i) world.step(jounce::real(1) / 60);
    const double y = static_cast<double>(world.body(id).position.y());
    // Symplectic Euler over the default solver's 4 substeps a step: y = 10 - g h^2 n(n+1)/2
    // with n = 240 substeps of h = 1/240 s.
    const double expected = 10 - 9.81 * (1.0 / (240.0 * 240.0)) * 240 * 241 / 2;
    std::printf("ball at y = %.6f (expected %.6f)\n", y, expected);
    return std::abs(y - expected) < 1e-4 ? 0 : 1;
}
