// tests/browser_check.py on a page of Ladder's: headless Chromium opens it and checks what the options ask
// (the answer on the first screen, labels that overlap nothing, a chart or a text expected, …), for the
// tests of the reports. Needs LADDER_SOURCE_DIR, the checkout, defined for the test.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "command.hpp"

namespace ladder::testing {

// The readability checks of a report: the answer on the first screen, no label over another, tables that
// fit their column, every chart titled; 180 s for the browser on a slow machine.
inline const std::string readability_checks =
    "--check-answer --check-labels --check-tables --check-titles --timeout 180";

// The page through browser_check.py with `options`, its screenshot written to `screenshot`: exit 0, or the
// test skipped where no browser is installed (exit 77), with what the script said.
inline void expect_browser_check(const std::filesystem::path& page, const std::filesystem::path& screenshot,
                                 const std::string& options) {
  const Outcome browser =
      run_command("python3", std::string(LADDER_SOURCE_DIR) + "/tests/browser_check.py " + page.string() +
                                 " --screenshot " + screenshot.string() + " " + options);
  if (browser.exit_code == 77) GTEST_SKIP() << browser.output;
  EXPECT_EQ(browser.exit_code, 0) << browser.output;
}

}  // namespace ladder::testing
