#include "runtime/libfuzzer/child_process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string_view>

extern char** environ;

namespace fuzzer::cfuzz {

ChildResult run_child(const std::vector<std::string>& argv, ChildOutput output, const std::string& path) {
  ChildResult result;
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  int pipe_fds[2] = {-1, -1};
  if (output == ChildOutput::Capture) {
    if (pipe2(pipe_fds, O_CLOEXEC) != 0) return result;
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 2);
  } else if (output == ChildOutput::File || output == ChildOutput::Discard) {
    const char* target = output == ChildOutput::File ? path.c_str() : "/dev/null";
    posix_spawn_file_actions_addopen(&actions, 1, target, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
  }
  pid_t pid = -1;
  // This binary, however argv[0] names it (a bare name found on PATH, say).
  int err = posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (pipe_fds[1] >= 0) close(pipe_fds[1]);
  if (err != 0) {
    if (pipe_fds[0] >= 0) close(pipe_fds[0]);
    result.output = "cannot start " + argv[0];
    return result;
  }
  if (pipe_fds[0] >= 0) {
    char buf[65536];
    for (;;) {
      ssize_t n = read(pipe_fds[0], buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      result.output.append(buf, static_cast<std::size_t>(n));
    }
    close(pipe_fds[0]);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

pid_t start_child(const std::vector<std::string>& argv, ChildOutput output, const std::string& path,
                  const std::vector<std::string>& env) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<char*> envp;
  for (char** e = environ; *e != nullptr; ++e) envp.push_back(*e);
  for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (output == ChildOutput::File || output == ChildOutput::Discard) {
    const char* target = output == ChildOutput::File ? path.c_str() : "/dev/null";
    posix_spawn_file_actions_addopen(&actions, 1, target, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
  }
  pid_t pid = -1;
  int err = posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  return err == 0 ? pid : -1;
}

pid_t wait_any_child(int* exit_code) {
  int status = 0;
  pid_t pid;
  while ((pid = waitpid(-1, &status, 0)) < 0 && errno == EINTR) {
  }
  if (pid > 0) *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return pid;
}

std::vector<std::string> own_command(int argc, char** argv, const std::vector<std::string>& drop,
                                     const std::vector<std::string>& add) {
  std::vector<std::string> cmd;
  for (int i = 0; i < argc; ++i) {
    std::string_view arg = argv[i];
    bool dropped = std::any_of(drop.begin(), drop.end(), [&](const std::string& d) {
      return arg.starts_with(d) && (arg.size() == d.size() || arg[d.size()] == '=');
    });
    if (!dropped) cmd.emplace_back(arg);
  }
  cmd.insert(cmd.end(), add.begin(), add.end());
  return cmd;
}

}  // namespace fuzzer::cfuzz
