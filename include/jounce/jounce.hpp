// SPDX-License-Identifier: MIT
#pragma once
/// \file jounce.hpp
/// Everything a game needs: include this, link jounce::jounce. Every public header is
/// listed (the test include_all checks none is missing), room by room.

#include <jounce/config.hpp>
#include <jounce/common/error.hpp>
#include <jounce/common/handle.hpp>
#include <jounce/common/math.hpp>
#include <jounce/common/simd.hpp>
#include <jounce/common/tasks.hpp>
#include <jounce/collision/broad_phase.hpp>
#include <jounce/collision/convex_hull.hpp>
#include <jounce/collision/gjk.hpp>
#include <jounce/collision/manifold.hpp>
#include <jounce/collision/mass_properties.hpp>
#include <jounce/collision/narrow_phase.hpp>
#include <jounce/collision/point_queries.hpp>
#include <jounce/collision/ray_cast.hpp>
#include <jounce/collision/shape_cast.hpp>
#include <jounce/collision/shapes.hpp>
#include <jounce/collision/time_of_impact.hpp>
#include <jounce/collision/triangle_mesh.hpp>
#include <jounce/collision/heightfield.hpp>
#include <jounce/dynamics/body.hpp>
#include <jounce/dynamics/collider.hpp>
#include <jounce/dynamics/force_generators.hpp>
#include <jounce/dynamics/step_context.hpp>
#include <jounce/contact/contact.hpp>
#include <jounce/contact/events.hpp>
#include <jounce/contact/islands.hpp>
#include <jounce/contact/joint.hpp>
#include <jounce/contact/resolver.hpp>
#include <jounce/particles/particle_builders.hpp>
#include <jounce/particles/particle_constraints.hpp>
#include <jounce/particles/particles.hpp>
#include <jounce/deformable/deformable.hpp>
#include <jounce/deformable/deformable_builders.hpp>
#include <jounce/world/world.hpp>
#include <jounce/world/ragdoll.hpp>
#include <jounce/world/debug_draw.hpp>
#include <jounce/character/character.hpp>
#include <jounce/vehicle/vehicle.hpp>
#include <jounce/io/scene_file.hpp>
