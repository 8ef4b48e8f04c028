#!/usr/bin/env python3
"""A soak: one real library fuzzed under AddressSanitizer for an hour, sampled every 10 s.

Not part of the test suite. It answers "does a long run stay healthy": a cfuzz worker is one
long-lived process, so whatever it keeps per input (ASan's quarantine, allocator caches, a
leak in the runtime) shows up only over time, and so does whatever the coordinator keeps.

What it does:

  build     libxml2 (its own fuzz/xml.c harness) from its Debian source package, with the
            machinery of scripts/bench/realworld.py (the `cfuzz-asan` variant: cfuzz-clang
            with -fsanitize=address, -O1 -gline-tables-only); with --fuzzer libfuzzer, the
            same harness built `-fsanitize=fuzzer,address` (`libfuzzer-asan`); with --fuzzer
            afl, AFL++'s persistent-mode driver built by `AFL_USE_ASAN=1 afl-clang-fast`
            (`afl-asan`)
  run       `cfuzz run -p WORKERS --keepfuzzing --json` from an empty corpus for --secs
            (default 3600; --workers, default 2); with --fuzzer libfuzzer, one libFuzzer
            process (`-max_total_time`, ASan's quarantine at cfuzz's 64 MiB), to tell what
            ASan and the library do in any long-lived process from what cfuzz does; with
            --fuzzer afl, two afl-fuzz instances (-M and -S, `-m none`, the seed `<a/>`) for
            as long, to put cfuzz's peak memory beside AFL++'s
  samples   every --interval seconds (default 10), from /proc: the resident set (VmRSS, its
            anonymous part RssAnon, and PSS, in which pages shared between processes count
            once), open file descriptors and threads of the coordinator
            and of each worker (for AFL++: each afl-fuzz process, and the target processes
            under it summed); the executions, execs/s over the interval and the corpus size
            from cfuzz's JSON `progress` lines (libFuzzer's status lines, AFL++'s plot_data);
            the machine's 1-minute load average; and
            how many times a worker was replaced (a new pid in its place)

It writes soak.csv (one row per sample) and soak.md (a table: the first minute, every 10
minutes, the end; whether memory, descriptors and threads were flat, how much each process
grew per million executions (the machine's load changes the executions a minute, not what
one execution keeps), and whether execs/s stayed within 10% of the first minute's) in the
run's directory, and prints the table.
ASAN_OPTIONS in its environment reach cfuzz's workers after cfuzz's own settings, so they
win: `ASAN_OPTIONS=quarantine_size_mb=64` tries a smaller quarantine (AFL++ sets its own).

The run is not pinned and takes no CPU lock (an hour of it would stall every other
benchmark): on a shared machine its execs/s follow the machine's load, which is why each
sample records the load average. Run it under `nice -n 10` beside other work.

Sources, builds and runs live in --dir (default /var/tmp/cfuzz-soak), never in the
repository; cfuzz comes from --cfuzz-build or the repository's build/.

  python3 scripts/bench/soak.py --secs 180                 # a 3-minute check
  nice -n 10 python3 scripts/bench/soak.py                 # the hour
  nice -n 10 python3 scripts/bench/soak.py --fuzzer afl    # AFL++ on the same harness
  nice -n 19 python3 scripts/bench/soak.py --secs 600 --workers 1            # one worker,
  nice -n 19 python3 scripts/bench/soak.py --secs 600 --fuzzer libfuzzer     # and libFuzzer
  python3 scripts/bench/soak.py --secs 180 --table-only    # the table again, from soak.csv
  python3 scripts/bench/soak.py --secs 180 --worker-growth-mb 32   # workers replaced soon
  python3 scripts/bench/soak.py --worker-growth-mb 0 --worker-max-age 0   # workers never replaced
"""
import argparse
import csv
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import realworld  # noqa: E402
from bench import fresh_dir, log  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = "libxml2"
AFL_SEED = b"<a/>"
AFL_ENV = {"AFL_SKIP_CPUFREQ": "1", "AFL_NO_UI": "1", "AFL_NO_AFFINITY": "1",
           "AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES": "1"}
