# OpenCL executor tests (built when SORTNET_WITH_OPENCL): the library test
# and the end-to-end `sortnet gpu` script (tests/cli_gpu.sh, picked up by the
# cli_*.sh glob). Both run on pocl in CI and skip (77) without a platform.
if(TARGET sn_gpu)
  sn_test(test_gpu LIBS sn_gpu TIMEOUT 900)
endif()
