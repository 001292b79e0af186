// SPDX-License-Identifier: MIT
// Every builder builds what it says: its constraints counted by kind against the closed
// form for its size, and no constraint longer than the builder's spacing allows. (A cloth
// once carried a 2 m shear link from the first to the last particle of each row: the link
// helper checked one end only, so (nu, v) wrapped round to (0, v + 1).)

#include "helpers.hpp"

#include <jounce/deformable/deformable_builders.hpp>
#include <jounce/particles/particle_builders.hpp>
#include <jounce/world/world.hpp>

#include "physics/deformable/mesh_crossings.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <set>

using namespace jounce;

namespace {

/// Slack on "no longer than": round-off in the positions the builders compute.
const real lengthSlack = testing::tol(1e-9, 1e-5);

/// The longest rest length among these distance constraints [m].
real longestLink(const World& world, const std::vector<DistanceConstraintId>& links) {
    real longest = 0;
    for (const DistanceConstraintId id : links) longest = std::max(longest, world.distanceConstraint(id).restLength);
    return longest;
}

/// The rest length of every distance constraint equals the distance of its particles as
/// built (the builders pass restLength -1: "as placed").
void requireRestLengthsAsPlaced(const World& world, const std::vector<DistanceConstraintId>& links) {
    const ParticleSystem& ps = world.particles();
    for (const DistanceConstraintId id : links) {
        const DistanceConstraint& c = world.distanceConstraint(id);
        REQUIRE(c.restLength == Approx((ps.x[c.a] - ps.x[c.b]).norm()).margin(lengthSlack));
    }
}

/// Every directed edge of a closed, consistently wound triangle mesh appears once and its
/// reverse once; returns the number of undirected edges.
std::size_t requireClosedMesh(const std::vector<std::array<std::uint32_t, 3>>& triangles) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> directed;
    for (const auto& t : triangles)
        for (std::size_t k = 0; k < 3; ++k) ++directed[{t[k], t[(k + 1) % 3]}];
    for (const auto& [edge, count] : directed) {
        REQUIRE(count == 1);
        REQUIRE(directed.count({edge.second, edge.first}) == 1);
    }
    return directed.size() / 2;
}

/// The volume a closed outward-wound mesh encloses (divergence theorem) [m^3].
real enclosedVolume(const std::vector<Vec3>& x, const std::vector<std::array<std::uint32_t, 3>>& triangles) {
    real volume = 0;
    for (const auto& t : triangles) volume += x[t[0]].dot(x[t[1]].cross(x[t[2]])) / 6;
    return volume;
}

/// A cloth's grid coordinates of a particle slot.
std::map<std::uint32_t, std::array<int, 2>> gridOf(const Cloth& c) {
    std::map<std::uint32_t, std::array<int, 2>> grid;
    for (int v = 0; v < c.nv; ++v)
        for (int u = 0; u < c.nu; ++u) grid[c.at(u, v).index] = {u, v};
    return grid;
}

/// How far apart two particles of a cloth are on its grid, per axis.
std::array<int, 2> gridSpan(const std::map<std::uint32_t, std::array<int, 2>>& grid, std::uint32_t a, std::uint32_t b) {
    return {std::abs(grid.at(a)[0] - grid.at(b)[0]), std::abs(grid.at(a)[1] - grid.at(b)[1])};
}

} // namespace

TEST_CASE("a rope has one link per segment, each the spacing long", "[particles]") {
    World world;
    const Rope rope = buildRope(world, {.from = Vec3(0, 3, 0), .to = Vec3(4, 3, 0), .segments = 25});
    REQUIRE(rope.particles.size() == 26);
    REQUIRE(rope.links.size() == 25);
    REQUIRE(world.distanceConstraintIds().size() == 25);
    requireRestLengthsAsPlaced(world, rope.links);
    for (std::size_t i = 0; i < rope.links.size(); ++i) {
        const DistanceConstraint& c = world.distanceConstraint(rope.links[i]);
        REQUIRE(c.a == rope.particles[i].index); // each joins a particle to the next
        REQUIRE(c.b == rope.particles[i + 1].index);
        REQUIRE(c.restLength == Approx(real(4) / 25).margin(lengthSlack));
    }
}