FIELDS = ("pid", "rss_kb", "anon_kb", "pss_kb", "fds", "threads")


# ---------------------------------------------------------------- /proc

def parents():
    """{pid: parent pid} of every process."""
    out = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            out[int(entry)] = int(stat[stat.rfind(")") + 2:].split()[1])
    return out


def descendants(pid, tree):
    found, frontier = [], [pid]
    while frontier:
        p = frontier.pop()
        kids = [c for c, pp in tree.items() if pp == p]
        found += kids
        frontier += kids
    return found


def exe_of(pid):
    try:
        return os.readlink(f"/proc/{pid}/exe")
    except OSError:
        return None


def facts(pids):
    """Summed resident set, its anonymous part, its proportional share (pages shared between
    processes, such as a forked child's with its parent, count once in the sum), descriptors
    and threads of pids (the ones still alive); None when none is."""
    total, alive = dict(rss_kb=0, anon_kb=0, pss_kb=0, fds=0, threads=0), False
    for pid in pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
            fds = len(os.listdir(f"/proc/{pid}/fd"))
        except OSError:
            continue
        alive = True
        total["pss_kb"] += sum(int(l.split()[1]) for l in rollup.splitlines() if l.startswith("Pss:"))
        for line in status.splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "RssAnon", "Threads"):
                name = {"VmRSS": "rss_kb", "RssAnon": "anon_kb", "Threads": "threads"}[key]
                total[name] += int(value.split()[0])
        total["fds"] += fds
    return total if alive else None


def load_average():
    return float(Path("/proc/loadavg").read_text().split()[0])


class Slots:
    """Keeps each worker in its column: a worker that is replaced (a new pid where one went
    away) takes the column of the one it replaces, and counts as a restart."""

    def __init__(self, n):
        self.pids = [None] * n
        self.restarts = 0

    def place(self, pids):
        gone = [i for i, p in enumerate(self.pids) if p is not None and p not in pids]
        for pid in sorted(p for p in pids if p not in self.pids):
            free = [i for i, p in enumerate(self.pids) if p is None or i in gone]
            if not free:
                continue  # more processes than columns (a worker being replaced): next sample
            i = free[0]
            if i in gone:
                gone.remove(i)
                self.restarts += 1
            self.pids[i] = pid
        return list(self.pids)


# ---------------------------------------------------------------- the fuzzers

class NewLines:
    """The complete lines a growing log file has gained since the last call."""

    def __init__(self, path):
        self.path, self.offset, self.partial = path, 0, b""

    def new_lines(self):
        with open(self.path, "rb") as f:
            f.seek(self.offset)
            data = self.partial + f.read()
            self.offset = f.tell()
        lines = data.split(b"\n")
        self.partial = lines.pop()
        return lines


