#!/usr/bin/env python3
"""ClusterFuzz's crash type and crash state of a crash log, by ClusterFuzz's published rules.

Written from google/clusterfuzz's stack analyzer in its default configuration
(src/clusterfuzz/stacktraces/__init__.py and constants.py): a sanitizer's stack frames
count only after a line that gives the crash type; a frame is dropped when it matches the
ignore list (STACK_FRAME_IGNORE_REGEXES, plus the libc/libstdc++ ones for symbolized
stacks); LLVMFuzzerTestOneInput is named after its source file; the state is the first
MAX_CRASH_STATE_FRAMES (3) frames kept, each cut at its first '(' or space; frames stop
counting after "allocated by thread" and the like. Only what a C/C++ sanitizer or libFuzzer
crash needs is here (no Java, Go, kernel or Windows formats).

Usage: cluster_fuzz_crash_state.py LOG
Prints the crash type's first line, the state's frames one a line, then the DEDUP_TOKEN's
frames above the fuzzing engine (the user's frames), prefixed "dedup: ".
"""
import os
import re
import sys

MAX_CRASH_STATE_FRAMES = 3

# The default ignore list (constants.py STACK_FRAME_IGNORE_REGEXES), all of it: matched
# with re.match, so anchored at the start of the frame text ("in " removed).
STACK_FRAME_IGNORE_REGEXES = [
    r'^abort$', r'^exit$', r'^pthread_create$', r'^pthread_kill$', r'^raise$', r'^tgkill$', r'^__chk_fail$',
    r'^__fortify_fail$', r'^(|__)aeabi_', r'^(|__)memcmp', r'^(|__)memcpy', r'^(|__)memmove', r'^(|__)memset',
    r'^(|__)strcmp', r'^(|__)strcpy', r'^(|__)strdup', r'^(|__)strlen', r'^(|__)strncpy', r'^<null>', r'^Abort\(',
    r'^CFCrash', r'^ExitCallback', r'^IsSandboxedProcess', r'^LLVMFuzzerTestOneInput', r'^MSanAtExitWrapper', r'^New',
    r'^RaiseException', r'^SbSystemBreakIntoDebugger', r'^SignalAction', r'^SignalHandler', r'^TestOneProtoInput',
    r'^WTF::', r'^WTFCrash', r'^X11Error', r'^_L_unlock_', r'^_\$LT\$', r'^__GI_', r'^__asan::', r'^__asan_',
    r'^__assert_', r'^__cxa_atexit', r'^__cxa_rethrow', r'^__cxa_throw', r'^__dump_stack', r'^__hwasan::',
    r'^__hwasan_', r'^__interceptor_', r'^__kasan_', r'^__libc_', r'^__lsan::', r'^__lsan_', r'^__msan::',
    r'^__msan_', r'^__pthread_kill', r'^__run_exit_handlers', r'^__rust_try', r'^__sanitizer::', r'^__sanitizer_',
    r'^__tsan::', r'^__tsan_', r'^__ubsan::', r'^__ubsan_', r'^_asan_', r'^_hwasan_', r'^_lsan_', r'^_msan_',
    r'^_objc_terminate', r'^_sanitizer_', r'^_start', r'^_tsan_', r'^_ubsan_', r'^abort', r'^alloc::',
    r'^android\.app\.ActivityManagerProxy\.', r'^android\.os\.Parcel\.', r'^art::Thread::CreateNativeThread',
    r'^asan_', r'^asan\.module_ctor', r'^asan\.module_dtor', r'^calloc', r'^check_memory_region', r'^common_exit',
    r'^core::fmt::write', r'^delete', r'^demangling_terminate_handler', r'^dump_backtrace', r'^dump_stack',
    r'^exit_or_terminate_process', r'^fpehandler\(', r'^free', r'^fuzzer::', r'^g_log', r'^generic_cpp_',
    r'^gsignal', r'^kasan_', r'^libfuzzer_sys::initialize', r'^main', r'^malloc', r'^mozalloc_', r'^new',
    r'^object_err', r'^operator', r'^panic_abort::', r'^print_trailer', r'^realloc', r'^rust_begin_unwind',
    r'^rust_fuzzer_test_input', r'^rust_oom', r'^rust_panic', r'^scanf', r'^show_stack', r'^std::__terminate',
    r'^std::io::Write::write_fmt', r'^std::panic', r'^std::process::abort', r'^std::sys::unix::abort',
    r'^std::sys_common::backtrace', r'^__rust_start_panic', r'^__scrt_common_main_seh', r'^libgcc_s.so.*',
    r'.*ASAN_OnSIGSEGV', r'.*BaseThreadInitThunk', r'.*DebugBreak', r'.*DefaultDcheckHandler',
    r'.*ForceCrashOnSigAbort', r'.*MemoryProtection::CMemoryProtector', r'.*PartitionAlloc', r'.*RtlFreeHeap',
    r'.*RtlInitializeExceptionChain', r'.*RtlReportCriticalFailure', r'.*RtlUserThreadStart', r'.*RtlpHeapHandleError',
    r'.*RtlpLogHeapFailure', r'.*SkDebugf', r'.*StackDumpSignalHandler', r'.*__android_log_assert',
    r'.*__tmainCRTStartup', r'.*_asan_rtl_', r'.*agent::asan::', r'.*allocator_shim', r'.*asan_Heap',
    r'.*asan_check_access', r'.*asan_osx_dynamic\.dylib', r'.*assert', r'.*base::FuzzedDataProvider',
    r'.*base::allocator', r'.*base::android::CheckException', r'.*base::debug::BreakDebugger',
    r'.*base::debug::CollectStackTrace', r'.*base::debug::StackTrace::StackTrace', r'.*ieee754\-', r'.*libpthread',
    r'.*logger', r'.*logging::CheckError', r'.*logging::ErrnoLogMessage', r'.*logging::LogMessage',
    r'.*stdext::exception::what', r'.*v8::base::OS::Abort', r'.* base/callback', r'.* /rust(|c)/',
    r'.*/AOSP\-toolchain/', r'.*/bindings/ToV8\.h', r'.*/crosstool/', r'.*/gcc/', r'.*/glibc\-', r'.*/jemalloc/',
    r'.*/libc\+\+', r'.*/libc/', r'.*/llvm\-build/', r'.*/minkernel/crts/', r'.*/sanitizer_common/', r'.*/tcmalloc/',
    r'.*/vc/include/', r'.*/vctools/crt/', r'.*/win_toolchain/', r'.*libc\+\+/', r'c:/clusterfuzz/bot/build',
    r'.*/memorycmp\.c', r'.*\+Unknown', r'.*<unknown module>', r'.*Inline Function @', r'^<unknown>$', r'^\[vdso\]$',
    r'^linux-gate.so.*$', r'^panic$', r'^runtime\.', r'^CrashTrampolineAsm',
    r'^libc_io_functions_not_implemented_use_fdio_instead', r'^<libclang_rt.asan.so>', r'^__zx_panic',
    r'^syslog::LogMessage', r'^print_address_description', r'^_etext', r'^_swift_stdlib_',
    r'.*fuzztest::internal::', r'^V8_Fatal', r'^blink::ReportV8FatalError', r'^v8::api_internal::ToLocalEmpty',
    r'^absl::log_internal::'
]
IGNORE_IF_SYMBOLIZED = [r'.*libc\.so', r'.*libc\+\+\.so', r'.*libc\+\+_shared\.so', r'.*libstdc\+\+\.so', r'.*libc-.*\.so']
IGNORE = re.compile('(%s)' % '|'.join(STACK_FRAME_IGNORE_REGEXES + IGNORE_IF_SYMBOLIZED))

