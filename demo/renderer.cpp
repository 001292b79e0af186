// SPDX-License-Identifier: MIT
#include "renderer.hpp"

#include "background.hpp"
#include "shaders.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <initializer_list>

namespace jounce::demo {
namespace {

using Float3 = std::array<float, 3>;
using scenes::Primitive;

// A fixed sun, high and slightly behind the default camera, so the tops and the
// camera-facing sides of shapes read differently.
const Eigen::Vector3f kLightDirection = Eigen::Vector3f(0.35f, 1.0f, 0.55f).normalized();

// Grid: lines per side of the centre, and every how many lines one is brighter.
constexpr int kGridHalfLines = 40;
constexpr int kGridMajorEvery = 10;
constexpr Float3 kGridMinor{0.035f, 0.037f, 0.042f};
constexpr Float3 kGridMajor{0.09f, 0.095f, 0.105f};
constexpr Float3 kAxisX{0.45f, 0.06f, 0.06f};
constexpr Float3 kAxisZ{0.06f, 0.12f, 0.5f};

// A zero scale would divide the normal by zero in the vertex shader.
constexpr float kMinScale = 1e-4f;

Float3 toFloat3(const Vec3& v) {
    return {static_cast<float>(v.x()), static_cast<float>(v.y()), static_cast<float>(v.z())};
}

std::array<float, 4> toFloat4(const Quat& q) {
    Eigen::Vector4f c = q.coeffs().cast<float>(); // x, y, z, w
    const float norm = c.norm();
    if (!(norm > 0)) return {0, 0, 0, 1};
    c /= norm; // the shader's rotation assumes a unit quaternion
    return {c.x(), c.y(), c.z(), c.w()};
}

Float3 safeScale(float x, float y, float z) {
    const auto guard = [](float s) { return std::max(std::abs(s), kMinScale); };
    return {guard(x), guard(y), guard(z)};
}

void setInstanceAttribute(GLuint location, GLint components, std::size_t stride,
                          std::size_t offset) {
    glEnableVertexAttribArray(location);
    glVertexAttribPointer(location, components, GL_FLOAT, GL_FALSE, static_cast<GLsizei>(stride),
                          reinterpret_cast<const void*>(offset));
    glVertexAttribDivisor(location, 1);
}

void setVertexAttribute(GLuint location, std::size_t stride, std::size_t offset) {
    glEnableVertexAttribArray(location);
    glVertexAttribPointer(location, 3, GL_FLOAT, GL_FALSE, static_cast<GLsizei>(stride),
                          reinterpret_cast<const void*>(offset));
}

template <typename T> void streamArray(GLenum target, const std::vector<T>& data) {
    // Re-specifying the whole store each frame lets the driver hand out fresh memory
    // instead of waiting for the previous frame's draw to finish reading.
    glBufferData(target, static_cast<GLsizeiptr>(data.size() * sizeof(T)), data.data(),
                 GL_STREAM_DRAW);
}

// Grid spacing in metres: 1, 10, 100... so about the same number of lines is on
// screen at any zoom.
float gridSpacing(float distance) {
    return std::pow(10.0f, std::floor(std::log10(std::max(distance, 0.3f) / 3.0f)));
}

const Float3& gridColour(long index) {
    return index % kGridMajorEvery == 0 ? kGridMajor : kGridMinor;
}

// A triangle list (three corners per triangle, counter-clockwise from the front) as a
// mesh with one vertex per corner, each carrying its triangle's normal: flat shading.
// Degenerate and non-finite triangles are left out; they would cover no pixels, and
// their zero normals would turn into NaN in the shader.
MeshData flatShaded(const std::vector<Vec3>& corners) {
    MeshData mesh;
    const std::size_t triangles = corners.size() / 3;
    mesh.vertices.reserve(triangles * 3);
    mesh.indices.reserve(triangles * 3);
    for (std::size_t t = 0; t < triangles; ++t) {
        const Vec3& a = corners[3 * t];
        const Vec3& b = corners[3 * t + 1];
        const Vec3& c = corners[3 * t + 2];
        const Vec3 n = (b - a).cross(c - a);
        const real length = n.norm();
        if (!(length > 0) || !std::isfinite(length) || !a.allFinite() || !b.allFinite() || !c.allFinite()) continue;
        const Float3 normal = toFloat3(n / length);
        for (const Vec3* p : {&a, &b, &c}) {
            mesh.indices.push_back(static_cast<std::uint32_t>(mesh.vertices.size()));
            mesh.vertices.push_back({toFloat3(*p), normal});
        }
    }
    return mesh;
}

} // namespace

Renderer::Renderer()
    : meshProgram_(makeProgram("mesh", shaders::kMeshVertex, shaders::kMeshFragment)),
      meshViewProjection_(uniformLocation(meshProgram_, "uViewProjection")),
      meshEye_(uniformLocation(meshProgram_, "uEye")),
      meshLightDirection_(uniformLocation(meshProgram_, "uLightDirection")),
      lineProgram_(makeProgram("line", shaders::kLineVertex, shaders::kLineFragment)),
      lineViewProjection_(uniformLocation(lineProgram_, "uViewProjection")),
      lineVao_(makeVertexArray()), lineBuffer_(makeBuffer()) {
    meshes_[kBox] = upload(makeBox());
    meshes_[kSphere] = upload(makeSphere(16, 32));
    // Particles can number in the thousands and are small on screen.
    meshes_[kParticle] = upload(makeSphere(6, 10));
    meshes_[kCylinder] = upload(makeCylinder(32));
    meshes_[kPlane] = upload(makePlane());

    glBindVertexArray(lineVao_.get());
    glBindBuffer(GL_ARRAY_BUFFER, lineBuffer_.get());
    setVertexAttribute(0, sizeof(LineVertex), offsetof(LineVertex, position));
    setVertexAttribute(1, sizeof(LineVertex), offsetof(LineVertex, colour));
    glBindVertexArray(0);
}

Renderer::GpuMesh Renderer::upload(const MeshData& data) {
    GpuMesh mesh;
    mesh.vao = makeVertexArray();
    mesh.vertices = makeBuffer();
    mesh.indices = makeBuffer();
    mesh.instances = makeBuffer();
    mesh.indexCount = static_cast<GLsizei>(data.indices.size());

    glBindVertexArray(mesh.vao.get());
    glBindBuffer(GL_ARRAY_BUFFER, mesh.vertices.get());
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(data.vertices.size() * sizeof(Vertex)),
                 data.vertices.data(), GL_STATIC_DRAW);
    setVertexAttribute(0, sizeof(Vertex), offsetof(Vertex, position));
    setVertexAttribute(1, sizeof(Vertex), offsetof(Vertex, normal));

    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, mesh.indices.get());
    glBufferData(GL_ELEMENT_ARRAY_BUFFER,
                 static_cast<GLsizeiptr>(data.indices.size() * sizeof(std::uint32_t)),
                 data.indices.data(), GL_STATIC_DRAW);

    glBindBuffer(GL_ARRAY_BUFFER, mesh.instances.get());
    setInstanceAttribute(2, 3, sizeof(Instance), offsetof(Instance, position));
    setInstanceAttribute(3, 4, sizeof(Instance), offsetof(Instance, orientation));
    setInstanceAttribute(4, 3, sizeof(Instance), offsetof(Instance, scale));
    setInstanceAttribute(5, 3, sizeof(Instance), offsetof(Instance, colour));
    glBindVertexArray(0);
    return mesh;
}

