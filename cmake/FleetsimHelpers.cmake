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
  endif()
endfunction()

# The libraries that read untrusted input: with FLEETSIM_FUZZ they get libFuzzer's coverage
# instrumentation (tests/fuzz). The others (engine, simulation, policies, metrics...) do not, so
# the rest of the suite in the same build runs at plain sanitizer speed.
set(FLEETSIM_FUZZED_LIBRARIES core json fleet workload trace scenario fill report sweep plan)

# fleetsim_add_library(NAME SOURCES ... [PUBLIC_DEPS ...] [PRIVATE_DEPS ...])
# Creates fleetsim_NAME with the alias fleetsim::NAME.
function(fleetsim_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(fleetsim_${name} STATIC ${ARG_SOURCES})
  add_library(fleetsim::${name} ALIAS fleetsim_${name})
  target_include_directories(fleetsim_${name}
    PUBLIC "${PROJECT_SOURCE_DIR}/include" "${PROJECT_BINARY_DIR}/include"
    PRIVATE "${PROJECT_SOURCE_DIR}/src")
  target_link_libraries(fleetsim_${name} PUBLIC ${ARG_PUBLIC_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
  fleetsim_apply_common(fleetsim_${name})
  if(FLEETSIM_FUZZ AND name IN_LIST FLEETSIM_FUZZED_LIBRARIES)
    target_compile_options(fleetsim_${name} PRIVATE -fsanitize=fuzzer-no-link)
  endif()
endfunction()

# fleetsim_add_executable(NAME SOURCES ... DEPS ...)
function(fleetsim_add_executable name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_include_directories(${name} PRIVATE "${PROJECT_SOURCE_DIR}/src")
  target_link_libraries(${name} PRIVATE ${ARG_DEPS})
  fleetsim_apply_common(${name})
endfunction()

# fleetsim_add_test(NAME SOURCES ... DEPS ... [LABELS ...])
# A GoogleTest executable whose tests are registered individually with CTest.
function(fleetsim_add_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_include_directories(${name} PRIVATE "${PROJECT_SOURCE_DIR}/src" "${PROJECT_SOURCE_DIR}/tests")
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main)
  target_compile_definitions(${name} PRIVATE
    FLEETSIM_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    FLEETSIM_CLI_PATH="$<TARGET_FILE:fleetsim>")
  fleetsim_apply_common(${name})
  include(GoogleTest)
  gtest_discover_tests(${name} PROPERTIES LABELS "${ARG_LABELS}" DISCOVERY_TIMEOUT 60)
endfunction()