STATE_STOP_MARKERS = [
    'Direct leak of', 'Uninitialized value was stored to memory at', 'allocated by thread',
    'created by main thread at', 'located in stack of thread', 'previously allocated by'
]

# "#3 0x55d0 in function file.cc:12:3", "#3 0x55d0 in function (module+0x1f)", "#3 0x55d0 (module+0x1f)".
FRAME = re.compile(r'\s*#(\d+)\s+(0x[0-9a-fA-F]+)\s+(.*)$')
SOURCE_LOCATION = re.compile(r'.* ([^ ]+?):\d+(:\d+)?$')

CRASH_LINES = [
    # (regex, crash type from the match), in the order the analyzer tries them.
    (re.compile(r'.*ERROR: AddressSanitizer: (SEGV|access-violation) on unknown address'), lambda m: 'UNKNOWN'),
    (re.compile(r'.*ERROR: AddressSanitizer: ([^ ]+) on (unknown address |address |)0x'),
     lambda m: m.group(1).capitalize()),
    # MSAN_TSAN_REGEX, on the report's first line ("==1==WARNING: MemorySanitizer:
    # use-of-uninitialized-value"), not on its SUMMARY line, which starts no new crash.
    (re.compile(r'.*WARNING: (ThreadSanitizer|MemorySanitizer):\s+(?!ABRT|SEGV|SIGSEGV)([^(:]+)'),
     lambda m: m.group(2).strip().capitalize()),
    (re.compile(r'(.*): runtime error: (.*)'), lambda m: ubsan_type(m.group(2))),
    (re.compile(r'.*ERROR:\s*libFuzzer:\s*deadly signal'), lambda m: 'Fatal-signal'),
]