class CfuzzRun:
    name = "cfuzz"

    def __init__(self, cfuzz_build, binary, work, secs, seed, workers=2, growth_mb=None, max_age=None):
        self.binary, self.work = binary, work
        self.cmd = [cfuzz_build / "bin" / "cfuzz", "run", binary, "--cachedir", work / "cache", "-p", workers,
                    "--fuzztime", f"{secs}s", "--seed", seed, "--keepfuzzing", "--json", "-v"]
        if growth_mb is not None:
            self.cmd += ["--worker-growth-mb", growth_mb]
        if max_age is not None:
            self.cmd += ["--worker-max-age", max_age]
        self.env = {}
        self.slot_names = ["coordinator"] + [f"worker {i + 1}" for i in range(workers)]
        self.workers = Slots(workers)
        self.tail = NewLines(work / "stdout.txt")  # its --json lines
        self.last = self.prev = None  # progress events: the latest, and the one of the previous sample
        self.failures = 0

    def start(self, out, err):
        self.proc = subprocess.Popen([str(c) for c in self.cmd], cwd=self.work, stdout=out, stderr=err,
                                     stdin=subprocess.DEVNULL, start_new_session=True,
                                     env=dict(os.environ, **self.env))
        return self.proc

    def processes(self):
        tree = parents()
        target = os.path.realpath(self.binary)
        workers = [p for p in tree if tree[p] == self.proc.pid and exe_of(p) == target]
        return [[self.proc.pid]] + [[p] if p else [] for p in self.workers.place(workers)]

    def restarts(self):
        return self.workers.restarts

    def restart_costs(self):
        """Milliseconds each replacement of a grown or old worker took (stopping it and
        starting a new one), from -v's log."""
        text = (self.work / "stderr.txt").read_text(errors="replace")
        return [int(ms) for ms in re.findall(r"since its first call; replaced in (\d+) ms", text)]

    def exec_share(self, name):
        """The share of the run's executions that the process `name` ran (None: it runs none)."""
        return None if name == "coordinator" else 1 / (len(self.slot_names) - 1)

    def progress(self):
        """(execs, execs/s over the interval since the last sample, corpus)."""
        lines = self.tail.new_lines()
        for line in lines:
            try:
                e = json.loads(line)
            except ValueError:
                continue
            if e.get("event") in ("progress", "done"):
                self.last = e
            elif e.get("event") == "failure":
                self.failures += 1
        if self.last is None:
            return None, None, None
        rate = None
        if self.prev is not None and self.last["elapsed"] > self.prev["elapsed"]:
            rate = (self.last["execs"] - self.prev["execs"]) / (self.last["elapsed"] - self.prev["elapsed"])
        elif self.prev is None and self.last["elapsed"] > 0:
            rate = self.last["execs"] / self.last["elapsed"]
        self.prev = self.last
        return self.last["execs"], rate, self.last["corpus"]


class LibFuzzerRun:
    """One libFuzzer process on the same harness: what ASan and the library keep in any
    long-lived process, beside what a cfuzz worker keeps."""
    name = "libFuzzer"

    def __init__(self, binary, work, secs, seed):
        self.binary, self.work = binary, work
        (work / "corpus").mkdir(parents=True, exist_ok=True)
        self.cmd = [binary, f"-max_total_time={secs}", f"-seed={seed}", "-timeout=10", work / "corpus"]
        # cfuzz's workers get a 64 MiB quarantine (libfuzzdriver/worker/sanitizer_env.cc): the same
        # here, so that the two differ only in the driver. The user's options come after.
        user = os.environ.get("ASAN_OPTIONS")
        self.env = {"ASAN_OPTIONS": "quarantine_size_mb=64" + (":" + user if user else "")}
        self.slot_names = ["libFuzzer"]
        self.tail = NewLines(work / "stderr.txt")  # its status lines
        self.last = self.prev = None  # (execs, corpus, time): the latest status line, the previous sample's

    start = CfuzzRun.start

    def processes(self):
        return [[self.proc.pid]]

    def restarts(self):
        return 0

    def exec_share(self, name):
        return 1

    def progress(self):
        """From libFuzzer's status lines: `#EXECS\tNEW cov: ... corp: N/SIZE ...`."""
        lines = self.tail.new_lines()
        for line in lines:
            m = re.match(rb"#(\d+)\t.* corp: (\d+)/", line)
            if m:
                self.last = (int(m.group(1)), int(m.group(2)), time.monotonic())
        if self.last is None:
            return None, None, None
        rate = None
        if self.prev is not None and self.last[2] > self.prev[2]:
            rate = (self.last[0] - self.prev[0]) / (self.last[2] - self.prev[2])
        self.prev = self.last
        return self.last[0], rate, self.last[1]