TEST_CASE("a 64 x 64 cloth has 8 064 stretch, 7 938 shear and 7 936 skip-one bend links, none longer than its grid allows", "[particles]") {
    // nu x nv particles: stretch (nu - 1) nv + nu (nv - 1), shear 2 (nu - 1)(nv - 1) (both
    // diagonals of each cell), skip-one bend (nu - 2) nv + nu (nv - 2). Rectangular sizes
    // too, where a wrap-around would join different rows.
    for (const auto [nu, nv] : {std::array<int, 2>{64, 64}, {2, 2}, {3, 7}, {9, 4}}) {
        CAPTURE(nu, nv);
        World world;
        const real du = real(0.05), dv = real(0.04);
        ClothDesc d;
        d.nu = nu;
        d.nv = nv;
        d.corner = Vec3(-1, 2, -1);
        d.sideU = Vec3(du * static_cast<real>(nu - 1), 0, 0);
        d.sideV = Vec3(0, 0, dv * static_cast<real>(nv - 1));
        const Cloth c = buildCloth(world, d);
        REQUIRE(c.particles.size() == static_cast<std::size_t>(nu * nv));
        REQUIRE(c.stretch.size() == static_cast<std::size_t>((nu - 1) * nv + nu * (nv - 1)));
        REQUIRE(c.shear.size() == static_cast<std::size_t>(2 * (nu - 1) * (nv - 1)));
        REQUIRE(c.bend.size() == static_cast<std::size_t>((nu - 2) * nv + nu * (nv - 2)));
        REQUIRE(world.distanceConstraintIds().size() == c.stretch.size() + c.shear.size() + c.bend.size());
        REQUIRE(c.triangles.size() == static_cast<std::size_t>(2 * (nu - 1) * (nv - 1)));
        REQUIRE(c.bendAngles.empty());
        if (nu == 64) {
            REQUIRE(c.stretch.size() == 8064);
            REQUIRE(c.shear.size() == 7938);
            REQUIRE(c.bend.size() == 7936);
        }
        requireRestLengthsAsPlaced(world, c.stretch);
        requireRestLengthsAsPlaced(world, c.shear);
        requireRestLengthsAsPlaced(world, c.bend);
        const real diagonal = std::hypot(du, dv);
        REQUIRE(longestLink(world, c.stretch) <= std::max(du, dv) + lengthSlack);
        REQUIRE(longestLink(world, c.shear) <= diagonal + lengthSlack);
        REQUIRE(longestLink(world, c.bend) <= 2 * std::max(du, dv) + lengthSlack);
        // On the grid: a stretch link joins neighbours along one side, a shear link the
        // corners of one cell, a bend link particles two apart along one side.
        const auto grid = gridOf(c);
        const auto spans = [&](const std::vector<DistanceConstraintId>& set) {
            std::set<std::array<int, 2>> seen;
            for (const DistanceConstraintId id : set)
                seen.insert(gridSpan(grid, world.distanceConstraint(id).a, world.distanceConstraint(id).b));
            return seen;
        };
        REQUIRE(spans(c.stretch) == std::set<std::array<int, 2>>{{0, 1}, {1, 0}});
        REQUIRE(spans(c.shear) == std::set<std::array<int, 2>>{{1, 1}});
        if (nu > 2 && nv > 2) REQUIRE(spans(c.bend) == std::set<std::array<int, 2>>{{0, 2}, {2, 0}});
    }
}

