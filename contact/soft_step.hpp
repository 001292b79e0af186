// SPDX-License-Identifier: MIT
#pragma once
// The soft step (ContactSolver::SoftStep): Catto's substepped solver with soft
// constraints and relaxation ("Solver2D", 2024; Box2D v3 and Box3D solve this way). The
// contacts are found once per world substep; then each of `substeps` solver substeps
//   1. integrates the bodies' velocities (forces, gravity, damping) over h / substeps,
//   2. warm starts every row with the impulse it carries,
//   3. sweeps the rows once with a soft bias (each contact a stiff, heavily damped
//      spring: contact/soft_constraint.hpp), the separation measured from how far the
//      bodies have moved so far this step,
//   4. integrates the positions (kept as each body's motion since the step began),
//   5. sweeps the rows again without the bias (relax), taking back the velocity the
//      push-out added so that nothing leaves a contact faster than it came in;
//   6. bounces the contacts with restitution that met this substep (bounceRow);
// then the rows' impulses are stored for the next step.
// Rows are the contacts' and the joints' (joints arrive as contacts: joint_contacts.cpp),
// and a hinge's or slider's own rows about or along its axis (soft_joint_axes.cpp).
// Islands of contacts alone skip the rows: their manifolds go straight from the narrow
// phase's manifolds into the coloured SIMD blocks (soft_colours.cpp), which do the same
// arithmetic.

#include <jounce/common/tasks.hpp>
#include <jounce/contact/contact.hpp>
#include <jounce/contact/resolver.hpp>
#include <jounce/dynamics/body.hpp>
#include <jounce/dynamics/step_context.hpp>

#include "common/staged_run.hpp"
#include "contact/contact_resolver.hpp"
#include "contact/joint_motion.hpp"
#include "contact/locked_mass.hpp"
#include "contact/stages.hpp"
#include "contact/resolver_stages.hpp"
#include "contact/soft_blocks.hpp"
#include "contact/soft_constraint.hpp"

#include <Eigen/Sparse>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace jounce {

