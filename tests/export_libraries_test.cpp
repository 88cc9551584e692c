// Issue 51: export's libraries come from the ladder_add_library rows of cmake/libraries.cmake, through the
// generated table (export/libraries.hpp). A card's library without a row is a clear error, the namespace
// placeholder is replaced everywhere, and every library's namespace stays refused as the export's own.
#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "command.hpp"
#include "export_commands.hpp"
#include "libraries.hpp"

namespace {

using ladder::exporter::library_of;
using ladder::exporter::with_namespace;

TEST(ExportLibraries, ACardLibraryWithoutARowIsALogicErrorNamingWhereToAddOne) {
  try {
    library_of("newtier", "Unheard-of 2.0");
    FAIL() << "no error for a library no row declares";
  } catch (const std::logic_error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("tier 'newtier'"), std::string::npos) << message;
    EXPECT_NE(message.find("'Unheard-of 2.0'"), std::string::npos) << message;
    EXPECT_NE(message.find("cmake/libraries.cmake"), std::string::npos) << message;
  }
}

TEST(ExportLibraries, ACardEntryFindsTheRowItsWordsBegin) {
  EXPECT_EQ(library_of("xsimd", "xsimd 8.1").link, "@NS@_xsimd");
  EXPECT_EQ(library_of("openmp", "OpenMP (libgomp)").link, "OpenMP::OpenMP_CXX");
  EXPECT_EQ(library_of("mpi", "Open MPI").link, "MPI::MPI_CXX");
  EXPECT_EQ(library_of("stdpar", "oneTBB (libstdc++ parallel backend)").packages, "libtbb-dev");
}

TEST(ExportLibraries, TheNamespaceReplacesEveryPlaceholder) {
  EXPECT_EQ(with_namespace("add_library(@NS@_x)\n${@NS@_x_includes} @NS@", "team"),
            "add_library(team_x)\n${team_x_includes} team");
  EXPECT_EQ(with_namespace("no placeholder", "team"), "no placeholder");
  EXPECT_EQ(with_namespace("@NS", "team"), "@NS");
}

TEST(ExportLibraries, EveryLibrarysNamespaceIsRefusedAsTheExportsOwn) {
  const ladder::testing::TempDir dir;
  // The namespaces of what an exported project includes, as this test knows them.
  for (const std::string taken : {"Eigen", "xsimd", "xtl", "tbb", "oneapi", "hwy"}) {
    const auto refused = ladder::testing::export_to(dir / "out", "--namespace " + taken, "xsimd");
    EXPECT_EQ(refused.exit_code, 2) << taken << ": " << refused.output;
    EXPECT_NE(refused.output.find("the namespace of a library the exported code uses"), std::string::npos)
        << taken << ": " << refused.output;
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

}  // namespace
