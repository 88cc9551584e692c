// Issue 50: a dynamic loader and a C library of two glibc builds (qemu-user's -L PREFIX with a cross
// sysroot's loader and the machine's multiarch libc.so.6) hang at the first thread; Ladder says so instead.
// The logic on the banners both files carry, and this process's own pair, read from its memory.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "emulation_check.hpp"

namespace ladder {
namespace {

using namespace std::string_literals;

// The bytes around each banner as they lie in the files (Debian's arm64 cross sysroot and multiarch glibc).
const std::string cross_loader =
    "information.\n\0\0ld.so (Debian GLIBC 2.36-8) stable release version 2.36.\nCopyright (C) 2022\0"s;
const std::string multiarch_loader =
    "\0ld.so (Debian GLIBC 2.36-9+deb12u14) stable release version 2.36.\nCopyright (C) 2022\0"s;
const std::string cross_libc =
    "\0\0\0GNU C Library (Debian GLIBC 2.36-8) stable release version 2.36.\nCopyright (C) 2022\0"s;
const std::string multiarch_libc =
    "\0\0GNU C Library (Debian GLIBC 2.36-9+deb12u14) stable release version 2.36.\nCopyright (C) 2022\0"s;

TEST(CLibraryPair, TheBannerNamesTheBuildTheSameWayInTheLoaderAndInLibc) {
  EXPECT_EQ(glibc_build(cross_loader), "(Debian GLIBC 2.36-8) stable release version 2.36");
  EXPECT_EQ(glibc_build(cross_libc), glibc_build(cross_loader));
  EXPECT_EQ(glibc_build(multiarch_libc), glibc_build(multiarch_loader));
  EXPECT_NE(glibc_build(multiarch_libc), glibc_build(cross_loader));
  // A build configured without a package version, at the very start of the bytes.
  EXPECT_EQ(glibc_build("ld.so stable release version 2.38.\n"), "stable release version 2.38");
  EXPECT_EQ(glibc_build("GNU C Library development release version 2.40.9000."),
            "development release version 2.40.9000");
  EXPECT_EQ(glibc_build("\0musl libc (aarch64)\0Version 1.2.3\0"s), "");
  EXPECT_EQ(glibc_build(""), "");
  EXPECT_EQ(glibc_build(" release version \n"), "");
}

TEST(CLibraryPair, TwoBuildsAreRefusedNamingBothAndOneBuildOrAnUnknownOneIsNot) {
  const std::vector<std::string> qemu = {"/usr/bin/qemu-aarch64-static", "-L", "/usr/aarch64-linux-gnu"};
  const CLibraryPair mixed{"/lib/ld-linux-aarch64.so.1", glibc_build(cross_loader),
                           "/lib/aarch64-linux-gnu/libc.so.6", glibc_build(multiarch_libc)};
  const std::string reason = c_library_mismatch(mixed, qemu);
  for (const std::string said :
       {"two builds of glibc",
        "/lib/ld-linux-aarch64.so.1 is (Debian GLIBC 2.36-8) stable release version 2.36",
        "/lib/aarch64-linux-gnu/libc.so.6 is (Debian GLIBC 2.36-9+deb12u14)",
        "first thread would never start", "`/usr/bin/qemu-aarch64-static -L /usr/aarch64-linux-gnu`",
        "run it without -L"})
    EXPECT_NE(reason.find(said), std::string::npos) << said << " not in: " << reason;
  const std::string native = c_library_mismatch(mixed, {});
  EXPECT_NE(native.find("two builds of glibc"), std::string::npos) << native;
  EXPECT_EQ(native.find("-L"), std::string::npos) << native;
  EXPECT_NE(native.find("LD_LIBRARY_PATH"), std::string::npos) << native;

  CLibraryPair one = mixed;
  one.library_build = glibc_build(cross_libc);
  EXPECT_EQ(c_library_mismatch(one, qemu), "");
  CLibraryPair unknown = mixed;
  unknown.loader_build.clear();  // a static program, another C library: nothing to compare
  EXPECT_EQ(c_library_mismatch(unknown, qemu), "");
}

#ifdef __GLIBC__
// This process's own loader and libc.so.6, read from its memory: found, one build, and not refused.
TEST(CLibraryPair, ThisProcessFindsItsLoaderAndLibcAsOneBuild) {
  const CLibraryPair pair = loaded_c_library();
  EXPECT_NE(pair.loader.find("ld-linux"), std::string::npos) << pair.loader;
  EXPECT_NE(pair.library.find("libc.so.6"), std::string::npos) << pair.library;
  EXPECT_NE(pair.loader_build.find("release version"), std::string::npos) << pair.loader_build;
  EXPECT_EQ(pair.loader_build, pair.library_build);
  EXPECT_NO_THROW(refuse_mismatched_c_library());
}
#endif

}  // namespace
}  // namespace ladder
