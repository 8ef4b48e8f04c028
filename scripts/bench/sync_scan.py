#!/usr/bin/env python3
"""What watching a shared cache costs: one `cfuzz run` on a cache of N entries while another
writer adds an entry every half second (as other runs sharing the cache would).

  python3 scripts/bench/sync_scan.py [--entries 100000] [--secs 40]

Prints the coordinator's own figures from its `done` event: directory checks, listings,
time spent, per listing, and as a share of the run's wall time; and how many of the added
entries it imported. Needs build/bin/cfuzz and build/bin/cfuzz-clang++ (scripts/bench.sh
builds them)."""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CFUZZ = ROOT / "build" / "bin" / "cfuzz"
CFUZZ_CXX = ROOT / "build" / "bin" / "cfuzz-clang++"


def v1(data: bytes) -> str:
    return "go test fuzz v1\n[]byte(\"" + "".join(f"\\x{b:02x}" for b in data) + "\")\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--entries", type=int, default=100000)
    ap.add_argument("--secs", type=int, default=40)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="cfuzz-sync-bench-"))
    try:
        target = work / "empty"
        subprocess.run([CFUZZ_CXX, "-O1", ROOT / "scripts/bench/targets/empty.cc", "-o", target], check=True)
        entries = work / "cache" / "LLVMFuzzerTestOneInput"
        entries.mkdir(parents=True)
        rng = random.Random(1)
        for i in range(args.entries):
            (entries / f"{i:016x}").write_text(v1(rng.randbytes(rng.randint(8, 64))))
        stop = threading.Event()
        added = [0]

        def writer():
            # Another run's writes: a temporary name, then a rename, as cfuzz writes.
            while not stop.wait(0.5):
                tmp = entries / f".w.cfuzz-tmp-{added[0]}"
                tmp.write_text(v1(rng.randbytes(16)))
                os.rename(tmp, entries / f"f{added[0]:015x}")
                added[0] += 1

        t = threading.Thread(target=writer)
        t.start()
        r = subprocess.run([CFUZZ, "run", target, "--cachedir", work / "cache", "--parallel", "1",
                            "--fuzztime", f"{args.secs}s", "--json"], capture_output=True, text=True, cwd=work)
        stop.set()
        t.join()
        done = [json.loads(l) for l in r.stdout.splitlines() if l.startswith("{") and '"done"' in l]
        fuzzing = [json.loads(l) for l in r.stdout.splitlines() if l.startswith("{") and '"fuzzing"' in l]
        if not done or not fuzzing:
            sys.exit(f"sync_scan: no summary from cfuzz:\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
        d = done[-1]
        fuzz_secs = d["elapsed"] - fuzzing[-1]["elapsed"]
        per = d["sync_seconds"] / d["sync_listings"] * 1000 if d["sync_listings"] else 0
        print(f"cache of {args.entries} entries, {added[0]} added by another writer during the run")
        print(f"checks {d['sync_scans']}, listings {d['sync_listings']}, time {d['sync_seconds'] * 1000:.1f} ms "
              f"({per:.1f} ms per listing), {100 * d['sync_seconds'] / fuzz_secs:.2f}% of the "
              f"{fuzz_secs:.1f} s of fuzzing; imported (new coverage) {d['synced']}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
