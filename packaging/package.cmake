# package.cmake - the desktop's files and the Debian package (included at the
# end of the top CMakeLists.txt, after every install() rule).
#
# Installed with the rest (`cmake --install`): the menu entry, its icon (the
# network bitonic:4 drawn by sortnet: tools/make_pictures.sh remakes it), the
# AppStream metainfo, and the package's copyright file and changelog.
#
# `cpack -G DEB` in the build folder (or `cmake --build build --target
# package`) then makes sortnet_VERSION_ARCH.deb from the same install
# rules; README.md's "The Debian package" section says what it holds and
# which lintian warnings stay and why.
include(GNUInstallDirs)
set(SN_PKG ${PROJECT_SOURCE_DIR}/packaging)
install(FILES ${SN_PKG}/sortnet.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${SN_PKG}/io.github.sortnet.sortnet.metainfo.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES ${SN_PKG}/icons/sortnet.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
foreach(size 16 32 48 64 128 256)
  install(FILES ${SN_PKG}/icons/sortnet-${size}.png
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps
          RENAME sortnet.png)
endforeach()
# the shipped lessons (the binary embeds them too; these are for reading and
# as examples of the format, docs/lessons.md)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/lessons DESTINATION ${CMAKE_INSTALL_DATADIR}/sortnet)
# Debian's copyright file and a changelog (gzipped in the package by
# gzip_docs.cmake); the date honours SOURCE_DATE_EPOCH
string(TIMESTAMP SN_CHANGELOG_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
configure_file(${SN_PKG}/changelog.in ${CMAKE_BINARY_DIR}/packaging/changelog @ONLY)
install(FILES ${SN_PKG}/copyright ${CMAKE_BINARY_DIR}/packaging/changelog
        DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The package: the version is project(VERSION) (which `sortnet --version`
# prints too); dependencies from the binary's libraries (dpkg-shlibdeps);
# pocl recommended (a CPU OpenCL device where there is no GPU driver);
# mpirun where the build has MPI (Open MPI's singleton start needs it too).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME sortnet)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "The sortnet authors <sortnet@users.noreply.github.com>")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION education)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "pocl-opencl-icd")
if(SORTNET_WITH_MPI)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "openmpi-bin")
endif()
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "visualizer, simulator and checker for sorting networks\n"
    "sortnet steps through a sorting network layer by layer in a window, proves\n"
    "whether it sorts, draws it, and runs it on OpenCL devices and MPI ranks.")
string(JOIN "" CPACK_DEBIAN_PACKAGE_DESCRIPTION ${CPACK_DEBIAN_PACKAGE_DESCRIPTION})
set(CPACK_STRIP_FILES ON)
set(CPACK_PRE_BUILD_SCRIPTS ${SN_PKG}/gzip_docs.cmake)
include(CPack)
