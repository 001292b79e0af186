// SPDX-License-Identifier: MIT
#pragma once
/// \file gl_util.hpp
/// Small owners for OpenGL objects, so every early return and exception frees them.
/// Needs a current OpenGL 3.3 context for every call.

#include <epoxy/gl.h>

#include <utility>

namespace jounce::demo {

/// Owns one GL object name; `Deleter::destroy(name)` frees it.
template <typename Deleter> class GlObject {
public:
    GlObject() = default;
    explicit GlObject(GLuint name) : name_(name) {}
    ~GlObject() { reset(); }
    GlObject(const GlObject&) = delete;
    GlObject& operator=(const GlObject&) = delete;
    GlObject(GlObject&& other) noexcept : name_(std::exchange(other.name_, 0)) {}
    GlObject& operator=(GlObject&& other) noexcept {
        if (this != &other) {
            reset();
            name_ = std::exchange(other.name_, 0);
        }
        return *this;
    }

    GLuint get() const { return name_; }
    void reset() {
        if (name_ != 0) Deleter::destroy(name_);
        name_ = 0;
    }

private:
    GLuint name_ = 0;
};

struct BufferDeleter {
    static void destroy(GLuint n) { glDeleteBuffers(1, &n); }
};
struct VertexArrayDeleter {
    static void destroy(GLuint n) { glDeleteVertexArrays(1, &n); }
};
struct ProgramDeleter {
    static void destroy(GLuint n) { glDeleteProgram(n); }
};
struct ShaderDeleter {
    static void destroy(GLuint n) { glDeleteShader(n); }
};
struct FramebufferDeleter {
    static void destroy(GLuint n) { glDeleteFramebuffers(1, &n); }
};
struct RenderbufferDeleter {
    static void destroy(GLuint n) { glDeleteRenderbuffers(1, &n); }
};

using Buffer = GlObject<BufferDeleter>;
using VertexArray = GlObject<VertexArrayDeleter>;
using Program = GlObject<ProgramDeleter>;
using Shader = GlObject<ShaderDeleter>;
using Framebuffer = GlObject<FramebufferDeleter>;
using Renderbuffer = GlObject<RenderbufferDeleter>;

Buffer makeBuffer();
VertexArray makeVertexArray();

/// Compiles and links a vertex + fragment program; throws std::runtime_error with
/// the driver's log, naming `label`.
Program makeProgram(const char* label, const char* vertexSource, const char* fragmentSource);

/// Uniform location that must exist (a typo in a name would otherwise draw
/// nothing, silently); throws std::runtime_error.
GLint uniformLocation(const Program& program, const char* name);

} // namespace jounce::demo