class AflRun:
    """Two afl-fuzz instances, main and secondary, as AFL++ runs on two cores."""
    name = "AFL++"
    ROLES = (("main", "-M"), ("secondary", "-S"))

    def __init__(self, binary, work, secs, seed):
        self.binary, self.work = binary, work
        (work / "in").mkdir(parents=True, exist_ok=True)
        (work / "in" / "seed").write_bytes(AFL_SEED)
        cmds = [" ".join(f"'{c}'" for c in ["afl-fuzz", "-i", work / "in", "-o", work / "out", "-s", seed + i,
                                            "-V", secs, "-m", "none", flag, role, "--", binary])
                for i, (role, flag) in enumerate(self.ROLES)]
        self.cmd = ["sh", "-c", " & ".join(cmds) + " & wait"]
        self.env = AFL_ENV
        self.slot_names = [n for role, _ in self.ROLES for n in (f"afl-fuzz {role}", f"targets {role}")]
        self.prev = None

    start = CfuzzRun.start

    def processes(self):
        tree = parents()
        afl_fuzz = os.path.realpath(shutil.which("afl-fuzz"))
        fuzzers = sorted(p for p in descendants(self.proc.pid, tree) if exe_of(p) == afl_fuzz)
        out = []
        for i in range(len(self.ROLES)):
            pid = fuzzers[i] if i < len(fuzzers) else None
            out += [[pid] if pid else [], descendants(pid, tree) if pid else []]
        return out

    def restarts(self):
        return 0

    def exec_share(self, name):
        return None  # the fork server's children live for a while each: no one process's growth

    def progress(self):
        """Sums of the instances' last plot_data rows (written every 5 s)."""
        execs, corpus, elapsed = 0, None, None
        for role, _ in self.ROLES:
            plot = self.work / "out" / role / "plot_data"
            if not plot.exists():
                return None, None, None
            rows = [l for l in plot.read_text().splitlines() if l and not l.startswith("#")]
            if not rows:
                return None, None, None
            cols = [c.strip() for c in rows[-1].split(",")]
            execs += int(cols[11])
            if role == "main":
                corpus, elapsed = int(cols[3]), time.monotonic()
        rate = None
        if self.prev is not None and elapsed > self.prev[1]:
            rate = (execs - self.prev[0]) / (elapsed - self.prev[1])
        self.prev = (execs, elapsed)
        return execs, rate, corpus


# ---------------------------------------------------------------- sampling

def soak(run, secs, interval, work):
    """Runs the fuzzer, sampling it every interval; returns the samples."""
    samples = []
    with open(work / "stdout.txt", "wb") as out, open(work / "stderr.txt", "wb") as err, \
            open(work / "soak.csv", "w", newline="") as f:
        columns = ["t", "load1", "tree_rss_kb", "tree_pss_kb"] + \
                  [f"{s} {k}" for s in run.slot_names for k in FIELDS] + \
                  ["restarts", "execs", "execs_per_sec", "corpus"]
        writer = csv.writer(f)
        writer.writerow(columns)
        start = time.monotonic()
        proc = run.start(out, err)
        next_at = start + interval
        while proc.poll() is None:
            if time.monotonic() - start > secs + 300:
                log("soak: the fuzzer outlived its budget by 5 minutes; stopping it")
                os.killpg(proc.pid, signal.SIGINT)
                time.sleep(10)
                break
            time.sleep(max(0.0, min(1.0, next_at - time.monotonic())))
            if time.monotonic() < next_at or proc.poll() is not None:
                continue
            next_at += interval
            t = round(time.monotonic() - start, 1)
            row = dict(t=t, load1=load_average(), tree_rss_kb=0, tree_pss_kb=0)
            for name, pids in zip(run.slot_names, run.processes()):
                got = facts(pids) or {}
                row[f"{name} pid"] = pids[0] if pids else ""
                for k in FIELDS[1:]:
                    row[f"{name} {k}"] = got.get(k, "")
                row["tree_rss_kb"] += got.get("rss_kb", 0)
                row["tree_pss_kb"] += got.get("pss_kb", 0)
            execs, rate, corpus = run.progress()
            row.update(restarts=run.restarts(), execs=execs, execs_per_sec=None if rate is None else round(rate),
                       corpus=corpus)
            writer.writerow([row.get(c, "") for c in columns])
            f.flush()
            samples.append(row)
            if len(samples) % 6 == 0:
                log(f"soak: {t:.0f} s, tree RSS {row['tree_rss_kb'] / 1024:.0f} MiB, "
                    f"execs/s {row['execs_per_sec']}, corpus {corpus}, load {row['load1']}")
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()
    return samples, proc.returncode


