# The checks of tests/slurm_cluster_test.sh, sourced by it once its cluster is up: they use its variables
# (script, ladder, scratch, node_count, cpus_per_node) and its fail().
results_check=$(dirname "${BASH_SOURCE[0]}")/slurm_results.py
submit_dir=$scratch/submit
# `ladder run`'s options of a tiny matrix, REPS repetitions of at least MIN_TIME seconds a cell in one worker
# (--rounds 1: the jobs' time limits are sized on a cell's whole time in one process), and nothing measured
# beside the cells.
tiny() { echo --preset quick --reps "$1" --min-time "$2" --rounds 1 --no-instructions --no-limits --remeasure 0; }

# The script as submitted: itself, or with the planted fault (tests/slurm_cluster_test.sh says which).
submitted=$script
if [ "${LADDER_SLURM_TEST_PLANT:-}" = wrong-hostfile ]; then
  submitted=$scratch/slurm-matrix-wrong-hostfile.sbatch
  sed 's|^scontrol show hostnames "\$SLURM_JOB_NODELIST" \| sed|hostname \| sed|' "$script" >"$submitted"
  cmp -s "$script" "$submitted" && fail "the planted fault did not change the script"
  echo "planted: the hostfile is the machine's host name, not the allocation's nodes"
elif [ -n "${LADDER_SLURM_TEST_PLANT:-}" ]; then
  fail "LADDER_SLURM_TEST_PLANT='$LADDER_SLURM_TEST_PLANT' is not a fault this test plants;" \
    "accepted: wrong-hostfile"
fi

# The job's line in the completion log that jobcomp/filetxt keeps (sacct reads it with --completion).
job_state() {
  sacct --completion --noheader --jobs="$1" --format=State 2>/dev/null | awk 'NF { print $1; exit }'
}

# Waits until JOB has left the queue (at most SECONDS).
wait_for_end() {
  local job=$1 limit=$2
  for _ in $(seq "$limit"); do
    [ -z "$(squeue --noheader --jobs="$job" 2>/dev/null)" ] && return
    sleep 1
  done
  fail "job $job still in the queue after $limit s: $(squeue --jobs="$job" 2>&1)"
}

# Started outside an allocation, the script stops at once and says how to submit it.
check_outside_an_allocation() {
  local said status=0
  said=$(cd "$submit_dir" && bash "$submitted" --reps 3 2>&1) || status=$?
  [ "$status" -ne 0 ] || fail "outside an allocation the script exited 0: $said"
  [[ $said == *"SLURM_JOB_ID is not set"* && $said == *"sbatch"* ]] ||
    fail "outside an allocation the script said: $said"
  [ ! -e "$submit_dir/ladder-out" ] || fail "outside an allocation the script made $submit_dir/ladder-out"
  echo "outside an allocation: exit $status, '$said'"
}

