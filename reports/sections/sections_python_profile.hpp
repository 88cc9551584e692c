// "Where the time goes" for the pure-Python rungs: the line profiles `ladder profile --peer ID --save DIR`
// left beside a run's results (python-profile-ID.json, common/python_profile.hpp). A run does not profile
// its peers itself (both profilers slow them down several times), so the report shows a profile only where
// one was saved beside the results, and says how to make one where none was.
#pragma once

#include "document.hpp"
#include "report.hpp"

namespace ladder::report {

// Appends, for each peer of the run with a saved profile, its hottest line and its largest memory
// increment (a table), and each line's figures (in details); a damaged profile is named with its problem.
// Nothing when the run measured no peer.
void python_profiles(Document& doc, const Run& run);

}  // namespace ladder::report
