#!/usr/bin/env bash
# scripts/slurm-matrix.sbatch on a real Slurm: the test starts a cluster of its own on this machine (MUNGE
# with a key it makes, slurmctld, and a slurmd for each of two nodes that share the machine's CPUs, each
# listening on its own port of 127.0.0.1), submits the script with a tiny matrix and checks its results:
# the mpi cells on 1 and 2 nodes, the whole ladder on one, the report over both, the allocation in their
# context. Then the faults: outside an allocation, a job cancelled mid-run and resumed in a new one, a job
# that reaches its time limit. Every file is in a scratch directory, and no daemon outlives the test.
#   usage: tests/slurm_cluster_test.sh SCRIPT LADDER
#   It needs root (slurmd runs jobs as any user) and the slurm-wlm, munge and openmpi-bin packages; without
#   them it exits 77, a skip with the reason. LADDER_SLURM_TEST_PLANT=wrong-hostfile submits a copy of the
#   script that writes the machine's host name into the hostfile instead of the allocation's nodes, as a
#   script that ignored the allocation would: the test must then fail.
set -uo pipefail
script=$(realpath "$1")
ladder=$(realpath "$2")
started=$SECONDS
skip() {
  echo "skipped: $*"
  exit 77
}

[ "$(id -u)" -eq 0 ] || skip "needs root, to run slurmd (as CI does); running as uid $(id -u)"
# Slurm 22.05's slurmd sets up its cgroup plugin even with none configured, and fails where no cgroup
# filesystem is mounted ("No filesystem mounted on /sys/fs/cgroup": a bare Debian root in a chroot). There
# the test runs itself again in a mount namespace of its own, with a cgroup hierarchy mounted on
# /sys/fs/cgroup inside it alone (tmpfs, with the freezer controller and the named systemd hierarchy that
# slurmd's cgroup/v1 looks for, as this kernel's cgroup v1; else cgroup2): nothing outside the namespace
# changes, and it goes when the test ends. The mount under /sys/fs/cgroup is made private in the namespace
# first, so the new mounts cannot propagate out (unshare's own --propagation private changes /, which is no
# mount point in a chroot: "cannot change root filesystem propagation").
if ! grep -qs ' /sys/fs/cgroup[ /]' /proc/self/mounts; then
  [ -z "${LADDER_SLURM_TEST_CGROUP:-}" ] ||
    skip "no cgroup filesystem at /sys/fs/cgroup, which slurmd 22.05 needs, and none could be mounted"
  command -v unshare >/dev/null ||
    skip "no cgroup filesystem at /sys/fs/cgroup, which slurmd 22.05 needs, and no unshare to mount one"
  exec unshare --mount --propagation unchanged env LADDER_SLURM_TEST_CGROUP=mounted bash -c '
    holder=$(findmnt -n -o TARGET -T /sys/fs/cgroup) && mount --make-rprivate "$holder" ||
      { echo "skipped: no cgroup filesystem at /sys/fs/cgroup, and its mount could not be made private"; exit 77; }
    if grep -qw freezer /proc/cgroups; then
      mount -t tmpfs cgroups /sys/fs/cgroup && mkdir /sys/fs/cgroup/freezer /sys/fs/cgroup/systemd &&
        mount -t cgroup -o freezer cgroup /sys/fs/cgroup/freezer &&
        mount -t cgroup -o none,name=systemd cgroup /sys/fs/cgroup/systemd
    else
      mount -t cgroup2 cgroup2 /sys/fs/cgroup
    fi || { echo "skipped: no cgroup filesystem at /sys/fs/cgroup, and mounting one failed"; exit 77; }
    exec "$0" "$@"' "$0" "$@"
fi
missing=()
for command in munged mungekey slurmctld slurmd sbatch srun scontrol squeue scancel sacct sinfo mpirun \
  python3; do
  command -v "$command" >/dev/null || missing+=("$command")
