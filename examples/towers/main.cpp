// SPDX-License-Identifier: MIT
// Towers: throw balls at towers of boxes and knock them off the platform.
//
//   towers                      play: left click throws at the point under the mouse,
//                               right drag picks a body up (ray cast), W A S D walk the
//                               hero (up the ramp, into the towers), space jumps, F1
//                               shows the physics (jounce::debugDraw), R resets, Esc quits
//   towers --frames N [--screenshot out.ppm]   N frames of 1/50 s with the scripted
//                               throws, then quit (the window path, under xvfb)
//   towers --autoplay N         no window: N fixed steps with the scripted throws, then
//   towers --autoplay N --no-throw   the score; exits 1 if the world blew up
//   towers ... --walk           the hero walks up the ramp into the left tower
//   towers --frames N --debug-draw   with the physics drawn over the scene
//
// The loop is docs/integration.md's: fixed steps from an accumulator, and drawing
// interpolated between the last two steps. Drawing is legacy OpenGL to stay short.
#include "towers_game.hpp"

#include <SDL.h>
#include <SDL_opengl.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace {

using towers::Game;
using towers::real;
using towers::Vec3;

struct Options {
    int autoplay = -1;  ///< >= 0: headless, this many steps
    bool noThrow = false;
    int frames = -1;    ///< >= 0: quit the window after this many frames
    std::string screenshot; ///< with frames: write the last one here (binary PPM)
    bool walk = false;      ///< the scripted hero walks toward the towers
    bool debugDraw = false; ///< start with the physics drawn (F1 toggles)
};

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--autoplay" && i + 1 < argc) o.autoplay = std::atoi(argv[++i]);
        else if (a == "--frames" && i + 1 < argc) o.frames = std::atoi(argv[++i]);
        else if (a == "--screenshot" && i + 1 < argc) o.screenshot = argv[++i];
        else if (a == "--no-throw") o.noThrow = true;
        else if (a == "--walk") o.walk = true;
        else if (a == "--debug-draw") o.debugDraw = true;
        else {
            std::fprintf(stderr, "usage: towers [--frames N [--screenshot out.ppm] [--debug-draw]] [--autoplay N [--no-throw]] [--walk]\n");
            std::exit(2);
        }
    }
    return o;
}

void printScore(const Game& game) {
    std::printf("steps %llu balls %d hits %d score %d of %d\n",
                static_cast<unsigned long long>(game.world().stepCount()), game.ballsThrown(), game.hits(),
                game.score(), game.boxCount());
}

/// The scripted player: a ball every second (60 steps) at the towers' bases and the
/// wrecking ball, in turn. Called before each step.
void scriptedThrow(Game& game) {
    const std::array<Vec3, 4> targets{Vec3(0, real(1.3), 0), Vec3(real(-1.8), real(1.3), 0),
                                      Vec3(real(1.8), real(2.1), real(0.9)), Vec3(real(1.8), real(1.3), 0)};
    const std::uint64_t n = game.world().stepCount();
    if (n % 60 == 30) game.throwBall(targets[(n / 60) % targets.size()]);
}

/// The scripted hero: straight at the left tower, up the ramp and across the platform.
void scriptedWalk(Game& game) { game.walk(Vec3(0, 0, real(-2.2))); }

int autoplay(const Options& o) {
    Game game;
    if (o.walk) scriptedWalk(game);
    for (int n = 0; n < o.autoplay; ++n) {
        if (!o.noThrow) scriptedThrow(game);
        game.step();
    }
    printScore(game);
    return game.finite() ? 0 : 1;
}

// ---- Camera and mouse rays -----------------------------------------------------------

struct Camera {
    Vec3 eye = Vec3(0, real(3.4), real(10.5));
    Vec3 target = Vec3(0, real(1.8), 0);
    real fovY = real(0.8); ///< [rad]
    Vec3 forward() const { return (target - eye).normalized(); }
    Vec3 right() const { return forward().cross(Vec3::UnitY()).normalized(); }
    Vec3 up() const { return right().cross(forward()); }
};

