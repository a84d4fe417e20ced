# Installs md5cine.pc (run at install time by mc_install.cmake's install(CODE), which sets
# MC_PC_BUILT, the .pc written at configure time, and MC_PC_LIBDIR, CMAKE_INSTALL_LIBDIR).
# The configured file finds its prefix from its own place (prefix=${pcfiledir}/../..), so a
# tree installed under any prefix works where it lies. Installed for the prefix /usr (Debian's
# packages) it names /usr itself: pkg-config drops the system folders it knows (-I/usr/include,
# -L/usr/lib/<multiarch>) only when they are written so, and a path through ${pcfiledir}
# (-I/usr/lib/x86_64-linux-gnu/pkgconfig/../../../include) would reach every compile line and,
# through a libdir of that form, an rpath to the system library folder.
file(READ "${MC_PC_BUILT}" mc_pc)
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  string(REGEX REPLACE "^prefix=[^\n]*" "prefix=/usr" mc_pc "${mc_pc}")
endif()
set(mc_pc_dest "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/${MC_PC_LIBDIR}/pkgconfig")
message(STATUS "Installing: ${mc_pc_dest}/md5cine.pc")
file(MAKE_DIRECTORY "${mc_pc_dest}")
file(WRITE "${mc_pc_dest}/md5cine.pc" "${mc_pc}")
list(APPEND CMAKE_INSTALL_MANIFEST_FILES "${mc_pc_dest}/md5cine.pc")