def ubsan_type(reason):
  if re.match(r'.*(integer overflow|(negation|division) of.*cannot be represented in type).*', reason):
    return 'Integer-overflow'
  if re.match(r'.*division by zero.*', reason):
    return 'Divide-by-zero'
  return 'UNKNOWN'


def filter_frame(frame):
  for ns in ['non-virtual thunk to ', '(anonymous namespace)::', '`anonymous namespace\'::']:
    frame = frame.replace(ns, '')
  frame = frame.split('!')[-1]
  m = re.match(r'(.*?)[\(\[].*', frame)
  if m and m.group(1):
    return m.group(1).strip()
  return frame.strip().split(' ')[0]


def frame_text(rest):
  """The frame as the analyzer matches it: the text after the address, without "in "."""
  rest = rest.strip()
  if rest.startswith('in '):
    rest = rest[3:]
  elif rest.startswith('(') and rest.endswith(')'):
    rest = rest[1:-1]
  if rest.startswith('LLVMFuzzerTestOneInput'):
    # Named after its source file, when the frame has one.
    m = SOURCE_LOCATION.match(rest)
    if m:
      rest = rest.replace('LLVMFuzzerTestOneInput', os.path.basename(m.group(1)), 1)
  return rest


def crash_state(log):
  crash_type, state, kept = '', [], 0
  for line in log.splitlines():
    matched = False
    for regex, type_of in CRASH_LINES:
      m = regex.match(line)
      if m and not (crash_type and regex.pattern.startswith('(.*): runtime error')):
        crash_type, state, kept, matched = type_of(m), [], 0, True
        break
    if matched:
      continue
    if state and any(marker in line for marker in STATE_STOP_MARKERS):
      kept = MAX_CRASH_STATE_FRAMES
      continue
    if not crash_type:
      continue
    m = FRAME.match(line)
    if not m:
      continue
    frame = frame_text(m.group(3))
    if len(frame) < 3 or IGNORE.match(frame):
      continue
    if kept < MAX_CRASH_STATE_FRAMES:
      state.append(filter_frame(frame))
      kept += 1
  return crash_type, state


def dedup_user_frames(log):
  """The first DEDUP_TOKEN's frames above the engine's (libFuzzer's fuzzer::, main)."""
  for line in log.splitlines():
    line = line.strip()
    if line.startswith('DEDUP_TOKEN: '):
      frames = []
      for f in line[len('DEDUP_TOKEN: '):].split('--'):
        if IGNORE.match(f) and not f.startswith('LLVMFuzzerTestOneInput'):
          break
        frames.append(f)
      return frames
  return []


def main():
  if len(sys.argv) != 2:
    sys.exit('usage: cluster_fuzz_crash_state.py LOG')
  with open(sys.argv[1], errors='replace') as f:
    log = f.read()
  crash_type, state = crash_state(log)
  print(crash_type)
  for frame in state:
    print(frame)
  for frame in dedup_user_frames(log):
    print('dedup: ' + frame)


if __name__ == '__main__':
  main()
