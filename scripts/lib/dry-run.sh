# shellcheck shell=bash
# A dry run for the scripts the manual shows, sourced by each of them. With LADDER_DRY_RUN=1 a script checks
# its arguments as it always does, then prints what it would do, a line each starting "dry run:", and does
# nothing: it installs, builds, runs and writes nothing. tests/docs_scripts_check.py runs every script
# command of README.md and docs/ this way. LADDER_DRY_RUN unset, empty or 0 runs the script for real.
case "${LADDER_DRY_RUN:-0}" in
  0 | 1) ;;
  *) echo "$(basename "$0"): LADDER_DRY_RUN='$LADDER_DRY_RUN' is not accepted; accepted: 1 (a dry run) or 0" >&2
     exit 2 ;;
esac

dry_run() { [ "${LADDER_DRY_RUN:-0}" = 1 ]; }

# run COMMAND …: runs the command, or in a dry run prints it.
run() {
  if dry_run; then
    printf 'dry run:'
    printf ' %q' "$@"
    printf '\n'
  else
    "$@"
  fi
}

# dry_run_stop WHAT …: in a dry run, prints what the rest of the script would do and exits 0.
dry_run_stop() {
  if dry_run; then
    echo "dry run: $*"
    exit 0
  fi
}

# dry_run_targets DIR TARGET …: in a dry run, checks that the build in DIR has each target, and exits 2
# naming one it lacks (the targets a build script names by default would fail only at `ninja`, after the
# configure). A DIR with no configured build is said, not checked. Reads the build files only: it neither
# configures nor builds.
dry_run_targets() {
  dry_run || return 0
  local dir=$1 known target
  shift
  if [ -f "$dir/build.ninja" ] && command -v ninja >/dev/null; then
    known=$(ninja -C "$dir" -t targets all | sed 's/:.*//')
  elif [ -f "$dir/Makefile" ]; then
    known=$(make -s -C "$dir" help | sed -n 's/^\.\.\. \([^ ]*\).*/\1/p')
  else
    echo "dry run: $dir holds no configured build; the targets $* are not checked"
    return 0
  fi
  for target in "$@"; do
    grep -qxF -- "$target" <<<"$known" || {
      echo "$(basename "$0"): the build in $dir has no target '$target'" >&2
      exit 2
    }
  done
  echo "dry run: the build in $dir has the targets $*"
}