namespace detail {

/// A body as the soft step sees it (index body + 1; entry 0 is the immovable world).
struct SoftBody {
    Vec3 linearVelocity = Vec3::Zero();
    Vec3 angularVelocity = Vec3::Zero();
    Vec3 moved = Vec3::Zero();          ///< displacement of the centre of mass since the step began [m]
    Quat turned = Quat::Identity();     ///< rotation since the step began (world: q = turned q0)
    Mat3 turn = Mat3::Identity();       ///< the same as a matrix (turning an anchor is 9 products, not 30)
    real inverseMass = 0;               ///< 0: does not take impulses (static, kinematic, asleep)
    Mat3 inverseInertia = Mat3::Zero(); ///< world, fixed for the step (zero when inverseMass is)
    Vec3 linearAcceleration = Vec3::Zero();  ///< from forces and gravity [m/s^2]
    Vec3 angularAcceleration = Vec3::Zero(); ///< from torques [rad/s^2]
    real linearDamping = 0, angularDamping = 0; ///< rates c [1/s]
    Vec3 linearKick = Vec3::Zero();     ///< velocity change per substep (setSubstep)
    Vec3 angularKick = Vec3::Zero();    ///< angular velocity change per substep
    real linearKeep = 1, angularKeep = 1; ///< damping per substep: exp(-c h)
    bool integrates = false;            ///< its velocity is integrated here (dynamic and awake)
    bool moves = false;                 ///< its position is integrated here (also kinematic bodies)
    bool locked = false;                ///< has motion locks: velocities masked before each move
    bool linearLocked = false;          ///< locked along some world axis: M^-1 = diag(linearFree) / m (locked_mass.hpp)
    Vec3 linearFree = Vec3::Ones();     ///< 1 along the world axes it may move along (MotionLocks)
    Vec3 angularFree = Vec3::Ones();    ///< 1 about the world axes it may turn about
};

/// Takes a locked body's locked velocity components out (MotionLocks: before it moves).
inline void lockVelocities(SoftBody& b) {
    if (!b.locked) return;
    b.linearVelocity = b.linearVelocity.cwiseProduct(b.linearFree);
    b.angularVelocity = b.angularVelocity.cwiseProduct(b.angularFree);
}

/// Relative speed of body a's point to body b's along an axis (> 0: apart).
JOUNCE_HOT_INLINE real axisSpeed(const ImpulseAxis& axis, const SoftBody& a, const SoftBody& b) {
    return axis.direction.dot(a.linearVelocity - b.linearVelocity) + axis.lever[0].dot(a.angularVelocity) -
           axis.lever[1].dot(b.angularVelocity);
}

/// Impulse j along an axis: +j on body a, -j on body b. Bodies that take no impulses
/// (the world, static, kinematic and sleeping ones) are not written.
JOUNCE_HOT_INLINE void axisPush(const ImpulseAxis& axis, SoftBody& a, SoftBody& b, real j) {
    if (a.inverseMass > 0) {
        a.linearVelocity += lockedChange(a, axis.direction * (j * a.inverseMass));
        a.angularVelocity += axis.turn[0] * j;
    }
    if (b.inverseMass > 0) {
        b.linearVelocity -= lockedChange(b, axis.direction * (j * b.inverseMass));
        b.angularVelocity -= axis.turn[1] * j;
    }
}

/// Which softness a row takes.
enum class SoftKind : std::uint8_t {
    Contact,       ///< between two bodies that move
    StaticContact, ///< one side cannot move: twice as stiff
    Joint,         ///< a cable's or rod's row
    Folded,        ///< one of a joint point's six rows, solved as its SoftPoint
    InBlock,       ///< a contact the coloured blocks take straight from its manifold (row unused)
};

/// One contact or joint row: its frame, lever arms, effective masses, and the impulse it
/// carries (per solver substep, contact frame).
struct SoftRow {
    std::array<std::uint32_t, 2> body{0, 0}; ///< solver bodies (body + 1; 0: the world)
    std::array<ImpulseAxis, 3> axis;         ///< normal, tangent, bitangent
    std::array<Vec3, 2> anchor{Vec3::Zero(), Vec3::Zero()}; ///< point - centre of mass, world, at the step's start
    real baseSeparation = 0; ///< separation less the anchors' offset along the normal [m]
    real normalMass = 0, tangentMass = 0, bitangentMass = 0;
    real friction = 0, restitution = 0;
    Eigen::Matrix<real, 2, 1> slipTarget = Eigen::Matrix<real, 2, 1>::Zero(); ///< the surface velocity on axes 1 and 2 [m/s]
    real approachSpeed = 0;  ///< normal velocity before this substep's solve (< 0 closing) [m/s]
    real pushed = 0;         ///< normal impulse applied this substep (restitution's test: it touched)
    real bounced = 0;        ///< restitution's impulse this step [N s]
    real applied = 0;        ///< normal impulse applied this step, warm starts and visits [N s]
    real gapAtStart = 0;     ///< separation when this substep began [m]
    real kickAlong = 0;      ///< the substep's velocity change from forces along the normal [m/s]
    Vec3 impulse = Vec3::Zero(); ///< accumulated this substep: normal, tangent, bitangent [N s]
    SoftKind kind = SoftKind::Contact;
};

/// Friction of one manifold as a whole (Box3D's and Jolt's friction anchor): two
/// planar rows at the centre of its points and one twist row about the normal, bounded
/// by Coulomb with the points' summed normal impulse. Per point, four points of a
/// resting box have twelve friction rows for the six ways it can move: the rest of them
/// hold a self-cancelling pattern of impulses (pulling the corners in, say) that warm
/// starting keeps and that uses up the friction cone, and a column of boxes slid
/// sideways by 8 mm in 100 steps.
struct SoftPatch {
    std::uint32_t first = 0, count = 0;      ///< its rows: [first, first + count)
    std::array<std::uint32_t, 2> body{0, 0}; ///< solver bodies
    std::array<ImpulseAxis, 2> axis;         ///< tangent, bitangent at the centre
    std::array<Vec3, 2> centre{Vec3::Zero(), Vec3::Zero()}; ///< the points' centre - each centre of mass [m]
    Eigen::Matrix<real, 2, 2> planarMass = Eigen::Matrix<real, 2, 2>::Zero(); ///< inverse of the 2x2 response
    std::array<Vec3, 2> twistTurn{Vec3::Zero(), Vec3::Zero()}; ///< I^-1 n per side
    real twistMass = 0;    ///< 1 / (n . (I_a^-1 + I_b^-1) n)
    real twistReach = 0;   ///< mean distance of the points from the centre [m]: twist's lever
    real friction = 0;
    Eigen::Matrix<real, 2, 1> slipTarget = Eigen::Matrix<real, 2, 1>::Zero(); ///< the surface velocity on the axes [m/s]
    Eigen::Matrix<real, 2, 1> planar = Eigen::Matrix<real, 2, 1>::Zero(); ///< accumulated this substep [N s]
    real twist = 0;        ///< accumulated twist impulse this substep [N m s]
};

/// Island k's contacts [first, last) when island k runs from islandStarts[k] to
/// islandStarts[k + 1]; fewer than two starts: one island of all `count` contacts.
struct IslandRange {
    std::uint32_t first = 0, last = 0;
};
inline std::size_t islandCount(std::span<const std::uint32_t> islandStarts) {
    return islandStarts.size() < 2 ? 1 : islandStarts.size() - 1;
}
inline IslandRange islandRange(std::span<const std::uint32_t> islandStarts, std::size_t k, std::uint32_t count) {
    if (islandStarts.size() < 2) return {0, count};
    return {islandStarts[k], islandStarts[k + 1]};
}

/// A manifold the coloured blocks solve (one collider pair's points, at most four), one
/// lane of a block.
struct SoftManifold {
    std::uint32_t first = 0, count = 0;      ///< its contacts: [first, first + count)
    std::array<std::uint32_t, 2> body{0, 0}; ///< solver bodies
    std::uint32_t source = 0;                ///< the narrow phase's manifold (World::contacts)
};

/// A point a joint holds together (ball, hinge and fixed joints: joint_contacts.cpp
/// gives each such point six rows, one each way along each world axis; the soft step
/// folds them back into one bilateral point). Solved as a block: the 3x3 response
///     K = (1/m_a + 1/m_b) 1 - [r_a]x I_a^-1 [r_a]x - [r_b]x I_b^-1 [r_b]x
/// inverted once per step, so one visit makes the point's relative velocity exactly
/// what it asks, whatever the bodies' masses and lever arms (six one-sided rows visited
/// one after the other let a chain of links come apart).
struct SoftPoint {
    std::uint32_t first = 0;                 ///< its six rows: [first, first + 6)
    std::array<std::uint32_t, 2> body{0, 0}; ///< solver bodies
    std::array<Vec3, 2> anchor{Vec3::Zero(), Vec3::Zero()}; ///< the point - centres of mass, world, at the step's start
    Vec3 gap = Vec3::Zero();                 ///< b's point - a's at the step's start [m]
    Vec3 impulse = Vec3::Zero();             ///< on a, accumulated this substep [N s]
    Vec3 applied = Vec3::Zero();             ///< on a, applied this step: warm starts and visits [N s]
};

/// A hinge's or slider's rows about or along its axis (contact/soft_joint_axes.cpp;
/// Box2D v3's revolute and prismatic joints carried to 3D). The coordinate: a hinge's
/// angle about B's axis n, of A's zero-angle vector u_a from B's u_b, right-handed,
///     theta = atan2((u_b x u_a) . n, u_b . u_a),   rate n . (w_a - w_b);
/// a slider's offset of A's anchor from B's along n, s = n . (p_a - p_b), rate the
/// anchors' relative velocity along n. Each row is one impulse along that coordinate
/// (+ on A, - on B) of the coordinate's effective mass: a spring toward its target (soft
/// as the spring's frequency and damping say), a motor or friction (toward a relative
/// speed, bounded by its force over the substep), and the two limits (one-sided,
/// speculative while apart, soft as joints are once crossed). A slider also locks the
/// bodies' relative orientation: a 3x3 block of angular rows (soft as joints are).
/// Its geometry is the JointMotionRow's, at the step's start (the axes and normals turn
/// with their bodies, the anchors move with them); its impulses are accumulated per
/// substep while it is solved.
struct SoftJointAxis : JointMotionRow {
    std::uint32_t row = 0;                     ///< its JointMotionRow
    std::uint32_t island = 0;
    std::array<std::uint32_t, 2> solver{0, 0}; ///< solver bodies (body + 1; 0: the world)
};

/// An island's joint points solved all at once (when the joints make no loop): the
/// system A P = -(dC/dt + bias) with A = J M^-1 J^T, 3x3 blocks, one per point on the
/// diagonal and one per pair of points sharing a body. Gauss-Seidel over the points
/// carries a heavy load up a light chain only a little per sweep (a chain of 1 kg links
/// holding 100 kg stretched 36 cm); the factorised system is exact whatever the masses
/// (Baraff, "Linear-time dynamics using Lagrange multipliers", 1996: joints that make a
/// tree fill in nothing beyond each body's own points).
struct SoftJointSystem {
    struct Coupling {
        std::uint32_t j = 0, k = 0;     ///< the two points (island-local), j < k
        std::uint32_t body = 0;         ///< the solver body they share
        std::uint8_t sideJ = 0, sideK = 0; ///< which side of each point the body is
    };
    std::vector<Coupling> couplings;
    std::vector<Eigen::Triplet<real>> triplets;
    std::vector<std::array<Vec3, 2>> anchors; ///< each point's anchors as A was factorised for them
    Eigen::SparseMatrix<real> matrix;
    std::unique_ptr<Eigen::SimplicialLDLT<Eigen::SparseMatrix<real>>> ldlt;
    Eigen::Matrix<real, Eigen::Dynamic, 1> rhs, solution;
    bool factored = false;
};

} // namespace detail