/// The world-space segment under a pixel: from the eye, 100 m into the scene.
std::array<Vec3, 2> mouseRay(const Camera& c, int x, int y, int width, int height) {
    const real tanHalf = std::tan(c.fovY / 2), aspect = real(width) / real(height);
    const real nx = 2 * (real(x) + real(0.5)) / real(width) - 1, ny = 1 - 2 * (real(y) + real(0.5)) / real(height);
    const Vec3 dir = c.forward() + nx * tanHalf * aspect * c.right() + ny * tanHalf * c.up();
    return {c.eye, c.eye + 100 * dir.normalized()};
}

// ---- Drawing (legacy OpenGL: no shaders, no buffers) ---------------------------------

void multiply(const jounce::Transform& t) {
    Eigen::Matrix4f m = Eigen::Matrix4f::Identity();
    m.topLeftCorner<3, 3>() = t.orientation.toRotationMatrix().cast<float>();
    m.topRightCorner<3, 1>() = t.position.cast<float>();
    glMultMatrixf(m.data()); // both column-major
}

void setCamera(const Camera& c, int width, int height) {
    glViewport(0, 0, width, height);
    glMatrixMode(GL_PROJECTION);
    glLoadIdentity();
    const double zNear = 0.1, h = zNear * std::tan(c.fovY / 2), w = h * width / std::max(height, 1);
    glFrustum(-w, w, -h, h, zNear, 200);
    glMatrixMode(GL_MODELVIEW);
    // The view matrix: the camera's axes as rows, then the eye moved to the origin.
    Eigen::Matrix4f view = Eigen::Matrix4f::Identity();
    view.block<1, 3>(0, 0) = c.right().cast<float>().transpose();
    view.block<1, 3>(1, 0) = c.up().cast<float>().transpose();
    view.block<1, 3>(2, 0) = -c.forward().cast<float>().transpose();
    view.topRightCorner<3, 1>() = -(view.topLeftCorner<3, 3>() * c.eye.cast<float>());
    glLoadMatrixf(view.data());
    const GLfloat sun[4] = {0.4f, 1.0f, 0.6f, 0.0f}; // directional, set in world space
    glLightfv(GL_LIGHT0, GL_POSITION, sun);
}

void vertex(const Vec3& v) { glVertex3d(double(v.x()), double(v.y()), double(v.z())); }
void normal(const Vec3& n) { glNormal3d(double(n.x()), double(n.y()), double(n.z())); }

void drawBox(const Vec3& h) {
    glBegin(GL_QUADS);
    for (int axis = 0; axis < 3; ++axis)
        for (const real side : {real(-1), real(1)}) {
            Vec3 n = Vec3::Zero();
            n[axis] = side;
            const Vec3 u = Vec3::Unit((axis + 1) % 3), v = Vec3::Unit((axis + 2) % 3);
            normal(n);
            // Corners counter-clockwise seen from outside: swap u and v on the negative side.
            const Vec3 a = side > 0 ? u : v, b = side > 0 ? v : u;
            for (const auto& [s, t] : {std::pair{-1, -1}, {1, -1}, {1, 1}, {-1, 1}})
                vertex((n + real(s) * a + real(t) * b).cwiseProduct(h));
        }
    glEnd();
}

void drawSphere(real r) {
    constexpr int rings = 10, sectors = 16;
    const real pi = real(3.14159265358979);
    for (int i = 0; i < rings; ++i) {
        glBegin(GL_QUAD_STRIP);
        for (int j = 0; j <= sectors; ++j)
            for (const int k : {i + 1, i}) {
                const real lat = pi * real(k) / rings, lon = 2 * pi * real(j) / sectors;
                const Vec3 n(std::sin(lat) * std::cos(lon), std::cos(lat), std::sin(lat) * std::sin(lon));
                normal(n);
                vertex(r * n);
            }
        glEnd();
    }
}

