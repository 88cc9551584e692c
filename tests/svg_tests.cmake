# The reports' SVG charts (reports/svg/svg.hpp, reports/svg/), on their own: no harness, no tiers.
list(TRANSFORM ladder_svg_sources PREPEND ${PROJECT_SOURCE_DIR}/ OUTPUT_VARIABLE svg_sources)
# Where xmllint is missing (Debian's libxml2-utils, which scripts/install-deps.sh installs), its test calls
# GTEST_SKIP with the reason, and ctest lists it as skipped: gtest_discover_tests sets SKIP_REGULAR_EXPRESSION.
ladder_add_test(ladder_svg_tests SOURCES svg_test.cpp svg_labels_test.cpp svg_more_test.cpp ${svg_sources}
  INCLUDES ${PROJECT_SOURCE_DIR}/reports/svg LABEL quick)

# The headless-browser check of an HTML report (browser_check.py) on a sample page made with the SVG
# charts: once where it must pass, then on three pages where it must fail, each for the reason named. Where
# Chromium is not installed the script exits 77: the tests are reported skipped, not passed.
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

# Issue 17, the report as a reader sees it: browser_check.py --readable (the report's HTML contract, stated
# in readable_checks.py) at 1280 × 800 on a page that follows the contract, with the screenshots of its first
# screen and charts; then on pages made from it with one defect each — one line of it replaced, here at
# configure time — where the check must fail for that defect and for nothing else (--expect-only).
set(readable_good ${browser_fixtures}/readable_good.html)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${readable_good})
file(READ ${readable_good} readable_page)
add_test(NAME BrowserReadableCheckOnContractPage
         COMMAND python3 ${browser_check} ${readable_good} --readable --timeout 150
                 --screenshot ${CMAKE_CURRENT_BINARY_DIR}/readable_good.png
                 --screenshots ${CMAKE_CURRENT_BINARY_DIR}/readable-screenshots/contract-page)
set(readable_tests BrowserReadableCheckOnContractPage)
# The page with `line` (a part of one of its lines, found exactly once) replaced by `defect`, checked to
# fail with `reason` alone.
function(readable_defect name line defect reason)
  string(FIND "${readable_page}" "${line}" first)
  string(FIND "${readable_page}" "${line}" last REVERSE)
  if(first EQUAL -1 OR NOT first EQUAL last)
    message(FATAL_ERROR "readable_defect ${name}: the line must occur once in ${readable_good}: ${line}")
  endif()
  string(REPLACE "${line}" "${defect}" page "${readable_page}")
  set(path ${CMAKE_CURRENT_BINARY_DIR}/readable_bad_${name}.html)
  file(WRITE ${path} "${page}")
  add_test(NAME BrowserReadableCheckFailsOn_${name}
           COMMAND python3 ${browser_check} ${path} --readable --timeout 150 --screenshot ${path}.png
                   --expect-failure ${reason} --expect-only)
  set(readable_tests ${readable_tests} BrowserReadableCheckFailsOn_${name} PARENT_SCOPE)
endfunction()
readable_defect(overlapping_labels [[<text class="end-label" x="512" y="54">tbb</text>]]
                [[<text class="end-label" x="520" y="108">tbb</text>]]
                [[labels of chart scaling: texts "openmp" at (512, 104) and "tbb" at (520, 108) overlap]])
readable_defect(label_on_a_point [[<text class="point-label" x="410" y="235">xsimd</text>]]
                [[<text class="point-label" x="396" y="226">xsimd</text>]]
                [[labels of chart pareto: label "xsimd" at (396, 226) overlaps point "xsimd: cost 2.5, 2.4×"]])
readable_defect(identical_series_styles
                [[data-color="#cc79a7" data-marker="circle" data-dash="solid" fill="#cc79a7" stroke="#cc79a7"]]
                [[data-color="#0072b2" data-marker="circle" data-dash="solid" fill="#0072b2" stroke="#0072b2"]]
                [[series "naive" and "stdpar" look the same (colour #0072b2, marker circle, dash solid)]])
readable_defect(series_drawn_unlike_its_attributes
                [[fill="none" stroke="#e69f00" stroke-width="2" stroke-dasharray="6 4"/>]]
                [[fill="none" stroke="#56b4e9" stroke-width="2" stroke-dasharray="6 4"/>]]
                [[series "openmp" declares data-color #e69f00 but draws #56b4e9, #e69f00]])
readable_defect(answer_below_the_fold [[<section id="answer">]] [[<section id="answer" style="margin-top:800px">]]
                [[answer: section#answer is not within the first 1280×800 screen]])
readable_defect(ladder_table_too_wide [[<table data-table="ladder">]]
                [[<table data-table="ladder" style="min-width:1500px">]]
                [[ladder table #1 (9 columns) is too wide]])
readable_defect(point_without_title
                [[y="166" width="8" height="8"><title>openmp: n 1e6, 0.003 s</title></rect>]]
                [[y="166" width="8" height="8"/>]]
                [[titles of chart scaling: point #5 of series "openmp" (<rect>) has no title]])
readable_defect(leader_across_a_label [[<line class="leader" x1="205" y1="205" x2="236" y2="236"]]
                [[<line class="leader" x1="205" y1="195" x2="330" y2="128"]]
                [[labels of chart pareto: the leader of "eigen" at (238, 250) crosses text "openmp" at (310, 135)]])
readable_defect(crossing_leaders [[<line class="leader" x1="554" y1="254" x2="520" y2="276"]]
                [[<line class="leader" x1="554" y1="254" x2="215" y2="226"]]
                [[labels of chart pareto: the leader of "eigen" at (238, 250) crosses the leader of "kahan" at (480, 290)]])
set_tests_properties(${readable_tests} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180)
ladder_label(browser BrowserCheckOnSampleReport BrowserCheckFailsOnConsoleError BrowserCheckFailsOnExternalRequest
             BrowserCheckFailsOnMissingSeries ${readable_tests})
