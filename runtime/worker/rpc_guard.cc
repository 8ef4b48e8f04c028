#include "runtime/worker/rpc_guard.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/rpc.h"

namespace fuzzer::cfuzz {

namespace rpc = core::rpc;

bool FdIdentity::read(int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0) return false;
  dev = st.st_dev;
  ino = st.st_ino;
  return true;
}

bool FdIdentity::same_as(int fd) const {
  FdIdentity now;
  return now.read(fd) && now.dev == dev && now.ino == ino;
}

RpcGuard::RpcGuard() {
  // Descriptors high enough to be out of the target's way.
  saved_in_ = fcntl(rpc::kRequestFd, F_DUPFD_CLOEXEC, 64);
  saved_out_ = fcntl(rpc::kResponseFd, F_DUPFD_CLOEXEC, 64);
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0) return;
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]);
    close(in[1]);
    return;
  }
  // When 3 and 4 are free (a seed run), the new pipes land on them: move every end out
  // of the way before placing the decoys.
  for (int* fd : {&in[0], &in[1], &out[0], &out[1]}) {
    int high = fcntl(*fd, F_DUPFD_CLOEXEC, 64);
    close(*fd);
    *fd = high;
  }
  // The decoys must not be inherited by processes the target starts, like the real ones.
  dup3(in[0], rpc::kRequestFd, O_CLOEXEC);
  dup3(out[1], rpc::kResponseFd, O_CLOEXEC);
  close(in[0]);
  close(out[1]);
  in_writer_ = in[1];
  out_reader_ = out[0];
  in_id_.read(rpc::kRequestFd);
  out_id_.read(rpc::kResponseFd);
}

RpcGuard::~RpcGuard() {
  if (saved_in_ >= 0) {
    dup2(saved_in_, rpc::kRequestFd);
  } else {
    close(rpc::kRequestFd);
  }
  if (saved_out_ >= 0) {
    dup2(saved_out_, rpc::kResponseFd);
  } else {
    close(rpc::kResponseFd);
  }
  for (int fd : {saved_in_, saved_out_, in_writer_, out_reader_}) {
    if (fd >= 0) close(fd);
  }
}

bool RpcGuard::intact() const {
  if (out_reader_ < 0) return true;  // no decoys could be set up: nothing to check
  int pending = 0;
  return in_id_.same_as(rpc::kRequestFd) && out_id_.same_as(rpc::kResponseFd) &&
         ioctl(out_reader_, FIONREAD, &pending) == 0 && pending == 0;
}

}  // namespace fuzzer::cfuzz
