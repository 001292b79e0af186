// SPDX-License-Identifier: MIT
#pragma once
// The one wrapper behind ErrorHandler (error.hpp): every public entry point that can
// fail runs its body through guarded(). Without a handler the body just runs and
// jounce::Error propagates as it always did. With one, the error is caught here, inside
// the library (which is built with exceptions), given to the handler, and the call
// returns an empty value, so a game built with -fno-exceptions never sees a throw.
// Calls nested in a guarded call (a builder's createParticle, destroyJoint inside
// destroyBody) let the error through to the outermost one: it is reported once, and
// that call stays all or nothing.

#include <jounce/common/error.hpp>

#include <optional>
#include <type_traits>

namespace jounce::detail {

/// Whether this thread is running a guarded call's body now (error.cpp).
bool& insideGuardedCall();

/// What a failed call returns: nothing, R{}, or a reference to a default object.
template <typename R> R emptyResult() {
    if constexpr (std::is_reference_v<R>) {
        static const std::remove_cvref_t<R> none{};
        return none;
    } else {
        return R();
    }
}

/// Runs `body`; with a handler set, an Error goes to `onError` and the empty result is
/// returned instead. Give reference-returning lambdas an explicit `-> const T&`.
template <typename Call> decltype(auto) guarded(const ErrorHandler& onError, Call&& body) {
    using R = decltype(body());
    if (!onError || insideGuardedCall()) return body();
    std::optional<Error> failure;
    {
        struct Inside {
            Inside() { insideGuardedCall() = true; }
            ~Inside() { insideGuardedCall() = false; }
            Inside(const Inside&) = delete;
            Inside& operator=(const Inside&) = delete;
        } inside;
        try {
            return body();
        } catch (const Error& e) {
            failure.emplace(e);
        }
    }
    onError(*failure); // outside the guarded scope: the handler may call the world
    return emptyResult<R>();
}

} // namespace jounce::detail
