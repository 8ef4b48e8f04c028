#!/usr/bin/env python3
"""cfuzz against libFuzzer on real libraries built from Debian source packages.

What it measures, per library and checkpoint (median over seeds, cfuzz/libFuzzer ratios):

  branches, lines  coverage of the library's own sources reached by the corpus a fuzzer had at
                   the checkpoint: the corpus is copied while the fuzzer runs, then replayed
                   through a clang source-coverage build of the same library and harness, and
                   `llvm-cov export -summary-only` counts branches and lines (the harness, the
                   replay main and system headers are left out of the count)
  execs/s          as each fuzzer reports it: cfuzz's last JSON progress line before the checkpoint
                   (its summary at the end), libFuzzer's last status line (its final stats at the end)
  peak RSS         resident set of the fuzzer's whole process tree, sampled every 100 ms up to the
                   checkpoint
  c/better         with AFL++ in the table (--from-seed), cfuzz's branches over the better of
                   libFuzzer's and AFL++'s; under the table, per half and checkpoint, the median
                   library's c/better and the libraries where it is below 1 (issue 54's test)

How:

  sources     `apt-get source` of each library's Debian source package, with a deb-src entry
              derived from the machine's own Debian sources (its `deb` entries turned into
              `deb-src`, in /etc/apt/sources.list.d/cfuzz-realworld-src.*). Nothing else is
              downloaded; the few build tools missing are installed with apt-get.
  libraries   by default six (so that --quick stays under 30 minutes), each with the fuzz harness
              its source ships: libxml2 (fuzz/xml.c), libpng (contrib/oss-fuzz), sqlite3
              (test/ossfuzz.c), re2 (re2/fuzzing), harfbuzz (test/fuzzing/hb-shape-fuzzer.cc),
              pcre2 (src/pcre2_fuzzsupport.c). With --libs also expat (fuzz/xml_parse_fuzzer.c,
              UTF-8), jsoncpp (src/test_lib_json/fuzz.cpp) and libyaml, whose source ships no
              harness: ours is in scripts/bench/realworld/; and six binary containers with the
              harness they ship: lz4 (ossfuzz/decompress_frame_fuzzer.c), zstd
              (tests/fuzz/simple_decompress.c), openjpeg (tests/fuzzers, JP2), woff2
              (src/convert_woff2ttf_fuzzer.cc), libplist (fuzz/bplist_fuzzer.cc) and libwebp
              (tests/fuzzer/simple_api_fuzzer.c).
  halves      TUNING and HELD_OUT below split all the libraries in two, fixed before the new ones
              were first run: tune a search change on `--libs tuning`, confirm it on
              `--libs held-out`, and keep it only if it helps both.
  from a seed --from-seed starts every fuzzer from one small valid file of the library's own test
              data (`seed` below; libraries without one are skipped) instead of an empty corpus,
              and adds AFL++ with CmpLog, as most users who leave libFuzzer run it: afl-fuzz on an
              `afl-clang-fast` build with an `AFL_LLVM_CMPLOG=1` build as -c, pinned and locked
              like the others, its execs/s from its plot_data. (AFL++ cannot start empty.)
  builds      each library three ways from the same sources and flags, `-O1 -gline-tables-only`
              and no sanitizer in any (the figures are about the search; a sanitizer's cost
              and memory would only blur them): cfuzz-clang/cfuzz-clang++ (a cfuzz target), clang
              `-fsanitize=fuzzer-no-link` linked with `-fsanitize=fuzzer` (libFuzzer), and clang
              `-fprofile-instr-generate -fcoverage-mapping` linked with
              scripts/bench/targets/replay_main.cc (measuring). The library's own configure step
              runs once with plain clang for its config headers (or amalgamation, or tables);
              then the library's sources are compiled directly (scripts/bench/soak.py asks for two
              more builds, with AddressSanitizer: see variants()). Builds are cached: a step runs
              again only when its command or an input file changed (a new cfuzz runtime relinks).
  runs        one at a time, each under flock on /tmp/cfuzz-cpu.lock and pinned to one core with
              taskset; one worker (cfuzz `-p 1`, libFuzzer one process), an empty corpus, no
              dictionary, the same per-input timeout (10 s) and memory limit (2048 MB) for both,
              each fuzzer's defaults otherwise. For each seed, cfuzz and libFuzzer run back to
              back. A run that stops early (a crash found in the library) gives its final corpus
              to the later checkpoints, and the table notes it. Each run's figures are kept in
              its directory as result.json (--resume reuses them), and with --results DIR in
              DIR too: the full mode takes over six hours, so its runs can be spread over
              sittings and machines, their results committed and resumed from. Machines
              differ, so a kept run counts only at today's pace: before a library's runs its
              libFuzzer build makes 20000 seeded executions (the best of two timings), and a
              kept run whose pace was more than 15% away runs again. A library whose runs are
              all kept, made at one pace, is not run again (its ratios compare runs made side
              by side).

Modes: full (600 s per run, 3 seeds, checkpoints 60/300/600 s), --quick (60 s, 2 seeds,
10/30/60 s); --secs/--seeds/--checkpoints override them (checkpoints scale with --secs).
Sources, builds and runs live in --dir, $CFUZZ_REALWORLD_DIR or /var/tmp/cfuzz-realworld, never
in the repository; cfuzz comes from --cfuzz-build, $CFUZZ_BUILD_DIR or the repository's build/.
The table goes to build/bench/realworld.md. Run it as `bash scripts/bench.sh [--quick] --only
realworld [options]`, or as `python3 scripts/bench/realworld.py [--quick] [options]`.
"""
import argparse
import concurrent.futures
import fcntl
import json
import os
import re
import shutil
import shlex
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import fresh_dir, human, log, process_tree_rss_kb  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
REPLAY_MAIN = ROOT / "scripts" / "bench" / "targets" / "replay_main.cc"
OWN_HARNESSES = ROOT / "scripts" / "bench" / "realworld"
TABLE = ROOT / "build" / "bench" / "realworld.md"
CPU_LOCK = "/tmp/cfuzz-cpu.lock"

OPT = ["-O1", "-gline-tables-only"]
COVERAGE = ["-fprofile-instr-generate", "-fcoverage-mapping"]
ASAN = ["-fsanitize=address"]
TIMEOUT_SECS, RSS_LIMIT_MB = 10, 2048
FUZZERS = ["cfuzz", "libFuzzer", "AFL++"]  # AFL++ only from a seed file (--from-seed): it needs one

MODES = {
    "full": dict(secs=600, seeds=3, checkpoints=[60, 300, 600]),
    "quick": dict(secs=60, seeds=2, checkpoints=[10, 30, 60]),
}

