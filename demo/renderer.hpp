#pragma once
/// \file renderer.hpp
/// Draws a scenes::DrawList: lit instanced meshes for the primitives, GL lines for
/// springs, and a ground grid on y = 0. Construct and use with the OpenGL 3.3
/// context current; it holds GL objects, so destroy it before the context.

#include "camera.hpp"
#include "gl_util.hpp"
#include "meshes.hpp"

#include "scenes/scene.hpp"

#include <array>
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

    static GpuMesh upload(const MeshData& data);
    void collect(const scenes::DrawItem& item);
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
    VertexArray lineVao_;
    Buffer lineBuffer_;
    std::vector<LineVertex> lines_; ///< this frame's line vertices, two per line
    std::vector<LineVertex> overlayLines_; ///< drawn last, without the depth test
};

} // namespace jounce::demo
