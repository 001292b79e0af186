#pragma once
/// \file jounce.hpp
/// Everything a game needs: include this, link jounce::jounce.

#include <jounce/config.hpp>
#include <jounce/collision/broad_phase.hpp>
#include <jounce/collision/manifold.hpp>
#include <jounce/collision/narrow_phase.hpp>
#include <jounce/collision/time_of_impact.hpp>
#include <jounce/collision/point_queries.hpp>
#include <jounce/collision/ray_cast.hpp>
#include <jounce/collision/shapes.hpp>
#include <jounce/physics/body.hpp>
#include <jounce/physics/error.hpp>
#include <jounce/physics/force_generators.hpp>
#include <jounce/physics/handle.hpp>
#include <jounce/physics/mass_properties.hpp>
#include <jounce/physics/math.hpp>
#include <jounce/physics/joint.hpp>
#include <jounce/physics/particle_builders.hpp>
#include <jounce/physics/particles.hpp>
#include <jounce/physics/scene_file.hpp>
#include <jounce/physics/world.hpp>
