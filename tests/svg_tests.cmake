# The reports' SVG charts (reports/svg.cpp), on their own: no harness, no tiers.
add_executable(ladder_svg_tests svg_test.cpp ${PROJECT_SOURCE_DIR}/reports/svg.cpp)
target_compile_options(ladder_svg_tests PRIVATE ${LADDER_WARNINGS})
target_include_directories(ladder_svg_tests PRIVATE ${PROJECT_SOURCE_DIR}/reports)
target_link_libraries(ladder_svg_tests PRIVATE GTest::gtest_main)
# Where xmllint is missing (Debian's libxml2-utils, which scripts/install-deps.sh installs), its test calls
# GTEST_SKIP with the reason, and ctest lists it as skipped: gtest_discover_tests sets SKIP_REGULAR_EXPRESSION.
gtest_discover_tests(ladder_svg_tests DISCOVERY_TIMEOUT 60 PROPERTIES ENVIRONMENT ${LADDER_TEST_ENVIRONMENT})

# The headless-browser check of an HTML report (browser_check.py) on a sample page made with svg.cpp: once
# where it must pass, then on three pages where it must fail, each for the reason named. Where Chromium is
# not installed the script exits 77: the tests are reported skipped, not passed.
set(browser_check ${CMAKE_CURRENT_SOURCE_DIR}/browser_check.py)
set(browser_fixtures ${CMAKE_CURRENT_SOURCE_DIR}/fixtures)
add_test(NAME BrowserCheckOnSampleReport
         COMMAND python3 ${browser_check} ${browser_fixtures}/browser_sample.html
                 --screenshot ${CMAKE_CURRENT_BINARY_DIR}/browser_sample.png
                 --expect-chart time --expect-chart cost --expect-series time:naive
                 "--expect-series=time:it's \"xsimd\" <fast>" --expect-text "Speed-up over naive")
add_test(NAME BrowserCheckFailsOnConsoleError
         COMMAND python3 ${browser_check} ${browser_fixtures}/browser_bad_console.html
                 --screenshot ${CMAKE_CURRENT_BINARY_DIR}/browser_bad_console.png
                 --expect-failure "console error")
add_test(NAME BrowserCheckFailsOnExternalRequest
         COMMAND python3 ${browser_check} ${browser_fixtures}/browser_bad_request.html
                 --screenshot ${CMAKE_CURRENT_BINARY_DIR}/browser_bad_request.png
                 --expect-failure "request to another URL")
add_test(NAME BrowserCheckFailsOnMissingSeries
         COMMAND python3 ${browser_check} ${browser_fixtures}/browser_sample.html
                 --screenshot ${CMAKE_CURRENT_BINARY_DIR}/browser_missing_series.png
                 --expect-series time:naive --expect-series time:absent --expect-failure "missing series")
set_tests_properties(BrowserCheckOnSampleReport BrowserCheckFailsOnConsoleError
                     BrowserCheckFailsOnExternalRequest BrowserCheckFailsOnMissingSeries
                     PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)

# Issue 17, the report as a reader sees it: browser_check.py --readable (the HTML contract of
# reports/README.md) at 1280 × 800 on a page that follows the contract, with the screenshots of its first
# screen and charts; then on pages that are that page with one defect each, where it must fail for that
# defect and for nothing else (--expect-only).
add_test(NAME BrowserReadableCheckOnContractPage
         COMMAND python3 ${browser_check} ${browser_fixtures}/readable_good.html --readable
                 --screenshot ${CMAKE_CURRENT_BINARY_DIR}/readable_good.png
                 --screenshots ${CMAKE_CURRENT_BINARY_DIR}/readable-screenshots/contract-page)
set(readable_negatives
    "overlap|labels of chart scaling: texts \"openmp\""
    "label_on_point|label \"xsimd\" at (396, 226) overlaps point"
    "same_style|series \"naive\" and \"tbb\" look the same"
    "lying_series|series \"openmp\" declares data-color #e69f00 but draws"
    "answer_below|section#answer is not within the first 1280×800 screen"
    "wide_table|ladder table #1 (9 columns) is too wide"
    "untitled_point|point #5 of series \"openmp\" (<rect>) has no title")
set(readable_tests BrowserReadableCheckOnContractPage)
foreach(negative IN LISTS readable_negatives)
  string(REPLACE "|" ";" negative "${negative}")
  list(GET negative 0 defect)
  list(GET negative 1 reason)
  add_test(NAME BrowserReadableCheckFailsOn_${defect}
           COMMAND python3 ${browser_check} ${browser_fixtures}/readable_bad_${defect}.html --readable
                   --screenshot ${CMAKE_CURRENT_BINARY_DIR}/readable_bad_${defect}.png --expect-failure ${reason}
                   --expect-only)
  list(APPEND readable_tests BrowserReadableCheckFailsOn_${defect})
endforeach()
set_tests_properties(${readable_tests} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180)