# ---------------------------------------------------------------- the table

def number(v):
    return v if isinstance(v, (int, float)) else None


def marks(secs, interval):
    """The rows of the table: the first minute, every 10 minutes, the end."""
    points = [60] + list(range(600, secs, 600)) + [secs]
    return sorted({min(p, secs) for p in points if p >= interval})


def row_at(samples, t):
    """The last sample at or before t (the first one if none is)."""
    before = [s for s in samples if s["t"] <= t + 1]
    return before[-1] if before else samples[0]


def window(samples, t, key, width=60):
    """The values of key over the minute ending at t."""
    return [s[key] for s in samples if t - width < s["t"] <= t + 1 and number(s[key]) is not None]


def mib(kb):
    return "" if number(kb) is None else f"{kb / 1024:.0f}"


def whole(run, samples):
    """The samples in which every process was there: the last ones, taken while the fuzzer
    was stopping its workers, may miss some."""
    found = [s for s in samples if all(number(s[f"{n} rss_kb"]) is not None for n in run.slot_names)]
    return found or samples


def kept_per_execution(run, samples):
    """Sentences on what each process kept per million of its executions after the first
    minute (the coordinator's: per thousand corpus entries), which unlike a rate per minute
    does not depend on the machine's load."""
    lines = []
    a, b = row_at(samples, 60), samples[-1]
    if number(a["execs"]) is None or number(b["execs"]) is None:
        return lines
    for name in run.slot_names:
        ra, rb = number(a[f"{name} rss_kb"]), number(b[f"{name} rss_kb"])
        if ra is None or rb is None:
            continue
        share = run.exec_share(name)
        if share is None and name == "coordinator" and number(b["corpus"]) and b["corpus"] > (a["corpus"] or 0):
            entries = b["corpus"] - (a["corpus"] or 0)
            lines.append(f"- {name}: {(rb - ra) / 1024:+.1f} MiB for {entries} more corpus entries "
                         f"({(rb - ra) / entries:.1f} KiB an entry)")
        elif share is not None and b["execs"] > a["execs"]:
            execs = (b["execs"] - a["execs"]) * share
            lines.append(f"- {name}: {(rb - ra) / 1024:+.1f} MiB over {execs / 1e6:.2f}M of its executions after "
                         f"the first minute, {(rb - ra) / 1024 / (execs / 1e6):.1f} MiB per million")
    return lines


def verdicts(run, samples, secs):
    """Sentences on memory, descriptors, threads and speed."""
    lines = []
    everything, samples = samples, whole(run, samples)
    half = row_at(samples, secs / 2)
    end = samples[-1]
    for name in run.slot_names:
        a, b = number(half[f"{name} rss_kb"]), number(end[f"{name} rss_kb"])
        if a and b:
            growth = (b - a) / a
            word = "flat" if abs(growth) < 0.05 else ("grew" if growth > 0 else "shrank")
            lines.append(f"- {name}: RSS {word} over the second half ({a / 1024:.0f} to {b / 1024:.0f} MiB, "
                         f"{growth:+.0%}); peak {max(number(s[f'{name} rss_kb']) or 0 for s in samples) / 1024:.0f} MiB")
    lines += kept_per_execution(run, samples)
    after = [s for s in samples if s["t"] > 60]
    for key in ("fds", "threads"):
        for name in run.slot_names:
            values = {s[f"{name} {key}"] for s in after if number(s[f"{name} {key}"]) is not None}
            if values:
                lines.append(f"- {name}: {key} " + (f"flat at {min(values)}" if len(values) == 1 else
                                                     f"between {min(values)} and {max(values)}") + " after the first minute")
    peak = max(s["tree_rss_kb"] for s in everything)
    pss = [s["tree_pss_kb"] for s in everything if number(s.get("tree_pss_kb")) is not None]  # not in older CSVs
    lines.append(f"- peak of all processes together: RSS {peak / 1024:.0f} MiB"
                 + (f", PSS {max(pss) / 1024:.0f} MiB" if pss else "") + f"; workers replaced: {end['restarts']}")
    costs = run.restart_costs() if hasattr(run, "restart_costs") else []
    if costs:
        worker_secs = secs * (len(run.slot_names) - 1)
        lines.append(f"- workers replaced as grown or old: {len(costs)}, "
                     f"each in {statistics.median(costs):.0f} ms (median; "
                     f"{max(costs)} ms the longest), {sum(costs) / 1000:.1f} s in all, "
                     f"{sum(costs) / 10 / worker_secs:.3f}% of the workers' time")
    first = window(samples, 60, "execs_per_sec")
    if first:
        base = statistics.median(first)
        outside = []
        for t in marks(secs, 0)[1:]:
            w = window(samples, t, "execs_per_sec")
            if w and abs(statistics.median(w) - base) > 0.10 * base:
                outside.append(f"{t // 60:.0f} min ({statistics.median(w) / base:.2f})")
        lines.append(f"- execs/s: first minute's median {base:.0f}; " +
                     ("every later row within 10% of it" if not outside else
                      "outside 10% of it at " + ", ".join(outside)))
    return lines


