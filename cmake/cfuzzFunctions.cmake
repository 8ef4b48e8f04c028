# cfuzz_add_fuzz_test(<name> [SOURCES] <file>... [SANITIZE address,undefined|none|thread|<list>]
#                     [LINK_LIBRARIES <lib>...] [GTEST] [NO_CTEST])
#
# Builds a fuzz target: the sources compiled with SanitizerCoverage instrumentation
# (-fsanitize=fuzzer-no-link) and the chosen sanitizers (default: address,undefined), linked
# with the cfuzz runtime. The target's source directory is baked in, so that the binary
# finds testdata/fuzz/<FuzzName>/ wherever it runs from. Unless NO_CTEST is given, the
# seed run (./<name>, like `go test`) is registered with ctest.
#
# GTEST: the sources are a GoogleTest binary (TESTs next to CFUZZ_TESTs, no main of their
# own). It is linked with cfuzz's GoogleTest main, which makes each fuzz test's seed run the
# test CfuzzSeeds.<FuzzName>, and its tests are registered with gtest_discover_tests. It
# needs find_package(GTest) first.
#
# Libraries the fuzz test exercises are instrumented with cfuzz_instrument(<target>), with
# the same SANITIZE choice, so that their code guides fuzzing too.
#
# Fuzz it with: cfuzz run $<TARGET_FILE:name>   (CFUZZ_EXECUTABLE holds cfuzz's path).
# Needs clang: SanitizerCoverage's options are clang's.

# Sanitizers that intercept memcmp & co. and call cfuzz's comparison hooks themselves; with
# none of them, cfuzz's own interceptors are linked. The compiler wrapper
# (cmd/cfuzz-clang.in) is configured from the same list.
set(CFUZZ_INTERCEPTING_SANITIZERS address hwaddress thread memory dataflow)

function(_cfuzz_flags out sanitize)
  set(flags -fsanitize=fuzzer-no-link)
  if(NOT sanitize STREQUAL "none" AND NOT sanitize STREQUAL "")
    list(APPEND flags "-fsanitize=${sanitize}")
  endif()
  set(${out} ${flags} PARENT_SCOPE)
endfunction()

function(_cfuzz_require_clang what)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "${what} needs clang (SanitizerCoverage); "
                        "configure with -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang")
  endif()
endfunction()

# cfuzz_instrument(<target> [SANITIZE <list>]): compile an existing library target with
# coverage instrumentation (and sanitizers) for fuzzing.
function(cfuzz_instrument target)
  cmake_parse_arguments(ARG "" "SANITIZE" "" ${ARGN})
  _cfuzz_require_clang("cfuzz_instrument(${target})")
  if(NOT DEFINED ARG_SANITIZE)
    set(ARG_SANITIZE "address,undefined")
  endif()
  _cfuzz_flags(flags "${ARG_SANITIZE}")
  target_compile_options(${target} PRIVATE ${flags})
endfunction()

function(cfuzz_add_fuzz_test name)
  cmake_parse_arguments(ARG "NO_CTEST;GTEST" "SANITIZE" "SOURCES;LINK_LIBRARIES" ${ARGN})
  list(APPEND ARG_SOURCES ${ARG_UNPARSED_ARGUMENTS})  # the SOURCES keyword is optional
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "cfuzz_add_fuzz_test(${name}): no sources given")
  endif()
  _cfuzz_require_clang("cfuzz_add_fuzz_test(${name})")
  if(NOT DEFINED ARG_SANITIZE)
    set(ARG_SANITIZE "address,undefined")
  endif()
  _cfuzz_flags(flags "${ARG_SANITIZE}")

  # C++, not C: a project may not enable C at all (project(x LANGUAGES CXX)).
  set(srcdir_file "${CMAKE_CURRENT_BINARY_DIR}/${name}_cfuzz_srcdir.cc")
  file(WRITE "${srcdir_file}.in"
       "extern \"C\" const char* cfuzz_source_directory(void) { return \"${CMAKE_CURRENT_SOURCE_DIR}\"; }\n")
  configure_file("${srcdir_file}.in" "${srcdir_file}" COPYONLY)

  add_executable(${name} ${ARG_SOURCES} "${srcdir_file}")
  target_compile_options(${name} PRIVATE ${flags})
  target_link_options(${name} PRIVATE ${flags})
  target_compile_features(${name} PRIVATE cxx_std_20)
  if(ARG_GTEST)
    if(NOT TARGET cfuzz::gtest_main)
      message(FATAL_ERROR "cfuzz_add_fuzz_test(${name} GTEST): cfuzz was built without GoogleTest "
                          "(cfuzz::gtest_main is missing); install libgtest-dev and rebuild cfuzz")
    endif()
    # Before the runtime: its main() replaces the runtime's.
    target_link_libraries(${name} PRIVATE cfuzz::gtest_main)
  endif()
  target_link_libraries(${name} PRIVATE cfuzz::runtime ${ARG_LINK_LIBRARIES})
  # Without a sanitizer that intercepts memcmp & co., cfuzz's interceptors feed the
  # comparison hooks instead.
  string(REPLACE "," ";" requested "${ARG_SANITIZE}")
  set(intercepted FALSE)
  foreach(s IN LISTS requested)
    if(s IN_LIST CFUZZ_INTERCEPTING_SANITIZERS)
      set(intercepted TRUE)
    endif()
  endforeach()
  if(NOT intercepted)
    target_link_libraries(${name} PRIVATE cfuzz::interceptors)
  endif()
  if(NOT ARG_NO_CTEST)
    if(ARG_GTEST)
      include(GoogleTest)
      gtest_discover_tests(${name})
    else()
      add_test(NAME ${name} COMMAND ${name})
    endif()
  endif()
endfunction()