/// The soft-step solver. solve() leaves each body it moved with its final velocity and
/// reports its motion over the step (motion()); the world places those bodies.
class SoftStepSolver {
public:
    /// Solves `contacts` grouped into islands (island k: [islandStarts[k],
    /// islandStarts[k + 1])) over a world substep `h`, integrating the velocities of
    /// every awake dynamic body choose() took (with each body's forceAccum, torqueAccum and
    /// impulse accumulators, read but not cleared) and their positions into motion().
    /// The contacts' accumulatedImpulse is read as the warm start (the coloured blocks'
    /// from their manifolds) and left as this step's total impulse. `gravity` says which
    /// way a heavy body rests on a light one (soft_hold.cpp).
    /// `gyroscopic`: ConserveMomentum keeps each body's world angular momentum over the
    /// step (a body alone turns by the midpoint rule substep by substep, as the
    /// resolver's integrator does; a body in an island without joints, whose inertia
    /// the rows hold fixed over the step, has its angular velocity taken from its
    /// momentum again once turned; a jointed body keeps its own); Explicit adds the explicit w x I w torque to bodies alone; None
    /// keeps the angular velocity.
    /// `motions`: the hinges' motion rows (joint_motions.cpp), solved in the islands of
    /// their joints' points, their impulses written back.
    /// Call choose() first, then gather the contacts (gatherContacts, leaving the
    /// manifolds packedManifolds() marks), then solve(). `manifolds` are the narrow
    /// phase's, whose points the contacts are: the coloured blocks read theirs from them
    /// and write the impulses back for the next step (keepForWarmStart does the rest,
    /// passing over colouredIslands()).
    void solve(std::span<Body> bodies, std::span<Contact> contacts, std::span<ContactManifold> manifolds,
               std::span<const std::uint32_t> islandStarts, std::span<detail::JointMotionRow> motions, real h, const ResolverSettings& settings, const Vec3& gravity,
               GyroscopicMode gyroscopic, TaskSystem* tasks = nullptr);