void Renderer::draw(const scenes::DrawList& list, const OrbitCamera& camera, int width,
                    int height) {
    ++frame_;
    for (auto& mesh : meshes_) mesh.batch.clear();
    trianglesThisFrame_.clear();
    for (const auto& item : list.items) collect(item);
    evictTriangleMeshes();
    collectLines(list, camera);

    glViewport(0, 0, width, height);
    glClearColor(kBackground[0] / 255.0f, kBackground[1] / 255.0f, kBackground[2] / 255.0f, 1);
    glClearDepth(1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    // ImGui leaves blending and scissoring on; planes need both faces.
    glDisable(GL_BLEND);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_CULL_FACE);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);

    const float aspect = static_cast<float>(width) / static_cast<float>(std::max(height, 1));
    const Eigen::Matrix4f viewProjection = camera.projection(aspect) * camera.view();
    drawMeshes(viewProjection, camera.eye());
    drawLines(viewProjection);
}

void Renderer::collect(const scenes::DrawItem& item) {
    const Float3 position = toFloat3(item.transform.position);
    const auto orientation = toFloat4(item.transform.orientation);
    const Float3 size = toFloat3(item.size);
    const Float3& colour = item.colour;
    const float r = size[0];

    const auto add = [&](MeshKind kind, const Float3& at, const Float3& scale) {
        meshes_[kind].batch.push_back({at, orientation, scale, colour});
    };

    switch (item.shape) {
    case Primitive::Box:
        add(kBox, position, safeScale(size[0], size[1], size[2]));
        break;
    case Primitive::Sphere:
        add(kSphere, position, safeScale(r, r, r));
        break;
    case Primitive::Particle:
        add(kParticle, position, safeScale(r, r, r));
        break;
    case Primitive::Cylinder:
        add(kCylinder, position, safeScale(r, size[1], r));
        break;
    case Primitive::Capsule: {
        // A capsule is its straight part plus a sphere at each end of the body y axis.
        add(kCylinder, position, safeScale(r, size[1], r));
        const Vec3 halfAxis = item.transform.orientation.normalized() * Vec3(0, item.size.y(), 0);
        add(kSphere, toFloat3(item.transform.position + halfAxis), safeScale(r, r, r));
        add(kSphere, toFloat3(item.transform.position - halfAxis), safeScale(r, r, r));
        break;
    }
    case Primitive::Plane:
        add(kPlane, position, safeScale(size[0], 1, size[2]));
        break;
    case Primitive::Triangles:
        // Corners are already in the item's frame and size: no scale.
        if (item.triangles && item.triangles->size() >= 3)
            triangleMesh(item.triangles).batch.push_back({position, orientation, {1, 1, 1}, colour});
        break;
    }
}