TEST_CASE("a cloth with angle bending has one stencil per interior edge of its triangles", "[particles]") {
    // The grid's triangle edges: (nu - 1) nv + nu (nv - 1) sides plus one diagonal per
    // cell; all but the 2 (nu - 1) + 2 (nv - 1) on the border have a triangle each side.
    for (const ClothDesc::Bending bending : {ClothDesc::Bending::Dihedral, ClothDesc::Bending::Isometric}) {
        const int nu = 12, nv = 7;
        World world;
        ClothDesc d;
        d.nu = nu;
        d.nv = nv;
        d.sideU = Vec3(real(0.55), 0, 0);
        d.sideV = Vec3(0, 0, real(0.3));
        d.bending = bending;
        const Cloth c = buildCloth(world, d);
        const int edges = (nu - 1) * nv + nu * (nv - 1) + (nu - 1) * (nv - 1);
        REQUIRE(c.bendAngles.size() == static_cast<std::size_t>(edges - 2 * (nu - 1) - 2 * (nv - 1)));
        REQUIRE(world.particleConstraintIds().size() == c.bendAngles.size());
        REQUIRE(c.bend.empty());
        std::set<std::pair<std::uint32_t, std::uint32_t>> directed; // one winding: no directed edge twice
        for (const auto& t : c.triangles)
            for (std::size_t k = 0; k < 3; ++k) REQUIRE(directed.insert({t[k], t[(k + 1) % 3]}).second);
        REQUIRE(directed.size() == static_cast<std::size_t>(2 * edges - 2 * (nu - 1) - 2 * (nv - 1)));
    }
}

TEST_CASE("a cloth's bending stencils span two triangles of one or two neighbouring cells", "[particles]") {
    World world;
    ClothDesc d;
    d.nu = 9;
    d.nv = 5;
    d.bending = ClothDesc::Bending::Dihedral;
    const Cloth c = buildCloth(world, d);
    const auto grid = gridOf(c);
    for (const ParticleConstraintId id : c.bendAngles) {
        const ParticleConstraint& b = world.particleConstraint(id);
        REQUIRE(b.kind == ParticleConstraintKind::Bending);
        for (std::size_t i = 0; i < 4; ++i)
            for (std::size_t j = i + 1; j < 4; ++j) {
                const auto span = gridSpan(grid, b.p[i], b.p[j]);
                REQUIRE(std::max(span[0], span[1]) <= 2);
                REQUIRE(span[0] + span[1] <= 3);
            }
        // The shared edge (p0, p1) is one grid edge or one cell's diagonal.
        const auto shared = gridSpan(grid, b.p[0], b.p[1]);
        REQUIRE(std::max(shared[0], shared[1]) == 1);
    }
}

TEST_CASE("a cloth's hierarchy links coarse particles at most two finer edges apart", "[particles]") {
    // Müller 2008 sec. 4: a coarse level links particles at most two edges of the finer
    // level apart, so level k's links are at most 2^(k + 1) cell diagonals long.
    World world;
    ClothDesc d;
    d.nu = 24;
    d.nv = 16;
    d.sideU = Vec3(real(2.3), 0, 0);
    d.sideV = Vec3(0, 0, real(1.5));
    d.hierarchyLevels = 3;
    const Cloth c = buildCloth(world, d);
    const ParticleHierarchy& h = world.particleHierarchy(c.hierarchy);
    REQUIRE(h.levels.size() == 3);
    REQUIRE(h.meshEdges.size() == c.stretch.size() + c.shear.size());
    const real diagonal = std::hypot(real(0.1), real(0.1));
    real bound = 2 * diagonal;
    for (const ParticleHierarchyLevel& level : h.levels) {
        REQUIRE(!level.links.empty());
        const real longest = *std::max_element(level.restLength.begin(), level.restLength.end());
        REQUIRE(longest <= bound + lengthSlack);
        bound *= 2;
    }
}

