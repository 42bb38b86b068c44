# gzip_docs.cmake - CPack's pre-build script (CPACK_PRE_BUILD_SCRIPTS): in
# the staging folder, compress what Debian policy wants compressed (the
# manual pages and the changelog) with gzip -9n (-n: no name or time in the
# header, so the package is the same on every build).
find_program(SN_GZIP gzip REQUIRED)
file(GLOB_RECURSE all LIST_DIRECTORIES false "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/*")
set(pages ${all})
list(FILTER pages INCLUDE REGEX "/share/man/man[1-8]/[^/]+\\.[1-8]$|/share/doc/sortnet/changelog$")
foreach(f IN LISTS pages)
  execute_process(COMMAND ${SN_GZIP} -9nf "${f}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gzip -9n ${f} failed")
  endif()
endforeach()
