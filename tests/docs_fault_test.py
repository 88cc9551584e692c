"""Runs a doc check (docs_*_check.py) over a planted-broken fixture and holds it to biting: it must exit 1,
print every fault the fixture's expected.txt lists (one a line, matched as text), and, where expected.txt
opens with `faults: N`, find exactly N (so what the fixture holds that is right is not flagged).

    python3 tests/docs_fault_test.py tests/fixtures/docs-faults/links/expected.txt -- python3 tests/docs_links_check.py DIR
"""

import re
import subprocess
import sys


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit(__doc__)
    expected = [line for line in open(sys.argv[1], encoding="utf-8").read().split("\n") if line]
    count = int(expected.pop(0).split(":")[1]) if expected and expected[0].startswith("faults:") else None
    result = subprocess.run(sys.argv[3:], capture_output=True, text=True)
    output = result.stdout + result.stderr
    print(output)
    wrong = []
    if result.returncode != 1:
        wrong.append(f"the check exited {result.returncode}, not 1")
    wrong += [f"the check did not say: {line}" for line in expected if line not in output]
    found = re.search(r"^(\d+) (?:fault|broken link)", output, re.M)
    if count is not None and (found is None or int(found.group(1)) != count):
        wrong.append(f"the check found {found.group(1) if found else 'no count of'} faults, not {count}")
    for line in wrong:
        print("FAILED:", line)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