TEST_CASE("a soft box of c cells a side has (c + 1)^3 particles, 6 c^3 tets and the Kuhn lattice's edges", "[particles]") {
    // Kuhn's six tets per cell use every lattice edge (3 c (c + 1)^2), one diagonal of every
    // cell face (3 c^2 (c + 1)) and the cell's main diagonal (c^3). Each tet holds a sixth
    // of its cell; the surface has 2 triangles per boundary cell face.
    for (const int cells : {1, 2, 5}) {
        CAPTURE(cells);
        World world;
        SoftBoxDesc d;
        d.cells = cells;
        d.halfExtents = Vec3(real(0.5), real(0.3), real(0.4));
        const SoftBody body = buildSoftBox(world, d);
        const std::size_t c = static_cast<std::size_t>(cells);
        REQUIRE(body.particles.size() == (c + 1) * (c + 1) * (c + 1));
        REQUIRE(body.tets.size() == 6 * c * c * c);
        REQUIRE(body.edges.size() == 3 * c * (c + 1) * (c + 1) + 3 * c * c * (c + 1) + c * c * c);
        REQUIRE(world.distanceConstraintIds().size() == body.edges.size());
        REQUIRE(world.particleConstraintIds().size() == body.tets.size());
        REQUIRE(body.surface.size() == 12 * c * c);
        requireClosedMesh(body.surface);
        requireRestLengthsAsPlaced(world, body.edges);
        const Vec3 cell = 2 * d.halfExtents / static_cast<real>(cells);
        REQUIRE(longestLink(world, body.edges) <= cell.norm() + lengthSlack);
        for (const ParticleConstraintId id : body.tets)
            REQUIRE(std::abs(world.particleConstraint(id).rest) == Approx(cell.prod() / 6).epsilon(testing::tol(1e-9, 1e-4)));
        std::vector<Vec3> x;
        for (const ParticleId p : body.particles) x.push_back(world.particle(p).position);
        REQUIRE(enclosedVolume(x, body.surface) == Approx(8 * d.halfExtents.prod()).epsilon(testing::tol(1e-9, 1e-4)));
    }
}

TEST_CASE("a soft ball keeps the lattice cells whose centres lie in the ball, six tets each", "[particles]") {
    World world;
    SoftSphereDesc d;
    d.radius = real(0.5);
    d.cells = 6;
    const SoftBody body = buildSoftSphere(world, d);
    // The kept cells counted here from the rule: centre within half the cells of the middle.
    std::size_t kept = 0;
    for (int k = 0; k < d.cells; ++k)
        for (int j = 0; j < d.cells; ++j)
            for (int i = 0; i < d.cells; ++i)
                if (Vec3(real(i) - real(2.5), real(j) - real(2.5), real(k) - real(2.5)).norm() <= 3) ++kept;
    REQUIRE(kept == 136); // 6^3 = 216 cells, of which the 8 corners' 10 each fall outside
    REQUIRE(body.tets.size() == 6 * kept);
    requireClosedMesh(body.surface);
    requireRestLengthsAsPlaced(world, body.edges);
    const real side = 2 * d.radius / static_cast<real>(d.cells);
    REQUIRE(longestLink(world, body.edges) <= std::sqrt(real(3)) * side + lengthSlack);
    std::vector<Vec3> x;
    for (const ParticleId p : body.particles) {
        x.push_back(world.particle(p).position);
        REQUIRE((x.back() - d.centre).norm() <= d.radius + std::sqrt(real(3)) * side / 2 + lengthSlack);
    }
    REQUIRE(enclosedVolume(x, body.surface) == Approx(static_cast<real>(kept) * side * side * side).epsilon(testing::tol(1e-9, 1e-4)));
}

TEST_CASE("a balloon of s subdivisions has 10 4^s + 2 particles, 30 4^s edges and 20 4^s triangles", "[particles]") {
    for (const int s : {0, 1, 3}) {
        CAPTURE(s);
        World world;
        BalloonDesc d;
        d.subdivisions = s;
        d.radius = real(0.7);
        const Balloon b = buildBalloon(world, d);
        const auto power = static_cast<std::size_t>(std::pow(4, s));
        REQUIRE(b.particles.size() == 10 * power + 2);
        REQUIRE(b.edges.size() == 30 * power);
        REQUIRE(b.triangles.size() == 20 * power);
        REQUIRE(world.distanceConstraintIds().size() == b.edges.size());
        REQUIRE(requireClosedMesh(b.triangles) == b.edges.size());
        requireRestLengthsAsPlaced(world, b.edges);
        // No edge longer than the icosahedron's: 4 / sqrt(10 + 2 sqrt 5) of the radius.
        const real icosahedronEdge = 4 / std::sqrt(10 + 2 * std::sqrt(real(5))) * d.radius;
        REQUIRE(longestLink(world, b.edges) <= icosahedronEdge + lengthSlack);
        const ParticleVolume& volume = world.particleVolume(b.volume);
        REQUIRE(volume.triangles.size() == b.triangles.size());
        REQUIRE(volume.restVolume > 0);
        REQUIRE(volume.restVolume < 4 * std::numbers::pi_v<real> / 3 * d.radius * d.radius * d.radius);
    }
}