    /// Before the contacts are gathered: the solver bodies, and which islands (as
    /// groupContacts placed them: `grouping`, `islandStarts`) the coloured blocks take,
    /// decided from the manifolds. Those islands are packed by solve() itself, straight
    /// from the manifolds (soft_colours.cpp, pack); their contacts are written when read
    /// (describeColoured).
    void choose(std::span<const Body> bodies, std::span<const std::uint8_t> alive, const detail::ContactScratch& grouping,
                std::span<const std::uint32_t> islandStarts, const std::vector<ContactManifold>& manifolds, real h,
                const ResolverSettings& settings, const Vec3& gravity, TaskSystem* tasks = nullptr);
    /// By manifold: 1 when the coloured blocks take it (choose()).
    const std::vector<std::uint8_t>& packedManifolds() const { return packed_; }
    /// By island: 1 when the coloured blocks solve it (choose()).
    const std::vector<std::uint8_t>& colouredIslands() const { return coloured_; }
    /// Whether the coloured blocks take every island (choose()): then no contact is
    /// gathered, and solve() may be given an empty list, every point's place being a
    /// block's, written when read (describeColoured, after the list is sized to placeCount()).
    bool blocksTakeAll() const { return rows_.empty(); }
    /// The contact places groupContacts gave out (choose()): the length of the list the
    /// contacts are gathered or described into.
    std::uint32_t placeCount() const { return placeCount_; }

    /// By body: 1 if solve() integrated its velocity and motion (it then must not be
    /// integrated again).
    const std::vector<std::uint8_t>& owned() const { return owned_; }
    /// Body i's displacement and rotation over the step (valid where owned()[i]).
    const Vec3& displacement(std::uint32_t i) const { return bodies_[i + 1].moved; }
    const Quat& rotation(std::uint32_t i) const { return bodies_[i + 1].turned; }

    /// Watches the step (World::setResolverObserver): every visit of a manifold or row
    /// (warm start, biased solve, relax, bounce) then makes a ResolutionRecord for
    /// `observer` (soft_records.cpp). A watched step runs on one thread, lane by lane
    /// with the scalar kernel: the same arithmetic, so the same bits as a fast step.
    void setObserver(std::function<void(const ResolutionRecord&)> observer) { observer_ = std::move(observer); }
    bool watching() const { return static_cast<bool>(observer_); }
    const std::function<void(const ResolutionRecord&)>& observer() const { return observer_; }

    /// The last solve's figures (World::resolverStats): its sweeps per world substep as
    /// velocity iterations, and the deepest contact overlap before and after it.
    const ResolverStats& stats() const { return stats_; }

    /// Whether the last solve had coloured blocks (their contacts are written by solve()
    /// only while watched; describeColoured() writes them).
    bool hasColoured() const { return !manifolds_.empty(); }
    /// The coloured blocks' contacts as the last solve left them, at their places in
    /// `contacts` (the list solve() was given, its other contacts untouched): point,
    /// frame, key and material from `manifolds` (the list solve() was given, its points
    /// and materials unchanged since), the anchors and the closing velocity at the
    /// step's start as the lanes hold them, the step's impulses and the separation after
    /// it. World::resolvedContacts calls it when asked: a step nobody reads the contacts
    /// of does not write them. Lists of other lengths than the solve's: nothing is written.
    void describeColoured(std::span<Contact> contacts, std::span<const ContactManifold> manifolds) const;

private:
    /// One visit a record reports: which pass, where, and of what.
    struct Visit {
        ResolutionRecord::Kind kind = ResolutionRecord::Kind::Solve;
        std::uint32_t substep = 0, colour = ResolutionRecord::noColour, block = 0, lane = 0;
        std::uint32_t contact = 0, points = 1; ///< contacts [contact, contact + points)
        std::array<std::uint32_t, 2> body{0, 0}; ///< solver bodies
        std::uint32_t joint = ResolutionRecord::noJoint; ///< a hinge's motion rows: the joint's slot
    };
    /// What a watched step reads to fill its records (set by solve() while watched).
    struct Watch {
        const std::function<void(const ResolutionRecord&)>* observer = nullptr;
        std::span<const Contact> contacts;
        std::span<const Body> bodies;
        std::span<const std::uint32_t> islandStarts;
        std::span<const detail::JointMotionRow> motions;
    };
    /// The bodies' velocities now: from the coloured path's states while it runs,
    /// from the solver bodies otherwise.
    std::array<BodyVelocity, 2> velocities(const std::array<std::uint32_t, 2>& body, bool coloured) const;
    /// The fields every record of `visit` has (its bodies' slots `slots`, velocities
    /// before it `before`, after it read now).
    ResolutionRecord recordOf(const Visit& visit, const std::array<std::uint32_t, 2>& slots,
                              const std::array<BodyVelocity, 2>& before, bool coloured) const;
    /// Makes the record of `visit` (velocities before it: `before`) and calls the observer.
    void report(const Visit& visit, const std::array<BodyVelocity, 2>& before, bool coloured,
                std::optional<Vec3> impulseWorld) const;
    /// Runs `pass` on the bodies of `visit` and reports it, when watched.
    template <class Pass> void watched(const Visit& visit, Pass&& pass) {
        if (watch_.observer == nullptr) return pass();
        const std::array<BodyVelocity, 2> before = velocities(visit.body, false);
        pass();
        report(visit, before, false, std::nullopt);
    }
    /// Runs `pass` on a hinge's motion rows and reports it, when watched.
    template <class Pass> void watchedAxis(const Visit& visit, const detail::SoftJointAxis& angle, Pass&& pass) {
        if (watch_.observer == nullptr) return pass();
        const std::array<BodyVelocity, 2> before = velocities(visit.body, false);
        const real was = detail::netImpulse(angle.impulse);
        pass();
        reportAxis(visit, angle, before, detail::netImpulse(angle.impulse) - (visit.kind == ResolutionRecord::Kind::WarmStart ? 0 : was));
    }
    void reportAxis(const Visit& visit, const detail::SoftJointAxis& angle, const std::array<BodyVelocity, 2>& before,
                     real impulse) const;
    /// runItem for a watched step: each lane alone, then its record.
    void runItemWatched(const detail::SoftStage& stage, std::uint32_t item);

