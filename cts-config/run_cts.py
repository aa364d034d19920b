#!/usr/bin/env python3
"""Runs a tier of the OpenCL-CTS against exactly one OpenCL vendor library.

The CTS is built outside this repository, from its own sources by its own
instructions (see docs/conformance.md); this script only runs its binaries.
For each entry of the tier it runs the binary with the entry's arguments,
selecting the library under test through a private vendors directory that
holds one .icd file (OCL_ICD_VENDORS; Debian's ocl-icd ignores
OCL_ICD_FILENAMES), collects per-sub-test results from the CTS harness's
JSON file (CL_CONFORMANCE_RESULTS_FILENAME), compares them with
expectations.txt, prints a table and a summary, and exits non-zero on any
regression: an expected pass that failed, crashed, timed out or is missing.

  run_cts.py --cts-build DIR --library /path/libweft.so [--tier smoke]
             [--only NAME,...] [--json FILE] [--csv FILE] [--log-dir DIR]
             [--timeout-scale X] [--preload SANITIZER_RUNTIME]
"""

import argparse
import csv
import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent


@dataclass
class Entry:
    """One line of a tier: a CTS binary with its arguments."""

    name: str
    binary: str
    timeout: int
    args: list


@dataclass
class Expectation:
    status: str  # "pass" or "fail"
    reason: str = ""


@dataclass
class Outcome:
    entry: Entry
    result: str = "PASS"  # PASS FAIL CRASH TIMEOUT MISSING
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    seconds: float = 0.0
    failed_subtests: list = field(default_factory=list)
    regressions: list = field(default_factory=list)
    unexpected_passes: list = field(default_factory=list)
    log: str = ""


def read_tier(name):
    """Tier files: `name, binary, timeout-seconds, args...` (# comments)."""
    path = HERE / "tiers" / f"{name}.csv"
    entries = []
    for row in csv.reader(line for line in path.read_text().splitlines()
                          if line.strip() and not line.lstrip().startswith("#")):
        row = [c.strip() for c in row]
        if len(row) < 3:
            raise SystemExit(f"{path}: bad line {row}")
        entries.append(Entry(row[0], row[1], int(row[2]), shlex.split(" ".join(row[3:]))))
    return entries


def read_expectations():
    """expectations.txt: `test[/sub-test] pass` or `test[/sub-test] fail reason...`."""
    out = {}
    path = HERE / "expectations.txt"
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 2)
        if len(parts) < 2 or parts[1] not in ("pass", "fail"):
            raise SystemExit(f"{path}: bad line: {line}")
        if parts[1] == "fail" and len(parts) < 3:
            raise SystemExit(f"{path}: a known failure needs a reason: {line}")
        out[parts[0]] = Expectation(parts[1], parts[2] if len(parts) > 2 else "")
    return out


