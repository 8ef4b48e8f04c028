#!/usr/bin/env python3
"""Where the coordinator saturates, on a machine with fewer cores than workers: the real
`cfuzz run` against N stub workers that answer each fuzz call after the call's 20 ms, as a
real worker does, without using a CPU for it.

  python3 scripts/bench/coordinator_load.py [--workers 2,16,64,128,256] [--secs 8]

The stub (written to a temporary directory) is a target as the coordinator sees one: it
answers --cfuzz-describe, then serves the worker protocol on fds 3 and 4 (docs/rpc-protocol.md):
`ping`, `exec`, and `fuzz`, for which it sleeps the call's deadline, writes the executions it
claims (60000, the empty target's rate) into the shared memory's exec_count, and reports no
new coverage. Its target has 10,000 counters, so that the mask copied into each call is a
real target's size.

For each N: fuzz calls per second the coordinator got through, against the N / 20 ms the
workers could take; the coordinator's own CPU time (its threads, from /proc, not the
stubs'), per call and as cores; the stubs' CPU, which on a small machine competes with it.
The coordinator saturates where calls fall behind N / 20 ms while its CPU nears the
machine's cores, or its per-call cost grows (lock contention)."""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CFUZZ = ROOT / "build" / "bin" / "cfuzz"
EXECS_PER_CALL = 60000
CALL_SECONDS = 0.020  # core/fuzz_call_plan.h: kCallMillis

STUB = r'''#!/usr/bin/env python3
import json, mmap, os, struct, sys, time
COUNTERS = 10000
EXECS = %d
EXEC_COUNT_OFFSET = 112  # core/shm_layout.h: ShmHeader::exec_count
def out(fd, obj):
    os.write(fd, (json.dumps(obj, separators=(",", ":")) + "\n").encode())
if "--cfuzz-describe" in sys.argv:
    try:
        os.fstat(3)
        fd = 3
    except OSError:
        fd = 1
    out(fd, {"protocol": 1, "counters": COUNTERS, "modules": 1, "srcdir": os.getcwd(),
             "tests": [{"name": "FuzzStub", "types": ["[]uint8"], "seeds": []}]})
    sys.exit(0)
shm = mmap.mmap(5, 0)
buf = b""
while True:
    chunk = os.read(3, 65536)
    if not chunk:
        os._exit(0)
    buf += chunk
    while b"\n" in buf:
        line, buf = buf.split(b"\n", 1)
        req = json.loads(line)
        method, params = req["method"], req.get("params", {})
        if method == "ping":
            res = {"protocol": 1, "pid": os.getpid(), "test": "FuzzStub", "types": ["[]uint8"], "counters": COUNTERS}
        elif method == "fuzz":
            ms = params.get("deadline_ms") or 20
            time.sleep(ms / 1000)
            shm[EXEC_COUNT_OFFSET:EXEC_COUNT_OFFSET + 8] = struct.pack("<Q", EXECS)
            res = {"status": "ok", "execs": EXECS, "duration_ns": ms * 1000000, "new_bits": 0,
                   "exec_ns": ms * 1000000 // EXECS, "new_words": [], "useful_words": []}
        else:
            res = {"status": "ok", "duration_ns": 1000, "new_bits": 0}
        out(4, {"jsonrpc": "2.0", "id": req["id"], "result": res})
''' % EXECS_PER_CALL

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """utime + stime of process `pid` (all its threads, not its children)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS
    except (OSError, IndexError, ValueError):
        return None


def children_of(pid):
    kids = []
    for task in Path(f"/proc/{pid}/task").glob("*"):  # each worker thread spawns its own
        try:
            kids += [int(k) for k in (task / "children").read_text().split()]
        except OSError:
            pass
    return kids


def measure(stub, work, n, secs):
    cache = work / f"cache-{n}"
    p = subprocess.Popen([CFUZZ, "run", stub, "--cachedir", cache, "--parallel", str(n), "--fuzztime", f"{secs}s",
                          "--json"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=work)
    started_at, coordinator_cpu, cpu_at_start = None, 0.0, 0.0
    stubs = {}  # pid -> [cpu when first seen after fuzzing began, cpu last seen]
    lines = []
    os.set_blocking(p.stdout.fileno(), False)
    while p.poll() is None:
        time.sleep(0.25)
        for line in iter(p.stdout.readline, ""):
            lines.append(line)
            if started_at is None and '"event":"fuzzing"' in line.replace(" ", ""):
                started_at = time.monotonic()
                cpu_at_start = cpu_seconds(p.pid) or 0.0
        if started_at is None:
            continue
        now = cpu_seconds(p.pid)
        if now is not None:
            coordinator_cpu = now - cpu_at_start
        for kid in children_of(p.pid):
            cpu = cpu_seconds(kid)
            if cpu is not None:
                stubs.setdefault(kid, [cpu, cpu])[1] = cpu
    stub_cpu = sum(last - first for first, last in stubs.values())
    lines += p.stdout.readlines()
    done = [json.loads(l) for l in lines if '"event":"done"' in l.replace(" ", "")]
    fuzzing = [json.loads(l) for l in lines if '"event":"fuzzing"' in l.replace(" ", "")]
    if not done or not fuzzing:
        sys.exit(f"coordinator_load: no result from cfuzz with {n} workers:\n{''.join(lines)[-2000:]}")
    fuzz_secs = done[-1]["elapsed"] - fuzzing[-1]["elapsed"]
    calls = done[-1]["execs"] / EXECS_PER_CALL
    return calls / fuzz_secs, coordinator_cpu, stub_cpu, fuzz_secs, calls


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", default="2,16,64,128,256")
    ap.add_argument("--secs", type=int, default=8)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="cfuzz-coordinator-load-"))
    try:
        stub = work / "stub_worker"
        stub.write_text(STUB)
        stub.chmod(0o755)
        print(f"{os.cpu_count()} CPUs; each fuzz call {CALL_SECONDS * 1000:.0f} ms; stub workers")
        print(f"{'workers':>7} {'calls/s':>9} {'of N/20ms':>9} {'coord CPU':>10} {'per call':>9} {'stubs CPU':>9}")
        for n in (int(x) for x in args.workers.split(",")):
            rate, coord_cpu, stub_cpu, fuzz_secs, calls = measure(stub, work, n, args.secs)
            ideal = n / CALL_SECONDS
            # CPU samples cover fuzzing up to the last sample, about the fuzzing time.
            print(f"{n:>7} {rate:>9.0f} {100 * rate / ideal:>8.1f}% {coord_cpu / fuzz_secs:>9.2f}c "
                  f"{1e6 * coord_cpu / calls:>7.1f}us {stub_cpu / fuzz_secs:>8.2f}c")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
