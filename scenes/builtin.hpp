// SPDX-License-Identifier: MIT
#pragma once
// Factories of the built-in scenes (one file each), listed by scene.cpp's registry.

#include "scenes/scene.hpp"

namespace jounce::scenes {

std::unique_ptr<Scene> makeShowcase();
std::unique_ptr<Scene> makeBallistic();
std::unique_ptr<Scene> makeContacts();
std::unique_ptr<Scene> makeFireworks();
std::unique_ptr<Scene> makeSpinning();
std::unique_ptr<Scene> makeSprings();
std::unique_ptr<Scene> makeColumn();
std::unique_ptr<Scene> makePyramid10();
std::unique_ptr<Scene> makePyramid20();
std::unique_ptr<Scene> makePile1000();
std::unique_ptr<Scene> makeSpheres4096();
std::unique_ptr<Scene> makeIncline();
std::unique_ptr<Scene> makeTwoBoxes();
std::unique_ptr<Scene> makeCradle();
std::unique_ptr<Scene> makeRagdolls();
std::unique_ptr<Scene> makeExplosion();
std::unique_ptr<Scene> makeBigBallistic();
std::unique_ptr<Scene> makeFracture();
std::unique_ptr<Scene> makeBridge();
std::unique_ptr<Scene> makeHinges();
std::unique_ptr<Scene> makeCar();
std::unique_ptr<Scene> makeCrane();
std::unique_ptr<Scene> makeCharacterLevel();
std::unique_ptr<Scene> makeRaycastCar();
std::unique_ptr<Scene> makeTerrain();
std::unique_ptr<Scene> makeBarrels();
std::unique_ptr<Scene> makeSurfaces();

// The raycar scene's car, shared with the showcase (raycast_car.cpp): a 1200 kg chassis
// (its mass low, in a floor pan) at `at`, its four wheels (rear-wheel drive), and the
// wheels drawn as cylinders.
BodyId addCarChassis(Scene& scene, const Vec3& at);
VehicleDesc carWheels(BodyId chassis);
void drawCarWheels(const World& world, const Vehicle& car, DrawList& out);
/// The arrow keys as the car's input: throttle + drives, - brakes while rolling forward
/// and then reverses; steer + left, with less lock at speed.
VehicleInput carInput(const World& world, BodyId chassis, real throttle, real steer);
/// Sets the car upright and still at `height`, where it is across the ground.
void rightCar(World& world, BodyId chassis, real height);
std::unique_ptr<Scene> makeRope();
std::unique_ptr<Scene> makeCloth64();
std::unique_ptr<Scene> makeSandpile();
std::unique_ptr<Scene> makeHangingCloth();
std::unique_ptr<Scene> makeBalloon();
std::unique_ptr<Scene> makeSoftCube();
std::unique_ptr<Scene> makeMixed();
std::unique_ptr<Scene> makeFlag();
std::unique_ptr<Scene> makeRopeBridge();
std::unique_ptr<Scene> makeBlob();
std::unique_ptr<Scene> makeFolds();
std::unique_ptr<Scene> makeDrape();
std::unique_ptr<Scene> makeArapBars();
std::unique_ptr<Scene> makeArapBar();
std::unique_ptr<Scene> makeArapTwist();
std::unique_ptr<Scene> makeArapCreature();
std::unique_ptr<Scene> makeArapFall();

} // namespace jounce::scenes
