#include "runtime/failure/crash_handler.h"

#include <cxxabi.h>
#include <link.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>
#include <unwind.h>

#include <cstdio>
#include <exception>
#include <string_view>
#include <typeinfo>

#include "core/shm_layout.h"
#include "runtime/engine/executor.h"

// Sanitizer interfaces, weak: present only when the target links a sanitizer runtime.
extern "C" {
void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));
const char* __asan_get_report_description() __attribute__((weak));
void* __asan_get_report_pc() __attribute__((weak));
// Bounds of the section holding the SanitizerCoverage callbacks (sancov.cc).
extern char __start_cfuzz_hooks[] __attribute__((weak));
extern char __stop_cfuzz_hooks[] __attribute__((weak));
void __asan_init() __attribute__((weak));
void __tsan_init() __attribute__((weak));
void __msan_init() __attribute__((weak));
void __ubsan_get_current_report_data(const char** kind, const char** message, const char** filename, unsigned* line,
                                     unsigned* col, char** memory_addr) __attribute__((weak));
}

namespace fuzzer::cfuzz {

ExecutionState& execution_state() {
  static std::atomic<std::uint32_t> standalone_phase{0};
  static core::FailureRecord standalone_record{};
  static ExecutionState state{&standalone_phase, &standalone_record, nullptr, false, {0}, nullptr};
  return state;
}

namespace {

// --- Module map, built once at startup so that the signal handler only reads memory ---

struct Module {
  std::uintptr_t begin, end, base;
  char name[64];
  char path[256];  // for a symbolizer: the main program's is /proc/self/exe's target
  bool system;     // libc, libstdc++, the loader...: never the crash site
};
constexpr int kMaxModules = 128;
Module g_modules[kMaxModules];
int g_module_count = 0;

bool is_system_path(std::string_view path) {
  return path.starts_with("/lib") || path.starts_with("/usr/lib") || path.find("linux-vdso") != std::string_view::npos;
}

int collect_module(dl_phdr_info* info, size_t, void*) {
  if (g_module_count == kMaxModules) return 1;
  std::uintptr_t lo = ~std::uintptr_t{0}, hi = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || (ph.p_flags & PF_X) == 0) continue;
    std::uintptr_t b = info->dlpi_addr + ph.p_vaddr;
    if (b < lo) lo = b;
    if (b + ph.p_memsz > hi) hi = b + ph.p_memsz;
  }
  if (hi == 0) return 0;
  Module& m = g_modules[g_module_count++];
  m.begin = lo;
  m.end = hi;
  m.base = info->dlpi_addr;
  std::string_view path = info->dlpi_name != nullptr ? info->dlpi_name : "";
  m.system = is_system_path(path);
  if (path.empty()) {
    ssize_t n = readlink("/proc/self/exe", m.path, sizeof m.path - 1);
    m.path[n > 0 ? n : 0] = '\0';
    path = program_invocation_short_name;
  } else {
    core::failure_set(m.path, path);
  }
  if (auto slash = path.rfind('/'); slash != std::string_view::npos) path.remove_prefix(slash + 1);
  core::failure_set(m.name, path);
  return 0;
}

const Module* module_of(std::uintptr_t pc) {
  for (int i = 0; i < g_module_count; ++i) {
    if (pc >= g_modules[i].begin && pc < g_modules[i].end) return &g_modules[i];
  }
  return nullptr;
}

// --- Async-signal-safe text building ---

struct Text {
  char* buf;
  std::size_t cap;
  std::size_t len = 0;
  void add(std::string_view s) {
    for (char c : s) {
      if (len + 1 < cap) buf[len++] = c;
    }
    buf[len] = '\0';
  }
  void add_hex(std::uintptr_t v) {
    char tmp[2 + 16];
    int n = 0;
    do {
      tmp[n++] = "0123456789abcdef"[v & 15];
      v >>= 4;
    } while (v != 0);
    add("0x");
    while (n > 0) {
      char c[2] = {tmp[--n], '\0'};
      add(c);
    }
  }
  void add_int(long v) {
    char tmp[24];
    int n = 0;
    bool neg = v < 0;
    unsigned long u = neg ? 0UL - static_cast<unsigned long>(v) : static_cast<unsigned long>(v);
    do {
      tmp[n++] = static_cast<char>('0' + u % 10);
      u /= 10;
    } while (u != 0);
    if (neg) add("-");
    while (n > 0) {
      char c[2] = {tmp[--n], '\0'};
      add(c);
    }
  }
};