void drawCapsule(real r, real halfHeight) {
    // Two spheres at the segment's ends and a tube between them (axis y).
    for (const real y : {-halfHeight, halfHeight}) {
        glPushMatrix();
        glTranslated(0, double(y), 0);
        drawSphere(r);
        glPopMatrix();
    }
    constexpr int sectors = 16;
    glBegin(GL_QUAD_STRIP);
    for (int j = 0; j <= sectors; ++j) {
        const real lon = 2 * real(3.14159265358979) * real(j) / sectors;
        const Vec3 n(std::cos(lon), 0, std::sin(lon));
        normal(n);
        vertex(r * n + Vec3(0, halfHeight, 0));
        vertex(r * n - Vec3(0, halfHeight, 0));
    }
    glEnd();
}

void drawGround() {
    glBegin(GL_QUADS);
    normal(Vec3::UnitY());
    for (const auto& [x, z] : {std::pair{-40, 40}, {40, 40}, {40, -40}, {-40, -40}}) vertex(Vec3(real(x), 0, real(z)));
    glEnd();
}

void drawShape(const jounce::Shape& shape) {
    std::visit([](const auto& s) {
        using S = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<S, jounce::Box>) drawBox(s.halfExtents);
        else if constexpr (std::is_same_v<S, jounce::Sphere>) drawSphere(s.radius);
        else if constexpr (std::is_same_v<S, jounce::Capsule>) drawCapsule(s.radius, s.halfHeight);
        else if constexpr (std::is_same_v<S, jounce::HalfSpace>) drawGround(); // the game's is y = 0
    }, shape);
}

void drawPieces(const Game& game, real alpha) {
    for (const towers::Piece& p : game.pieces()) {
        glColor3fv(p.colour.data());
        const jounce::Transform origin = Game::interpolate(p, alpha);
        for (const jounce::ColliderId c : game.world().colliderIdsOf(p.id)) {
            glPushMatrix();
            multiply(origin * game.world().collider(c).local);
            drawShape(game.world().collider(c).shape);
            glPopMatrix();
        }
    }
}

void drawBanner(const Game& game, real alpha) {
    const towers::ParticleTrack& t = game.banner();
    glColor3f(0.8f, 0.15f, 0.15f);
    glBegin(GL_TRIANGLES);
    for (const auto& tri : game.bannerTriangles()) {
        const Vec3 a = Game::interpolate(t, tri[0], alpha), b = Game::interpolate(t, tri[1], alpha),
                   c = Game::interpolate(t, tri[2], alpha);
        normal((b - a).cross(c - a).normalized());
        vertex(a), vertex(b), vertex(c);
    }
    glEnd();
}

/// The rope as a thick line and each hard hit as a fading yellow dot: unlit.
void drawLinesAndFlashes(const Game& game, real alpha) {
    glDisable(GL_LIGHTING);
    glLineWidth(3);
    glColor3f(0.75f, 0.65f, 0.45f);
    glBegin(GL_LINE_STRIP);
    for (std::size_t i = 0; i < game.rope().ids.size(); ++i) vertex(Game::interpolate(game.rope(), i, alpha));
    glEnd();
    glPointSize(14);
    glBegin(GL_POINTS);
    for (const towers::Flash& f : game.flashes()) {
        const float fade = 1.0f - float(f.age) / 0.4f;
        glColor3f(1.0f, 0.9f * fade + 0.1f, 0.2f);
        vertex(f.point);
    }
    glEnd();
    glEnable(GL_LIGHTING);
}

/// The physics as the solver sees it, through Jounce's debug-draw interface (nothing
/// here reads the world's internals): shapes as wireframes, contacts, normals and
/// impulses, joints, islands, sleeping bodies, centres of mass; drawn over the scene.
class GlDebugDraw final : public jounce::DebugDraw {
public:
    void shape(const jounce::Shape& s, const jounce::Transform& pose, jounce::DebugColour c) override {
        glColor3f(c.r, c.g, c.b);
        glPushMatrix();
        multiply(pose);
        drawShape(s);
        glPopMatrix();
    }
    void line(const Vec3& a, const Vec3& b, jounce::DebugColour c) override {
        glColor3f(c.r, c.g, c.b);
        glBegin(GL_LINES);
        vertex(a), vertex(b);
        glEnd();
    }
    void point(const Vec3& p, real, jounce::DebugColour c) override {
        glColor3f(c.r, c.g, c.b);
        glBegin(GL_POINTS);
        vertex(p);
        glEnd();
    }
};

