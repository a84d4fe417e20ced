# What `cmake --install` puts under the prefix:
#   bin/md5cine                                      the command (linked statically)
#   lib/libmd5cine.a, lib/libmd5cine.so.*            the library, static and shared
#   include/md5cine/*.h                              public headers, version.h, md5cine.h (all)
#   lib/pkgconfig/md5cine.pc                         pkg-config (--static for libmd5cine.a)
#   lib/cmake/md5cine/                               find_package(md5cine): md5cine::md5cine
#                                                    (shared), md5cine::md5cine_static
#   share/man/man1/md5cine.1                         the manual page
#   lib/python3/dist-packages/md5cine/               the Python module (MC_PYTHON_INSTALL_DIR)
# Each file belongs to one install component, one Debian package each (`cpack -G DEB`, below):
#   Runtime      bin/md5cine, the man page                           -> md5cine
#   Library      libmd5cine.so.0 and its versioned file               -> libmd5cine0
#   Development  headers, libmd5cine.a, the libmd5cine.so link,
#                md5cine.pc, the CMake package files                  -> libmd5cine-dev
#   Python       the md5cine package (python/CMakeLists.txt)          -> python3-md5cine
# lib/ stands for CMAKE_INSTALL_LIBDIR. Every installed file is found relative to the prefix, so
# `cmake --install build --prefix DIR` gives a working tree under any DIR.
include(CMakePackageConfigHelpers)

install(TARGETS md5cine_static md5cine_shared EXPORT md5cineTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Development
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Library
          NAMELINK_COMPONENT Development
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT Library)
install(TARGETS md5cine RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT Runtime)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/md5cine ${PROJECT_BINARY_DIR}/include/md5cine
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT Development
        FILES_MATCHING PATTERN "*.h")

# pkg-config: prefix is found from the .pc file's own place (pkg-config's ${pcfiledir}).
file(RELATIVE_PATH MC_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" MC_PC_TO_PREFIX "${MC_PC_TO_PREFIX}")
# The GL libraries are opened at run time: only libdl is a link dependency.
set(CMAKE_DL_LIBS_FLAG "")
if(CMAKE_DL_LIBS)
  set(CMAKE_DL_LIBS_FLAG "-l${CMAKE_DL_LIBS}")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/md5cine.pc.in ${PROJECT_BINARY_DIR}/md5cine.pc @ONLY)
# Installed by cmake/mc_install_pc.cmake, which names the prefix /usr as it is (clean flags).
install(CODE "set(MC_PC_BUILT \"${PROJECT_BINARY_DIR}/md5cine.pc\")
set(MC_PC_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
include(\"${CMAKE_CURRENT_LIST_DIR}/mc_install_pc.cmake\")" COMPONENT Development)

set(MC_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/md5cine)
install(EXPORT md5cineTargets NAMESPACE md5cine:: DESTINATION ${MC_CMAKE_DIR}
        COMPONENT Development)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/md5cineConfig.cmake.in
  ${PROJECT_BINARY_DIR}/md5cineConfig.cmake INSTALL_DESTINATION ${MC_CMAKE_DIR})
# Before 1.0 every minor release may break the API, so only the same MAJOR.MINOR is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/md5cineConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/md5cineConfig.cmake
              ${PROJECT_BINARY_DIR}/md5cineConfigVersion.cmake
        DESTINATION ${MC_CMAKE_DIR} COMPONENT Development)

install(FILES ${PROJECT_SOURCE_DIR}/man/md5cine.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
        COMPONENT Runtime)

# Debian packages: `cpack -G DEB` in the build folder writes one .deb per component above, for
# the prefix /usr (CPACK_PACKAGING_INSTALL_PREFIX). Configure with -DCMAKE_INSTALL_PREFIX=/usr
# so that lib/ is Debian's multiarch folder (lib/x86_64-linux-gnu); every installed file is
# found relative to the prefix, so a build for /usr/local packs correctly too (into /usr/lib).
# Shared-library dependencies are found by dpkg-shlibdeps; the libraries md5cine opens at run
# time (libEGL, libOSMesa, Mesa's drivers) and the -dev package's build dependencies are listed.
set(CPACK_PACKAGE_NAME md5cine)
set(CPACK_PACKAGE_VENDOR "md5cine")
set(CPACK_PACKAGE_CONTACT "md5cine maintainers <md5cine@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "headless renderer of Doom 3 MD5 cut scenes, with frame regression checks")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
# The Python package only where the module is built (python3 found: python/CMakeLists.txt); a
# build meant for packages (-DMC_PACKAGES=ON, scripts/package.sh) stops there without it.
if(TARGET mc_python)
  set(CPACK_COMPONENTS_ALL Runtime Library Development Python)
else()
  set(CPACK_COMPONENTS_ALL Runtime Library Development)
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION graphics)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)   # libmd5cine0's shlibs file, for programs built on it
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS OFF)
set(mc_gl_runtime "libegl1, libegl-mesa0, libosmesa6, libgl1-mesa-dri")
set(mc_exact "(= ${PROJECT_VERSION})")

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME md5cine)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION graphics)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS "${mc_gl_runtime}")
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION
    "headless renderer of Doom 3 MD5 cut scenes: the md5cine command\n md5cine renders .md5scene files (MD5 meshes, anims and cameras) to MP4 or PNG with\n EGL or OSMesa and checks frames against references.")

set(CPACK_DEBIAN_LIBRARY_PACKAGE_NAME libmd5cine${MC_SOVERSION})
set(CPACK_DEBIAN_LIBRARY_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_LIBRARY_PACKAGE_DEPENDS "${mc_gl_runtime}")
set(CPACK_COMPONENT_LIBRARY_DESCRIPTION
    "headless renderer of Doom 3 MD5 cut scenes: shared library\n libmd5cine parses MD5 files and scenes, renders frames and compares them.")

set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME libmd5cine-dev)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS
    "libmd5cine${MC_SOVERSION} ${mc_exact}, pkg-config, libavcodec-dev, libavformat-dev, libavutil-dev, libswscale-dev, libswresample-dev, libzip-dev, zlib1g-dev")
set(CPACK_COMPONENT_DEVELOPMENT_DESCRIPTION
    "headless renderer of Doom 3 MD5 cut scenes: development files\n Headers, the static library, pkg-config and CMake package files of libmd5cine.")

set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-md5cine)
set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS "libmd5cine${MC_SOVERSION} ${mc_exact}, python3, python3-numpy")
set(CPACK_DEBIAN_PYTHON_PACKAGE_SUGGESTS "python3-pytest")   # md5cine.testing, the fixture
set(CPACK_COMPONENT_PYTHON_DESCRIPTION
    "headless renderer of Doom 3 MD5 cut scenes: Python module\n md5cine renders frames into numpy arrays and checks them against references;\n md5cine.testing is a pytest helper.")
include(CPack)