def markdown(run, samples, secs, header):
    names = run.slot_names
    out = [header, "",
           "| at | load | " + " | ".join(f"RSS MiB {n}" for n in names) + " | fds | threads | execs/s | corpus |",
           "|---" * (len(names) + 6) + "|"]
    for t in marks(secs, 0):
        s = row_at(whole(run, samples), t)
        rates = window(samples, t, "execs_per_sec")
        loads = window(samples, t, "load1")
        label = "1st min" if t == 60 else ("end" if t == secs else f"{t // 60} min")
        out.append(f"| {label} ({s['t']:.0f} s) | {statistics.mean(loads) if loads else s['load1']:.1f} | " +
                   " | ".join(mib(s[f"{n} rss_kb"]) for n in names) + " | " +
                   "/".join(str(s[f"{n} fds"]) for n in names) + " | " +
                   "/".join(str(s[f"{n} threads"]) for n in names) + " | " +
                   (f"{statistics.median(rates):.0f}" if rates else "") + f" | {s['corpus']} |")
    out += ["", "fds and threads: " + "/".join(names) + "; execs/s: the median of the 10 s rates over the minute "
            "before the row; load: the 1-minute load average, the mean over that minute.", ""]
    out += verdicts(run, samples, secs)
    return "\n".join(out) + "\n"


def read_samples(path):
    """The samples of a soak.csv, numbers as numbers."""
    def value(v):
        try:
            return float(v) if "." in v else int(v)
        except ValueError:
            return v
    with open(path, newline="") as f:
        return [{k: value(v) for k, v in row.items()} for row in csv.DictReader(f)]


# ---------------------------------------------------------------- main

def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--secs", type=int, default=3600, help="how long to fuzz (default: %(default)s)")
    ap.add_argument("--interval", type=int, default=10, help="seconds between samples (default: %(default)s)")
    ap.add_argument("--fuzzer", choices=["cfuzz", "libfuzzer", "afl"], default="cfuzz",
                    help="whom to soak (default: %(default)s)")
    ap.add_argument("--workers", type=int,
                    help="cfuzz's workers (-p; default: 2); libFuzzer runs as one process, AFL++ as two")
    ap.add_argument("--worker-growth-mb", type=int,
                    help="cfuzz's --worker-growth-mb (default: cfuzz's own, 128; 0: never for their growth)")
    ap.add_argument("--worker-max-age",
                    help="cfuzz's --worker-max-age, a duration (default: cfuzz's own, 60s; 0: never for their age)")
    ap.add_argument("--seed", type=int, default=5000, help="the fuzzer's seed (default: %(default)s)")
    ap.add_argument("--dir", type=Path, default=Path(os.environ.get("CFUZZ_SOAK_DIR", "/var/tmp/cfuzz-soak")),
                    help="sources, builds and runs (default: $CFUZZ_SOAK_DIR or %(default)s)")
    ap.add_argument("--cfuzz-build", type=Path, default=Path(os.environ.get("CFUZZ_BUILD_DIR", ROOT / "build")),
                    help="the cfuzz build directory to use (default: $CFUZZ_BUILD_DIR or the repository's build/)")
    ap.add_argument("--name", help="the run's directory under DIR/runs (default: FUZZER-SECSs)")
    ap.add_argument("--table-only", action="store_true",
                    help="run nothing: make the table again from the soak.csv of the run's directory")
    args = ap.parse_args(argv)
    args.cfuzz_build = args.cfuzz_build.resolve()
    if args.workers is not None and (args.fuzzer != "cfuzz" or args.workers < 1):
        ap.error("--workers: cfuzz's, at least 1")
    args.workers = args.workers or 2
    if not (args.cfuzz_build / "bin" / "cfuzz").exists():
        ap.error(f"no cfuzz in {args.cfuzz_build}/bin: build it, or give --cfuzz-build")
    return args


