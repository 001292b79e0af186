# SPDX-License-Identifier: MIT
# The rooms' include rules (docs/architecture.md, "Rooms and the include graph"), checked
# on the sources themselves: includes run one way, from the world down to common/.
#   cmake -DJOUNCE_SOURCE=<repo> -P tests/layering.cmake
# Fails naming every file and include that breaks a rule, and every public header that
# <jounce/jounce.hpp> leaves out.

if(NOT JOUNCE_SOURCE)
  message(FATAL_ERROR "layering.cmake: pass -DJOUNCE_SOURCE=<repository root>")
endif()

# Each rule: the files it covers (globs under the repository) and the include paths
# those files may name. A public header's path is <jounce/ROOM/...>, a private one's
# "ROOM/...". Standard and third-party headers (no jounce/, no room prefix) are free.
set(rooms_public_common    "jounce/config.hpp" "jounce/common/")
set(rooms_public_collision ${rooms_public_common} "jounce/collision/")
set(rooms_public_dynamics  ${rooms_public_collision} "jounce/dynamics/")
set(rooms_public_contact   ${rooms_public_dynamics} "jounce/contact/")

set(violations "")

# check(GLOBS ALLOWED): every jounce include ("..." or <jounce/...>) of the files must
# start with one of ALLOWED.
function(check globs allowed)
  set(files "")
  foreach(g IN LISTS globs)
    file(GLOB found "${JOUNCE_SOURCE}/${g}")
    list(APPEND files ${found})
  endforeach()
  foreach(f IN LISTS files)
    file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]*)[>\"].*$" "\\1" path "${line}")
      # Only the project's own headers: public ones under jounce/, private ones under a room.
      if(NOT path MATCHES "^(jounce/|common/|collision/|contact/|physics/|scenes/)")
        continue()
      endif()
      set(ok FALSE)
      foreach(prefix IN LISTS allowed)
        string(FIND "${path}" "${prefix}" at)
        if(at EQUAL 0)
          set(ok TRUE)
        endif()
      endforeach()
      if(NOT ok)
        file(RELATIVE_PATH rel "${JOUNCE_SOURCE}" "${f}")
        set(violations "${violations}\n  ${rel} includes ${path}")
      endif()
    endforeach()
  endforeach()
  set(violations "${violations}" PARENT_SCOPE)
endfunction()

# common/: math, handles and slot arrays, errors, validation, union-find. Nothing above it.
check("include/jounce/common/*.hpp;common/*.hpp;common/*.cpp" "${rooms_public_common};common/")
# collision/'s public headers: shapes and the tests on them, knowing nothing of bodies.
check("include/jounce/collision/*.hpp" "${rooms_public_collision}")
# dynamics' public headers: bodies, colliders, forces.
check("include/jounce/dynamics/*.hpp" "${rooms_public_dynamics}")
# contact's public headers: contacts, joints, islands, the resolver, events.
check("include/jounce/contact/*.hpp" "${rooms_public_contact}")
# collision/'s sources: its own private headers and the public records of the rooms
# below the world (its stages read bodies and colliders and write sensor overlaps);
# never physics/ internals, never contact/'s private headers.
check("collision/*.hpp;collision/*.cpp" "${rooms_public_contact};common/;collision/")
# contact/'s sources: the same, with contact/'s private headers; never collision/'s.
check("contact/*.hpp;contact/*.cpp" "${rooms_public_contact};common/;contact/")
# physics/dynamics/: bodies' own stages; no world, particles or deformables.
check("physics/dynamics/*.hpp;physics/dynamics/*.cpp" "${rooms_public_contact};common/;physics/dynamics/")

# <jounce/jounce.hpp> includes every public header.
file(STRINGS "${JOUNCE_SOURCE}/include/jounce/jounce.hpp" umbrella REGEX "^#include <jounce/")
file(GLOB_RECURSE headers RELATIVE "${JOUNCE_SOURCE}/include" "${JOUNCE_SOURCE}/include/jounce/*.hpp")
foreach(h IN LISTS headers)
  if(h STREQUAL "jounce/jounce.hpp")
    continue()
  endif()
  list(FIND umbrella "#include <${h}>" at)
  if(at EQUAL -1)
    set(violations "${violations}\n  include/jounce/jounce.hpp leaves out <${h}>")
  endif()
endforeach()

if(violations)
  message(FATAL_ERROR "layering: includes that run the wrong way (docs/architecture.md):${violations}")
endif()
list(LENGTH headers count)
message(STATUS "layering: every include runs one way; jounce.hpp includes all ${count} public headers")