void write_stderr_to(int fd, std::string_view s) {
  while (!s.empty()) {
    ssize_t n = ::write(fd, s.data(), s.size());
    if (n <= 0) return;
    s.remove_prefix(static_cast<std::size_t>(n));
  }
}

void write_stderr(std::string_view s) { write_stderr_to(2, s); }

void add_frame(Text& t, std::uintptr_t pc) {
  const Module* m = module_of(pc);
  if (t.len > 0) t.add(" ");
  if (m == nullptr) {
    t.add_hex(pc);
    return;
  }
  t.add(m->name);
  t.add("+");
  t.add_hex(pc - m->base);
}

bool record_is_empty() {
  core::FailureRecord* r = execution_state().record;
  return r != nullptr && r->kind == static_cast<std::uint32_t>(core::FailureKind::None);
}

const char* signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    case SIGTRAP: return "SIGTRAP";
    default: return "signal";
  }
}

// The dying words: one line naming the input (standalone) and what happened. Returns the
// exit status the front end wants, or -1 for the default.
int announce(const core::FailureRecord& r) {
  if (execution_state().report_failure != nullptr) return execution_state().report_failure(r);
  char buf[1024];
  Text t{buf, sizeof buf};
  const ExecutionState& st = execution_state();
  if (!st.worker && st.input_name != nullptr) {
    auto kind = static_cast<core::FailureKind>(r.kind);
    t.add("--- FAIL: ");
    t.add(st.input_name);
    bool leak = std::string_view(r.detail).starts_with("LeakSanitizer");
    t.add(kind == core::FailureKind::Timeout       ? " (timed out)\n    "
          : kind == core::FailureKind::OutOfMemory ? " (out of memory)\n    "
          : kind == core::FailureKind::StackLimit  ? " (stack limit)\n    "
          : leak                                   ? " (leaked memory)\n    "
                                                   : " (crashed)\n    ");
  } else {
    t.add("cfuzz: ");
  }
  auto kind = static_cast<core::FailureKind>(r.kind);
  if (kind == core::FailureKind::Signal) {
    t.add("deadly signal ");
    t.add(r.detail);
  } else if (kind == core::FailureKind::Exit) {
    t.add("the target called exit(");
    t.add_int(r.exit_code);
    t.add(")");
  } else {
    t.add(r.detail);
    if (r.message[0] != '\0') {
      t.add(": ");
      t.add(std::string_view(r.message).substr(0, 400));
    }
  }
  if (r.site[0] != '\0') {
    t.add(" at ");
    t.add(r.site);
  }
  t.add("\n");
  if (!st.worker && st.input_name != nullptr) t.add("FAIL\n");
  write_stderr(std::string_view(buf, t.len));
  return -1;
}

int exit_status(int announced, int fallback) { return announced >= 0 ? announced : fallback; }

}  // namespace

namespace {

struct Walk {
  std::uintptr_t ip[48];
  int n;
};

_Unwind_Reason_Code collect_frame(_Unwind_Context* ctx, void* arg) {
  auto* w = static_cast<Walk*>(arg);
  if (w->n == 48) return _URC_END_OF_STACK;
  int before_insn = 0;
  std::uintptr_t ip = _Unwind_GetIPInfo(ctx, &before_insn);
  if (ip == 0) return _URC_END_OF_STACK;
  // A return address points after its call (past the end of the function when the callee
  // does not return, like abort): one byte back is inside the call. The interrupted
  // instruction of a signal frame is exact.
  w->ip[w->n] = before_insn != 0 ? ip : ip - 1;
  ++w->n;
  return _URC_NO_REASON;
}

}  // namespace

