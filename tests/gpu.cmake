# OpenCL executor tests (built when SORTNET_WITH_OPENCL): the library test
# and the end-to-end `sortnet gpu` script (tests/cli_gpu.sh, picked up by the
# cli_*.sh glob). Both run on pocl in CI and skip (77) without a platform.
#
# test_gpu's sections run as four tests (test_gpu --part K): with a cold
# pocl kernel cache nearly all of its time is pocl building the generated
# kernels of parts 1-3, and as separate tests `ctest -j` builds them on all
# cores. Parts 1-3 wait for part 0, which builds the kernels every part
# uses (so they are built once, into pocl's cache); COST makes ctest start
# the long parts as early as it can, so the short tests fill in.
if(TARGET sn_gpu)
  sn_test(test_gpu LIBS sn_gpu TIMEOUT 900 ARGS --part 0)
  set_tests_properties(test_gpu PROPERTIES COST 2000)
  get_test_property(test_gpu ENVIRONMENT sn_gpu_test_env)
  foreach(part 1 2 3)
    add_test(NAME test_gpu_part${part} COMMAND test_gpu --part ${part})
    set_tests_properties(test_gpu_part${part} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900
      COST 1000 DEPENDS test_gpu ENVIRONMENT "${sn_gpu_test_env}")
  endforeach()
endif()

# gpu batch: codegen's OpenCL kernels built and run (few networks: each is
# one pocl build).
if(TARGET sn_gpu AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/test_batch.c)
  sn_test(test_batch LIBS sn_gpu TIMEOUT 600)
endif()

# The classic GPU sorts (gpu sort) against the stable reference, with a
# build whose kernels all carry a planted bug: two builds of sorts.cl.
if(TARGET sn_gpu)
  sn_test(test_sorts LIBS sn_gpu TIMEOUT 600)
endif()
# The platform and driver failures name the call and code (issue 36),
# injected at the listing calls; skips (77) without an OpenCL platform.
if(TARGET sn_gpu)
  sn_test(test_gpu_env LIBS sn_gpu)
endif()
# Every wrapped OpenCL call failing at each of its uses, in every operation
# of src/gpu: the message names the call and the error, nothing leaks.
if(TARGET sn_gpu)
  sn_test(test_gpu_calls LIBS sn_gpu TIMEOUT 600)
endif()
# The isolated run of a student's kernel failing around its device process.
if(TARGET sn_gpu)
  sn_test(test_gpu_isolate LIBS sn_gpu)
endif()