# Each library: its Debian source `package` (and the `subdir` of it that is the library);
# `packages` apt must install for it; `prepare`, shell commands run once in the source tree with
# plain clang (config headers, amalgamations, tables); `sources`, globs of the library's files;
# `includes`, `defines`, `flags` (compiling and linking), `libs` (linking); `harness`, the fuzz
# harness's files (relative to the source tree, or "own:NAME" for one under
# scripts/bench/realworld/); `exclude`, a regex, after the source directory, of more files that
# are not the library's own code (left out of the coverage count); `seed`, one small valid file of
# the library's own test data (made by a `prepare` step with the library's own tool where its
# source ships none) that --from-seed starts every fuzzer from.
LIBRARIES = {
    "libxml2": dict(
        package="libxml2",
        prepare=["./configure --disable-shared --without-python --without-zlib --without-lzma "
                 "--without-http --without-ftp --without-modules >/dev/null"],
        sources=[f"{n}.c" for n in (
            "SAX entities encoding error parserInternals parser tree hash list xmlIO xmlmemory "
            "uri valid xlink HTMLparser HTMLtree debugXML xpath xpointer xinclude nanohttp nanoftp "
            "catalog globals threads c14n xmlstring buf xmlregexp xmlschemas xmlschemastypes "
            "xmlunicode xmlreader relaxng dict SAX2 xmlwriter legacy chvalid pattern xmlsave "
            "xmlmodule schematron xzlib").split()],
        includes=[".", "include"], harness=["fuzz/xml.c", "fuzz/fuzz.c"], libs=["-lm", "-lpthread"]),
    "expat": dict(
        package="expat", subdir="expat",
        prepare=["cmake -S . -B cfuzz-config -DEXPAT_BUILD_TOOLS=OFF -DEXPAT_BUILD_EXAMPLES=OFF "
                 "-DEXPAT_BUILD_TESTS=OFF -DEXPAT_SHARED_LIBS=OFF >/dev/null",
                 # Debian's security patches test `#if XML_DTD == 1`; CMake defines it empty.
                 "sed -i -E 's/^#define (XML_DTD|XML_NS)$/#define \\1 1/' cfuzz-config/expat_config.h"],
        sources=["lib/xmlparse.c", "lib/xmltok.c", "lib/xmlrole.c"],
        includes=["lib", "cfuzz-config"], defines=["-DENCODING_FOR_FUZZING=UTF-8"],
        # The seed is in the source's testdata/, beside expat/ rather than in it.
        harness=["fuzz/xml_parse_fuzzer.c"], seed="../testdata/largefiles/aaaaaa_cdata.xml"),
    "libpng": dict(
        package="libpng1.6",
        prepare=["cp scripts/pnglibconf.h.prebuilt pnglibconf.h"],
        sources=["png.c", "pngerror.c", "pngget.c", "pngmem.c", "pngpread.c", "pngread.c", "pngrio.c",
                 "pngrtran.c", "pngrutil.c", "pngset.c", "pngtrans.c", "pngwio.c", "pngwrite.c",
                 "pngwtran.c", "pngwutil.c"],
        includes=["."], harness=["contrib/oss-fuzz/libpng_read_fuzzer.cc"], libs=["-lz", "-lm"],
        seed="contrib/pngsuite/basn0g01.png"),
    "sqlite3": dict(
        package="sqlite3",
        prepare=["./configure --disable-shared >/dev/null", "make sqlite3.c >/dev/null"], packages=["tcl"],
        sources=["sqlite3.c"], includes=["."],
        # The limits OSS-Fuzz builds it with (less SQLITE_DEBUG: its asserts would end runs),
        # and no lookaside memory: with it, `p < db->lookaside.pEnd` in sqlite3DbFree and its
        # kin goes both ways or not depending on where earlier inputs of the same replay left
        # the heap, so the count changed with the order of the corpus (2043 to 2046 branches).
        defines=["-DSQLITE_MAX_LENGTH=128000000", "-DSQLITE_MAX_SQL_LENGTH=128000000",
                 "-DSQLITE_MAX_MEMORY=25000000", "-DSQLITE_PRINTF_PRECISION_LIMIT=1048576",
                 "-DSQLITE_MAX_PAGE_COUNT=16384", "-DSQLITE_DEFAULT_LOOKASIDE=0,0"],
        harness=["test/ossfuzz.c"], libs=["-ldl", "-lpthread", "-lm"]),
    "re2": dict(
        package="re2", packages=["unicode-data", "python3-six"],
        # The +dfsg source leaves out the generated Unicode tables: make them, as Debian does.
        prepare=["make REBUILD_TABLES=1 re2/perl_groups.cc re2/unicode_casefold.cc re2/unicode_groups.cc >/dev/null"],
        sources=["util/rune.cc", "util/strutil.cc", "re2/*.cc"],
        includes=["."], flags=["-pthread"], harness=["re2/fuzzing/re2_fuzzer.cc"], libs=["-pthread"]),
    "jsoncpp": dict(
        package="libjsoncpp",
        sources=["src/lib_json/*.cpp"], includes=["include", "src/lib_json"],
        harness=["src/test_lib_json/fuzz.cpp"], seed="test/data/legacy_test_complex_01.json"),
    "harfbuzz": dict(
        package="harfbuzz",
        sources=["src/harfbuzz.cc"], includes=["src"], flags=["-DHAVE_PTHREAD", "-pthread"],
        harness=["test/fuzzing/hb-shape-fuzzer.cc"], exclude="/test/", libs=["-pthread"],
        seed="test/api/fonts/Roboto-Regular.ac.ttf"),
    "pcre2": dict(
        package="pcre2",
        prepare=["./configure --disable-shared >/dev/null",
                 "cp src/pcre2_chartables.c.dist src/pcre2_chartables.c"],
        sources=[f"src/pcre2_{n}.c" for n in (
            "auto_possess compile config context convert dfa_match error extuni find_bracket "
            "jit_compile maketables match match_data newline ord2utf pattern_info script_run "
            "serialize string_utils study substitute substring tables ucd valid_utf xclass "
            "chartables").split()],
        includes=["src"], defines=["-DHAVE_CONFIG_H", "-DPCRE2_CODE_UNIT_WIDTH=8"],
        harness=["src/pcre2_fuzzsupport.c"]),
    "libyaml": dict(
        package="libyaml",
        sources=["src/*.c"], includes=["include"],
        defines=["-DYAML_DECLARE_STATIC", "-DYAML_VERSION_MAJOR=0", "-DYAML_VERSION_MINOR=2",
                 "-DYAML_VERSION_PATCH=5", '-DYAML_VERSION_STRING="0.2.5"'],
        harness=["own:libyaml_load_dump.c"], seed="examples/mapping.yaml"),
    # Binary containers, added for issue 54: each ships its own harness.
    "lz4": dict(  # the LZ4 frame: magic, a descriptor with flags and a checksum, sized blocks
        package="lz4", packages=["lz4"],
        # The harness takes its two size settings from the last 8 bytes: 0 for the dictionary,
        # 255 for the output's capacity.
        prepare=["head -c 300 README.md | lz4 -q -z -c > cfuzz-seed.lz4",
                 "printf '\\0\\0\\0\\0\\377\\0\\0\\0' >> cfuzz-seed.lz4"], seed="cfuzz-seed.lz4",
        sources=["lib/lz4.c", "lib/lz4frame.c", "lib/lz4hc.c", "lib/xxhash.c"], includes=["lib", "ossfuzz"],
        harness=["ossfuzz/decompress_frame_fuzzer.c", "ossfuzz/fuzz_data_producer.c", "ossfuzz/lz4_helpers.c"]),
    "zstd": dict(  # the Zstandard frame: magic, a header of variable-width fields, sized blocks
        package="libzstd",
        sources=["lib/common/*.c", "lib/decompress/*.c", "lib/compress/*.c", "lib/dictBuilder/*.c"],
        includes=["lib", "lib/common", "lib/compress", "tests/fuzz", "contrib/externalSequenceProducer"],
        flags=["-pthread"],
        defines=["-DZSTD_DISABLE_ASM", "-DZSTD_LEGACY_SUPPORT=0"],
        harness=["tests/fuzz/simple_decompress.c", "tests/fuzz/fuzz_helpers.c", "tests/fuzz/zstd_helpers.c",
                 "tests/fuzz/fuzz_data_producer.c", "contrib/externalSequenceProducer/sequence_producer.c"],
        seed="tests/golden-decompression/rle-first-block.zst",
        exclude="/lib/(compress|dictBuilder)/", libs=["-pthread"]),
    "openjpeg": dict(  # JPEG 2000's JP2: boxes of a big-endian length and a four-letter type
        package="openjpeg2", packages=["libopenjp2-tools"],
        prepare=["cmake -S . -B cfuzz-config -DBUILD_CODEC=OFF -DBUILD_SHARED_LIBS=OFF >/dev/null",
                 # a 32x32 grey image (its pixels from README.md), made a 320-byte JP2 (one
                 # resolution, 50:1) by the library's own tool
                 "printf 'P5\\n32 32\\n255\\n' > cfuzz-seed.pgm && head -c 1024 README.md >> cfuzz-seed.pgm",
                 "opj_compress -i cfuzz-seed.pgm -o cfuzz-seed.jp2 -n 1 -r 50 >/dev/null"], seed="cfuzz-seed.jp2",
        sources=[f"src/lib/openjp2/{n}.c" for n in (
            "bio cio dwt event function_list ht_dec image invert j2k jp2 mct mqc openjpeg opj_clock "
            "opj_malloc pi sparse_array t1 t2 tcd tgt thread").split()],
        includes=["src/lib/openjp2", "cfuzz-config/src/lib/openjp2"],
        harness=["tests/fuzzers/opj_decompress_fuzzer_JP2.cpp"], libs=["-lm", "-lpthread"]),
    "woff2": dict(  # WOFF2: a header, a table directory of tags and variable-length sizes, Brotli
        package="woff2", packages=["libbrotli-dev"],
        sources=[f"src/{n}.cc" for n in "table_tags variable_length woff2_common woff2_dec woff2_out".split()],
        includes=["include"], harness=["src/convert_woff2ttf_fuzzer.cc"], libs=["-lbrotlidec"]),
    "libplist": dict(  # binary property lists: a trailer giving the offset table's place and widths
        package="libplist",
        prepare=["echo '#define HAVE_MEMMEM 1' > config.h"],  # what its configure would find
        sources=["src/*.c", "libcnary/node.c", "libcnary/node_list.c"], includes=[".", "include", "src", "libcnary/include"],
        defines=["-DHAVE_CONFIG_H", "-D_GNU_SOURCE"],
        harness=["fuzz/bplist_fuzzer.cc"], seed="test/data/signedunsigned.bplist"),
    "libwebp": dict(  # WebP: RIFF chunks of a tag and a little-endian size
        package="libwebp",
        sources=["src/dec/*.c", "src/dsp/*.c", "src/utils/*.c", "src/enc/*.c", "sharpyuv/*.c"], includes=["."],
        flags=["-pthread"], harness=["tests/fuzzer/simple_api_fuzzer.c"], seed="examples/test.webp",
        exclude="/(src/enc|sharpyuv)/", libs=["-lm", "-pthread"]),
}
# Six, so that the quick mode stays under 30 minutes; the others run with --libs.
DEFAULT_LIBRARIES = ["libxml2", "libpng", "sqlite3", "re2", "harfbuzz", "pcre2"]

