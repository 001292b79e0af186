// SPDX-License-Identifier: MIT
#include "gl_util.hpp"

#include <stdexcept>
#include <string>

namespace jounce::demo {
namespace {

std::string shaderLog(GLuint shader) {
    GLint length = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
    std::string log(static_cast<std::size_t>(length > 0 ? length : 1), '\0');
    glGetShaderInfoLog(shader, static_cast<GLsizei>(log.size()), nullptr, log.data());
    return log;
}

std::string programLog(GLuint program) {
    GLint length = 0;
    glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
    std::string log(static_cast<std::size_t>(length > 0 ? length : 1), '\0');
    glGetProgramInfoLog(program, static_cast<GLsizei>(log.size()), nullptr, log.data());
    return log;
}

Shader compile(const char* label, GLenum stage, const char* source) {
    Shader shader(glCreateShader(stage));
    glShaderSource(shader.get(), 1, &source, nullptr);
    glCompileShader(shader.get());
    GLint ok = GL_FALSE;
    glGetShaderiv(shader.get(), GL_COMPILE_STATUS, &ok);
    if (ok != GL_TRUE) {
        const char* kind = stage == GL_VERTEX_SHADER ? "vertex" : "fragment";
        throw std::runtime_error(std::string(label) + " " + kind +
                                 " shader did not compile:\n" + shaderLog(shader.get()));
    }
    return shader;
}

} // namespace

Buffer makeBuffer() {
    GLuint name = 0;
    glGenBuffers(1, &name);
    return Buffer(name);
}

VertexArray makeVertexArray() {
    GLuint name = 0;
    glGenVertexArrays(1, &name);
    return VertexArray(name);
}

Program makeProgram(const char* label, const char* vertexSource, const char* fragmentSource) {
    const Shader vertex = compile(label, GL_VERTEX_SHADER, vertexSource);
    const Shader fragment = compile(label, GL_FRAGMENT_SHADER, fragmentSource);
    Program program(glCreateProgram());
    glAttachShader(program.get(), vertex.get());
    glAttachShader(program.get(), fragment.get());
    glLinkProgram(program.get());
    GLint ok = GL_FALSE;
    glGetProgramiv(program.get(), GL_LINK_STATUS, &ok);
    if (ok != GL_TRUE) {
        throw std::runtime_error(std::string(label) + " program did not link:\n" +
                                 programLog(program.get()));
    }
    // The shaders stay alive only while attached; detaching lets them go with `vertex`
    // and `fragment` at the end of this scope.
    glDetachShader(program.get(), vertex.get());
    glDetachShader(program.get(), fragment.get());
    return program;
}

GLint uniformLocation(const Program& program, const char* name) {
    const GLint location = glGetUniformLocation(program.get(), name);
    if (location < 0) {
        throw std::runtime_error(std::string("shader uniform '") + name + "' not found");
    }
    return location;
}

} // namespace jounce::demo
