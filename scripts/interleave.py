#!/usr/bin/env python3
"""Times shell commands in rounds, one run of each per round, and writes their
medians as hyperfine's `--export-json` does (`{"results": [{"command", "median"}]}`).

hyperfine runs each command's runs one after the other, so on a machine whose
speed drifts over seconds (a shared VM) a ratio such as check / floor compares
different moments. Alternating the commands puts every one on the same drift. Like hyperfine, the
time the shell takes to start (an empty command, timed in the same rounds) is
taken off each median.

usage: interleave.py OUT.json ROUNDS NAME COMMAND [NAME COMMAND...]
"""

import json
import statistics
import subprocess
import sys
import time

WARMUP_ROUNDS = 2


def main() -> int:
    if len(sys.argv) < 5 or len(sys.argv) % 2 != 1:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    out, rounds = sys.argv[1], int(sys.argv[2])
    commands = list(zip(sys.argv[3::2], sys.argv[4::2]))
    shell = "shell start (subtracted)"
    commands.append((shell, ":"))
    times = {name: [] for name, _ in commands}
    for round_number in range(WARMUP_ROUNDS + rounds):
        for name, command in commands:
            start = time.perf_counter()
            # Failures are timed, as with hyperfine's --ignore-failure (check exits 1
            # when it finds something), but a command the shell cannot run is not.
            status = subprocess.run(command, shell=True, check=False).returncode
            elapsed = time.perf_counter() - start
            if status in (126, 127):
                print(f"error: the shell could not run {name}: {command}", file=sys.stderr)
                return 1
            if round_number >= WARMUP_ROUNDS:
                times[name].append(elapsed)
    overhead = statistics.median(times.pop(shell))
    results = []
    for name, runs in times.items():
        runs = [run - overhead for run in runs]
        results.append({"command": name, "median": statistics.median(runs), "times": runs})
    with open(out, "w", encoding="utf-8") as file:
        json.dump({"results": results}, file, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
