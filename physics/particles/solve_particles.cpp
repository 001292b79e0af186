// The particle layer's loop for one world substep (Müller 2007 Algorithm 1, with
// XPBD's multipliers and Macklin 2019's small steps): the step is cut into
// settings.substeps small steps, each predicting, making its collision constraints
// from the broad phase's candidates, projecting `iterations` times, and turning the
// positions into velocities.

#include "physics/particles/direct_solve.hpp"
#include "physics/particles/stages.hpp"

namespace jounce::detail {

void solveParticles(ParticleSystem& ps, DirectSolver& direct, BodyArray& bodies, const ColliderArray& colliders,
                    const ParticleCandidates& candidates, const ParticleSettings& settings, const StepContext& ctx) {
    if (ps.slots.size() == 0) return;
    const real h = ctx.h / static_cast<real>(settings.substeps);
    ps.lastSubstep = h;
    std::vector<ParticleContact> shapeContacts, pairContacts;
    makePairContacts(ps, candidates, ctx.h, pairContacts);
    if (!settings.directChains) direct = DirectSolver{};
    else if (direct.builtFor != ps.topologyVersion) buildDirectGroups(ps, direct);
    for (int s = 0; s < settings.substeps; ++s) {
        predictParticles(ps, ctx.gravity, settings.damping, h);
        makeShapeContacts(ps, bodies, colliders, candidates, settings.contactMargin, h, shapeContacts);
        for (std::size_t k = 0; k < ps.distances.slotCount(); ++k) ps.distances.atSlot(k).lambda = 0;
        for (std::size_t k = 0; k < ps.attachments.slotCount(); ++k) ps.attachments.atSlot(k).lambda = 0;
        for (int it = 0; it < settings.iterations; ++it) {
            if (settings.directChains) projectDirect(ps, direct, settings, h);
            projectDistances(ps, settings, h, direct.solvedDirectly);
            projectAttachments(ps, bodies, settings, h);
            projectContacts(ps, bodies, shapeContacts, h);
            projectContacts(ps, bodies, pairContacts, h);
        }
        updateParticleVelocities(ps, h);
        bounceParticles(ps, bodies, shapeContacts, settings, h);
        bounceParticles(ps, bodies, pairContacts, settings, h);
    }
}

} // namespace jounce::detail