void drawPhysics(const Game& game) {
    glDisable(GL_LIGHTING);
    glDisable(GL_DEPTH_TEST); // over the scene
    glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
    glLineWidth(1);
    glPointSize(6);
    GlDebugDraw out;
    namespace flag = jounce::DebugDrawFlags;
    jounce::debugDraw(game.world(), out,
                      {.flags = flag::shapes | flag::contacts | flag::normals | flag::impulses | flag::joints | flag::islands |
                                flag::sleep | flag::centresOfMass});
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_LIGHTING);
}

void draw(const Game& game, const Camera& camera, int width, int height, real alpha, bool physics) {
    glClearColor(0.55f, 0.7f, 0.9f, 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    setCamera(camera, width, height);
    drawPieces(game, alpha);
    drawBanner(game, alpha);
    drawLinesAndFlashes(game, alpha);
    if (physics) drawPhysics(game);
}

/// The frame just drawn as a binary PPM (rows bottom-up in GL, top-down in the file).
void saveScreenshot(const std::string& path, int width, int height) {
    std::vector<unsigned char> rgb(std::size_t(width) * std::size_t(height) * 3);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, rgb.data());
    std::ofstream out(path, std::ios::binary);
    out << "P6\n" << width << " " << height << "\n255\n";
    for (int row = height - 1; row >= 0; --row)
        out.write(reinterpret_cast<const char*>(&rgb[std::size_t(row) * std::size_t(width) * 3]), std::streamsize(width) * 3);
}

void initGl() {
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_LIGHTING);
    glEnable(GL_LIGHT0);
    glEnable(GL_COLOR_MATERIAL); // glColor sets the lit material
    glEnable(GL_NORMALIZE);
    glLightModeli(GL_LIGHT_MODEL_TWO_SIDE, GL_TRUE); // the banner has two faces
    const GLfloat ambient[4] = {0.35f, 0.35f, 0.35f, 1};
    glLightModelfv(GL_LIGHT_MODEL_AMBIENT, ambient);
}

// ---- The window and the loop ---------------------------------------------------------

struct Input {
    bool quit = false;
    bool physics = false; ///< F1: the debug drawing over the scene
};

/// W A S D (or the arrows) walk the hero across the view at 3 m/s.
Vec3 walkFromKeys(const Camera& camera) {
    const Uint8* keys = SDL_GetKeyboardState(nullptr);
    const Vec3 ahead = Vec3(camera.forward().x(), 0, camera.forward().z()).normalized();
    const Vec3 right = Vec3(camera.right().x(), 0, camera.right().z()).normalized();
    Vec3 walk = Vec3::Zero();
    if (keys[SDL_SCANCODE_W] || keys[SDL_SCANCODE_UP]) walk += ahead;
    if (keys[SDL_SCANCODE_S] || keys[SDL_SCANCODE_DOWN]) walk -= ahead;
    if (keys[SDL_SCANCODE_D] || keys[SDL_SCANCODE_RIGHT]) walk += right;
    if (keys[SDL_SCANCODE_A] || keys[SDL_SCANCODE_LEFT]) walk -= right;
    return walk.norm() > 0 ? Vec3(walk.normalized() * 3) : walk;
}