def run_entry(entry, cts_build, env, log_dir, extra_args=()):
    outcome = Outcome(entry)
    binary = Path(cts_build) / entry.binary
    if not binary.exists():
        outcome.result = "MISSING"
        return outcome
    results_file = log_dir / f"{entry.name}.json"
    log_file = log_dir / f"{entry.name}.log"
    results_file.unlink(missing_ok=True)
    run_env = dict(env, CL_CONFORMANCE_RESULTS_FILENAME=str(results_file))
    start = time.monotonic()
    with open(log_file, "w") as log:
        # Its own session, so a timeout kills the binary and its children.
        proc = subprocess.Popen([str(binary)] + entry.args + list(extra_args),
                                cwd=binary.parent, env=run_env,
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            code = proc.wait(timeout=entry.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            code = None
    outcome.seconds = time.monotonic() - start
    outcome.log = str(log_file)
    if results_file.exists():
        try:
            results = json.loads(results_file.read_text()).get("results", {})
        except json.JSONDecodeError:
            results = {}
        for sub, status in results.items():
            if status == "pass":
                outcome.passed += 1
            elif status == "skip":
                outcome.skipped += 1
            else:
                outcome.failed += 1
                outcome.failed_subtests.append(sub)
    if code is None:
        outcome.result = "TIMEOUT"
    elif code < 0:
        outcome.result = "CRASH"
    elif code != 0 or outcome.failed:
        outcome.result = "FAIL"
    return outcome


def judge(outcome, expectations):
    """Compares an outcome with the expectations; fills regressions."""
    name = outcome.entry.name
    whole = expectations.get(name, Expectation("pass"))
    if whole.status == "fail":
        if outcome.result == "PASS":
            outcome.unexpected_passes.append(name)
        return
    if outcome.result in ("CRASH", "TIMEOUT", "MISSING"):
        outcome.regressions.append(f"{name}: {outcome.result}")
        return
    for sub in outcome.failed_subtests:
        known = expectations.get(f"{name}/{sub}")
        if not known or known.status != "fail":
            outcome.regressions.append(f"{name}/{sub}: FAIL")
    for key, exp in expectations.items():
        if key.startswith(name + "/") and exp.status == "fail":
            sub = key[len(name) + 1:]
            if sub not in outcome.failed_subtests and outcome.result != "MISSING":
                outcome.unexpected_passes.append(key)
    if outcome.result == "FAIL" and not outcome.failed_subtests:
        # Non-zero exit with no failing sub-test recorded.
        outcome.regressions.append(f"{name}: FAIL (exit status)")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cts-build", required=True, help="the CTS build directory")
    parser.add_argument("--library", required=True, help="the OpenCL vendor library to test")
    parser.add_argument("--tier", default="smoke", choices=["smoke", "core", "full"])
    parser.add_argument("--only", help="comma-separated test names of the tier to run")
    parser.add_argument("--timeout-scale", type=float, default=1.0)
    parser.add_argument("--preload", help="LD_PRELOAD for the CTS binaries only (a sanitizer's "
                        "runtime, for a sanitizer build of the library; docs/robustness.md)")
    parser.add_argument("--json", help="write the results as JSON here")
    parser.add_argument("--csv", help="write the results as CSV here")
    parser.add_argument("--log-dir", help="keep each binary's output and results here")
    parser.add_argument("--compilation-mode", choices=["online", "spir-v"], default="online",
                        help="spir-v: every kernel compiled offline to SPIR-V by "
                             "cts-config/offline_compiler.py and built with clCreateProgramWithIL "
                             "(its compilation cache in the log directory)")
    opts = parser.parse_args()

    library = Path(opts.library).resolve()
    if not library.exists():
        raise SystemExit(f"no such library: {library}")
    entries = read_tier(opts.tier)
    if opts.only:
        wanted = set(opts.only.split(","))
        entries = [e for e in entries if e.name in wanted]
    expectations = read_expectations()

    vendors = Path(tempfile.mkdtemp(prefix="cts-vendors-"))
    (vendors / "under-test.icd").write_text(f"{library}\n")
    # Absolute: each binary runs in its own directory, where a relative
    # results file would land (or fail to open).
    log_dir = Path(opts.log_dir or tempfile.mkdtemp(prefix="cts-logs-")).resolve()
    log_dir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, OCL_ICD_VENDORS=str(vendors),
               CL_DEVICE_TYPE="CL_DEVICE_TYPE_DEFAULT")
    if opts.preload:
        env["LD_PRELOAD"] = opts.preload
    extra_args = []
    if opts.compilation_mode == "spir-v":
        compiler = Path(__file__).resolve().parent / "offline_compiler.py"
        cache = log_dir / "spirv-cache"
        cache.mkdir(exist_ok=True)
        extra_args = ["--compilation-mode", "spir-v", "--compilation-program", str(compiler),
                      "--compilation-cache-path", str(cache)]

    outcomes = []
    print(f"{'test':28} {'result':8} {'pass':>6} {'fail':>6} {'skip':>6} {'seconds':>8}")
    for entry in entries:
        entry.timeout = int(entry.timeout * opts.timeout_scale)
        outcome = run_entry(entry, Path(opts.cts_build).resolve(), env, log_dir, extra_args)
        judge(outcome, expectations)
        outcomes.append(outcome)
        mark = " REGRESSION" if outcome.regressions else (
            " (known)" if expectations.get(entry.name, Expectation("pass")).status == "fail"
            else "")
        print(f"{entry.name:28} {outcome.result:8} {outcome.passed:6} {outcome.failed:6} "
              f"{outcome.skipped:6} {outcome.seconds:8.1f}{mark}", flush=True)

    totals = {k: sum(getattr(o, k) for o in outcomes) for k in ("passed", "failed", "skipped")}
    binaries_passed = sum(o.result == "PASS" for o in outcomes)
    regressions = [r for o in outcomes for r in o.regressions]
    unexpected = [u for o in outcomes for u in o.unexpected_passes]
    print(f"\n{opts.tier}: {binaries_passed}/{len(outcomes)} binaries passed; sub-tests "
          f"{totals['passed']} passed, {totals['failed']} failed, {totals['skipped']} skipped")
    for u in unexpected:
        print(f"unexpected pass (update expectations.txt): {u}")
    for r in regressions:
        print(f"REGRESSION: {r}")
    print(f"logs: {log_dir}")

    rows = [dict(test=o.entry.name, result=o.result, passed=o.passed, failed=o.failed,
                 skipped=o.skipped, seconds=round(o.seconds, 1),
                 failed_subtests=o.failed_subtests, regressions=o.regressions)
            for o in outcomes]
    if opts.json:
        Path(opts.json).write_text(json.dumps(dict(tier=opts.tier, library=str(library),
                                                   results=rows,
                                                   regressions=regressions), indent=2))
    if opts.csv:
        with open(opts.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=["test", "result", "passed", "failed", "skipped",
                                              "seconds"])
            w.writeheader()
            for r in rows:
                w.writerow({k: r[k] for k in w.fieldnames})
    return 1 if regressions else 0


if __name__ == "__main__":
    sys.exit(main())