    /// The solver bodies: every awake dynamic body (`alive`: by slot, dead slots are left
    /// alone), and the others the placed manifolds and joint contacts of `grouping` touch.
    void gatherBodies(std::span<const Body> bodies, std::span<const std::uint8_t> alive, const detail::ContactScratch& grouping,
                      real h, int substeps, TaskSystem* tasks);
    void integrateAlone(std::span<const Body> bodies, real h, int substeps, GyroscopicMode gyroscopic, TaskSystem* tasks);
    /// One body's substeps (its motion from the step's start: moved, turned).
    static void integrateOneAlone(const Body& body, detail::SoftBody& b, real h, int substeps, GyroscopicMode gyroscopic);
    /// Island bodies under ConserveMomentum: the angular velocity from the momentum the
    /// step left, with the inertia turned as the body turned.
    void keepAngularMomentum(std::span<const Body> bodies, TaskSystem* tasks);
    void solveIsland(std::size_t island, std::uint32_t first, std::uint32_t last, real h, const ResolverSettings& settings);
    /// The motion rows as SoftJointAxiss (jointAxes_), by island (jointAxisStarts_), each in the
    /// island of the contacts of the body it turns.
    void prepareJointAxes(std::span<const detail::JointMotionRow> motions, std::span<const std::uint32_t> islandStarts);
    /// Appends the moving bodies of rows [first, last) not yet stamped `mark` to `out`,
    /// stamped, their motion reset and their kicks set for substeps of `sub`.
    void listMoving(std::uint32_t first, std::uint32_t last, std::uint32_t mark, real sub, std::vector<std::uint32_t>& out);
    /// The islands the coloured blocks take (coloured_): contacts alone, none holding a
    /// light body under a heavy one; their manifolds (manifolds_, packed_), and their
    /// contacts' rows marked InBlock.
    void chooseColoured(std::span<const std::uint32_t> islandStarts, const std::vector<ContactManifold>& manifolds,
                        const detail::ContactScratch& grouping, real massRatio, const Vec3& gravity, TaskSystem* tasks);
    /// Stamps solver body i `mark`, resets its motion, sets its kicks for substeps of
    /// `sub` and appends it to `out`, if it moves and is not stamped yet.
    void addMoving(std::uint32_t i, std::uint32_t mark, real sub, std::vector<std::uint32_t>& out);
    /// addMoving's halves: the stamp (true: it was not stamped yet), and the motion
    /// reset with the kicks set (the coloured path's shards do both on their own worker).
    bool stampMoving(std::uint32_t i, std::uint32_t mark);
    void startMotion(std::uint32_t i, real sub);
    /// Heavy on light (soft_hold.cpp): in islands without joints, each contact row where
    /// a heavy body is pressed onto a much lighter one holds the light one still through
    /// a ghost of it.
    void holdLightBodies(std::span<const std::uint32_t> islandStarts, std::span<Contact> contacts, real massRatio,
                         const Vec3& gravity);
    /// The island's ghosts take their bodies' motion so far.
    void syncGhosts();
    /// The coloured path (soft_colours.cpp): the manifolds of the islands chooseColoured
    /// picked, packed straight from the narrow phase's manifolds into blocks of one
    /// colour, solved together over the substeps, the impulses written back into the
    /// manifolds. Their contacts are written only when watched (the records read them);
    /// otherwise describeColoured() writes them when they are asked for.
    void solveColoured(std::span<Contact> contacts, std::span<ContactManifold> manifolds, std::span<const Body> bodies,
                       real h, const ResolverSettings& settings, TaskSystem* tasks);
    /// The substeps' passes as stages (soft_colours.cpp): kick, warm start, solve, drift,
    /// relax and bounce, the passes that write bodies one stage per colour.
    void planStages(int substeps, int relaxIterations, std::uint32_t workers);
    /// Cuts the chosen islands into two shards a worker, or one, of about as many contact
    /// points each (whole islands, in order), or leaves one shard when no cut is even
    /// enough (one island holds most of the points: its colours are then shared among
    /// the workers). cutShards: the cut into `shards`, true if even enough.
    void chooseShards(std::uint32_t workers);
    bool cutShards(std::uint32_t shards);
    std::uint32_t shardCount() const { return shardManifolds_.size() < 2 ? 1 : static_cast<std::uint32_t>(shardManifolds_.size() - 1); }
    void runStages(TaskSystem* tasks);
    void runItem(const detail::SoftStage& stage, std::uint32_t item);
    /// The blocks' layout in three parts. Shard g's moving bodies stamped `mark` and
    /// listed, its manifolds coloured and sorted by (colour, points), and the blocks of
    /// each of its colours counted (on the shard's worker); where each shard's colours,
    /// blocks and point blocks begin (serial); shard g's blocks' first manifolds and
    /// point blocks (on its worker, before it fills them).
    void layoutShard(std::uint32_t g, std::uint32_t mark);
    void placeShards();
    void listBlocks(std::uint32_t g);
    /// The coloured path's passes over a range, each shared among the workers, or run
    /// a shard at a time by one (runShard): of the moving bodies (colouredBodies_
    /// [first, last): motion reset and state from the body; state back into the body), of
    /// the blocks (emptied and sized; prepared; finished) and of the manifolds, in
    /// contact order (packed into their lanes; their impulses back into the narrow
    /// phase's manifolds, and their deepest overlaps before and after returned).
    void startBodies(std::uint32_t first, std::uint32_t last);
    void storeBodies(std::uint32_t first, std::uint32_t last);
    void fillBlocks(std::uint32_t first, std::uint32_t last);
    void packLanes(std::uint32_t first, std::uint32_t last);
    void prepareBlocks(std::uint32_t first, std::uint32_t last);
    void finishBlocks(std::uint32_t first, std::uint32_t last);
    std::array<real, 2> unpackLanes(std::uint32_t first, std::uint32_t last);
    /// Shard g from its bodies' start to its manifolds' impulses, on this thread.
    void runShard(std::uint32_t g);

