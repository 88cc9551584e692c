"""Where Ladder's build put the peers' compiled modules: one folder, named by $LADDER_PEER_MODULES (`ladder run`
sets it to the folder of the ladder binary, the build folder), each family's modules in its own subfolder of
it (cython-peers/, pythran-peers/, python-extension/build/modules/). The one lookup every family uses.
"""
import os
import sys

VARIABLE = "LADDER_PEER_MODULES"


def folder(subfolder, needs, unavailable):
    """The family's folder, put on sys.path; raises `unavailable` with `needs` and why when it is not there."""
    root = os.environ.get(VARIABLE)
    if not root:
        raise unavailable(f"{needs}: {VARIABLE} is not set (`ladder run` sets it)")
    directory = os.path.join(root, subfolder)
    if not os.path.isdir(directory):
        raise unavailable(f"{needs}: {directory} is not a directory (under {VARIABLE}={root}); build the peers' "
                          "modules: cmake --build build --target ladder_peers")
    if directory not in sys.path:
        sys.path.insert(0, directory)
    return directory


def path(subfolder, *names):
    """A file of the family's folder, for what the build wrote beside the modules; None when unset."""
    root = os.environ.get(VARIABLE)
    return os.path.join(root, subfolder, *names) if root else None
