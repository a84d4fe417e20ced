# What `cmake --install` puts under the prefix:
#   bin/md5cine                                      the command (linked statically)
#   lib/libmd5cine.a, lib/libmd5cine.so.*            the library, static and shared
#   include/md5cine/*.h                              public headers, version.h, md5cine.h (all)
#   lib/pkgconfig/md5cine.pc                         pkg-config (--static for libmd5cine.a)
#   lib/cmake/md5cine/                               find_package(md5cine): md5cine::md5cine
#                                                    (shared), md5cine::md5cine_static
#   share/man/man1/md5cine.1                         the manual page
# lib/ stands for CMAKE_INSTALL_LIBDIR. Every installed file is found relative to the prefix, so
# `cmake --install build --prefix DIR` gives a working tree under any DIR.
include(CMakePackageConfigHelpers)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/md5cine ${PROJECT_BINARY_DIR}/include/md5cine
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")

# pkg-config: prefix is found from the .pc file's own place (pkg-config's ${pcfiledir}).
file(RELATIVE_PATH MC_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" MC_PC_TO_PREFIX "${MC_PC_TO_PREFIX}")
# The GL libraries are opened at run time: only libdl is a link dependency.
set(CMAKE_DL_LIBS_FLAG "")
if(CMAKE_DL_LIBS)
  set(CMAKE_DL_LIBS_FLAG "-l${CMAKE_DL_LIBS}")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/md5cine.pc.in ${PROJECT_BINARY_DIR}/md5cine.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/md5cine.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

set(MC_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/md5cine)
install(EXPORT md5cineTargets NAMESPACE md5cine:: DESTINATION ${MC_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/md5cineConfig.cmake.in
  ${PROJECT_BINARY_DIR}/md5cineConfig.cmake INSTALL_DESTINATION ${MC_CMAKE_DIR})
# Before 1.0 every minor release may break the API, so only the same MAJOR.MINOR is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/md5cineConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/md5cineConfig.cmake
              ${PROJECT_BINARY_DIR}/md5cineConfigVersion.cmake
        DESTINATION ${MC_CMAKE_DIR})

install(FILES ${PROJECT_SOURCE_DIR}/man/md5cine.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