void describe_site_from_backtrace(core::FailureRecord& r) {
  Walk w;
  w.n = 0;
  _Unwind_Backtrace(collect_frame, &w);
  Text t{r.site, sizeof r.site};
  // Frames before the first system-library frame are the handler's own (the runtime and
  // any sanitizer runtime, linked into the executable); then system frames (the signal
  // trampoline, raise, abort, __assert_fail...) until the target's code.
  int i = 0;
  while (i < w.n) {
    const Module* m = module_of(w.ip[i]);
    if (m != nullptr && m->system) break;
    ++i;
  }
  if (i == w.n) i = 0;  // no trampoline (std::terminate, a sanitizer report): from the top
  auto in_hooks = [](std::uintptr_t ip) {
    return __start_cfuzz_hooks != nullptr && ip >= reinterpret_cast<std::uintptr_t>(__start_cfuzz_hooks) &&
           ip < reinterpret_cast<std::uintptr_t>(__stop_cfuzz_hooks);
  };
  while (i < w.n) {
    const Module* m = module_of(w.ip[i]);
    if (m != nullptr && !m->system && !in_hooks(w.ip[i])) break;
    ++i;
  }
  // The target's frames end where the runtime called the fuzz function.
  auto entry = reinterpret_cast<std::uintptr_t>(&call_fuzz_function);
  for (int k = 0; i < w.n && k < 3; ++i, ++k) {
    if (w.ip[i] >= entry && w.ip[i] < entry + 64) break;
    add_frame(t, w.ip[i]);
  }
}

void print_stack_trace(int fd) {
  Walk w;
  w.n = 0;
  _Unwind_Backtrace(collect_frame, &w);
  // Frames up to the first system frame are the handler's own, then come the signal
  // trampoline's (see above); the stack starts where the fault was.
  int i = 0;
  while (i < w.n && !(module_of(w.ip[i]) != nullptr && module_of(w.ip[i])->system)) ++i;
  if (i == w.n) i = 0;
  while (i < w.n && module_of(w.ip[i]) != nullptr && module_of(w.ip[i])->system) ++i;
  if (i == w.n) i = 0;
  auto entry = reinterpret_cast<std::uintptr_t>(&call_fuzz_function);
  for (int k = 0; i < w.n; ++i, ++k) {
    char buf[400];
    Text t{buf, sizeof buf};
    t.add("    #");
    t.add_int(k);
    t.add(" ");
    t.add_hex(w.ip[i]);
    const Module* m = module_of(w.ip[i]);
    if (m != nullptr) {
      t.add(" in (");
      t.add(m->path[0] != '\0' ? m->path : m->name);
      t.add("+");
      t.add_hex(w.ip[i] - m->base);
      t.add(")");
    }
    t.add("\n");
    write_stderr_to(fd, std::string_view(buf, t.len));
    if (w.ip[i] >= entry && w.ip[i] < entry + 64) break;  // the runtime called the target here
  }
}

namespace {

// Alternate stack so that a stack overflow can still be reported.
alignas(16) char g_alt_stack[1 << 16];

void on_deadly_signal(int sig, siginfo_t* info, void* ucontext) {
  core::FailureRecord* r = execution_state().record;
  if (record_is_empty()) {
    r->kind = static_cast<std::uint32_t>(core::FailureKind::Signal);
    r->signal = sig;
    core::failure_set(r->detail, signal_name(sig));
    auto* uc = static_cast<ucontext_t*>(ucontext);
    std::uintptr_t pc = static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
    std::uintptr_t sp = static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RSP]);
    auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);
    if (sig == SIGSEGV && addr + 65536 > sp && addr < sp + 65536) {
      core::failure_set(r->detail, "stack-overflow");
    }
    // The unwinder walks through the signal frame to the faulting instruction (or, for a
    // fault inside a system library such as memcpy, to the target's call of it).
    describe_site_from_backtrace(*r);
    if (r->site[0] == '\0') {
      Text t{r->site, sizeof r->site};
      add_frame(t, pc);
    }
  }
  int status = announce(*r);
  // A seed run fails with exit status 1, as a failing seed does. A worker dies of the same
  // signal, so that the coordinator sees what happened.
  if (!execution_state().worker) syscall(SYS_exit_group, exit_status(status, 1));
  signal(sig, SIG_DFL);
  raise(sig);
}

