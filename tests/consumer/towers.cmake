# SPDX-License-Identifier: MIT
# Builds the towers game (examples/towers/) as a player would: Jounce installed from
# JOUNCE_BINARY (already built: nothing of the library is compiled again), the game's own
# CMakeLists with find_package(jounce), warnings as errors. Then plays it headless:
#   towers --autoplay 600             scripted throws: some boxes must be knocked off
#   towers --autoplay 600 --no-throw  nobody throws: the towers must stand (score 0)
#   towers --autoplay 600 --no-throw --walk   the hero (a jounce::Character) walks up the
#                                     ramp into the left tower: some boxes must fall off
#   xvfb-run towers --frames 60 --walk --debug-draw   and the physics drawn through debugDraw
#   xvfb-run towers --frames 60       the window and GL path (when XVFB_RUN is given)
# Each run must also exit 0 (the world stayed finite).
# Extra: CONSUMER_FLAGS (e.g. sanitizer flags matching the installed library).
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${JOUNCE_BINARY} --prefix ${WORK}/prefix
                OUTPUT_QUIET RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "cmake --install failed: ${rc}")
endif()
set(args -S ${JOUNCE_SOURCE}/examples/towers -B ${WORK}/build -DCMAKE_BUILD_TYPE=Release
         -DCMAKE_PREFIX_PATH=${WORK}/prefix -DCMAKE_COMPILE_WARNING_AS_ERROR=ON)
if(CONSUMER_FLAGS)
  list(APPEND args "-DCMAKE_CXX_FLAGS=${CONSUMER_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${CONSUMER_FLAGS}")
endif()
foreach(cmd IN ITEMS "${CMAKE_COMMAND};${args}" "${CMAKE_COMMAND};--build;${WORK}/build;-j2")
  execute_process(COMMAND ${cmd} RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "towers: '${cmd}' failed (${rc})")
  endif()
endforeach()

# play(<output variable for the score> <towers arguments>...)
function(play score_var)
  execute_process(COMMAND ${launcher} ${WORK}/build/towers ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  list(JOIN ARGN " " shown)
  message(STATUS "towers ${shown}: ${out}")
  if(rc OR NOT out MATCHES "score ([0-9]+) of")
    message(FATAL_ERROR "towers ${shown} failed (${rc}): ${out}")
  endif()
  set(${score_var} ${CMAKE_MATCH_1} PARENT_SCOPE)
endfunction()

play(thrown --autoplay 600)
if(thrown EQUAL 0)
  message(FATAL_ERROR "towers: ten scripted throws knocked no box off")
endif()
play(still --autoplay 600 --no-throw)
if(NOT still EQUAL 0)
  message(FATAL_ERROR "towers: with no throws ${still} boxes fell off (the towers must stand)")
endif()
play(walked --autoplay 600 --no-throw --walk)
if(walked EQUAL 0)
  message(FATAL_ERROR "towers: the hero walked up the ramp into the left tower and knocked no box off")
endif()
if(XVFB_RUN)
  set(launcher ${XVFB_RUN} -a -s "-screen 0 1280x720x24")
  play(windowed --frames 60)
  play(drawn --frames 60 --walk --debug-draw)
endif()
