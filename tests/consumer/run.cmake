# SPDX-License-Identifier: MIT
# Configures, builds and runs tests/consumer as a game would, in one of two modes:
#   MODE=subdirectory  the game adds Jounce's source with add_subdirectory (configured,
#                      and the game's own file compiled; see below)
#   MODE=package       Jounce is installed from JOUNCE_BINARY, the game uses find_package
# Extra: CONSUMER_FLAGS (e.g. sanitizer flags matching the installed library); GAME, the
# game's directory and program (default: this directory's tiny_game).
set(src ${CMAKE_CURRENT_LIST_DIR})
set(program tiny_game)
if(GAME)
  set(src ${CMAKE_CURRENT_LIST_DIR}/${GAME})
  set(program ${GAME}_game)
endif()
file(REMOVE_RECURSE ${WORK})
set(args -S ${src} -B ${WORK}/build)
if(MODE STREQUAL "subdirectory")
  # The game compiles Jounce's sources itself. This test configures that project and
  # compiles the game's own file against the jounce::jounce target it gets (its include
  # directories, definitions and C++ level), but does not compile the library again:
  # CI's two builds do, and a third compile here took 3-4 minutes of CI's 30.
  # Makefiles, for their per-object target.
  list(APPEND args -G "Unix Makefiles" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0)
else()
  # A unity build, as many games use.
  list(APPEND args -DCMAKE_UNITY_BUILD=ON -DCMAKE_BUILD_TYPE=Release)
endif()
if(CONSUMER_FLAGS)
  list(APPEND args "-DCMAKE_CXX_FLAGS=${CONSUMER_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${CONSUMER_FLAGS}")
endif()
if(MODE STREQUAL "subdirectory")
  list(APPEND args -DJOUNCE_SOURCE=${JOUNCE_SOURCE})
else()
  execute_process(COMMAND ${CMAKE_COMMAND} --install ${JOUNCE_BINARY} --prefix ${WORK}/prefix
                  RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "cmake --install failed: ${rc}")
  endif()
  # The installed package carries its licence (MIT).
  if(NOT EXISTS ${WORK}/prefix/share/licenses/jounce/LICENSE)
    message(FATAL_ERROR "the installed package has no share/licenses/jounce/LICENSE")
  endif()
  list(APPEND args -DCMAKE_PREFIX_PATH=${WORK}/prefix)
endif()
foreach(step IN ITEMS configure build run)
  if(step STREQUAL "configure")
    set(cmd ${CMAKE_COMMAND} ${args})
  elseif(step STREQUAL "build")
    set(cmd ${CMAKE_COMMAND} --build ${WORK}/build -j2)
    if(MODE STREQUAL "subdirectory")
      set(cmd ${CMAKE_COMMAND} --build ${WORK}/build --target main.cpp.o)
    endif()
  elseif(MODE STREQUAL "subdirectory")
    if(NOT EXISTS ${WORK}/build/CMakeFiles/${program}.dir/main.cpp.o)
      message(FATAL_ERROR "consumer subdirectory: the game's main.cpp was not compiled")
    endif()
    break()
  else()
    set(cmd ${WORK}/build/${program})
  endif()
  execute_process(COMMAND ${cmd} RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "consumer ${MODE}: ${step} failed (${rc})")
  endif()
endforeach()