TEST_CASE("a block of grains has nx ny nz free grains on its lattice and no constraints", "[particles]") {
    World world;
    GranularDesc d;
    d.nx = 5;
    d.ny = 3;
    d.nz = 4;
    const auto grains = buildGranularBlock(world, d);
    REQUIRE(grains.size() == 60);
    REQUIRE(world.distanceConstraintIds().empty());
    REQUIRE(world.particleConstraintIds().empty());
    const real halfX = d.spacing * 2, halfZ = d.spacing * real(1.5);
    for (const ParticleId g : grains) {
        const Vec3 x = world.particle(g).position - d.bottomCentre;
        REQUIRE(std::abs(x.x()) <= halfX + d.jitter + lengthSlack);
        REQUIRE(std::abs(x.z()) <= halfZ + d.jitter + lengthSlack);
        REQUIRE(x.y() >= -lengthSlack);
        REQUIRE(x.y() <= 2 * d.spacing + lengthSlack);
    }
}

TEST_CASE("Millington's blob fills its ball with the lattice points inside it, in one cluster", "[particles]") {
    // Radius three spacings: the integer points of a ball of radius 3 number 123.
    World world;
    BlobDesc d;
    d.radius = real(0.3);
    d.spacing = real(0.1);
    const Blob blob = buildBlob(world, d);
    REQUIRE(blob.particles.size() == 123);
    REQUIRE(world.distanceConstraintIds().empty());
    const ParticleCluster& cluster = world.particleCluster(blob.cluster);
    REQUIRE(cluster.particles.size() == 123);
    for (const ParticleId p : blob.particles) REQUIRE((world.particle(p).position - d.centre).norm() <= d.radius + lengthSlack);
}

TEST_CASE("Millington's platform has six particles, eight rods and two cables of its sizes", "[particles]") {
    World world;
    PlatformDesc d;
    const Platform platform = buildPlatform(world, d);
    REQUIRE(platform.particles.size() == 6);
    REQUIRE(platform.rods.size() == 8);
    REQUIRE(platform.cables.size() == 2);
    requireRestLengthsAsPlaced(world, platform.rods);
    const real half = (d.to - d.from).norm() / 2;
    std::multiset<long> lengths; // in mm: four along the sides, two across, one diagonal per half
    for (const DistanceConstraintId id : platform.rods)
        lengths.insert(std::lround(world.distanceConstraint(id).restLength * 1000));
    REQUIRE(lengths.count(std::lround(half * 1000)) == 4);
    REQUIRE(lengths.count(std::lround(d.width * 1000)) == 2);
    REQUIRE(lengths.count(std::lround(std::hypot(half, d.width) * 1000)) == 2);
    for (const ParticleAttachmentId id : platform.cables) REQUIRE(world.particleAttachment(id).restLength == d.cableHeight);
}

TEST_CASE("Choi's bar has one edge per neighbouring particle pair and a closed skin", "[deformable]") {
    // n particles of spacing L/n and n - 1 edges; the skin's rings (4 per particle, and
    // one) of 5 x 5 vertices give 64 end triangles and 128 per particle along the sides.
    World world;
    ArapBarDesc d;
    d.particles = 20;
    const ArapBar bar = buildArapBar(world, d);
    const Deformable& body = world.deformable(bar.id);
    const std::size_t n = 20;
    REQUIRE(body.restPosition.size() == n);
    REQUIRE(body.edges.size() == n - 1);
    for (const auto& [a, b] : body.edges) {
        REQUIRE(b == a + 1);
        REQUIRE((body.restPosition[a] - body.restPosition[b]).norm() == Approx(d.length / real(n)));
    }
    REQUIRE(body.restVertices.size() == 25 * (4 * n + 1));
    REQUIRE(body.triangles.size() == 64 + 128 * n);
    requireClosedMesh(body.triangles);
    REQUIRE(enclosedVolume(body.restVertices, body.triangles) == Approx(d.length * d.width * d.width).epsilon(testing::tol(1e-9, 1e-4)));
}

