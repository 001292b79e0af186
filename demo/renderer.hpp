// SPDX-License-Identifier: MIT
#pragma once
/// \file renderer.hpp
/// Draws a scenes::DrawList: lit instanced meshes for the primitives, flat-shaded
/// triangle lists (hulls, meshes), GL lines for springs, and a ground grid on y = 0.
/// Construct and use with the OpenGL 3.3 context current; it holds GL objects, so
/// destroy it before the context.

#include "camera.hpp"
#include "gl_util.hpp"
#include "meshes.hpp"

#include "scenes/scene.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace jounce::demo {

class Renderer {
public:
    Renderer();

    /// Clears and draws into the currently bound framebuffer, `width` x `height`.
    void draw(const scenes::DrawList& list, const OrbitCamera& camera, int width, int height);

private:
    struct Instance {
        std::array<float, 3> position;
        std::array<float, 4> orientation; ///< x, y, z, w
        std::array<float, 3> scale;
        std::array<float, 3> colour;
    };
    struct LineVertex {
        std::array<float, 3> position;
        std::array<float, 3> colour;
    };
    struct GpuMesh {
        VertexArray vao;
        Buffer vertices;
        Buffer indices;
        Buffer instances;
        GLsizei indexCount = 0;
        std::vector<Instance> batch; ///< this frame's instances
    };
    enum MeshKind : std::size_t { kBox, kSphere, kParticle, kCylinder, kPlane, kMeshKinds };

    /// A triangle list (Primitive::Triangles) uploaded once and drawn every frame it
    /// appears in, as instances of one mesh like the primitives above.
    struct TriangleList {
        /// Held, not just watched: while this lives its address (the cache key) cannot
        /// be reused by another list.
        std::shared_ptr<const std::vector<Vec3>> source;
        GpuMesh mesh;
        std::uint64_t lastFrame = 0; ///< the last frame that drew it
    };

    static GpuMesh upload(const MeshData& data);
    void collect(const scenes::DrawItem& item);
    /// The cached mesh of a triangle list, uploaded on first sight.
    GpuMesh& triangleMesh(const std::shared_ptr<const std::vector<Vec3>>& triangles);
    /// Frees the meshes of triangle lists this frame does not draw.
    void evictTriangleMeshes();
    void collectLines(const scenes::DrawList& list, const OrbitCamera& camera);
    void addGrid(const OrbitCamera& camera);
    void addLine(const std::array<float, 3>& a, const std::array<float, 3>& b,
                 const std::array<float, 3>& colour);
    void drawMeshes(const Eigen::Matrix4f& viewProjection, const Eigen::Vector3f& eye);
    void drawLines(const Eigen::Matrix4f& viewProjection);
    void drawLineBatch(const Eigen::Matrix4f& viewProjection, const std::vector<LineVertex>& lines);

    Program meshProgram_;
    GLint meshViewProjection_ = -1;
    GLint meshEye_ = -1;
    GLint meshLightDirection_ = -1;
    Program lineProgram_;
    GLint lineViewProjection_ = -1;

    std::array<GpuMesh, kMeshKinds> meshes_;
    /// Keyed by the list's address; entries hold the list (see TriangleList::source).
    std::unordered_map<const std::vector<Vec3>*, TriangleList> triangleMeshes_;
    std::vector<TriangleList*> trianglesThisFrame_; ///< in first-drawn order
    std::uint64_t frame_ = 0;
    VertexArray lineVao_;
    Buffer lineBuffer_;
    std::vector<LineVertex> lines_; ///< this frame's line vertices, two per line
    std::vector<LineVertex> overlayLines_; ///< drawn last, without the depth test
};

} // namespace jounce::demo
