# SPDX-License-Identifier: MIT
# Configures, builds and runs tests/consumer as a game would, in one of two modes:
#   MODE=subdirectory  the game adds Jounce's source with add_subdirectory
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
# A unity build, as many games use: it also shows that Jounce's sources build that way,
# and it compiles the library in a third of the time (CI must finish in 30 minutes).
set(args -S ${src} -B ${WORK}/build -DCMAKE_UNITY_BUILD=ON)
if(MODE STREQUAL "subdirectory")
  # The game compiles Jounce's sources itself: in Debug here, unoptimised and without
  # debug info (the library must build that way too, and -O0 compiles in half the time).
  list(APPEND args -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0)
else()
  list(APPEND args -DCMAKE_BUILD_TYPE=Release)
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
  else()
    set(cmd ${WORK}/build/${program})
  endif()
  execute_process(COMMAND ${cmd} RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "consumer ${MODE}: ${step} failed (${rc})")
  endif()
endforeach()