# The whole script on every node of the cluster: the mpi tier on 1 and 2 nodes, the ladder on one node.
check_the_matrix() {
  local job out said
  said=$(cd "$submit_dir" && LADDER_SLURM_SIZES=1e5 marked sbatch --wait --parsable --nodes="$node_count" \
    --cpus-per-task="$cpus_per_node" --time=20 --output="$submit_dir/matrix-%j.log" "$submitted" \
    $(tiny 3 0.01) 2>&1)
  job=${said%%;*}
  job=${job##*$'\n'}
  [[ $job =~ ^[0-9]+$ ]] || fail "sbatch did not submit the job: $said"
  out=$submit_dir/ladder-out/slurm-$job
  [ -f "$submit_dir/matrix-$job.log" ] || fail "no job log $submit_dir/matrix-$job.log"
  echo "--- job $job's log, its last lines"
  tail -n 12 "$submit_dir/matrix-$job.log"
  python3 "$results_check" mpi "$out/mpi" "$job" "$node_count" "$cpus_per_node" || fail "job $job's mpi run"
  # The hostfile names the allocation's nodes, one slot each, and the 2-rank cell started a task on each.
  [ "$(cat "$out/hostfile")" = "$(scontrol show hostnames "node[1-$node_count]" | sed 's/$/ slots=1/')" ] ||
    fail "the hostfile is not the allocation's nodes: $(cat "$out/hostfile")"
  for node in $(seq 1 "$node_count"); do
    grep -q "launch task StepId=$job\.[0-9]" "$scratch/log/slurmd-node$node.log" ||
      fail "Open MPI started no task on node$node in job $job (its slurmd log has no step of the job)"
  done
  grep -q "^results: ladder-out/slurm-$job/mpi and" "$submit_dir/matrix-$job.log" ||
    fail "job $job did not finish the script (sbatch: $said)"
  [ "$(job_state "$job")" = COMPLETED ] || fail "job $job is $(job_state "$job"), not COMPLETED"
  local tiers
  tiers=$("$ladder" list | awk '$1 ~ /^[0-9]+$/ { print $2 }' | paste -sd, -)
  python3 "$results_check" ladder "$out/one-host" "$job" "$tiers" "$(nproc)" || fail "job $job's whole-ladder run"

  said=$("$ladder" report "$out/mpi" "$out/one-host" --out "$scratch/report" 2>&1) ||
    fail "ladder report over job $job's runs: $said"
  grep -q "slurm job $job" "$scratch/report/report.md" || fail "the report does not name job $job's runs"
  echo "ladder report over both: $scratch/report/report.md names slurm job $job"
  echo "sacct --completion, job $job:"
  sacct --completion --jobs="$job" --format=JobID,JobName,Partition,NNodes,NodeList,State,ExitCode,Elapsed
}

# A job cancelled part-way keeps its journal, and `ladder run --resume` finishes it in a new allocation.
# Another reaches its time limit, and its results say so. With two nodes they run side by side.
check_cancel_and_resume_and_time_limit() {
  local cancelled limited journal said
  # Four sizes of a few seconds each on one node; cancelled once the first has been journaled.
  cancelled=$(cd "$submit_dir" && LADDER_SLURM_SIZES=1e5,2e5,3e5,4e5 marked sbatch --parsable --nodes=1 \
    --cpus-per-task="$cpus_per_node" --time=20 --output="$submit_dir/cancelled-%j.log" "$submitted" \
    $(tiny 10 0.3)) || fail "sbatch: $cancelled"
  # One cell of at least 100 s, in a job of one minute: Slurm stops it at its time limit.
  limited=$(cd "$submit_dir" && LADDER_SLURM_SIZES=1e5 marked sbatch --parsable --nodes=1 \
    --cpus-per-task="$cpus_per_node" --time=1 --output="$submit_dir/limited-%j.log" "$submitted" \
    $(tiny 100 1)) || fail "sbatch: $limited"
  echo "submitted job $cancelled (to be cancelled) and job $limited (one minute for 100 s of work)"

  journal=$submit_dir/ladder-out/slurm-$cancelled/mpi/journal.jsonl
  for _ in $(seq 240); do
    grep -q '"kind":"cell"' "$journal" 2>/dev/null && break
    [ -n "$(squeue --noheader --jobs="$cancelled" 2>/dev/null)" ] || break
    sleep 0.5
  done
  grep -q '"kind":"cell"' "$journal" 2>/dev/null ||
    fail "job $cancelled journaled no cell: $(cat "$submit_dir/cancelled-$cancelled.log")"
  scancel "$cancelled" || fail "scancel $cancelled"
  wait_for_end "$cancelled" 60
  [ "$(job_state "$cancelled")" = CANCELLED ] || fail "job $cancelled is $(job_state "$cancelled")"
  local first
  first=$(grep -m1 '"kind":"cell"' "$journal")
  python3 "$results_check" interrupted "$(dirname "$journal")" "$cancelled" cancelled ||
    fail "job $cancelled's results"
  said=$(cd "$submit_dir" && marked sbatch --wait --nodes=1 --cpus-per-task="$cpus_per_node" --time=20 \
    --output="$submit_dir/resumed-%j.log" --wrap "$ladder run --resume $(dirname "$journal")" 2>&1) ||
    fail "the resumed run failed: $said; $(cat "$submit_dir"/resumed-*.log)"
  python3 "$results_check" complete "$(dirname "$journal")" 4 || fail "job $cancelled's run, resumed"
  [ "$(grep -m1 '"kind":"cell"' "$journal")" = "$first" ] || fail "the resumed run changed a finished cell"
  echo "job $cancelled, cancelled after a cell, resumed in a new allocation ($said)"

  wait_for_end "$limited" 240
  [ "$(job_state "$limited")" = TIMEOUT ] || fail "job $limited is $(job_state "$limited"), not TIMEOUT"
  grep -q "SIGTERM; waiting for the run" "$submit_dir/limited-$limited.log" ||
    fail "the script did not wait for the run it started: $(tail -n 20 "$submit_dir/limited-$limited.log")"
  python3 "$results_check" interrupted "$submit_dir/ladder-out/slurm-$limited/mpi" "$limited" time-limit ||
    fail "job $limited's results: $(tail -n 20 "$submit_dir/limited-$limited.log")"
  echo "job $limited: TIMEOUT, and its results say so"
}