Renderer::GpuMesh& Renderer::triangleMesh(const std::shared_ptr<const std::vector<Vec3>>& triangles) {
    auto [it, added] = triangleMeshes_.try_emplace(triangles.get());
    TriangleList& entry = it->second;
    if (added) {
        entry.source = triangles;
        entry.mesh = upload(flatShaded(*triangles));
    }
    if (entry.lastFrame != frame_) {
        entry.lastFrame = frame_;
        entry.mesh.batch.clear();
        trianglesThisFrame_.push_back(&entry);
    }
    return entry.mesh;
}

void Renderer::evictTriangleMeshes() {
    // A list the scene no longer draws is gone for good (a removed body, another
    // scene): scenes hand out the same list every frame while a shape lives.
    std::erase_if(triangleMeshes_, [this](const auto& entry) { return entry.second.lastFrame != frame_; });
}

void Renderer::addLine(const Float3& a, const Float3& b, const Float3& colour) {
    lines_.push_back({a, colour});
    lines_.push_back({b, colour});
}

void Renderer::collectLines(const scenes::DrawList& list, const OrbitCamera& camera) {
    lines_.clear();
    overlayLines_.clear();
    addGrid(camera);
    for (const auto& line : list.lines) {
        if (line.overlay) {
            overlayLines_.push_back({toFloat3(line.a), line.colour});
            overlayLines_.push_back({toFloat3(line.b), line.colour});
        } else {
            addLine(toFloat3(line.a), toFloat3(line.b), line.colour);
        }
    }
}

void Renderer::addGrid(const OrbitCamera& camera) {
    const float spacing = gridSpacing(camera.distance());
    // Centre on the target, snapped to a major line so lines do not crawl when panning.
    const float major = spacing * kGridMajorEvery;
    const long cx = std::lround(camera.target().x() / major) * kGridMajorEvery;
    const long cz = std::lround(camera.target().z() / major) * kGridMajorEvery;
    const float extent = spacing * kGridHalfLines;
    const float x0 = static_cast<float>(cx) * spacing - extent;
    const float z0 = static_cast<float>(cz) * spacing - extent;

    for (long k = -kGridHalfLines; k <= kGridHalfLines; ++k) {
        const long ix = cx + k; // grid index of a line of constant x
        const long iz = cz + k; // ... and of constant z
        const float x = static_cast<float>(ix) * spacing;
        const float z = static_cast<float>(iz) * spacing;
        // The line x = 0 is the z axis, and z = 0 the x axis.
        addLine({x, 0, z0}, {x, 0, z0 + 2 * extent}, ix == 0 ? kAxisZ : gridColour(ix));
        addLine({x0, 0, z}, {x0 + 2 * extent, 0, z}, iz == 0 ? kAxisX : gridColour(iz));
    }
}

void Renderer::drawMeshes(const Eigen::Matrix4f& viewProjection, const Eigen::Vector3f& eye) {
    glUseProgram(meshProgram_.get());
    glUniformMatrix4fv(meshViewProjection_, 1, GL_FALSE, viewProjection.data());
    glUniform3fv(meshEye_, 1, eye.data());
    glUniform3fv(meshLightDirection_, 1, kLightDirection.data());
    // Push filled surfaces back a little so grid lines lying on a ground plane at
    // y = 0 win the depth test instead of flickering.
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1, 1);
    const auto drawInstanced = [](GpuMesh& mesh) {
        if (mesh.batch.empty() || mesh.indexCount == 0) return;
        glBindVertexArray(mesh.vao.get());
        glBindBuffer(GL_ARRAY_BUFFER, mesh.instances.get());
        streamArray(GL_ARRAY_BUFFER, mesh.batch);
        glDrawElementsInstanced(GL_TRIANGLES, mesh.indexCount, GL_UNSIGNED_INT, nullptr,
                                static_cast<GLsizei>(mesh.batch.size()));
    };
    for (auto& mesh : meshes_) drawInstanced(mesh);
    for (TriangleList* triangles : trianglesThisFrame_) drawInstanced(triangles->mesh);
    glDisable(GL_POLYGON_OFFSET_FILL);
    glBindVertexArray(0);
}

void Renderer::drawLines(const Eigen::Matrix4f& viewProjection) {
    drawLineBatch(viewProjection, lines_);
    // Overlay lines (contact normals) stay visible inside and behind bodies.
    glDisable(GL_DEPTH_TEST);
    drawLineBatch(viewProjection, overlayLines_);
    glEnable(GL_DEPTH_TEST);
}

void Renderer::drawLineBatch(const Eigen::Matrix4f& viewProjection, const std::vector<LineVertex>& lines) {
    if (lines.empty()) return;
    glUseProgram(lineProgram_.get());
    glUniformMatrix4fv(lineViewProjection_, 1, GL_FALSE, viewProjection.data());
    glBindVertexArray(lineVao_.get());
    glBindBuffer(GL_ARRAY_BUFFER, lineBuffer_.get());
    streamArray(GL_ARRAY_BUFFER, lines);
    glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(lines.size()));
    glBindVertexArray(0);
}

} // namespace jounce::demo