// UndefinedBehaviorSanitizer tells us each report as it is made (a weak hook of its
// runtime); the kind ("signed-integer-overflow") and location are kept for the death
// callback that follows when the report halts the program.
char g_ubsan_kind[96];
char g_ubsan_where[256];
// Set when a report is made while an input executes, for the executor to fail it: without
// halt_on_error (the default of a plain -fsanitize=undefined build) UBSan only prints.
bool g_ubsan_pending = false;

void on_sanitizer_death() {
  core::FailureRecord* r = execution_state().record;
  if (record_is_empty()) {
    r->kind = static_cast<std::uint32_t>(core::FailureKind::Sanitizer);
    const char* asan = __asan_get_report_description != nullptr ? __asan_get_report_description() : nullptr;
    if (asan != nullptr && asan[0] != '\0') {
      Text d{r->detail, sizeof r->detail};
      d.add("AddressSanitizer: ");
      d.add(asan);
      auto pc = __asan_get_report_pc != nullptr ? reinterpret_cast<std::uintptr_t>(__asan_get_report_pc()) : 0;
      if (pc != 0) {
        // The report's pc is a return address (into the instrumented access's call of
        // the report function): one byte back is the access itself.
        Text s{r->site, sizeof r->site};
        add_frame(s, pc - 1);
      } else {
        // A deadly signal reported by ASan: its frames sit above the signal trampoline.
        describe_site_from_backtrace(*r);
      }
    } else if (g_ubsan_kind[0] != '\0') {
      Text d{r->detail, sizeof r->detail};
      d.add("UndefinedBehaviorSanitizer: ");
      d.add(g_ubsan_kind);
      core::failure_set(r->site, g_ubsan_where);
    } else {
      // ThreadSanitizer, LeakSanitizer...: the coordinator reads the report's first line.
      core::failure_set(r->detail, "sanitizer");
    }
  }
  announce(*r);
}

void on_terminate() {
  core::FailureRecord* r = execution_state().record;
  if (record_is_empty()) {
    r->kind = static_cast<std::uint32_t>(core::FailureKind::Exception);
    std::type_info* type = abi::__cxa_current_exception_type();
    if (type != nullptr) {
      int status = 0;
      char* name = abi::__cxa_demangle(type->name(), nullptr, nullptr, &status);
      core::failure_set(r->detail, status == 0 && name != nullptr ? name : type->name());
      std::free(name);
      try {
        throw;
      } catch (const std::exception& e) {
        core::failure_set(r->message, e.what());
      } catch (...) {
      }
    } else {
      core::failure_set(r->detail, "std::terminate");
      core::failure_set(r->message, "std::terminate called without an active exception");
    }
    describe_site_from_backtrace(*r);
  }
  if (int status = announce(*r); status >= 0) syscall(SYS_exit_group, status);
  // Die of SIGABRT as std::terminate would, without our SIGABRT handler rewriting this.
  signal(SIGABRT, SIG_DFL);
  abort();
}

void on_exit_hook(int status, void*) { note_exit(status); }

}  // namespace

void note_exit(int status) {
  ExecutionState& st = execution_state();
  if (st.phase->load(std::memory_order_relaxed) != static_cast<std::uint32_t>(core::Phase::Executing)) {
    return;
  }
  if (record_is_empty()) {
    st.record->kind = static_cast<std::uint32_t>(core::FailureKind::Exit);
    st.record->exit_code = status;
    core::failure_set(st.record->detail, "exit");
  }
  int announced = announce(*st.record);
  // A seed run that the target ends with exit(0) must still fail.
  if (!st.worker) syscall(SYS_exit_group, exit_status(announced, 1));
}

void fail_running_input(core::FailureKind kind, std::string_view detail, std::string_view message) {
  ExecutionState& st = execution_state();
  if (record_is_empty()) {
    st.record->kind = static_cast<std::uint32_t>(kind);
    core::failure_set(st.record->detail, detail);
    core::failure_set(st.record->message, message);
  }
  syscall(SYS_exit_group, exit_status(announce(*st.record), 1));
  __builtin_unreachable();
}

