// ladder-worker: the worker of a build that is not the build at hand (builds.hpp). `ladder run` starts it for
// each cell of that build as it starts itself (`worker --spec S --result R`), and asks it once what it is
// (`describe`: its compiler, target, flags and each tier's hot loop, as JSON on standard output).
#include <cstdio>
#include <cstring>
#include <string>

#include "builds.hpp"
#include "worker.hpp"

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "describe") == 0) {
    std::printf("%s\n", ladder::describe_this_build().to_json().dump(1).c_str());
    return 0;
  }
  if (argc == 6 && std::strcmp(argv[1], "worker") == 0 && std::strcmp(argv[2], "--spec") == 0 &&
      std::strcmp(argv[4], "--result") == 0)
    return ladder::run_worker(argv[3], argv[5]);
  std::fprintf(stderr,
               "usage: ladder-worker describe | ladder-worker worker --spec JSON --result FILE\n"
               "(started by `ladder run --compilers … --arch …`, not by hand)\n");
  return 2;
}
