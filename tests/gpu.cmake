# OpenCL executor tests (built when SORTNET_WITH_OPENCL): the library tests
# (test_gpu*, test_batch, test_sorts) and the end-to-end `sortnet gpu`
# scripts (tests/cli_gpu*.sh, picked up by the cli_*.sh glob). All run on
# pocl in CI and skip (77) only without any OpenCL platform.
#
# Where the time goes with a cold pocl kernel cache (docs/testing.md):
# pocl compiles each program once per source and options, and then each
# kernel once per work-group size it is launched with (3-10 s each on the
# 2-core machine); the fused variants' sweep (test_gpu parts 1 and 3)
# launches some 60 such kernels of the interpreting fused program. So:
# - parts 1 and 3 have pocl compile without optimization
#   (POCL_EXTRA_BUILD_FLAGS=-cl-opt-disable): part 1 took 31 s instead of
#   223 on a cold cache, with the same kernels, variants and checks on
#   arrays small enough that unoptimized kernels run fast. Not the others:
#   part 0's large arrays and test_sorts' sorts ran several times slower
#   unoptimized, and pocl 3.1 crashed (SIGSEGV) running part 2's generated
#   kernels built so. Everything else builds at pocl's defaults, as a
#   user's machine does;
# - every stage of tools/setup.sh test shares one pocl cache, so the
#   sanitizer and coverage passes reuse the first pass's builds;
# - test_gpu's sections run as four tests (test_gpu --part K), which
#   `ctest -j` spreads over the cores. Parts 1-3 wait for part 0, which
#   builds the programs every part uses (so they are built once); COST
#   makes ctest start them first, so the short tests fill in around them.
# Timeouts are hang guards only: an hour, far above a cold cache on a
# loaded machine (part 1 took over 15 minutes there before its builds were
# made cheaper).
if(TARGET sn_gpu)
  sn_test(test_gpu LIBS sn_gpu TIMEOUT 3600 ARGS --part 0)
  set_tests_properties(test_gpu PROPERTIES COST 2000)
  get_test_property(test_gpu ENVIRONMENT sn_gpu_test_env)
  foreach(part 1 2 3)
    set(env "${sn_gpu_test_env}")
    if(NOT part EQUAL 2)
      # (and pocl's leak when it builds so is suppressed for these two)
      list(TRANSFORM env REPLACE "^LSAN_OPTIONS=.*$"
           "LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_SOURCE_DIR}/lsan_pocl_build_flags.supp")
      list(APPEND env "POCL_EXTRA_BUILD_FLAGS=-cl-opt-disable")
    endif()
    add_test(NAME test_gpu_part${part} COMMAND ${SN_TEST_LAUNCHER} $<TARGET_FILE:test_gpu> --part ${part})
    sn_one_core(test_gpu_part${part})
    set_tests_properties(test_gpu_part${part} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 3600
      COST 1000 DEPENDS test_gpu ENVIRONMENT "${env}")
  endforeach()
  # The end-to-end OpenCL scripts build the same programs as part 0 (at
  # pocl's defaults): run after it, they find them in pocl's cache. Started
  # beside it on a cold cache, cli_gpu took 110 s instead of 76.
  foreach(t IN ITEMS cli_gpu cli_gpu_sort cli_gpu_fail cli_gpu_fail_calls cli_gpu_fail_paths
                 cli_gpu_oom cli_gpu_knobs cli_codegen)
    if(TEST ${t})
      set_tests_properties(${t} PROPERTIES DEPENDS test_gpu)
    endif()
  endforeach()
endif()

# gpu batch: codegen's OpenCL kernels built and run (few networks: each is
# one pocl build).
if(TARGET sn_gpu AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/test_batch.c)
  sn_test(test_batch LIBS sn_gpu TIMEOUT 3600)
endif()

# The classic GPU sorts (gpu sort) against the stable reference, with a
# build whose kernels all carry a planted bug: two builds of sorts.cl.
if(TARGET sn_gpu)
  sn_test(test_sorts LIBS sn_gpu TIMEOUT 3600)
endif()
# The platform and driver failures name the call and code (issue 36),
# injected at the listing calls; skips (77) without an OpenCL platform.
if(TARGET sn_gpu)
  sn_test(test_gpu_env LIBS sn_gpu)
endif()
# Every wrapped OpenCL call failing at each of its uses, in every operation
# of src/gpu: the message names the call and the error, nothing leaks.
if(TARGET sn_gpu)
  sn_test(test_gpu_calls LIBS sn_gpu TIMEOUT 3600)
endif()
# The isolated run of a student's kernel failing around its device process.
if(TARGET sn_gpu)
  sn_test(test_gpu_isolate LIBS sn_gpu)
endif()
