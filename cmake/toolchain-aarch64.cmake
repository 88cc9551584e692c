# Cross-compiling Ladder for aarch64 (64-bit ARM) on an x86-64 Debian 12, with Debian's cross toolchain
# (crossbuild-essential-arm64) and the :arm64 libraries installed beside the native ones (multiarch):
#   scripts/install-deps.sh --cross arm64
#   cmake -S . -B build-aarch64 -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake -DLADDER_ARCH=armv8-a
# scripts/build-aarch64 does both. On a real ARM machine no toolchain file is needed: build natively.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(LADDER_CROSS_TRIPLE aarch64-linux-gnu)
set(CMAKE_C_COMPILER ${LADDER_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${LADDER_CROSS_TRIPLE}-g++)

# Headers and libraries of the target only (/usr/lib/aarch64-linux-gnu, /usr/include/aarch64-linux-gnu),
# besides the architecture-independent ones in /usr (Eigen, CLI11, nlohmann-json); programs of the host.
set(CMAKE_FIND_ROOT_PATH /usr/${LADDER_CROSS_TRIPLE})
set(CMAKE_LIBRARY_ARCHITECTURE ${LADDER_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)

# pkg-config (hwloc, SLEEF) reads the target's .pc files, never the host's.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/${LADDER_CROSS_TRIPLE}/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")

# The build runs programs it has just compiled (the source line counter, the vectorization reader, the
# tests' discovery): qemu-user runs them. They load the :arm64 multiarch glibc (/lib/ld-linux-aarch64.so.1,
# which the :arm64 libraries bring), not the cross sysroot's: `-L /usr/aarch64-linux-gnu` would start the
# sysroot's loader, which then finds the multiarch libc (another build of glibc 2.36), and a program hangs
# at its first thread.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static)
# The vectorization reader disassembles aarch64 objects: the cross binutils' objdump.
set(LADDER_OBJDUMP ${LADDER_CROSS_TRIPLE}-objdump CACHE FILEPATH "objdump for the target's objects")