TEST_CASE("a sampled creature joins each particle to its k nearest, and nothing farther, in one piece", "[deformable]") {
    const ClosedMesh mesh = creatureMesh(1, 3);
    requireClosedMesh(mesh.triangles);
    SampledGraphDesc g;
    g.particles = 60;
    g.neighbours = 4;
    const DeformableDesc d = sampleDeformable(mesh, g);
    REQUIRE(d.particles.size() == 60);
    const std::size_t n = d.particles.size();
    // Each particle's k-th nearest distance: an edge no longer than one of its ends' is a
    // k-nearest edge; any other must be a bridge joining two otherwise separate pieces.
    std::vector<real> kth(n);
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<real> distances;
        for (std::size_t j = 0; j < n; ++j)
            if (j != i) distances.push_back((d.particles[i].position - d.particles[j].position).norm());
        std::nth_element(distances.begin(), distances.begin() + (g.neighbours - 1), distances.end());
        kth[i] = distances[static_cast<std::size_t>(g.neighbours - 1)];
    }
    std::size_t bridges = 0;
    for (const auto& [a, b] : d.edges) {
        const real length = (d.particles[a].position - d.particles[b].position).norm();
        if (length > std::max(kth[a], kth[b]) + lengthSlack) ++bridges;
    }
    REQUIRE(d.edges.size() >= n * static_cast<std::size_t>(g.neighbours) / 2);
    REQUIRE(d.edges.size() <= n * static_cast<std::size_t>(g.neighbours) + bridges);
    REQUIRE(bridges <= 2);
    // One piece: a walk from particle 0 reaches every particle.
    std::vector<std::uint8_t> reached(n, 0);
    reached[0] = 1;
    for (bool grew = true; grew;) {
        grew = false;
        for (const auto& [a, b] : d.edges)
            if (reached[a] != reached[b]) reached[a] = reached[b] = 1, grew = true;
    }
    REQUIRE(std::count(reached.begin(), reached.end(), 1) == static_cast<std::ptrdiff_t>(n));
    for (const OrientedParticleDesc& p : d.particles) REQUIRE(insideMesh(mesh, p.position));
}

TEST_CASE("the crossing grid answers insideMesh for every point and rejects broken meshes by field", "[deformable]") {
    const ClosedMesh mesh = creatureMesh(1, 2); // 320 triangles: insideMesh scans them all for each point
    const detail::CrossingGrid grid(mesh);
    // Random points over the mesh's box and beyond, then the hard ones: on vertices, edge
    // midpoints and face centres (rays that graze edges), and a hair off them.
    std::vector<Vec3> points;
    testing::Lcg random{7};
    for (int i = 0; i < 20000 / testing::sanitizedStepDivisor; ++i) {
        const real x = random.uniform(), y = random.uniform() + real(0.5), z = random.uniform();
        points.emplace_back(x, y, z);
    }
    for (const auto& corners : mesh.triangles) {
        const Vec3 A = mesh.vertices[corners[0]], B = mesh.vertices[corners[1]], C = mesh.vertices[corners[2]];
        for (const Vec3& p : {A, B, C, Vec3((A + B) / 2), Vec3((B + C) / 2), Vec3((C + A) / 2), Vec3((A + B + C) / 3)})
            for (const real off : {real(0), real(1e-6), real(-1e-6)}) points.push_back(p + off * mesh.normals[corners[0]]);
    }
    std::size_t inside = 0;
    for (const Vec3& p : points) {
        CAPTURE(p.transpose());
        REQUIRE(grid.inside(p) == insideMesh(mesh, p));
        inside += insideMesh(mesh, p) ? 1 : 0;
    }
    // Both answers occur (a grid that says "outside" everywhere would fail here).
    CHECK(inside > 500);
    CHECK(inside < points.size() - 500);

    ClosedMesh broken = mesh;
    broken.vertices[5].y() = std::numeric_limits<real>::quiet_NaN();
    CHECK_THROWS_WITH(sampleDeformable(broken, SampledGraphDesc{}), Catch::Contains("sampleDeformable.mesh.vertices[5]"));
    broken = mesh;
    broken.triangles[3][1] = static_cast<std::uint32_t>(mesh.vertices.size());
    CHECK_THROWS_WITH(sampleDeformable(broken, SampledGraphDesc{}), Catch::Contains("sampleDeformable.mesh.triangles[3]"));
}