    std::vector<detail::SoftBody> bodies_;    ///< index body + 1
    std::vector<detail::SoftRow> rows_;       ///< by contact; empty when every island is solved in blocks
    std::vector<detail::SoftPatch> patches_;  ///< friction, by manifold, in contact order
    std::vector<detail::SoftPoint> points_;   ///< joint points, in contact order
    std::vector<detail::SoftJointAxis> jointAxes_;   ///< hinge motion rows, by island
    std::vector<std::uint32_t> jointAxisStarts_;  ///< each island's first angle, and one past the last
    std::vector<std::uint32_t> islandOf_;     ///< scratch: by solver body, the island of its rows
    detail::SoftJointSystem joints_;          ///< the island being solved's joint system
    std::vector<std::uint32_t> jointScratch_; ///< acyclicity test
    std::vector<std::uint32_t> islandPatches_; ///< each island's first patch (by island, and one past the last)
    std::vector<std::uint8_t> owned_;         ///< by body
    std::vector<std::uint8_t> touched_;       ///< by body: not owned, and a contact touches it (gatherBodies)
    /// By solver body, as gatherBodies made it: whether it takes impulses (inverse mass
    /// > 0) and whether it moves, a byte each, so the colouring of a large island reads
    /// 4 kB for 4096 bodies where their SoftBodies are 1.8 MB (spheres4096: the colouring
    /// stalled on those reads). 0 for a body no contact touches.
    static constexpr std::uint8_t takesImpulses = 1, movesHere = 2;
    static std::uint8_t motionOf(const detail::SoftBody& b) {
        return static_cast<std::uint8_t>((b.inverseMass > 0 ? takesImpulses : 0) | (b.moves ? movesHere : 0));
    }
    std::vector<std::uint8_t> motions_;
    std::vector<std::uint32_t> islandBodies_; ///< scratch: the island's moving solver bodies
    /// Ghosts of bodies held still under heavier ones (holdLightBodies): solver bodies
    /// from firstGhost_ on, each mirroring the motion of ghostOf_[g - firstGhost_].
    std::uint32_t firstGhost_ = 0;
    std::vector<std::uint32_t> ghostOf_;
    std::vector<std::uint32_t> ghostIndex_;   ///< scratch: by solver body, its ghost (0: none)
    std::vector<std::uint32_t> islandGhosts_; ///< scratch: the ghosts an island's rows use
    std::vector<std::uint32_t> stamp_;        ///< scratch: last island that listed each solver body
    static constexpr std::uint32_t jointedMark = 0xffffffffu; ///< stamp_ of a body an island's joints hold
    // The coloured path (soft_colours.cpp).
    std::vector<std::uint8_t> coloured_;          ///< by island: 1 when the coloured path solves it
    std::vector<detail::SoftManifold> manifolds_; ///< the manifolds it solves, in contact order
    std::vector<std::uint8_t> packed_;            ///< by narrow-phase manifold: 1 when in manifolds_
    bool bouncy_ = false;                         ///< some manifold of manifolds_ has restitution
    std::vector<std::uint32_t> slots_;            ///< by manifold: its block * softBlockWidth + lane
    std::vector<std::uint32_t> colouredBodies_;   ///< scratch: their moving solver bodies, by shard (with gaps)
    std::vector<detail::SoftState> states_;       ///< by solver body
    std::vector<std::uint64_t> colourMask_;       ///< by solver body: the colours it is in
    std::vector<std::uint32_t> keys_, order_;     ///< scratch: by manifold, its (colour, points) key; the manifolds sorted by it
    std::vector<std::uint32_t> counts_;           ///< scratch: by shard, the sort's count of each key
    std::vector<std::uint32_t> colourBlocks_;     ///< scratch: by shard, the blocks of each colour (the overflow's last)
    std::vector<detail::SoftBlock> blocks_;       ///< in colour order; the overflow colour's last
    std::vector<detail::SoftPointBlock> pointBlocks_;
    std::vector<std::uint32_t> colourStarts_;     ///< each colour's first block, and one past the last
    std::vector<std::uint8_t> colourOverflows_;   ///< by colour range of colourStarts_: 1 for an overflow colour
    /// A run of at most chunkManifolds of an island's manifolds (positions in
    /// groupContacts' manifoldOrder, [first, last)) that chooseColoured reads on one
    /// worker: whether all of them may go to the blocks, and where the first goes in
    /// manifolds_ when its island does.
    struct IslandChunk {
        std::uint32_t island = 0, first = 0, last = 0;
        std::uint32_t to = 0;
        bool blocks = true;
    };
    static constexpr std::uint32_t chunkManifolds = 1024;
    std::vector<IslandChunk> chunks_;             ///< scratch: the islands without joints, in order
    std::vector<std::uint32_t> islandManifolds_;  ///< each chosen island's first manifold of manifolds_, and one past the last
    /// Shards (chooseShards): runs of whole islands, solved each on one worker from the
    /// first pass to the last with no wait for the others. By shard, and one past the
    /// last: its first manifold (of manifolds_), colour range (of colourStarts_),
    /// block, point block and stage (of stages_); by shard, its moving bodies
    /// (colouredBodies_ [shardBodies_, shardBodyEnds_)) and its point blocks' count.
    std::vector<std::uint32_t> shardManifolds_, shardColours_, shardBlocks_, shardPointStarts_, shardStages_;
    std::vector<std::uint32_t> shardBodies_, shardBodyEnds_, shardPoints_;
    std::vector<std::uint32_t> blockFirst_;       ///< each block's first manifold in order_, and one past the last
    std::vector<std::uint32_t> blockPoints_;      ///< each block's first point block
    std::vector<detail::SoftStage> stages_;
    const detail::SoftKernels* kernels_ = nullptr;
    /// What the coloured passes of this solve read (solveColoured sets it).
    struct Packing {
        std::span<Contact> contacts;
        std::span<ContactManifold> manifolds;
        std::span<const Body> bodies;
        std::array<detail::Softness, 2> softness{};
        real sub = 0, perSubstep = 1;
        bool warm = true;
    } packing_;
    std::vector<std::array<real, 2>> shardDepths_; ///< by shard: its deepest overlaps before and after (unpackLanes)
    struct Pass {
        real invSub = 0, maxPushOut = 0, threshold = 0, sub = 0;
    } pass_;
    detail::StagedRun staged_;                    ///< stages_ on the workers (common/staged_run.hpp)
    std::function<void(const ResolutionRecord&)> observer_;
    Watch watch_;
    ResolverStats stats_;
    real perStep_ = 1; ///< the last solve's substeps (the lanes hold a substep's impulses)
    /// The coloured contacts' deepest overlap before and after the last solve (stats_).
    std::array<real, 2> colouredDepth_{0, 0};
    std::uint32_t placeCount_ = 0; ///< placeCount()
    /// The lengths of the contact list the last coloured solve described into (its
    /// places, whether it was given them or none) and of its manifold list.
    std::array<std::size_t, 2> describedSizes_{0, 0};
};

