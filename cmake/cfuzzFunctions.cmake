# cfuzz_add_fuzz_test(<name> SOURCES <file>... [SANITIZE address,undefined|none|thread|<list>]
#                     [LINK_LIBRARIES <lib>...] [NO_CTEST])
#
# Builds a fuzz target: the sources compiled with SanitizerCoverage instrumentation
# (-fsanitize=fuzzer-no-link) and the chosen sanitizers (default: address,undefined), linked
# with the cfuzz runtime. The target's source directory is baked in, so that the binary
# finds testdata/fuzz/<FuzzName>/ wherever it runs from. Unless NO_CTEST is given, the
# seed run (./<name>, like `go test`) is registered with ctest.
#
# Fuzz it with: cfuzz run $<TARGET_FILE:name>   (CFUZZ_EXECUTABLE holds cfuzz's path).
# Needs clang: SanitizerCoverage's options are clang's.
function(cfuzz_add_fuzz_test name)
  cmake_parse_arguments(ARG "NO_CTEST" "SANITIZE" "SOURCES;LINK_LIBRARIES" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "cfuzz_add_fuzz_test(${name}): no SOURCES given")
  endif()
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "cfuzz_add_fuzz_test(${name}) needs clang (SanitizerCoverage); "
                        "configure with -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang")
  endif()
  if(NOT DEFINED ARG_SANITIZE)
    set(ARG_SANITIZE "address,undefined")
  endif()
  set(flags -fsanitize=fuzzer-no-link)
  if(NOT ARG_SANITIZE STREQUAL "none" AND NOT ARG_SANITIZE STREQUAL "")
    list(APPEND flags "-fsanitize=${ARG_SANITIZE}")
  endif()

  set(srcdir_file "${CMAKE_CURRENT_BINARY_DIR}/${name}_cfuzz_srcdir.c")
  file(WRITE "${srcdir_file}.in"
       "const char* cfuzz_source_directory(void) { return \"${CMAKE_CURRENT_SOURCE_DIR}\"; }\n")
  configure_file("${srcdir_file}.in" "${srcdir_file}" COPYONLY)

  add_executable(${name} ${ARG_SOURCES} "${srcdir_file}")
  target_compile_options(${name} PRIVATE ${flags})
  target_link_options(${name} PRIVATE ${flags})
  target_compile_features(${name} PRIVATE cxx_std_20)
  target_link_libraries(${name} PRIVATE cfuzz::runtime ${ARG_LINK_LIBRARIES})
  # Without a sanitizer that intercepts memcmp & co., cfuzz's interceptors feed the
  # comparison hooks instead.
  if(NOT ARG_SANITIZE MATCHES "address|thread|memory|dataflow")
    target_link_libraries(${name} PRIVATE cfuzz::interceptors)
  endif()
  if(NOT ARG_NO_CTEST)
    add_test(NAME ${name} COMMAND ${name})
  endif()
endfunction()