# The held-out split (issue 54), written down before any of the libraries added with it was
# run. A search change is tuned on TUNING only; HELD_OUT is run only to confirm a change that
# already helps TUNING, and the change is kept only if it helps there too. The six libraries
# earlier changes were tuned on cannot be held out, so they are all in TUNING; each half has
# binary containers (chunks, boxes, offset tables, sized frames) and text grammars
# (recursive-descent parsers), the two kinds issue 54 found cfuzz behind on.
TUNING = ["libxml2", "libpng", "sqlite3", "re2", "harfbuzz", "pcre2", "lz4", "libplist"]
HELD_OUT = ["expat", "jsoncpp", "libyaml", "zstd", "openjpeg", "woff2", "libwebp"]
assert sorted(TUNING + HELD_OUT) == sorted(LIBRARIES), "every library is in one half"
LIBRARY_SETS = {"all": list(LIBRARIES), "tuning": TUNING, "held-out": HELD_OUT}


def half_of(name):
    return "tuning" if name in TUNING else "held-out"


# A run's log can be gigabytes (libpng's harness prints an error for most inputs, and
# libFuzzer passes it on): it is read from the end, a block at a time. Read whole, it grew
# this process to 11 GB, and each fuzzer started after that inherited the figure as its
# peak RSS (Linux keeps the parent's high-water mark across fork and exec), so libFuzzer's
# -rss_limit_mb, which checks the peak, stopped it within a second.
def lines_from_end(path, block=1 << 20):
    """The lines of a text file, last first."""
    with open(path, "rb") as f:
        end = f.seek(0, os.SEEK_END)
        rest = b""
        while end > 0:
            start = max(0, end - block)
            f.seek(start)
            chunk = f.read(end - start) + rest
            end = start
            lines = chunk.split(b"\n")
            rest = lines.pop(0) if end > 0 else b""  # may continue in the block before
            for line in reversed(lines):
                yield line.decode(errors="replace")


def tail_text(path, n):
    with open(path, "rb") as f:
        f.seek(max(0, f.seek(0, os.SEEK_END) - n))
        return f.read().decode(errors="replace")


def sh(cmd, cwd=None, env=None, check=True):
    """Runs a command (a list, or a string for the shell); returns its output, or exits with it."""
    full_env = dict(os.environ, **(env or {}))
    r = subprocess.run(cmd if isinstance(cmd, str) else [str(c) for c in cmd], cwd=cwd, env=full_env,
                       shell=isinstance(cmd, str), capture_output=True, text=True)
    if check and r.returncode != 0:
        shown = cmd if isinstance(cmd, str) else " ".join(str(c) for c in cmd)
        sys.exit(f"realworld: `{shown}` failed in {cwd or os.getcwd()}:\n{r.stdout[-3000:]}{r.stderr[-3000:]}")
    return r


def sudo():
    return [] if os.geteuid() == 0 else ["sudo"]


# ---------------------------------------------------------------- tools and sources

def installed(package):
    r = sh(["dpkg-query", "-W", "-f=${Status}", package], check=False)
    return "install ok installed" in r.stdout


def ensure_packages(libs):
    """What the builds use: dpkg-dev (apt-get source), cmake and make (configure steps), zlib
    (libpng), and each library's own needs (tcl for sqlite3's amalgamation, Unicode data for
    re2's tables)."""
    wanted = ["dpkg-dev", "cmake", "make", "zlib1g-dev"]
    for name in libs:
        wanted += LIBRARIES[name].get("packages", [])
    need = sorted({p for p in wanted if not installed(p)})
    if need:
        log(f"installing {' '.join(need)}")
        sh([*sudo(), "apt-get", "update"])
        sh([*sudo(), "apt-get", "install", "-y", "--no-install-recommends", *need],
           env={"DEBIAN_FRONTEND": "noninteractive"})


def deb_src_entries():
    """The machine's own `deb` entries as `deb-src` ones: (file name, text) or None if it has
    deb-src entries already."""
    stanzas, lines = [], []
    paths = [Path("/etc/apt/sources.list")] + sorted(Path("/etc/apt/sources.list.d").glob("*"))
    for path in paths:
        if not path.is_file() or path.suffix not in (".list", ".sources"):
            continue
        text = path.read_text()
        if path.suffix == ".sources":
            for stanza in re.split(r"\n\s*\n", text):
                types = re.search(r"^Types:(.*)$", stanza, re.M)
                if types and "deb-src" in types.group(1).split():
                    return None
                if types and "deb" in types.group(1).split() and not re.search(r"^Enabled:\s*no", stanza, re.M):
                    stanzas.append(re.sub(r"^Types:.*$", "Types: deb-src", stanza.strip(), flags=re.M))
        else:
            for line in text.splitlines():
                if line.strip().startswith("deb-src "):
                    return None
                if line.strip().startswith("deb "):
                    lines.append("deb-src " + line.strip()[4:])
    if stanzas:
        return "cfuzz-realworld-src.sources", "\n\n".join(stanzas) + "\n"
    if lines:
        return "cfuzz-realworld-src.list", "\n".join(lines) + "\n"
    sys.exit("realworld: no Debian `deb` entry in /etc/apt/sources.list(.d) to derive deb-src from")


def ensure_deb_src():
    entries = deb_src_entries()
    if entries is None:
        return
    name, text = entries
    target = Path("/etc/apt/sources.list.d") / name
    if target.exists() and target.read_text() == text:
        return
    log(f"adding {target} (the machine's deb entries as deb-src) and running apt-get update")
    subprocess.run([*sudo(), "tee", str(target)], input=text, text=True, stdout=subprocess.DEVNULL, check=True)
    sh([*sudo(), "apt-get", "update"])


