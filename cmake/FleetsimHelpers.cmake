# One helper per kind of target, so every library, executable and test gets the same warnings,
# sanitizer and include settings. Dependencies are always explicit at the call site.

set(FLEETSIM_WARNINGS
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wold-style-cast
    -Wnon-virtual-dtor -Woverloaded-virtual -Wcast-align -Wdouble-promotion
    -Wimplicit-fallthrough -Wformat=2
    # GCC 12 reports false positives in libstdc++ string code at -O2 (GCC bug 105329), and
    # "may be used uninitialized" for the vectors inside a std::variant alternative that is not
    # the one being moved (seen at -O3 on a vector of policy decisions).
    $<$<AND:$<CXX_COMPILER_ID:GNU>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>>:-Wno-restrict>
    $<$<AND:$<CXX_COMPILER_ID:GNU>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>>:-Wno-maybe-uninitialized>)

function(fleetsim_apply_common target)
  target_compile_options(${target} PRIVATE ${FLEETSIM_WARNINGS})
  if(FLEETSIM_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(FLEETSIM_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-sanitize-recover=all
                                             -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
    # Lets code tell a sanitized build (GCC and clang spell the built-in test differently).
    target_compile_definitions(${target} PRIVATE FLEETSIM_SANITIZED=1)
  endif()
  if(FLEETSIM_TSAN)
    target_compile_options(${target} PRIVATE -fsanitize=thread -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=thread)
    target_compile_definitions(${target} PRIVATE FLEETSIM_SANITIZED=1)
  endif()
endfunction()

# The test executables' own files are compiled without optimization, whatever the build type:
# they are glue around the code under test, which keeps the build's optimization (so does
# tests/testutil, whose JSON Schema validator and trace readers tests run over large inputs), and
# they are half of what CI compiles. (Inline and template code that a test file and a library
# both instantiate, nlohmann/json's or the standard library's, may be linked from the test
# file's unoptimized copy; the measurements below include that.) Measured on single files: clang 14 with ASan + UBSan
# compiles a test file in 6 s at -O0 against 11 s at -O1, GCC 12 in 7 s at -O0 against 11.5 s at
# -O3; the two slowest ASan tests (PlanSearchTest, ScenarioSchemaTest) ran as long with their
# test file at -O0 as at -O1 (50 s and 42.5 s against 53 s and 41.5 s). Precompiled headers were
# tried too: they saved 5 % and were not kept.
function(fleetsim_compile_test_code target)
  target_compile_options(${target} PRIVATE -O0)
endfunction()

# The libraries that read untrusted input: with FLEETSIM_FUZZ they get libFuzzer's coverage
# instrumentation (tests/fuzz). The others (engine, simulation, policies, metrics...) do not, so
# the rest of the suite in the same build runs at plain sanitizer speed.
set(FLEETSIM_FUZZED_LIBRARIES core json text job_json fleet workload trace scenario fill report sweep
    plan)

# fleetsim_module_include_dir(NAME OUT_VAR)
# The include directory that shows module NAME's headers in src/NAME/, and nothing else, as
# "NAME/header.h": a build-tree folder holding one symbolic link, NAME -> src/NAME. A library sees
# its own folder this way, and a module's private headers stay out of every other module's reach
# (the compiler, not a review, refuses `#include "trace/fields.h"` outside trace). The link is
# made afresh at every configure, so it always points at this source tree.
function(fleetsim_module_include_dir name out_var)
  set(dir "${PROJECT_BINARY_DIR}/module_include/${name}")
  file(MAKE_DIRECTORY "${dir}")
  file(REMOVE "${dir}/${name}")
  file(CREATE_LINK "${PROJECT_SOURCE_DIR}/src/${name}" "${dir}/${name}" SYMBOLIC)
  set(${out_var} "${dir}" PARENT_SCOPE)
endfunction()

# fleetsim_add_library(NAME SOURCES ... [PUBLIC_DEPS ...] [PRIVATE_DEPS ...] [INTERNAL])
# Creates fleetsim_NAME with the alias fleetsim::NAME. Every library sees the public headers
# (include/fleetsim/<module>/) and its own src/NAME/ folder. An INTERNAL library (json, milp,
# text, job_json) has no public headers: the headers in its src/ folder are its interface, shown
# to the libraries that link it.
function(fleetsim_add_library name)
  cmake_parse_arguments(ARG "INTERNAL" "" "SOURCES;PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(fleetsim_${name} STATIC ${ARG_SOURCES})
  add_library(fleetsim::${name} ALIAS fleetsim_${name})
  fleetsim_module_include_dir(${name} module_dir)
  if(ARG_INTERNAL)
    set(module_scope PUBLIC)
  else()
    set(module_scope PRIVATE)
  endif()
  target_include_directories(fleetsim_${name}
    PUBLIC "${PROJECT_SOURCE_DIR}/include" "${PROJECT_BINARY_DIR}/include"
    ${module_scope} "${module_dir}")
  target_link_libraries(fleetsim_${name} PUBLIC ${ARG_PUBLIC_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
  fleetsim_apply_common(fleetsim_${name})
  if(FLEETSIM_FUZZ AND name IN_LIST FLEETSIM_FUZZED_LIBRARIES)
    target_compile_options(fleetsim_${name} PRIVATE -fsanitize=fuzzer-no-link)
  endif()
endfunction()

# fleetsim_add_executable(NAME SOURCES ... DEPS ... [MODULE M])
# An executable on the public headers of its DEPS; with MODULE it is part of module M (the
# fleetsim command's main.cc is part of cli) and also sees M's private headers.
function(fleetsim_add_executable name)
  cmake_parse_arguments(ARG "" "MODULE" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  if(ARG_MODULE)
    fleetsim_module_include_dir(${ARG_MODULE} module_dir)
    target_include_directories(${name} PRIVATE "${module_dir}")
  endif()
  target_link_libraries(${name} PRIVATE ${ARG_DEPS})
  fleetsim_apply_common(${name})
endfunction()

# fleetsim_add_test(NAME SOURCES ... DEPS ... [LABELS ...])
# A GoogleTest executable whose tests are registered individually with CTest. Tests see every
# module's private headers (src/), to test the internals their module keeps to itself.
function(fleetsim_add_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_include_directories(${name} PRIVATE "${PROJECT_SOURCE_DIR}/src" "${PROJECT_SOURCE_DIR}/tests")
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main)
  target_compile_definitions(${name} PRIVATE
    FLEETSIM_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    FLEETSIM_CLI_PATH="$<TARGET_FILE:fleetsim>")
  fleetsim_apply_common(${name})
  fleetsim_compile_test_code(${name})
  include(GoogleTest)
  gtest_discover_tests(${name} PROPERTIES LABELS "${ARG_LABELS}" DISCOVERY_TIMEOUT 60)
endfunction()
