# Core tests (libc only): each file tests/test_<module>.c is one executable.
foreach(t IN ITEMS test_network test_schedule test_exec test_format test_input test_analysis test_halo test_library
            test_construct test_transform)
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${t}.c)
    sn_test(${t})
  endif()
endforeach()
file(GLOB SN_CLI_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/cli_*.sh)
foreach(script IN LISTS SN_CLI_TESTS)
  get_filename_component(name ${script} NAME_WE)
  sn_shell_test(${name} ${name}.sh)
endforeach()

# test_codegen compiles the generated C with the project's C compiler.
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/test_codegen.c)
  sn_test(test_codegen)
  set_property(TEST test_codegen APPEND PROPERTY ENVIRONMENT "SN_CC=${CMAKE_C_COMPILER}")
endif()