def source_dir(src_root, package):
    dirs = [d for d in src_root.glob(f"{package}-*") if d.is_dir() and (d / "debian").is_dir()]
    return max(dirs, key=lambda d: d.stat().st_mtime) if dirs else None


def fetch(src_root, package):
    """Unpacks the Debian source package (patches applied) under src_root, once. When the
    newest version's files cannot be fetched, the older versions the index lists are tried."""
    found = source_dir(src_root, package)
    if found:
        return found
    ensure_deb_src()
    src_root.mkdir(parents=True, exist_ok=True)
    showsrc = sh(["apt-cache", "showsrc", package], check=False).stdout
    if not showsrc.strip():
        sh([*sudo(), "apt-get", "update"])
        showsrc = sh(["apt-cache", "showsrc", package], check=False).stdout
    versions = [m.group(2) for m in re.finditer(r"^Package: (\S+)\nBinary:.*?^Version: (\S+)", showsrc, re.M | re.S)
                if m.group(1) == package]
    log(f"apt-get source {package}")
    errors = ""
    for spec in [package] + [f"{package}={v}" for v in versions]:
        r = sh(["apt-get", "source", "-q", spec], cwd=src_root, check=False)
        if r.returncode == 0 and source_dir(src_root, package):
            return source_dir(src_root, package)
        errors += r.stderr[-800:]
    sys.exit(f"realworld: apt-get source {package} failed:\n{errors}")


# ---------------------------------------------------------------- builds

def variants(cfuzz_build):
    """Compilers and link commands of every build: the three of the comparison
    (BENCH_VARIANTS), and the AddressSanitizer builds only scripts/bench/soak.py asks for (a
    cfuzz target, libFuzzer's, and AFL++'s persistent-mode driver as `AFL_USE_ASAN=1
    afl-clang-fast`)."""
    bin_dir = cfuzz_build / "bin"
    runtime = [cfuzz_build / "lib" / "libcfuzz_runtime.a", cfuzz_build / "lib" / "libcfuzz_interceptors.a"]
    afl = ["env", "AFL_USE_ASAN=1", "AFL_QUIET=1"]
    afl_plain, afl_cmplog = ["env", "AFL_QUIET=1"], ["env", "AFL_QUIET=1", "AFL_LLVM_CMPLOG=1"]
    return {
        "cfuzz": dict(cc=[bin_dir / "cfuzz-clang"], cxx=[bin_dir / "cfuzz-clang++"], link=[bin_dir / "cfuzz-clang++"],
                      deps=runtime),
        "libfuzzer": dict(cc=["clang", "-fsanitize=fuzzer-no-link"], cxx=["clang++", "-fsanitize=fuzzer-no-link"],
                          link=["clang++", "-fsanitize=fuzzer"], deps=[]),
        "coverage": dict(cc=["clang", *COVERAGE], cxx=["clang++", *COVERAGE],
                         link=["clang++", *COVERAGE, REPLAY_MAIN], deps=[REPLAY_MAIN]),
        "cfuzz-asan": dict(cc=[bin_dir / "cfuzz-clang", *ASAN], cxx=[bin_dir / "cfuzz-clang++", *ASAN],
                           link=[bin_dir / "cfuzz-clang++", *ASAN], deps=runtime),
        "libfuzzer-asan": dict(cc=["clang", "-fsanitize=fuzzer-no-link", *ASAN],
                               cxx=["clang++", "-fsanitize=fuzzer-no-link", *ASAN],
                               link=["clang++", "-fsanitize=fuzzer", *ASAN], deps=[]),
        "afl-asan": dict(cc=[*afl, "afl-clang-fast"], cxx=[*afl, "afl-clang-fast++"],
                         link=[*afl, "afl-clang-fast++", "-fsanitize=fuzzer"], deps=[]),
        # AFL++ as its users run it against libFuzzer: a plain build and a CmpLog build (-c).
        "afl": dict(cc=[*afl_plain, "afl-clang-fast"], cxx=[*afl_plain, "afl-clang-fast++"],
                    link=[*afl_plain, "afl-clang-fast++", "-fsanitize=fuzzer"], deps=[]),
        "afl-cmplog": dict(cc=[*afl_cmplog, "afl-clang-fast"], cxx=[*afl_cmplog, "afl-clang-fast++"],
                           link=[*afl_cmplog, "afl-clang-fast++", "-fsanitize=fuzzer"], deps=[]),
    }


BENCH_VARIANTS = ("cfuzz", "libfuzzer", "coverage")
AFL_VARIANTS = ("afl", "afl-cmplog")


def lib_root(src, spec):
    return src / spec.get("subdir", "")


def prepare(spec, root):
    """Runs the library's own configure steps once, with plain clang."""
    stamp, steps = root / ".cfuzz-realworld-prepared", "\n".join(spec.get("prepare", []))
    if stamp.exists() and stamp.read_text() == steps:
        return
    for cmd in spec.get("prepare", []):
        log(f"  {cmd}")
        sh(cmd, cwd=root, env={"CC": "clang", "CXX": "clang++", "CFLAGS": "-O1", "CXXFLAGS": "-O1"})
    stamp.write_text(steps)


def harness_files(spec, root):
    return [OWN_HARNESSES / h[4:] if h.startswith("own:") else root / h for h in spec["harness"]]


def library_files(spec, root):
    files = []
    for pattern in spec["sources"]:
        matched = sorted(root.glob(pattern))
        if not matched:
            sys.exit(f"realworld: no {pattern} in {root}")
        files += matched
    return files


def newer(target, deps):
    """True when target is missing or older than one of deps."""
    if not target.exists():
        return True
    t = target.stat().st_mtime
    return any(Path(d).exists() and Path(d).stat().st_mtime > t for d in deps)


def up_to_date(output, cmd, deps):
    record = output.with_name(output.name + ".cmd")
    return not newer(output, deps) and record.exists() and record.read_text() == "\n".join(map(str, cmd))


def run_step(output, cmd, deps, cwd):
    """Runs a compile or link command unless its output is newer than deps and was made by the
    same command. Returns True if it ran."""
    if up_to_date(output, cmd, deps):
        return False
    output.parent.mkdir(parents=True, exist_ok=True)
    sh(cmd, cwd=cwd)
    output.with_name(output.name + ".cmd").write_text("\n".join(map(str, cmd)))
    return True


def compile_commands(spec, root, variant, obj_dir):
    includes = [f"-I{root / i}" for i in spec.get("includes", [])]
    common = [*OPT, *spec.get("flags", []), *spec.get("defines", []), *includes]
    for src in library_files(spec, root) + harness_files(spec, root):
        compiler = variant["cc"] if src.suffix == ".c" else variant["cxx"]
        rel = src.relative_to(root) if src.is_relative_to(root) else Path("own") / src.name
        obj = obj_dir / rel.with_suffix(rel.suffix + ".o")
        yield obj, [*compiler, *common, "-c", src, "-o", obj], [src]


def build(name, spec, src, builds, cfuzz_build, which=BENCH_VARIANTS):
    """Builds the library's binaries of the variants `which` (cached); returns {variant: binary}."""
    root = lib_root(src, spec)
    prepare(spec, root)
    chosen = {vname: variant for vname, variant in variants(cfuzz_build).items() if vname in which}
    steps = {vname: list(compile_commands(spec, root, variant, builds / name / vname / "obj"))
             for vname, variant in chosen.items()}
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as pool:
        list(pool.map(lambda step: run_step(*step, root), [s for v in steps.values() for s in v]))
    binaries = {}
    for vname, variant in chosen.items():
        binary = builds / name / vname / name
        objs = [obj for obj, _, _ in steps[vname]]
        link = [*variant["link"], *OPT, *spec.get("flags", []), *objs, *spec.get("libs", []), "-o", binary]
        if run_step(binary, link, objs + variant["deps"], root):
            log(f"  built {binary}")
        binaries[vname] = binary
    return binaries


# ---------------------------------------------------------------- one timed run

