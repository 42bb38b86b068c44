# threads_in_one_place.cmake (cmake -P, -DROOT=the repository): the thread
# seam's rule (docs/design.md, "Threads in one place"): in all of src/ only
# src/core/parallel.c uses POSIX (or C11) threads and mutexes or reads the
# CPU count, and no file of src/core includes <signal.h>, so the core
# builds for wasm32 with SORTNET_THREADS=OFF and a thread that cannot start
# is handled in one place.
#
# The rule reads code, not text: comments are left out first, so a comment
# may quote a driver's "PTHREAD ERROR in pthread_scheduler_init" or a device
# named "pthread-skylake"; string and character literals are kept (a
# comment marker inside one starts no comment).

cmake_policy(VERSION 3.16) # quoted arguments are strings, never variables' names

# code_of(<out> <text>): text without its /* */ and // comments.
function(code_of out text)
  set(code "")
  while(TRUE)
    # up to the next character that may start a comment or a literal
    string(REGEX MATCH "^[^\"'/]+" plain "${text}")
    string(LENGTH "${plain}" n)
    string(APPEND code "${plain}")
    string(SUBSTRING "${text}" ${n} -1 text)
    string(LENGTH "${text}" left)
    if(left EQUAL 0)
      break()
    endif()
    string(SUBSTRING "${text}" 0 2 two)
    if(two STREQUAL "/*")
      string(SUBSTRING "${text}" 2 -1 text)
      string(FIND "${text}" "*/" end)
      if(end EQUAL -1)
        break() # unterminated: the rest is comment
      endif()
      math(EXPR end "${end} + 2")
      string(SUBSTRING "${text}" ${end} -1 text)
      string(APPEND code " ")
    elseif(two STREQUAL "//")
      string(FIND "${text}" "\n" end)
      if(end EQUAL -1)
        break()
      endif()
      string(SUBSTRING "${text}" ${end} -1 text) # the newline stays
    else()
      # a string or character literal, or a lone slash: kept whole
      string(REGEX MATCH "^(\"([^\"\\\\\n]|\\\\.)*\"|'([^'\\\\\n]|\\\\.)*')" lit "${text}")
      if(lit STREQUAL "")
        string(SUBSTRING "${text}" 0 1 lit)
      endif()
      string(LENGTH "${lit}" n)
      string(APPEND code "${lit}")
      string(SUBSTRING "${text}" ${n} -1 text)
    endif()
  endwhile()
  set(${out} "${code}" PARENT_SCOPE)
endfunction()

set(thread_api "pthread_|<pthread\\.h>|<threads\\.h>|thrd_create|mtx_init")
set(cpu_count "_SC_NPROCESSORS|get_nprocs")
set(signal_h "#[ \t]*include[ \t]*<signal\\.h>")

file(GLOB_RECURSE files ${ROOT}/src/*.c ${ROOT}/src/*.h)
list(LENGTH files count)
if(count LESS 50)
  message(FATAL_ERROR "threads in one place: only ${count} sources under ${ROOT}/src")
endif()
set(bad "")
foreach(f IN LISTS files)
  file(RELATIVE_PATH name ${ROOT} ${f})
  file(READ ${f} text)
  # most files name none of it, even in comments: no need to read their code
  if(NOT text MATCHES "pthread|threads\\.h|thrd_|mtx_|NPROCESSORS|nprocs|signal\\.h")
    continue()
  endif()
  code_of(code "${text}")
  if(NOT name STREQUAL "src/core/parallel.c")
    if(code MATCHES "${thread_api}")
      list(APPEND bad "${name}: threads or mutexes outside src/core/parallel.c (use core/parallel.h)")
    endif()
    if(code MATCHES "${cpu_count}")
      list(APPEND bad "${name}: reads the CPU count (use sn_parallel_cpus)")
    endif()
  endif()
  if(name MATCHES "^src/core/" AND code MATCHES "${signal_h}")
    list(APPEND bad "${name}: includes <signal.h> (the cancel flag is sn_cancel)")
  endif()
endforeach()
if(bad)
  string(REPLACE ";" "\n  " bad "${bad}")
  message(FATAL_ERROR "threads in one place:\n  ${bad}")
endif()
