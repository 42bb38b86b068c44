# Core tests (libc only): each file tests/test_<module>.c is one executable.
foreach(t IN ITEMS test_network test_schedule test_exec test_format test_input test_analysis test_halo test_library
            test_construct test_transform test_parallel test_check_api test_oom test_search test_buffers
            test_format_errors test_schedule_edges
            test_codegen_edges test_input_edges test_check_edges test_search_oom test_exec_edges
            test_temp_file)
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${t}.c)
    sn_test(${t})
  endif()
endforeach()
file(GLOB SN_CLI_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/cli_*.sh)
# cli_dist.sh and cli_dist_check.sh run mpirun: only in a build with MPI
# (sortnet dist)
if(NOT TARGET sn_mpi)
  list(FILTER SN_CLI_TESTS EXCLUDE REGEX "cli_dist(_check|_io|_signals)?\\.sh$")
endif()
# A script that cannot apply to a kind of build is not registered there,
# rather than skipping (CI counts a skip as a failure): cli_bench without
# the bench programs; in a sanitizer build cli_valgrind (valgrind cannot run
# an ASan binary) and cli_gpu_env (ASan's shadow memory does not fit
# under its ulimit -v); in a coverage build cli_valgrind (the slow builds'
# samples, SN_SANITIZED=1, leave valgrind out). Each script still skips
# (77) there when run by hand.
if(NOT SORTNET_BUILD_BENCH)
  list(FILTER SN_CLI_TESTS EXCLUDE REGEX "cli_bench\\.sh$")
endif()
if(SORTNET_SANITIZE)
  list(FILTER SN_CLI_TESTS EXCLUDE REGEX "cli_(valgrind|gpu_env)\\.sh$")
endif()
if(SORTNET_COVERAGE)
  list(FILTER SN_CLI_TESTS EXCLUDE REGEX "cli_valgrind\\.sh$")
endif()
foreach(script IN LISTS SN_CLI_TESTS)
  get_filename_component(name ${script} NAME_WE)
  sn_shell_test(${name} ${name}.sh)
endforeach()
# cli_dist and cli_dist_check: about 40 and 30 mpirun jobs (the two took
# 9 minutes under ASan on 2 busy cores as one script)
if(TARGET sn_mpi)
  set_tests_properties(cli_dist cli_dist_check cli_dist_io cli_dist_signals PROPERTIES TIMEOUT 1500)
endif()
# Under AddressSanitizer sortnet itself carries tests/keep_loaded.c (a
# dlclose that does nothing, exported so that every library's calls land
# there): Open MPI's unloaded components otherwise leave LeakSanitizer
# frames it cannot name, which the MPI scripts could only match by
# unwinding every allocation fully (the longest part of the suite under
# ASan). With them kept, fast unwinding serves (tests/lib.sh, mpi_env).
if(SORTNET_SANITIZE MATCHES "address")
  target_sources(sortnet PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/keep_loaded.c)
  target_link_options(sortnet PRIVATE "LINKER:--export-dynamic-symbol=dlclose")
endif()

# test_codegen compiles the generated C with the project's C compiler.
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/test_codegen.c)
  sn_test(test_codegen)
  set_property(TEST test_codegen APPEND PROPERTY ENVIRONMENT "SN_CC=${CMAKE_C_COMPILER}")
endif()

# code_shape: the house rules on the shape of src/ (functions of at most 150
# lines, src/cli files of at most 500 and without cairo, no issue references,
# getenv in at most 3 places in src/gpu), measured by tools/code_shape.py.
find_program(SN_PYTHON3 python3)
if(SN_PYTHON3)
  add_test(NAME code_shape COMMAND ${SN_PYTHON3} ${PROJECT_SOURCE_DIR}/tools/code_shape.py
                                   ${PROJECT_SOURCE_DIR})
endif()

# The thread seam's rule on src/core's sources (docs/design.md, "Threads in one place").
add_test(NAME threads_in_one_place
         COMMAND ${CMAKE_COMMAND} -DROOT=${PROJECT_SOURCE_DIR} -P
                 ${CMAKE_CURRENT_SOURCE_DIR}/threads_in_one_place.cmake)

# No file of src/, tests/, tools/, docs/, CMakeLists.txt or README.md names
# a path outside the clone (a user's clone has only what is in it; the
# design is docs/design.md).
add_test(NAME outside_paths
         COMMAND ${CMAKE_COMMAND} -DROOT=${PROJECT_SOURCE_DIR} -P
                 ${CMAKE_CURRENT_SOURCE_DIR}/outside_paths.cmake)
# Graded exercises (core/exercise.c): every kind right and wrong on fixed
# seeds, against answers the test works out by hand.
sn_test(test_exercise TIMEOUT 300)