class CpuLock:
    """The machine-wide lock every timed run holds (other benchmarks take it too)."""

    def __enter__(self):
        self.f = open(CPU_LOCK, "a")
        fcntl.flock(self.f, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        fcntl.flock(self.f, fcntl.LOCK_UN)
        self.f.close()


# The machine's pace for a library: how long libFuzzer's build takes for a fixed, seeded
# series of executions from an empty corpus, pinned like the runs (the best of two). Machines
# of one kind differ: on 2026-11-29 libFuzzer ran harfbuzz at 4.5K execs/s in its first
# minute, against 8.7K-10.6K on the machine of its kept runs. A kept run stands beside a new
# one only at the same pace.
PACE_RUNS = 20000
PACE_TOLERANCE = 0.15


def machine_pace(binary, work, cpu):
    times = []
    for _ in range(2):
        corpus = fresh_dir(work / "pace")
        with CpuLock():
            start = time.monotonic()
            subprocess.run(["taskset", "-c", str(cpu), str(binary), f"-runs={PACE_RUNS}", "-seed=1",
                            f"-timeout={TIMEOUT_SECS}", str(corpus)], cwd=work, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            times.append(time.monotonic() - start)
    return round(min(times), 3)


def same_pace(kept, pace):
    return kept.get("pace_secs") is not None and abs(kept["pace_secs"] - pace) <= PACE_TOLERANCE * pace


def copy_corpus(src, dst):
    """Copies the corpus files as they are now (skipping cfuzz's temporary files, the stats
    and baseline files cfuzz keeps beside its corpus directory, and its hidden directories,
    such as the failure claims of a run that found a bug)."""
    fresh_dir(dst)
    if not src.exists():
        return
    for p in src.rglob("*"):
        beside = p.name.endswith(".stats.jsonl") or p.name.endswith(".baseline")
        hidden = any(part.startswith(".") for part in p.relative_to(src).parts)
        if p.is_file() and ".cfuzz-tmp-" not in p.name and not beside and not hidden:
            try:
                shutil.copy2(p, dst / f"{p.parent.name}__{p.name}" if p.parent != src else dst / p.name)
            except OSError:
                pass  # removed while we copied (libFuzzer replaces reduced inputs)


class Cfuzz:
    name, variant, env = "cfuzz", "cfuzz", {}

    def __init__(self, cfuzz_build, extra_args=()):
        self.cfuzz = cfuzz_build / "bin" / "cfuzz"
        self.extra_args = list(extra_args)  # --cfuzz-args: an ablation's flags

    def command(self, binary, work, secs, seed):
        return [self.cfuzz, "run", binary, "--cachedir", work / "cache", "-p", 1, "--fuzztime", f"{secs}s",
                "--seed", seed, "--timeout", f"{TIMEOUT_SECS}s", "--rss-limit-mb", RSS_LIMIT_MB, "--json",
                *self.extra_args]

    def corpus_dir(self, work):
        return work / "cache"

    def execs_per_sec(self, work, final):
        """The last progress figure cfuzz printed (its summary when final)."""
        for line in lines_from_end(work / "stdout.txt"):
            if not line.startswith("{"):
                continue
            try:
                e = json.loads(line)
            except ValueError:
                continue  # a line being written
            if e.get("event") in ("progress", "done") and e.get("elapsed"):
                return e["execs"] / e["elapsed"]
        return None

    def add_seed(self, work, seed_file):
        """The seed file as an entry of the cache the run starts from (the libFuzzer-style
        fuzz test is named LLVMFuzzerTestOneInput)."""
        sh([self.cfuzz, "corpus", "convert", "bin2v1", seed_file, "-o", work / "cache" / "LLVMFuzzerTestOneInput"])

    def raw_corpus(self, snapshot, out):
        """Turns a snapshot of the cache directory (v1 entries) into raw files."""
        fresh_dir(out)
        files = sorted(p for p in snapshot.iterdir() if p.is_file())
        for i in range(0, len(files), 500):
            sh([self.cfuzz, "corpus", "convert", "v12bin", *files[i:i + 500], "-o", out])
        return out


class LibFuzzer:
    name, variant, env = "libFuzzer", "libfuzzer", {}

    def command(self, binary, work, secs, seed):
        return [binary, f"-max_total_time={secs}", f"-seed={seed}", f"-timeout={TIMEOUT_SECS}",
                f"-rss_limit_mb={RSS_LIMIT_MB}", "-print_final_stats=1", f"-artifact_prefix={work}/", work / "corpus"]

    def corpus_dir(self, work):
        (work / "corpus").mkdir(exist_ok=True)
        return work / "corpus"

    STATUS = re.compile(r"#\d+\s.*exec/s: (\d+)")
    FINAL = re.compile(r"stat::average_exec_per_sec:\s*(\d+)")

    def execs_per_sec(self, work, final):
        """The exec/s of libFuzzer's last status line (its final stats when final)."""
        for line in lines_from_end(work / "stderr.txt"):
            m = (final and self.FINAL.match(line)) or self.STATUS.match(line)
            if m:
                return float(m.group(1))
        return None

    def add_seed(self, work, seed_file):
        shutil.copy(seed_file, self.corpus_dir(work))

    def raw_corpus(self, snapshot, out):
        return snapshot


class AflPlusPlus:
    """AFL++ as its users run it: one afl-fuzz on the plain build with the CmpLog build as -c,
    from the seed file (it needs one input), the same timeout, no memory limit (the sampled
    peak RSS is the figure), its own default schedule otherwise."""
    name, variant = "AFL++", "afl"
    env = {"AFL_NO_UI": "1", "AFL_SKIP_CPUFREQ": "1", "AFL_NO_AFFINITY": "1",  # taskset pins it
           "AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES": "1", "AFL_SKIP_CRASHES": "1"}

    def __init__(self, cmplog_binary=None):
        self.cmplog_binary = cmplog_binary  # set per library by one_run

    def command(self, binary, work, secs, seed):
        return ["afl-fuzz", "-i", work / "in", "-o", work / "out", "-s", seed, "-V", secs,
                "-t", TIMEOUT_SECS * 1000, "-m", "none", "-c", self.cmplog_binary, "--", binary]

    def corpus_dir(self, work):
        return work / "out" / "default" / "queue"

    def add_seed(self, work, seed_file):
        (work / "in").mkdir(parents=True, exist_ok=True)
        shutil.copy(seed_file, work / "in")

    def execs_per_sec(self, work, final):
        """Executions over time so far, from the last line of AFL++'s plot_data (written every
        few seconds: relative_time first, total_execs among the columns its header names)."""
        plot = work / "out" / "default" / "plot_data"
        if not plot.exists():
            return None
        lines = plot.read_text(errors="replace").splitlines()
        header = [c.strip() for c in lines[0].lstrip("# ").split(",")] if lines else []
        if len(lines) < 2 or "total_execs" not in header:
            return None
        row = [c.strip() for c in lines[-1].split(",")]
        try:
            t, n = float(row[header.index("relative_time")]), float(row[header.index("total_execs")])
        except (ValueError, IndexError):
            return None
        return n / t if t > 0 else None

    def raw_corpus(self, snapshot, out):
        return snapshot


def timed_run(fuzzer, binary, work, secs, seed, checkpoints, cpu):
    """Runs one fuzzer pinned to one core under the CPU lock, copying its corpus at each
    checkpoint. Returns {checkpoint: {execs_per_sec, peak_rss_kb}} and the run's facts."""
    corpus = fuzzer.corpus_dir(work)
    cmd = ["taskset", "-c", str(cpu), *fuzzer.command(binary, work, secs, seed)]
    points, pending, peak = {}, sorted(checkpoints), 0
    asked = time.monotonic()
    with CpuLock(), open(work / "stdout.txt", "wb") as out, open(work / "stderr.txt", "wb") as err:
        start = time.monotonic()
        p = subprocess.Popen([str(c) for c in cmd], cwd=work, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                             start_new_session=True, env={**os.environ, **fuzzer.env})
        next_sample = 0.0
        while p.poll() is None:
            now = time.monotonic() - start
            if now > secs + 120:  # it should have stopped by itself
                os.killpg(p.pid, signal.SIGKILL)
                break
            if now >= next_sample:
                peak = max(peak, process_tree_rss_kb(p.pid))
                next_sample = now + 0.1
            while pending and pending[0] < secs and now >= pending[0]:
                cp = pending.pop(0)
                copy_corpus(corpus, work / "snapshots" / str(cp))
                points[cp] = dict(execs_per_sec=fuzzer.execs_per_sec(work, False), peak_rss_kb=peak, at=now)
            time.sleep(0.02)
        wall = time.monotonic() - start
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    code = p.wait()
    for cp in pending:  # the end of the run, or of a run that stopped early
        copy_corpus(corpus, work / "snapshots" / str(cp))
        points[cp] = dict(execs_per_sec=fuzzer.execs_per_sec(work, True), peak_rss_kb=peak, at=wall,
                          early=wall < cp - 1)
    return points, dict(exit_code=code, wall=wall, early=wall < secs - 1, lock_wait=start - asked)


# ---------------------------------------------------------------- coverage

def replay(binary, files, prof_dir, timeout):
    """Runs the coverage build over files; returns False if it did not exit cleanly."""
    env = dict(os.environ, LLVM_PROFILE_FILE=str(prof_dir / "%p-%m.profraw"))
    try:
        r = subprocess.run([str(binary), *map(str, files)], env=env, capture_output=True, timeout=timeout)
        return r.returncode == 0
    except subprocess.TimeoutExpired:
        return False


def coverage(binary, corpus, work, exclude):
    """Replays a corpus through the coverage build; returns covered/total branches and lines.
    Inputs are replayed 200 at a time; a batch that crashes or hangs is replayed one by one
    (an input that crashes the replay does not count)."""
    prof_dir = fresh_dir(work)
    files = sorted(p for p in corpus.iterdir() if p.is_file())
    replay(binary, [], prof_dir, 60)
    for i in range(0, len(files), 200):
        batch = files[i:i + 200]
        if not replay(binary, batch, prof_dir, 120):
            for f in prof_dir.glob("*.profraw"):
                if f.stat().st_size == 0:
                    f.unlink()
            for f in batch:
                replay(binary, [f], prof_dir, TIMEOUT_SECS)
    profiles = sorted(prof_dir.glob("*.profraw"))
    # A profile cut short by a replay that was killed is skipped (failure-mode=all).
    sh(["llvm-profdata", "merge", "-sparse", "-failure-mode=all", *profiles, "-o", prof_dir / "all.profdata"])
    summary = json.loads(sh(["llvm-cov", "export", "-summary-only", "-instr-profile", prof_dir / "all.profdata",
                             f"-ignore-filename-regex={exclude}", binary]).stdout)
    totals = summary["data"][0]["totals"]
    for f in profiles:
        f.unlink()
    return dict(branches=totals["branches"]["covered"], branches_total=totals["branches"]["count"],
                lines=totals["lines"]["covered"], lines_total=totals["lines"]["count"], entries=len(files))


def coverage_exclude(spec, root):
    """What is not the library's own code: system headers, the replay main, the harness."""
    parts = ["^/usr/", re.escape(str(REPLAY_MAIN))] + [re.escape(str(h)) for h in harness_files(spec, root)]
    if spec.get("exclude"):
        parts.append(re.escape(str(root)) + spec["exclude"])
    return "|".join(parts)


# ---------------------------------------------------------------- runs and results

def kept_result(work, args, name, fuzzer_name, n):
    """A run's result.json from an earlier sitting: in --results first, then in its run directory."""
    for f in ([results_file(args, name, fuzzer_name, n)] if args.results else []) + [work / "result.json"]:
        if f.exists():
            return json.loads(f.read_text())
    return None


def results_file(args, name, fuzzer_name, n):
    return args.results / args.run_tag / name / f"{fuzzer_name}-{n}.json"


def save_result(result, args, name, fuzzer_name, n):
    """With --results, a copy of the run's result there (a kept run's too, so that runs done
    before --results was given can be committed)."""
    if args.results:
        f = results_file(args, name, fuzzer_name, n)
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(json.dumps(result, indent=1))


def library_flags(spec):
    """The flags a library's three builds share: a kept run counts only with the same ones."""
    return [*OPT, *spec.get("flags", []), *spec.get("defines", [])]


def reusable(kept, fuzzer_name, args, spec, pace):
    """Whether a kept result was made with these settings and library build, on a machine of
    the same pace (of any pace when `pace` is None). libFuzzer's runs do not depend on cfuzz:
    an ablation reruns only cfuzz's."""
    if kept is None or kept["checkpoints"].keys() != set(map(str, args.checkpoints)):
        return False
    if kept.get("library_flags") != library_flags(spec) or (pace is not None and not same_pace(kept, pace)):
        return False
    return fuzzer_name != "cfuzz" or (same_cfuzz_code(kept.get("cfuzz_commit", ""), args) and
                                      kept.get("cfuzz_args", "") == args.cfuzz_args)


def same_cfuzz_code(commit, args):
    """Whether a run made at `commit` ran the cfuzz code that args.cfuzz_build was built from:
    the same commit, or one whose cfuzz sources are the same files (it differs in docs,
    results or tests, or a change was taken back), so that committing a run's results does
    not make the runs after it start again."""
    if commit == args.cfuzz_commit:
        return True
    if commit.endswith("-dirty") or args.cfuzz_commit.endswith("-dirty"):
        return False
    repo = args.cfuzz_build.parent
    trees = [sh(["git", "-C", repo, "rev-parse", *[f"{c}:{path}" for path in CFUZZ_SOURCES]], check=False)
             for c in (commit, args.cfuzz_commit)]
    return all(t.returncode == 0 for t in trees) and trees[0].stdout == trees[1].stdout


def kept_library_pace(runs_root, name, args, fuzzers):
    """The pace of a library's kept runs when every run the table needs is kept and they were
    made at one pace: such a library is complete, its ratios compare runs made side by side,
    and it is not run again whatever the machine's pace is now (it moved by a quarter within
    an hour on 2026-11-29). None when some run must be made again."""
    if not args.resume:
        return None
    paces = []
    for i in range(args.seeds):
        for f in fuzzers:
            kept = kept_result(runs_root / name / f"{f.name}-{i + 1}", args, name, f.name, i + 1)
            if not reusable(kept, f.name, args, LIBRARIES[name], None) or kept.get("pace_secs") is None:
                return None
            paces.append(kept["pace_secs"])
    return paces[0] if max(paces) - min(paces) <= PACE_TOLERANCE * min(paces) else None


def one_run(fuzzer, name, spec, root, binaries, work, args, seed, n, pace):
    """A timed run and the coverage of each of its snapshots; the result is kept as JSON."""
    result_file = work / "result.json"
    kept = kept_result(work, args, name, fuzzer.name, n) if args.resume else None
    if reusable(kept, fuzzer.name, args, spec, pace):
        save_result(kept, args, name, fuzzer.name, n)
        return dict(kept, lock_wait=0.0)  # not waited for this time
    fresh_dir(work)
    if args.from_seed:
        fuzzer.add_seed(work, root / spec["seed"])
    if fuzzer.name == "AFL++":
        fuzzer.cmplog_binary = binaries["afl-cmplog"]
    binary = binaries[fuzzer.variant]
    points, facts = timed_run(fuzzer, binary, work, args.secs, seed, args.checkpoints, args.cpu)
    exclude = coverage_exclude(spec, root)
    for cp, point in points.items():
        raw = fuzzer.raw_corpus(work / "snapshots" / str(cp), work / "raw" / str(cp))
        point.update(coverage(binaries["coverage"], raw, work / "profiles", exclude))
    if facts["exit_code"] not in (0, None) or facts["early"]:
        facts["tail"] = tail_text(work / "stdout.txt", 1500) + tail_text(work / "stderr.txt", 1500)
    result = dict(library=name, fuzzer=fuzzer.name, seed=seed, secs=args.secs, cfuzz_build=str(args.cfuzz_build),
                  cfuzz_commit=args.cfuzz_commit, cfuzz_args=args.cfuzz_args, library_flags=library_flags(spec),
                  pace_secs=pace, start="seed" if args.from_seed else "empty", **facts,
                  checkpoints={str(cp): p for cp, p in sorted(points.items())})
    result_file.write_text(json.dumps(result, indent=1))
    save_result(result, args, name, fuzzer.name, n)
    return result


def ratio(a, b):
    return f"{a / b:.2f}" if a is not None and b not in (None, 0) else "n/a"


def median_of(results, cp, key):
    values = [r["checkpoints"][str(cp)].get(key) for r in results]
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def summarize(name, runs, checkpoints):
    """Rows of the table for one library: runs is {fuzzer: [result, ...]}."""
    rows = []
    for cp in checkpoints:
        m = {f: {k: median_of(runs.get(f, []), cp, k) for k in ("branches", "lines", "execs_per_sec", "peak_rss_kb")}
             for f in FUZZERS}
        c, l, a = m["cfuzz"], m["libFuzzer"], m["AFL++"]
        early = {f: sum(bool(r["checkpoints"][str(cp)].get("early")) for r in runs.get(f, [])) for f in FUZZERS}
        note = ", ".join(f"{f} stopped early in {n}/{len(runs[f])}" for f, n in early.items() if n)
        total = next(r["checkpoints"][str(cp)]["branches_total"] for f in FUZZERS for r in runs.get(f, []))
        others = [o["branches"] for o in (l, a) if o["branches"] is not None]
        better = c["branches"] / max(others) if c["branches"] is not None and others and max(others) else None
        rows.append(dict(
            library=name, checkpoint=f"{cp}s", branches_total=total,
            cfuzz_branches=c["branches"], libfuzzer_branches=l["branches"],
            branch_ratio=ratio(c["branches"], l["branches"]), line_ratio=ratio(c["lines"], l["lines"]),
            better_value=better, better_ratio=fmt(better, "{:.2f}".format),
            cfuzz_execs=c["execs_per_sec"], libfuzzer_execs=l["execs_per_sec"],
            execs_ratio=ratio(c["execs_per_sec"], l["execs_per_sec"]),
            cfuzz_rss=c["peak_rss_kb"], libfuzzer_rss=l["peak_rss_kb"],
            rss_ratio=ratio(c["peak_rss_kb"], l["peak_rss_kb"]),
            afl_branches=a["branches"], afl_ratio=ratio(c["branches"], a["branches"]), afl_execs=a["execs_per_sec"],
            afl_rss=a["peak_rss_kb"], note=note))
    return rows


def fmt(v, f):
    return "n/a" if v is None else f(v)


def print_row(r):
    mib = lambda kb: f"{kb / 1024:.0f} MiB"
    print(f"{r['library']} @{r['checkpoint']}: branches cfuzz {fmt(r['cfuzz_branches'], '{:.0f}'.format)} "
          f"libFuzzer {fmt(r['libfuzzer_branches'], '{:.0f}'.format)} of {r['branches_total']} "
          f"cfuzz/libFuzzer {r['branch_ratio']}; lines {r['line_ratio']}; "
          f"execs/s {fmt(r['cfuzz_execs'], human)} vs {fmt(r['libfuzzer_execs'], human)} {r['execs_ratio']}; "
          f"peak RSS {fmt(r['cfuzz_rss'], mib)} vs {fmt(r['libfuzzer_rss'], mib)} {r['rss_ratio']}"
          + (f"; AFL++ {r['afl_branches']:.0f} branches, cfuzz/AFL++ {r['afl_ratio']}, "
             f"{fmt(r['afl_execs'], human)} execs/s, {fmt(r['afl_rss'], mib)}" if r["afl_branches"] is not None else "")
          + (f"  ({r['note']})" if r["note"] else ""), flush=True)


def markdown(rows, header):
    mib = lambda kb: f"{kb / 1024:.0f}"
    out = header + "\n\n"
    afl = any(r["afl_branches"] is not None for r in rows)
    out += ("| library | half | at | branches cfuzz | branches libFuzzer | of | branches c/l | lines c/l | "
            "execs/s cfuzz | execs/s libFuzzer | execs/s c/l | peak RSS MiB cfuzz | libFuzzer | RSS c/l | "
            + ("branches AFL++ | branches c/AFL++ | execs/s AFL++ | peak RSS MiB AFL++ | branches c/better | "
               if afl else "") + "note |\n")
    out += "|---" * (15 + 5 * afl) + "|\n"
    for r in rows:
        out += (f"| {r['library']} | {half_of(r['library'])} | {r['checkpoint']} | "
                f"{fmt(r['cfuzz_branches'], '{:.0f}'.format)} | "
                f"{fmt(r['libfuzzer_branches'], '{:.0f}'.format)} | {r['branches_total']} | {r['branch_ratio']} | "
                f"{r['line_ratio']} | {fmt(r['cfuzz_execs'], human)} | {fmt(r['libfuzzer_execs'], human)} | "
                f"{r['execs_ratio']} | {fmt(r['cfuzz_rss'], mib)} | {fmt(r['libfuzzer_rss'], mib)} | "
                f"{r['rss_ratio']} | "
                + (f"{fmt(r['afl_branches'], '{:.0f}'.format)} | {r['afl_ratio']} | {fmt(r['afl_execs'], human)} | "
                   f"{fmt(r['afl_rss'], mib)} | {r['better_ratio']} | " if afl else "") + f"{r['note']} |\n")
    return out + "\n" + half_medians(rows, "the better of libFuzzer and AFL++" if afl else "libFuzzer")


def half_medians(rows, rival):
    """Issue 54's test, per half and checkpoint: the median library's ratio of cfuzz's
    branches to its rival's (the better other fuzzer), and the libraries where cfuzz is behind."""
    out = ""
    for half in ("tuning", "held-out"):
        for cp in dict.fromkeys(r["checkpoint"] for r in rows):
            picked = [r for r in rows if half_of(r["library"]) == half and r["checkpoint"] == cp
                      and r["better_value"] is not None]
            if not picked:
                continue
            behind = [f"{r['library']} {r['better_ratio']}" for r in picked if r["better_value"] < 1]
            out += (f"- {half}, {cp}: cfuzz over {rival}, median library "
                    f"{statistics.median(r['better_value'] for r in picked):.3f} over {len(picked)}; "
                    f"behind on {', '.join(behind) if behind else 'none'}\n")
    return out


# ---------------------------------------------------------------- main

def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="60 s per run, 2 seeds (default: 600 s, 3 seeds)")
    ap.add_argument("--secs", type=int, help="seconds per run (overrides the mode)")
    ap.add_argument("--seeds", type=int, help="runs per fuzzer and library (overrides the mode)")
    ap.add_argument("--checkpoints", help="comma-separated seconds (default: the mode's, scaled to --secs)")
    ap.add_argument("--libs", default=",".join(DEFAULT_LIBRARIES),
                    help=f"comma-separated libraries, or all, tuning or held-out (the split in TUNING and HELD_OUT): "
                         f"{', '.join(LIBRARIES)} (default: %(default)s)")
    ap.add_argument("--from-seed", action="store_true",
                    help="every fuzzer starts from the library's seed file (one small valid file of its own test "
                         "data) instead of an empty corpus, and AFL++ with CmpLog runs too; libraries without a "
                         "seed file are skipped")
    ap.add_argument("--dir", type=Path, default=Path(os.environ.get("CFUZZ_REALWORLD_DIR", "/var/tmp/cfuzz-realworld")),
                    help="sources, builds and runs (default: $CFUZZ_REALWORLD_DIR or %(default)s)")
    ap.add_argument("--cfuzz-build", type=Path, default=Path(os.environ.get("CFUZZ_BUILD_DIR", ROOT / "build")),
                    help="the cfuzz build directory to use (default: $CFUZZ_BUILD_DIR or the repository's build/)")
    ap.add_argument("--cpu", type=int, default=(os.cpu_count() or 1) - 1, help="the core runs are pinned to")
    ap.add_argument("--build-only", action="store_true", help="fetch and build, do not run")
    ap.add_argument("--cfuzz-args", default="", metavar="'FLAGS'",
                    help="more flags for every `cfuzz run`, for an ablation (say '--len-control 0'); "
                         "named in the table's header")
    ap.add_argument("--fuzzers", default=None,
                    help="comma-separated fuzzers to run (default: cfuzz and libFuzzer, and AFL++ with --from-seed); "
                         "the others' runs are only taken "
                         "if kept (with --resume): libFuzzer's runs of the full table can be done while cfuzz changes")
    ap.add_argument("--resume", action="store_true", help="keep the results of runs already done with these settings (libFuzzer's whatever the cfuzz "
                    "build, cfuzz's only from the same cfuzz code: the same commit, or one with the same files in its "
                    "sources; each only from a library built with the same flags, on a machine of the same pace): an "
                    "ablation reruns only cfuzz")
    ap.add_argument("--results", type=Path, metavar="DIR", help="also keep each run's result.json in DIR/<secs>s/<library>/<fuzzer>-<n>.json, "
                    "and with --resume take runs from there first: a full run spread over several sittings or "
                    "machines, its figures committed to the repository in between")
    args = ap.parse_args(argv)
    mode = MODES["quick" if args.quick else "full"]
    overridden = args.secs or args.seeds or args.checkpoints
    args.mode = ("quick" if args.quick else "full") + (" (overridden)" if overridden else "")
    args.secs = args.secs or mode["secs"]
    args.seeds = args.seeds or mode["seeds"]
    if args.checkpoints:
        args.checkpoints = [int(c) for c in args.checkpoints.split(",")]
    else:
        args.checkpoints = sorted({max(1, round(c * args.secs / mode["secs"])) for c in mode["checkpoints"]})
    if max(args.checkpoints) != args.secs:
        args.checkpoints = sorted(set(args.checkpoints) | {args.secs})
    args.libs = LIBRARY_SETS[args.libs] if args.libs in LIBRARY_SETS else args.libs.split(",")
    args.fuzzers = args.fuzzers.split(",") if args.fuzzers else FUZZERS if args.from_seed else FUZZERS[:2]
    if set(args.fuzzers) - set(FUZZERS):
        ap.error(f"unknown fuzzers {sorted(set(args.fuzzers) - set(FUZZERS))}; known: {', '.join(FUZZERS)}")
    if "AFL++" in args.fuzzers and not args.from_seed:
        ap.error("AFL++ needs an input to start from: give --from-seed")
    args.run_tag = f"{args.secs}s" + ("-from-seed" if args.from_seed else "")
    unknown = [l for l in args.libs if l not in LIBRARIES]
    if unknown:
        ap.error(f"unknown libraries {unknown}; known: {', '.join(LIBRARIES)}")
    if args.from_seed:
        args.libs = [l for l in args.libs if "seed" in LIBRARIES[l]]
    args.cfuzz_build = args.cfuzz_build.resolve()
    if not (args.cfuzz_build / "bin" / "cfuzz").exists():
        ap.error(f"no cfuzz in {args.cfuzz_build}/bin: build it, or give --cfuzz-build")
    args.cfuzz_commit = cfuzz_commit(args.cfuzz_build)
    return args


# What a cfuzz build is made from; a commit that changes none of these changes no run.
CFUZZ_SOURCES = ["CMakeLists.txt", "cmake", "cmd", "core", "corpus_format", "libfuzzdriver", "runtime"]


def cfuzz_commit(cfuzz_build):
    """The commit the cfuzz build was made from (if its parent is a git work tree); "-dirty"
    when cfuzz's sources there have changes not committed (other files do not count)."""
    repo = cfuzz_build.parent
    commit = sh(["git", "-C", repo, "describe", "--always"], check=False).stdout.strip()
    if not commit:
        return "unknown commit"
    changed = sh(["git", "-C", repo, "status", "--porcelain", "--", *CFUZZ_SOURCES], check=False).stdout.strip()
    return commit + ("-dirty" if changed else "")


def main(argv=None):
    args = parse_args(argv if argv is not None else sys.argv[1:])
    ensure_packages(args.libs)
    if "AFL++" in args.fuzzers and not installed("afl++"):
        sh([*sudo(), "apt-get", "install", "-y", "--no-install-recommends", "afl++"], check=True)
    started = time.monotonic()
    built = {}
    for name in args.libs:
        spec = LIBRARIES[name]
        src = fetch(args.dir / "src", spec["package"])
        log(f"{name}: {src.name}")
        which = BENCH_VARIANTS + (AFL_VARIANTS if "AFL++" in args.fuzzers else ())
        built[name] = (lib_root(src, spec), build(name, spec, src, args.dir / "build", args.cfuzz_build, which))
    log(f"sources and builds ready in {time.monotonic() - started:.0f} s")
    if args.build_only:
        return
    runs_root = args.dir / "runs" / args.run_tag
    estimate = len(args.libs) * args.seeds * len(args.fuzzers) * args.secs / 60
    log(f"{args.mode} mode: {args.secs} s per run, {args.seeds} seeds, checkpoints {args.checkpoints}; "
        f"about {estimate:.0f} min of fuzzing, on CPU {args.cpu}")
    header = (f"cfuzz against libFuzzer on Debian source packages, {args.secs} s per run, {args.seeds} seeds, "
              f"{os.cpu_count()} CPUs, {time.strftime('%Y-%m-%d %H:%M')}, cfuzz {args.cfuzz_commit} "
              f"from {args.cfuzz_build}" + (f", cfuzz flags {args.cfuzz_args!r}" if args.cfuzz_args else ""))
    print(f"# {header}", flush=True)
    fuzzers = [Cfuzz(args.cfuzz_build, shlex.split(args.cfuzz_args)), LibFuzzer()] + \
        ([AflPlusPlus()] if args.from_seed else [])
    rows, waited = [], 0.0
    for name in args.libs:
        root, binaries = built[name]
        pace = kept_library_pace(runs_root, name, args, fuzzers)
        if pace is not None:
            log(f"  {name}: every run kept, made at a pace of {pace:.2f} s")
        else:
            pace = machine_pace(binaries["libfuzzer"], runs_root / name, args.cpu)
            log(f"  {name}: pace {pace:.2f} s for {PACE_RUNS} libFuzzer executions")
        runs = {f.name: [] for f in fuzzers}
        for i in range(args.seeds):
            for f in fuzzers:
                work = runs_root / name / f"{f.name}-{i + 1}"
                if f.name not in args.fuzzers:
                    r = kept_result(work, args, name, f.name, i + 1) if args.resume else None
                    if not reusable(r, f.name, args, LIBRARIES[name], pace):
                        continue  # not asked for, and not kept
                    r = dict(r, lock_wait=0.0)
                else:
                    r = one_run(f, name, LIBRARIES[name], root, binaries, work, args, 4000 + i, i + 1, pace)
                last = r["checkpoints"][str(args.secs)]
                log(f"  {name} {f.name} seed {4000 + i}: {last['branches']} branches, {last['entries']} inputs, "
                    f"{fmt(last['execs_per_sec'], human)} execs/s, exit {r['exit_code']}"
                    + (f", stopped early at {r['wall']:.0f} s" if r["early"] else ""))
                runs[f.name].append(r)
                waited += r.get("lock_wait", 0)
        if not any(runs.values()):
            continue
        for row in summarize(name, runs, args.checkpoints):
            print_row(row)
            rows.append(row)
    TABLE.parent.mkdir(parents=True, exist_ok=True)
    TABLE.write_text(markdown(rows, header))
    log(f"table written to {TABLE} ({(time.monotonic() - started) / 60:.1f} min in all, "
        f"{waited / 60:.1f} of them waiting for {CPU_LOCK})")


if __name__ == "__main__":
    main()
