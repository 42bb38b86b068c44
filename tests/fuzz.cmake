# Fuzzing (issue 8): libFuzzer targets for every reader, built only with
# -DSORTNET_FUZZ=ON and clang. Each tests/fuzz/fuzz_<t>.c is one target,
# linked against its own copy of the core compiled with coverage
# instrumentation (-fsanitize=fuzzer-no-link), AddressSanitizer and UBSan;
# the normal sn_core and every other target stay as configured.
#
# As CTest tests, each target runs once over its seed corpus
# (tests/fuzz/corpus/<t>/) and its regressions (tests/fuzz/regressions/<t>/,
# every crash ever found) without fuzzing. tools/fuzz.sh does the timed
# fuzzing runs.
option(SORTNET_FUZZ "Build the libFuzzer targets (clang only)" OFF)
if(NOT SORTNET_FUZZ)
  return()
endif()
if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "SORTNET_FUZZ=ON needs clang (configure with CC=clang)")
endif()

set(SN_FUZZ_DIR ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
set(SN_FUZZ_CFLAGS -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
                   -fno-omit-frame-pointer)
set(SN_FUZZ_LDFLAGS -fsanitize=fuzzer,address,undefined)

file(GLOB SN_FUZZ_CORE_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/core/*.c)
add_library(sn_core_fuzz STATIC ${SN_FUZZ_CORE_SOURCES})
target_include_directories(sn_core_fuzz PUBLIC ${PROJECT_SOURCE_DIR}/src)
target_compile_definitions(sn_core_fuzz PUBLIC _POSIX_C_SOURCE=200809L)
target_compile_options(sn_core_fuzz PRIVATE ${SN_FUZZ_CFLAGS})
target_link_libraries(sn_core_fuzz PUBLIC sn_library_data Threads::Threads m)
if(SORTNET_WITH_JANSSON)
  target_compile_definitions(sn_core_fuzz PUBLIC SN_HAVE_JANSSON=1)
  target_link_libraries(sn_core_fuzz PUBLIC PkgConfig::JANSSON)
endif()

# What a view links with: edit mode, its verdict and race, its dist:
# picture (whose frame half draws on the frame's scene), the group, and
# render's cairo-free half (layout, palette, the scene). No SDL or cairo.
set(SN_FUZZ_VIEW_SOURCES)
foreach(f edit.c verdict.c race.c dist_view.c dist_frame.c frame_build.c frame_scene.c group.c)
  list(APPEND SN_FUZZ_VIEW_SOURCES ${PROJECT_SOURCE_DIR}/src/session/${f})
endforeach()
foreach(f layout.c palette.c scene.c diagram.c dist_blocks.c dist_scene.c)
  list(APPEND SN_FUZZ_VIEW_SOURCES ${PROJECT_SOURCE_DIR}/src/render/${f})
endforeach()

file(GLOB SN_FUZZ_TARGETS CONFIGURE_DEPENDS ${SN_FUZZ_DIR}/fuzz_*.c)
foreach(src IN LISTS SN_FUZZ_TARGETS)
  get_filename_component(name ${src} NAME_WE)
  string(REGEX REPLACE "^fuzz_" "" target ${name})
  set(extra_sources)
  set(extra_includes)
  if(target STREQUAL "script")
    # The session's view state machine (src/session/view.c) is pure C over the core
    # and the theme table (render/palette.c): no SDL or cairo needed.
    # Skipped when the session is absent.
    set(extra_sources ${PROJECT_SOURCE_DIR}/src/session/view.c
                      ${PROJECT_SOURCE_DIR}/src/session/script.c
                      ${SN_FUZZ_VIEW_SOURCES})
    if(NOT EXISTS ${PROJECT_SOURCE_DIR}/src/session/view.c
       OR NOT EXISTS ${PROJECT_SOURCE_DIR}/src/session/script.c)
      continue()
    endif()
    set(extra_includes ${PROJECT_SOURCE_DIR}/src)
  elseif(target STREQUAL "lesson")
    # The lesson parser with what it links against (the steps' player, the
    # view state machine under it, the script parser): no SDL or cairo.
    set(extra_sources ${PROJECT_SOURCE_DIR}/src/session/lesson.c
                      ${PROJECT_SOURCE_DIR}/src/session/view.c
                      ${PROJECT_SOURCE_DIR}/src/session/script.c
                      ${SN_FUZZ_VIEW_SOURCES})
    if(NOT EXISTS ${PROJECT_SOURCE_DIR}/src/session/lesson.c)
      continue()
    endif()
    set(extra_includes ${PROJECT_SOURCE_DIR}/src)
  elseif(target STREQUAL "dist")
    # the "dist:P[xK][,NET]" names and the merge-split values (core only)
    set(extra_sources ${PROJECT_SOURCE_DIR}/src/render/dist_blocks.c)
  elseif(target STREQUAL "gpu_plan")
    # the page's GPU plan (src/web/gpu_plan.c, core only)
    set(extra_sources ${PROJECT_SOURCE_DIR}/src/web/gpu_plan.c)
    if(NOT EXISTS ${PROJECT_SOURCE_DIR}/src/web/gpu_plan.c)
      continue()
    endif()
  elseif(target STREQUAL "answer")
    # The page's verdict answers (src/web/verdict_web.c, core only).
    set(extra_sources ${PROJECT_SOURCE_DIR}/src/web/verdict_web.c)
    if(NOT EXISTS ${PROJECT_SOURCE_DIR}/src/web/verdict_web.c)
      continue()
    endif()
    set(extra_includes ${PROJECT_SOURCE_DIR}/src)
  endif()
  add_executable(${name} ${src} ${extra_sources})
  target_include_directories(${name} PRIVATE ${SN_FUZZ_DIR} ${extra_includes})
  target_compile_options(${name} PRIVATE ${SN_FUZZ_CFLAGS})
  target_link_options(${name} PRIVATE ${SN_FUZZ_LDFLAGS})
  target_link_libraries(${name} PRIVATE sn_core_fuzz)

  set(dirs)
  foreach(d corpus/${target} regressions/${target})
    if(IS_DIRECTORY ${SN_FUZZ_DIR}/${d})
      list(APPEND dirs ${SN_FUZZ_DIR}/${d})
    endif()
  endforeach()
  if(dirs)
    # -runs=0: execute every file once, no fuzzing, corpus left untouched;
    # an input slower than 30 s or over 2 GB fails like a crash.
    add_test(NAME ${name}_corpus
             COMMAND ${name} -runs=0 -timeout=30 -rss_limit_mb=2048 ${dirs})
    set_tests_properties(${name}_corpus PROPERTIES TIMEOUT 300
      ENVIRONMENT "ASAN_OPTIONS=detect_leaks=1;UBSAN_OPTIONS=print_stacktrace=1")
  endif()
endforeach()
