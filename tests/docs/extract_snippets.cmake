# SPDX-License-Identifier: MIT
# Turns the C++ snippets of a Markdown page into one C++ file, so the page's examples are
# compiled (and run) by a test and cannot drift from the API. Run as
#   cmake -DIN=page.md -DOUT=snippets.cpp -P extract_snippets.cmake
# The convention (also stated at the top of docs/integration.md):
#   ```cpp         the body of a function, called by main() in page order
#   ```cpp norun   the body of a function that is compiled but never called
#   ```cpp file    placed as is at namespace scope (types and functions later snippets use)
#   other fences   (cmake, sh, json, none) are skipped
# Everything lands in namespace `snippets`, in page order, after integration_prelude.hpp
# (the names a snippet may use without declaring them). #include lines are moved to the
# top of the file. #line directives make a compile error name the page's own line.

file(READ ${IN} text)
# Split into lines. CMake lists split on ';' but not inside [ ], so both are swapped for
# placeholders first and swapped back when a line is written out.
string(REPLACE ";" "@SEMI@" text "${text}")
string(REPLACE "[" "@LB@" text "${text}")
string(REPLACE "]" "@RB@" text "${text}")
string(REPLACE "\n" ";" lines "${text}")

set(includes "")
set(body "")
set(calls "")
set(kind "")         # inside a cpp fence: "run", "norun" or "file"; outside: empty
set(number 0)
foreach(line IN LISTS lines)
  math(EXPR number "${number} + 1")
  string(REPLACE "@SEMI@" ";" line "${line}")
  string(REPLACE "@LB@" "[" line "${line}")
  string(REPLACE "@RB@" "]" line "${line}")
  if(kind STREQUAL "" AND line MATCHES "^```cpp( (norun|file))?[ ]*$")
    set(kind run)
    if(CMAKE_MATCH_2)
      set(kind ${CMAKE_MATCH_2})
    endif()
    math(EXPR first "${number} + 1")
    if(NOT kind STREQUAL "file")
      string(APPEND body "void snippet_${first}() {\n")
      if(kind STREQUAL "run")
        string(APPEND calls "    run(${first}, snippet_${first});\n")
      endif()
    endif()
    string(APPEND body "#line ${first} \"${IN}\"\n")
  elseif(NOT kind STREQUAL "" AND line MATCHES "^```")
    if(NOT kind STREQUAL "file")
      string(APPEND body "}\n")
    endif()
    set(kind "")
  elseif(NOT kind STREQUAL "" AND line MATCHES "^[ ]*#include")
    string(APPEND includes "${line}\n")
    string(APPEND body "\n") # keeps the #line numbering
  elseif(NOT kind STREQUAL "")
    string(APPEND body "${line}\n")
  endif()
endforeach()
if(NOT kind STREQUAL "")
  message(FATAL_ERROR "${IN}: a ```cpp fence is not closed")
endif()

file(WRITE ${OUT}.tmp "// Generated from ${IN} by extract_snippets.cmake: edit the page, not this file.
${includes}#include \"integration_prelude.hpp\"

namespace snippets {
${body}} // namespace snippets

int main() {
    using namespace snippets;
${calls}    return snippets::failures == 0 ? 0 : 1;
}
")
# Only a changed file is rewritten, so an unrelated edit of the page rebuilds nothing.
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
