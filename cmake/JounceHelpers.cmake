# SPDX-License-Identifier: MIT
# jounce_require(<Package> <debian-package> [find_package args...])
# find_package that, when the package is missing, stops with the apt-get line to fix it.
macro(jounce_require pkg debian)
  find_package(${pkg} ${ARGN} QUIET)
  if(NOT ${pkg}_FOUND)
    message(FATAL_ERROR "Jounce needs ${pkg}: install it with\n  apt-get install ${debian}\n(or run ./jounce setup)")
  endif()
endmacro()

# jounce_require_pkgconfig(<prefix> <module> <debian-package>) -> PkgConfig::<prefix>
macro(jounce_require_pkgconfig prefix module debian)
  find_package(PkgConfig QUIET)
  if(NOT PkgConfig_FOUND)
    message(FATAL_ERROR "Jounce needs pkg-config: install it with\n  apt-get install pkg-config")
  endif()
  pkg_check_modules(${prefix} QUIET IMPORTED_TARGET ${module})
  if(NOT ${prefix}_FOUND)
    message(FATAL_ERROR "Jounce needs ${module}: install it with\n  apt-get install ${debian}\n(or run ./jounce setup)")
  endif()
endmacro()

# Warnings, the no-contraction rule for reproducible floating point, Werror in CI.
function(jounce_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -ffp-contract=off)
  if(JOUNCE_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(NOT JOUNCE_DOUBLE AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # In float GCC 12's -O2 SLP vectoriser packs 2-float operations into 4-lane SSE
    # instructions whose upper lanes hold whatever the register held before: an inf
    # there makes a NaN that changes no result but raises the invalid flag, which the
    # tests trap (docs/reliability.md; it fired in continuous collision, in some test
    # orders only). Double's 2-lane packets have no spare lane.
    target_compile_options(${target} PRIVATE -fno-tree-slp-vectorize)
  endif()
  if(JOUNCE_SANITIZE AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12's -Wmaybe-uninitialized misfires under -fsanitize=address (it flags
    # std::variant moves in ColliderDesc); the sanitizer build checks such reads at
    # run time instead, and the plain builds keep the warning.
    target_compile_options(${target} PRIVATE -Wno-maybe-uninitialized)
  endif()
endfunction()
