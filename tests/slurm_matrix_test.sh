#!/usr/bin/env bash
# scripts/slurm-matrix.sbatch without a cluster: its syntax (bash -n), then dry runs in a faked allocation
# (SLURM_* variables, and fake scontrol, squeue, srun and ladder on PATH that record how they were called),
# and its refusal outside an allocation. tests/slurm_cluster_test.sh runs it on a real Slurm.
#   usage: tests/slurm_matrix_test.sh SCRIPT
set -uo pipefail
script=$(realpath "$1")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

bash -n "$script" || fail "bash -n $script"

mkdir "$scratch/bin"
# Each fake writes its arguments to calls, one per line, separated by '|'.
cat >"$scratch/bin/scontrol" <<'FAKE'
#!/bin/sh
[ "$1 $2" = "show hostnames" ] || exit 2
last=${3#node\[1-}
last=${last%\]}
[ "$3" = "node[1-$last]" ] || exit 2
seq -f 'node%g' 1 "$last"
FAKE
cat >"$scratch/bin/squeue" <<'FAKE'
#!/bin/sh
[ "$*" = "--noheader --jobs=$SLURM_JOB_ID --format=%e" ] || exit 2
echo 2030-01-02T03:04:05
FAKE
cat >"$scratch/bin/srun" <<'FAKE'
#!/bin/sh
{ printf 'srun'; for argument; do printf '|%s' "$argument"; done; echo; } >>"$CALLS"
while [ "${1#--}" != "$1" ]; do shift; done  # srun's own options, then the program it starts
exec "$@"
FAKE
cat >"$scratch/bin/ladder" <<'FAKE'
#!/bin/sh
{ printf 'ladder'; for argument; do printf '|%s' "$argument"; done; echo; } >>"$CALLS"
echo "end=$SLURM_JOB_END_TIME ras=${OMPI_MCA_ras:-} plm=${OMPI_MCA_plm:-}" >>"$CALLS.environment"
FAKE
chmod +x "$scratch/bin"/*

dry_run() {  # NODES [VARIABLE=VALUE]: runs the script in a fresh submit directory, with `--reps 2` passed through
  local nodes=$1
  mkdir "$scratch/$nodes"
  (cd /  # the script must go to SLURM_SUBMIT_DIR itself
   [ -z "${2:-}" ] || export "$2"
   CALLS=$scratch/$nodes/calls PATH=$scratch/bin:$PATH LADDER=$scratch/bin/ladder SLURM_SUBMIT_DIR=$scratch/$nodes \
     SLURM_JOB_NUM_NODES=$nodes SLURM_CPUS_PER_TASK=8 SLURM_JOB_ID=42$nodes SLURM_JOB_NODELIST="node[1-$nodes]" \
     bash "$script" --reps 2) >"$scratch/$nodes.log" 2>&1 || fail "dry run on $nodes nodes: $(cat "$scratch/$nodes.log")"
}
expect_calls() {  # NODES EXPECTED
  local actual
  actual=$(cat "$scratch/$1/calls")
  [ "$actual" = "$2" ] || fail "on $1 nodes the calls were
$actual
expected
$2"
}

dry_run 3
out=ladder-out/slurm-423
[ "$(cat "$scratch/3/$out/hostfile")" = "$(printf 'node1 slots=1\nnode2 slots=1\nnode3 slots=1')" ] ||
  fail "hostfile: $(cat "$scratch/3/$out/hostfile")"
expect_calls 3 "ladder|run|--tiers|mpi|--ranks|1,2,3|--threads|8|--n|1e8,1e9|--hostfile|$out/hostfile|--label|slurm job 423: mpi on 1 to 3 hosts × 8 threads|--out|$out/mpi|--reps|2
srun|--nodes=1|--ntasks=1|--cpus-per-task=8|$scratch/bin/ladder|run|--label|slurm job 423: every tier on one host|--out|$out/one-host|--reps|2
ladder|run|--label|slurm job 423: every tier on one host|--out|$out/one-host|--reps|2"
grep -q "results: $out/mpi and $out/one-host" "$scratch/3.log" || fail "no results line: $(cat "$scratch/3.log")"
# Both runs know the job's end time (squeue's, in seconds); only the one-node run keeps Open MPI off the
# allocation.
end=$(date -d 2030-01-02T03:04:05 +%s)
[ "$(cat "$scratch/3/calls.environment")" = "end=$end ras= plm=
end=$end ras=^slurm plm=isolated" ] || fail "the runs' environment: $(cat "$scratch/3/calls.environment")"

dry_run 2 LADDER_SLURM_SIZES=1e5,1e6  # the sizes of both runs
grep -q "^ladder|run|--tiers|mpi|--ranks|1,2|--threads|8|--n|1e5,1e6|" "$scratch/2/calls" &&
  grep -q "^ladder|run|--n|1e5,1e6|--label|" "$scratch/2/calls" || fail "LADDER_SLURM_SIZES: $(cat "$scratch/2/calls")"

for case in 4:1,2,4 8:1,2,4,8; do  # powers of two up to the allocation, which is not listed twice
  nodes=${case%%:*} ranks=${case#*:}
  dry_run "$nodes"
  grep -q "^ladder|run|--tiers|mpi|--ranks|$ranks|" "$scratch/$nodes/calls" ||
    fail "ranks on $nodes nodes, expected $ranks: $(cat "$scratch/$nodes/calls")"
done
# Outside an allocation it stops before anything, naming what is missing and how to submit it.
mkdir "$scratch/outside"
said=$(cd "$scratch/outside" && env -u SLURM_JOB_ID PATH="$scratch/bin:$PATH" CALLS=$scratch/outside/calls bash "$script" 2>&1)
status=$?
[ "$status" -eq 2 ] && [[ $said == *"SLURM_JOB_ID is not set"*"submit it with sbatch"* ]] ||
  fail "outside an allocation: exit $status, '$said'"
[ -z "$(ls -A "$scratch/outside")" ] || fail "outside an allocation it wrote: $(ls -A "$scratch/outside")"
echo "slurm-matrix.sbatch: syntax, dry runs on 2, 3, 4 and 8 nodes, and outside an allocation, as expected"
