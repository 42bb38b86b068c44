# outside_paths.cmake (cmake -P, -DROOT=the repository): fails when a file
# of the clone's sources, tests, tools or docs (src/, tests/, tools/,
# docs/, CMakeLists.txt, README.md) names a path outside the clone, which a
# user's clone does not have: the notes folder kept beside the repository
# on the machine it was written on (a path that starts with that folder's
# name followed by a capitalised file name, or that climbs to it from the
# repository), or an absolute path into that machine's working folder.
# The project's own design is docs/design.md.
#
# The patterns are narrow on purpose: "shared library", "shared counter",
# `--shared`, `share/` install paths and a longer path that merely has a
# folder of that name inside it (build/x/shared/y) are not flagged. This
# file spells its patterns so that they do not match themselves.

cmake_policy(VERSION 3.16)

if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<repository> -P outside_paths.cmake")
endif()

# A name of the notes folder that begins a relative path: not preceded by a
# word character, a dot, a slash or a dash, and followed by a file or
# folder name with a capital letter (the notes are upper-case .md files).
set(notes_rel "(^|[^A-Za-z0-9_./-])shared/[A-Z]")
# The same folder reached by climbing out of the repository.
set(notes_up "[.][.]/shared([^A-Za-z0-9_-]|$)")
# An absolute path into the machine's working folder.
set(machine "(^|[^A-Za-z0-9_.-])[/]work([^A-Za-z0-9_.-]|$)")
set(patterns "${notes_rel}" "${notes_up}" "${machine}")

file(GLOB_RECURSE files LIST_DIRECTORIES false
     "${ROOT}/src/*" "${ROOT}/tests/*" "${ROOT}/tools/*" "${ROOT}/docs/*")
list(APPEND files "${ROOT}/CMakeLists.txt" "${ROOT}/README.md")

set(bad "")
foreach(f IN LISTS files)
  file(RELATIVE_PATH rel "${ROOT}" "${f}")
  # text files only: file(READ) stops at a NUL byte anyway
  if(rel MATCHES "[.](png|gif|jpg|ico|ttf|wasm|o|a|bin|gz)$")
    continue()
  endif()
  file(READ "${f}" text)
  foreach(p IN LISTS patterns)
    if(text MATCHES "${p}")
      # the offending lines, for the message
      file(STRINGS "${f}" lines REGEX "${p}")
      list(JOIN lines "\n      " lines)
      string(APPEND bad "  ${rel}:\n      ${lines}\n")
      break()
    endif()
  endforeach()
endforeach()

list(LENGTH files count)
if(bad)
  message(FATAL_ERROR
          "paths outside the clone (name the file in the repository that holds it, "
          "e.g. docs/design.md):\n${bad}")
endif()
message(STATUS "outside_paths: ${count} files, none names a path outside the clone")
