#!/usr/bin/env python3
"""What tests/slurm_cluster_test.sh expects of the results a Slurm job left, read from results.json.

  slurm_results.py mpi DIR JOB NODES CPUS      the mpi run: ranks 1, 2, 4 … NODES on NODES nodes, each ok
  slurm_results.py ladder DIR JOB TIERS CPUS    the whole ladder: every tier of TIERS (comma-separated) ran,
                                                the mpi tier at 1 and 2 ranks where the machine has 2 CPUs
  slurm_results.py interrupted DIR JOB REASON   stopped part-way: REASON is cancelled or time-limit
  slurm_results.py complete DIR CELLS           finished, with CELLS cells, each ok

Every ok cell's result is checked against the midpoint sum computed here, independently of Ladder. Prints
what is wrong and exits 1, or prints a line of what was found.
"""
import json
import math
import sys


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def midpoint_sum(a, b, n):
    """The gauss integrand's midpoint sum, exp(-x^2) at n midpoints of [a, b], summed exactly (fsum)."""
    h = (b - a) / n
    return math.fsum(math.exp(-(a + (i + 0.5) * h) ** 2) for i in range(n)) * h


def load(directory):
    with open(f"{directory}/results.json") as file:
        return json.load(file)


def cells(results):
    return [record for record in results["cells"] if record.get("kind") == "cell"]


def check_values(records):
    """Each ok cell's result agrees with the midpoint sum to 1e-12 (rounding alone is about 1e-16)."""
    sums = {}
    for record in records:
        if record["status"] != "ok":
            continue
        cell = record["cell"]
        if cell["integrand"] != "gauss":
            fail(f"{record['name']}: integrand {cell['integrand']}, the test only sums gauss")
        key = (cell["a"], cell["b"], cell["n"])
        if key not in sums:
            sums[key] = midpoint_sum(*key)
        result = record["measurement"]["result"]
        if abs(result - sums[key]) > 1e-12 * abs(sums[key]):
            fail(f"{record['name']}: result {result!r}, the midpoint sum is {sums[key]!r}")


def check_allocation(results, job):
    """The run's context records the job it ran in, and its label names it."""
    environment = results["context"]["parallel_environment"]
    if environment.get("SLURM_JOB_ID") != job:
        fail(f"context.parallel_environment.SLURM_JOB_ID is {environment.get('SLURM_JOB_ID')!r}, not {job}")
    for name in ("SLURM_JOB_NODELIST", "SLURM_JOB_NUM_NODES", "SLURM_CPUS_PER_TASK"):
        if name not in environment:
            fail(f"context.parallel_environment has no {name}: {environment}")
    if f"slurm job {job}" not in results["context"]["run"]["label"]:
        fail(f"the label does not name the job: {results['context']['run']['label']!r}")
    return environment


def check_mpi(directory, job, nodes, cpus):
    results = load(directory)
    environment = check_allocation(results, job)
    if environment["SLURM_JOB_NUM_NODES"] != nodes or environment["SLURM_CPUS_PER_TASK"] != cpus:
        fail(f"the allocation recorded is {environment}, the job had {nodes} nodes of {cpus} CPUs")
    records = cells(results)
    ranks = sorted(record["cell"]["ranks"] for record in records)
    expected = [1] + [count for count in (2, 4, 8, 16) if count <= int(nodes)]
    if int(nodes) not in expected:
        expected.append(int(nodes))
    if ranks != expected:
        fail(f"mpi cells with ranks {ranks}, expected {expected}")
    for record in records:
        if record["cell"]["tier"] != "mpi" or record["status"] != "ok":
            fail(f"{record['name']}: {record['status']} {record.get('reason', '')}")
        if record["cell"]["threads"] != int(cpus):
            fail(f"{record['name']}: {record['cell']['threads']} threads, the job gave {cpus} CPUs a task")
    check_values(records)
    if results["context"]["run"]["status"] != "complete":
        fail(f"the mpi run is {results['context']['run']['status']}")
    print(f"mpi: ranks {ranks} ok, results right, allocation {environment}")


def check_ladder(directory, job, tiers, cpus):
    results = load(directory)
    check_allocation(results, job)
    records = cells(results)
    ran = {record["cell"]["tier"] for record in records}
    if set(tiers) - ran:
        fail(f"the whole ladder lacks {sorted(set(tiers) - ran)}")
    for record in records:
        if record["status"] not in ("ok", "unavailable"):
            fail(f"{record['name']}: {record['status']} {record.get('reason', '')}")
    mpi = sorted({r["cell"]["ranks"] for r in records if r["cell"]["tier"] == "mpi" and r["status"] == "ok"})
    expected = [1, 2] if int(cpus) >= 2 else [1]
    if mpi != expected:
        fail(f"the mpi tier on one node ran ok with ranks {mpi}, expected {expected}")
    check_values(records)
    unavailable = sorted({r["cell"]["tier"] for r in records if r["status"] == "unavailable"})
    print(f"whole ladder: {len(records)} cells of {len(ran)} tiers; unavailable here: {unavailable or 'none'}")


def check_interrupted(directory, job, reason):
    results = load(directory)
    run = results["context"]["run"]
    warnings = {warning["kind"]: warning["message"] for warning in results["context"]["warnings"]}
    if run["status"] != "interrupted" or run["cells_done"] >= run["cells_total"]:
        fail(f"the run is {run['status']} with {run['cells_done']} of {run['cells_total']} cells")
    if "incomplete" not in warnings:
        fail(f"no 'incomplete' warning: {sorted(warnings)}")
    said = warnings.get("time limit", "")
    if reason == "time-limit" and f"Slurm job {job} reached its time limit" not in said:
        fail(f"the time limit is not in the warnings: {warnings}")
    if reason == "cancelled" and said:
        fail(f"a cancelled job is said to have reached its time limit: {said}")
    check_values(cells(results))
    done = f"{run['cells_done']} of {run['cells_total']} cells"
    print(f"interrupted ({reason}): {done}; {said or warnings['incomplete']}")


def check_complete(directory, count):
    results = load(directory)
    records = cells(results)
    if results["context"]["run"]["status"] != "complete" or len(records) != int(count):
        fail(f"the run is {results['context']['run']['status']} with {len(records)} cells, expected {count}")
    for record in records:
        if record["status"] != "ok":
            fail(f"{record['name']}: {record['status']} {record.get('reason', '')}")
    check_values(records)
    print(f"complete: {len(records)} cells ok")


if __name__ == "__main__":
    checks = {"mpi": check_mpi, "ladder": check_ladder, "interrupted": check_interrupted,
              "complete": check_complete}
    if len(sys.argv) < 3 or sys.argv[1] not in checks:
        fail(f"usage: {sys.argv[0]} {'|'.join(checks)} DIR …")
    arguments = sys.argv[2:]
    if sys.argv[1] == "ladder":
        arguments[2] = arguments[2].split(",")
    checks[sys.argv[1]](*arguments)