done
[ ${#missing[@]} -eq 0 ] ||
  skip "not installed: ${missing[*]} (scripts/install-deps.sh --tests installs them)"
"$ladder" list | awk '$2 == "mpi" { found = 1 } END { exit !found }' ||
  skip "this build of Ladder has no mpi tier (MPI not found by CMake)"

# Slurm's variables of an allocation this test might itself run in would mislead every command below.
unset $(compgen -v SLURM_) 2>/dev/null
scratch=$(mktemp -d "${TMPDIR:-/tmp}/ladder-slurm.XXXXXX")
chmod 755 "$scratch"  # munged refuses a socket in a directory that others cannot search
export SLURM_CONF=$scratch/slurm.conf TMPDIR=$scratch/tmp
export LADDER_CACHE_DIR=$scratch/cache LADDER_HISTORY=$scratch/history.sqlite LADDER=$ladder
mkdir -p "$scratch"/{munge,state,log,tmp,submit} "$scratch"/spool/node{1,2}
touch "$scratch/started"

# Every daemon, and every job (their processes, and the slurmstepd that runs them), is started with this
# variable in its environment, which their children inherit: how the cleanup finds, by PID, what is left.
marked() { env "LADDER_SLURM_TEST_SCRATCH=$scratch" "$@"; }
marked_processes() {
  local environ
  for environ in /proc/[0-9]*/environ; do
    tr '\0' '\n' 2>/dev/null <"$environ" | grep -qxF "LADDER_SLURM_TEST_SCRATCH=$scratch" &&
      basename "$(dirname "$environ")"
  done
}

# Stops jobs and daemons, checks by PID that nothing of the cluster is left, and removes the scratch
# directory; the exit status is a failure when something was left.
stop_cluster() {
  local status=$? left
  trap - EXIT
  # A job's slurmstepd outlives its slurmd: the jobs are cancelled and gone before the daemons stop.
  if [ -s "$scratch/slurmctld.pid" ]; then
    local jobs
    jobs=$(squeue --noheader --format=%i 2>/dev/null)
    [ -z "$jobs" ] || scancel $jobs 2>/dev/null
    for _ in $(seq 40); do
      [ -z "$(squeue --noheader 2>/dev/null)" ] && break
      sleep 1
    done
    scontrol shutdown >/dev/null 2>&1
  fi
  [ -s "$scratch/munge/munged.pid" ] && munged --socket="$scratch/munge/socket" --stop >/dev/null 2>&1
  for _ in $(seq 30); do
    left=$(marked_processes)
    [ -z "$left" ] && break
    sleep 1
  done
  if [ -n "$left" ]; then
    echo "FAIL: still running after the cluster was stopped (now killed):"
    for pid in $left; do echo "  $pid $(tr '\0' ' ' 2>/dev/null </proc/"$pid"/cmdline)"; done
    kill -KILL $left 2>/dev/null
    status=1
  fi
  # Nothing of Slurm, MUNGE or Open MPI written outside the scratch directory. Another system's root on this
  # machine (a chroot with a /proc of its own mounted: a brand-new Debian root under test) holds another
  # system's files, not this test's: left out. So is each Ladder job's own Open MPI session directory,
  # $TMPDIR/ladder-mpi.* (variants/mpi_runtime.hpp), which the mpi tests running beside this one hold while
  # their jobs run, and which every job removes (MpiTier.EachJobHasASessionDirectoryOfItsOwn…): this test's
  # jobs make theirs in the scratch directory, and an Open MPI that ignored it would write /tmp/ompi.*.
  local outside other_roots=() root
  while read -r root; do other_roots+=(-path "$root" -prune -o); done < <(
    awk '$3 == "proc" && $2 != "/proc" { sub(/\/proc$/, "", $2); print $2 }' /proc/mounts)
  outside=$(find /etc /var /run /dev/shm /tmp -xdev "${other_roots[@]}" -name 'ladder-mpi.*' -prune -o \
    -newer "$scratch/started" \
    \( -iname '*slurm*' -o -iname '*munge*' -o -name 'ompi.*' -o -name 'openmpi-sessions*' \) \
    -not -path "$scratch*" -print 2>/dev/null)
  [ -z "$outside" ] || {
    echo "FAIL: files written outside $scratch: $outside"
    status=1
  }
  rm -rf "$scratch"
  echo "the test took $((SECONDS - started)) s"
  exit "$status"
}
trap stop_cluster EXIT

fail() {
  echo "FAIL: $*"
  for log in "$scratch"/log/*.log; do
    echo "--- the last lines of $log"
    tail -n 15 "$log"
  done
  exit 1
}

# Free ports for slurmctld and each slurmd, all held until every one is chosen. They are taken below the
# kernel's ephemeral range (ip_local_port_range), from which every outgoing connection on the machine takes
# its local port: a port chosen there could be taken by another program's connection before slurmctld binds
# it ("Address already in use"), as it was once beside a brand-new root's apt. Bound on every address, as
# the daemons bind them.
read -r ctld_port node1_port node2_port < <(python3 -c '
import random, socket
low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
held = []
for port in random.sample(range(10000, max(low, 10100)), 200):
    s = socket.socket()
    try:
        s.bind(("", port))
    except OSError:
        s.close()
        continue
    held.append(s)
    if len(held) == 3:
        break
print(*[s.getsockname()[1] for s in held])')

# The machine's CPUs, split between two nodes; a machine of one CPU makes a cluster of one node.
cpus=$(nproc)
if [ "$cpus" -ge 2 ]; then node_count=2; else node_count=1; fi
cpus_per_node=$((cpus / node_count))

write_config() {
  cat >"$SLURM_CONF" <<CONF
ClusterName=ladder-test
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$node1_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$scratch/munge/socket
StateSaveLocation=$scratch/state
SlurmdSpoolDir=$scratch/spool/%n
SlurmctldPidFile=$scratch/slurmctld.pid
SlurmdPidFile=$scratch/slurmd-%n.pid
SlurmctldLogFile=$scratch/log/slurmctld.log
SlurmdLogFile=$scratch/log/slurmd-%n.log
# No cgroup plugin: processes are tracked through their parents, and not bound.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$scratch/log/jobcomp.txt
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
# The nodes are given as many CPUs as the test splits to them, whatever the hardware says.
SlurmdParameters=config_overrides
# Time for ladder to record what it finished, between SIGTERM and SIGKILL.
KillWait=20
NodeName=node1 NodeHostname=localhost NodeAddr=127.0.0.1 Port=$node1_port CPUs=$cpus_per_node State=UNKNOWN
CONF
  [ "$node_count" -eq 1 ] ||
    echo "NodeName=node2 NodeHostname=localhost NodeAddr=127.0.0.1 Port=$node2_port CPUs=$cpus_per_node" \
      "State=UNKNOWN" >>"$SLURM_CONF"
  echo "PartitionName=test Nodes=node[1-$node_count] Default=YES MaxTime=INFINITE State=UP" >>"$SLURM_CONF"
}

start_cluster() {
  mungekey --create --keyfile="$scratch/munge/munge.key" || fail "mungekey could not make a key"
  marked munged --socket="$scratch/munge/socket" --key-file="$scratch/munge/munge.key" \
    --pid-file="$scratch/munge/munged.pid" --log-file="$scratch/log/munged.log" \
    --seed-file="$scratch/munge/munged.seed" || fail "munged did not start: $(cat "$scratch/log/munged.log")"
  write_config
  marked slurmctld -i || fail "slurmctld did not start"
  for node in $(seq 1 "$node_count"); do
    marked slurmd -N "node$node" || fail "slurmd -N node$node did not start"
  done
  for _ in $(seq 60); do
    [ "$(sinfo --noheader --states=idle --format=%D 2>/dev/null)" = "$node_count" ] && return
    kill -0 "$(cat "$scratch/slurmctld.pid" 2>/dev/null)" 2>/dev/null ||
      fail "slurmctld stopped: $(tail -n 1 "$scratch/log/slurmctld.log")"
    sleep 1
  done
  fail "the $node_count nodes did not come up idle: $(sinfo 2>&1)"
}

source "$(dirname "$0")/slurm_cluster_checks.sh"
start_cluster
echo "cluster up: $node_count nodes of $cpus_per_node CPUs, slurmctld on port $ctld_port"
check_outside_an_allocation
check_the_matrix
check_cancel_and_resume_and_time_limit
echo "scripts/slurm-matrix.sbatch on a real Slurm of $node_count nodes: as expected"
