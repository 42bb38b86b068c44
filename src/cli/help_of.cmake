# help_of.cmake - read by manpage.cmake and completion.cmake, which both
# write their text from the binary's own --help (SORTNET: its path).
# help_of(VAR ARGS...): the stdout of `sortnet ARGS... --help`.
function(help_of var)
  execute_process(COMMAND ${SORTNET} ${ARGN} --help OUTPUT_VARIABLE text
                  RESULT_VARIABLE rc ERROR_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "sortnet ${ARGN} --help failed (${rc})")
  endif()
  set(${var} "${text}" PARENT_SCOPE)
endfunction()