void note_ubsan_report() {
  if (__ubsan_get_current_report_data == nullptr) return;
  const char *kind = nullptr, *message = nullptr, *file = nullptr;
  unsigned line = 0, col = 0;
  char* addr = nullptr;
  __ubsan_get_current_report_data(&kind, &message, &file, &line, &col, &addr);
  core::failure_set(g_ubsan_kind, kind != nullptr ? kind : "undefined-behavior");
  char buf[256];
  Text t{buf, sizeof buf};
  std::string_view f = file != nullptr ? file : "";
  if (auto slash = f.rfind('/'); slash != std::string_view::npos) f.remove_prefix(slash + 1);
  if (!f.empty()) {
    t.add(f);
    t.add(":");
    t.add_int(static_cast<long>(line));
  }
  core::failure_set(g_ubsan_where, std::string_view(buf, t.len));
  if (execution_state().phase->load(std::memory_order_relaxed) == static_cast<std::uint32_t>(core::Phase::Executing)) {
    g_ubsan_pending = true;
  }
}

bool take_ubsan_report(core::FailureRecord* r) {
  if (!g_ubsan_pending) return false;
  g_ubsan_pending = false;
  core::failure_clear(*r);
  r->kind = static_cast<std::uint32_t>(core::FailureKind::Sanitizer);
  Text d{r->detail, sizeof r->detail};
  d.add("UndefinedBehaviorSanitizer: ");
  d.add(g_ubsan_kind);
  core::failure_set(r->site, g_ubsan_where);
  core::failure_set(r->message, "see the report on standard error");
  return true;
}

void install_crash_handlers() {
  dl_iterate_phdr(collect_module, nullptr);
  // Load the unwinder now: its first use allocates, which a signal handler must not do.
  Walk warm;
  warm.n = 0;
  _Unwind_Backtrace(collect_frame, &warm);

  stack_t ss{};
  ss.ss_sp = g_alt_stack;
  ss.ss_size = sizeof g_alt_stack;
  sigaltstack(&ss, nullptr);

  // A sanitizer that checks memory (ASan, TSan, MSan) reports deadly signals better than we
  // can, and calls our death callback: keep its handlers. Any other handler is replaced,
  // notably the one of the UBSan runtime that clang links into every coverage build.
  bool memory_sanitizer = __asan_init != nullptr || __tsan_init != nullptr || __msan_init != nullptr;
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP}) {
    struct sigaction old {};
    sigaction(sig, nullptr, &old);
    bool has_handler = (old.sa_flags & SA_SIGINFO) != 0 ? old.sa_sigaction != nullptr
                                                        : (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN);
    if (has_handler && memory_sanitizer) continue;
    struct sigaction sa {};
    sa.sa_sigaction = on_deadly_signal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, nullptr);
  }
  if (__sanitizer_set_death_callback != nullptr) __sanitizer_set_death_callback(on_sanitizer_death);
  std::set_terminate(on_terminate);
  on_exit(on_exit_hook, nullptr);
}

}  // namespace fuzzer::cfuzz

// ThreadSanitizer only prints a race and goes on, unless told to halt; a seed run must fail
// on the input that raced, and say which it was. (Fuzzing workers get the same setting
// from the coordinator; TSAN_OPTIONS still overrides it.)
extern "C" const char* __tsan_default_options() { return "halt_on_error=1"; }

// _exit() skips the exit hooks: catch it by name so that a seed run still says which seed
// ended the process (libc's own calls, after exit(), do not come here).
extern "C" void _exit(int status) {
  cfuzz::runtime::note_exit(status);
  syscall(SYS_exit_group, status);
  __builtin_unreachable();
}
extern "C" void _Exit(int status) { _exit(status); }

// Overrides the weak hook of UndefinedBehaviorSanitizer's runtime, called for each report.
extern "C" void __ubsan_on_report() { cfuzz::runtime::note_ubsan_report(); }