namespace detail {

/// The soft body of `b`, its kicks set for substeps of `h`.
SoftBody makeSoftBody(const Body& b, real h);

/// Sets a body's kicks and damping for substeps of `h` (islands with joints take more,
/// shorter substeps than the rest).
void setSubstep(SoftBody& b, real h);

/// A substep's velocity change from forces, torques and damping (integrating bodies only).
void kick(SoftBody& b);
/// A substep's move with the body's velocity (speeds held to maxSpeed).
void drift(SoftBody& b, real h);

/// The row of contact `c`, its impulse taken from accumulatedImpulse / substeps; fills
/// the contact's frame, anchors, velocity and penetrationAtStart as the resolver does.
void prepareSoftRow(Contact& c, std::span<const Body> bodies, std::span<const SoftBody> soft,
                    SoftRow& row);

/// The row's normal velocity now (< 0 closing) [m/s].
real normalSpeed(const SoftRow& row, const SoftBody& a, const SoftBody& b);

/// The row's separation now, from the bodies' motion since the step began: the normal
/// and anchors stay fixed, the anchors turn with their bodies.
real currentSeparation(const SoftRow& row, const SoftBody& a, const SoftBody& b);

/// Applies the row's impulse to both bodies again (warm start).
void warmStartRow(SoftRow& row, SoftBody& a, SoftBody& b);

/// One visit of a row: its normal impulse (soft when `useBias`, relaxed otherwise; a
/// row still apart lets the gap close within the substep and no more), then friction.
void solveSoftRow(SoftRow& row, SoftBody& a, SoftBody& b, const Softness& softness, real invH, real maxPushOut,
                  bool useBias);

/// Groups the rows into friction patches (consecutive rows of one collider pair with
/// the same normal and friction), prepares them with their warm start from the points'
/// friction impulses, and turns the rows' own friction off.
void preparePatches(std::span<const Contact> contacts, std::span<SoftRow> rows, std::span<const SoftBody> soft,
                    std::vector<SoftPatch>& patches, TaskSystem* tasks = nullptr);

/// A point's share of its patch's friction (`offset`: its in-plane offset from the
/// centre, `spread`: the points' sum of |offset|^2): equal shares of the planar impulse
/// sum to it and turn nothing about the centre; the ring (n x d) twist / spread sums to no
/// force and turns by `twist` about n.
inline Vec3 frictionShare(const Vec3& planarShare, const Vec3& n, const Vec3& offset, real twist, real spread) {
    Vec3 f = planarShare;
    if (spread > 0) f += n.cross(offset) * (twist / spread);
    return f;
}

/// The planar friction mass: the inverse of the 2x2 response at a patch's centre, or
/// each axis on its own when the block is singular to working precision.
Eigen::Matrix<real, 2, 2> planarMassOf(const Eigen::Matrix<real, 2, 2>& response);

/// Applies the patch's friction impulses again (warm start).
void warmStartPatch(const SoftPatch& patch, SoftBody& a, SoftBody& b);

/// One visit of the patch's planar and twist friction, bounded by its rows' normal impulses.
void solvePatch(SoftPatch& patch, std::span<const SoftRow> rows, SoftBody& a, SoftBody& b);

/// Writes the patch's friction back into its points (contact frame, the step's impulse):
/// the planar impulse shared equally, the twist as a ring of tangential impulses about
/// the centre, so that preparePatches reads back the same planar and twist impulses.
void storePatch(const SoftPatch& patch, std::span<const SoftRow> rows, std::span<Contact> contacts);

/// Folds the six rows of each joint point held exactly (tolerance 0; consecutive, in
/// the order joint_contacts.cpp makes them) into a SoftPoint, warm started from their impulses; the rows are marked
/// Folded.
void preparePoints(std::span<const Contact> contacts, std::span<SoftRow> rows, std::vector<SoftPoint>& points);

/// Applies the point's impulse again (warm start).
void warmStartPoint(SoftPoint& point, SoftBody& a, SoftBody& b);

/// One visit: the soft block impulse toward no drift (`useBias`; relaxing: the rigid
/// impulse that stops the point's relative velocity). Soft as a whole block, its
/// spring K^-1 w^2 is the point's own 3x3 mass, so a point far out on a light body is
/// held as firmly as any (six rows, each soft with its own one-row mass, let a ball 1 m
/// out on a ball joint sag 6 mm).
void solvePoint(SoftPoint& point, SoftBody& a, SoftBody& b, const Softness& soft, bool useBias);

/// Writes the point's impulse back into its six rows' contacts (the step's impulse,
/// each axis on the row that pushes that way).
void storePoint(const SoftPoint& point, std::span<Contact> contacts);

/// Builds the island's joint system (its couplings and pattern) if its points make no
/// loop through movable bodies (several points between the same two bodies, as a
/// hinge's two, are one link); false: the points stay with Gauss-Seidel.
bool buildJointSystem(std::span<const SoftPoint> points, std::span<const SoftBody> soft, SoftJointSystem& system,
                      std::vector<std::uint32_t>& scratch);

/// Factorises A for the anchors as the bodies have turned them now.
void factorJointSystem(SoftJointSystem& system, std::span<const SoftPoint> points, std::span<const SoftBody> soft);

/// One visit of all the island's points at once (soft toward no drift with `useBias`,
/// as solvePoint; rigid and without bias when relaxing).
void solveJointSystem(SoftJointSystem& system, std::span<SoftPoint> points, std::span<SoftBody> soft,
                      const Softness& softness, bool useBias);

/// The coordinate now (a hinge's angle [rad], a slider's offset [m]), from the bodies'
/// motion since the step began.
real coordinateNow(const SoftJointAxis& axis, const SoftBody& a, const SoftBody& b);
/// The direction the coordinate turns about or slides along now: B's axis as B has
/// turned, a swing-twist joint's mean twist axis, a distance joint's anchor line.
Vec3 coordinateAxis(const SoftJointAxis& axis, const SoftBody& a, const SoftBody& b);
/// The coordinate's rate now: A's speed relative to B's about or along the axis.
real coordinateRate(const SoftJointAxis& axis, const SoftBody& a, const SoftBody& b);
/// Applies the rows' impulses again (warm start), a hinge's lock first made square to its axis as it is now.
void warmStartJointAxis(SoftJointAxis& axis, SoftBody& a, SoftBody& b);
/// One visit of a hinge's rows: spring, motor or friction, then the limits (soft toward
/// the limit with `useBias` and `joint`'s softness; relaxing: rigid, no push back).
/// `sub`: the substep [s].
void solveJointAxis(SoftJointAxis& angle, SoftBody& a, SoftBody& b, const Softness& joint, real sub, bool useBias);

/// Restitution, at the end of a substep: the normal impulse that sends the contact apart
/// at e times the speed it approached with this substep, for a row with restitution
/// that approached faster than `threshold` and pushed.
/// Which side of a contact row a heavy body resting on a much lighter one holds still
/// (the light one: 0 or 1), or -1: both dynamic, one at least `massRatio` times the
/// other's mass, gravity within 60 degrees of pressing it onto the light one
/// (soft_hold.cpp).
int heldSide(const SoftRow& row, std::span<const SoftBody> bodies, real massRatio, const Vec3& gravity);
/// The same for a contact between bodies a and b with normal n (from b toward a).
int heldSide(const Vec3& normal, const SoftBody& a, const SoftBody& b, real massRatio, const Vec3& gravity);
/// Row `row` holds its side `side` still: that side becomes solver body `ghost` (a body
/// with no inverse mass), its responses recomputed without it; it becomes a contact
/// with something that cannot move (StaticContact).
void holdSide(SoftRow& row, std::size_t side, std::uint32_t ghost, std::span<const SoftBody> soft);

void bounceRow(SoftRow& row, SoftBody& a, SoftBody& b, real threshold, real h);

/// Before a substep's solve: what restitution measures from (approach speed, gap, the
/// substep's kick along the normal), and no push yet.
void noteApproach(SoftRow& row, const SoftBody& a, const SoftBody& b);

} // namespace detail

} // namespace jounce