def main(argv=None):
    args = parse_args(argv if argv is not None else sys.argv[1:])
    realworld.ensure_packages([LIBRARY])
    if args.fuzzer == "afl" and not realworld.installed("afl++"):
        realworld.sh([*realworld.sudo(), "apt-get", "install", "-y", "--no-install-recommends", "afl++"],
                     env={"DEBIAN_FRONTEND": "noninteractive"})
    spec = realworld.LIBRARIES[LIBRARY]
    src = realworld.fetch(args.dir / "src", spec["package"])
    variant = {"cfuzz": "cfuzz-asan", "libfuzzer": "libfuzzer-asan", "afl": "afl-asan"}[args.fuzzer]
    binary = realworld.build(LIBRARY, spec, src, args.dir / "build", args.cfuzz_build, which=(variant,))[variant]
    work = args.dir / "runs" / (args.name or f"{args.fuzzer}-{args.secs}s")
    if not args.table_only:
        fresh_dir(work)
    commit = realworld.cfuzz_commit(args.cfuzz_build)
    if args.fuzzer == "cfuzz":
        run = CfuzzRun(args.cfuzz_build, binary, work, args.secs, args.seed, args.workers, args.worker_growth_mb,
                       args.worker_max_age)
    elif args.fuzzer == "libfuzzer":
        run = LibFuzzerRun(binary, work, args.secs, args.seed)
    else:
        run = AflRun(binary, work, args.secs, args.seed)
    if args.table_only:
        samples = read_samples(work / "soak.csv")
        print(markdown(run, samples, min(args.secs, int(samples[-1]["t"])), f"{run.name}, {work}"), end="")
        return
    processes = {"cfuzz": f"{args.workers} worker{'s' if args.workers > 1 else ''}", "libfuzzer": "1 process",
                 "afl": "2 instances"}[args.fuzzer]
    header = (f"{run.name} on {LIBRARY} ({src.name}, fuzz/xml.c, ASan), {processes}, {args.secs} s, sampled every "
              f"{args.interval} s; {os.cpu_count()} CPUs, started {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
              + (f", cfuzz {commit}" if args.fuzzer == "cfuzz" else "")
              + (f", ASAN_OPTIONS={os.environ['ASAN_OPTIONS']}" if os.environ.get("ASAN_OPTIONS") else ""))
    log(f"soak: {header}\nsoak: {' '.join(str(c) for c in run.cmd)}\nsoak: writing {work}/soak.csv")
    samples, code = soak(run, args.secs, args.interval, work)
    if not samples:
        sys.exit(f"soak: no samples; the fuzzer exited {code}:\n{realworld.tail_text(work / 'stderr.txt', 3000)}")
    table = markdown(run, samples, min(args.secs, int(samples[-1]["t"])), header)
    table += f"\nexit code {code}" + (f", failures reported: {run.failures}" if hasattr(run, "failures") else "") + "\n"
    (work / "soak.md").write_text(table)
    print(table, flush=True)


if __name__ == "__main__":
    main()