/// Mouse and keys: left click throws at what is under the mouse, right drag picks.
void handle(const SDL_Event& e, Game& game, const Camera& camera, SDL_Window* window, Input& input) {
    int w = 1, h = 1;
    SDL_GetWindowSize(window, &w, &h);
    if (e.type == SDL_QUIT) input.quit = true;
    if (e.type == SDL_KEYDOWN && e.key.keysym.sym == SDLK_ESCAPE) input.quit = true;
    if (e.type == SDL_KEYDOWN && e.key.keysym.sym == SDLK_r) game.reset();
    if (e.type == SDL_KEYDOWN && e.key.keysym.sym == SDLK_SPACE) game.jump();
    if (e.type == SDL_KEYDOWN && e.key.keysym.sym == SDLK_F1) input.physics = !input.physics;
    if (e.type == SDL_MOUSEBUTTONDOWN) {
        const auto [from, to] = mouseRay(camera, e.button.x, e.button.y, w, h);
        if (e.button.button == SDL_BUTTON_RIGHT) {
            game.grab(from, to);
        } else if (e.button.button == SDL_BUTTON_LEFT) {
            const auto hit = game.world().rayCastClosest(from, to);
            game.throwBall(hit ? hit->point : from + real(0.12) * (to - from)); // nothing there: 12 m out
        }
    }
    if (e.type == SDL_MOUSEMOTION && game.dragging()) {
        const auto [from, to] = mouseRay(camera, e.motion.x, e.motion.y, w, h);
        game.drag(from, to);
    }
    if (e.type == SDL_MOUSEBUTTONUP && e.button.button == SDL_BUTTON_RIGHT) game.release();
}

int play(const Options& o) {
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        std::fprintf(stderr, "towers: SDL_Init failed: %s\n", SDL_GetError());
        return 1;
    }
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
    SDL_Window* window = SDL_CreateWindow("Towers", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, 1024, 640,
                                          SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE);
    SDL_GLContext context = window ? SDL_GL_CreateContext(window) : nullptr;
    if (context == nullptr) {
        std::fprintf(stderr, "towers: no OpenGL window: %s\n", SDL_GetError());
        SDL_Quit();
        return 1;
    }
    SDL_GL_SetSwapInterval(1);
    initGl();

    Game game;
    Camera camera;
    Input input;
    input.physics = o.debugDraw;
    if (o.walk) scriptedWalk(game);
    const double frequency = double(SDL_GetPerformanceFrequency());
    Uint64 last = SDL_GetPerformanceCounter();
    double accumulator = 0;
    int lastScore = -1, lastHits = -1;
    for (int frame = 0; !input.quit && frame != o.frames; ++frame) {
        for (SDL_Event e; SDL_PollEvent(&e);) handle(e, game, camera, window, input);
        if (o.frames < 0) game.walk(walkFromKeys(camera)); // scripted runs keep their walk

        // Fixed steps from the accumulator; a long stall (a breakpoint, a dragged
        // window) is cut to a quarter second instead of a burst of catch-up steps.
        // With --frames each frame is 1/50 s, not the clock's: the same run every time,
        // and not a whole number of steps, so the interpolation is exercised.
        const Uint64 now = SDL_GetPerformanceCounter();
        accumulator += o.frames >= 0 ? 0.02 : std::min(double(now - last) / frequency, 0.25);
        last = now;
        while (accumulator >= double(Game::dt)) {
            if (o.frames >= 0) scriptedThrow(game);
            game.step();
            accumulator -= double(Game::dt);
        }
        const real alpha = real(accumulator / double(Game::dt)); // how far into the next step we are

        int w = 1, h = 1;
        SDL_GL_GetDrawableSize(window, &w, &h);
        draw(game, camera, w, h, alpha, input.physics);
        if (frame + 1 == o.frames && !o.screenshot.empty()) saveScreenshot(o.screenshot, w, h);
        SDL_GL_SwapWindow(window);
        if (game.score() != lastScore || game.hits() != lastHits) { // the HUD is the title bar
            lastScore = game.score(), lastHits = game.hits();
            const std::string title = "Towers - score " + std::to_string(lastScore) + " of " +
                                      std::to_string(game.boxCount()) + ", hits " + std::to_string(lastHits);
            SDL_SetWindowTitle(window, title.c_str());
        }
    }
    printScore(game);
    const bool finite = game.finite();
    SDL_GL_DeleteContext(context);
    SDL_DestroyWindow(window);
    SDL_Quit();
    return finite ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    return o.autoplay >= 0 ? autoplay(o) : play(o);
}
