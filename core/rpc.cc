#include "core/rpc.h"

#include <unistd.h>

#include <cerrno>

namespace cfuzz::core::rpc {

bool status_allowed(Method method, Status status) {
  switch (method) {
    case Method::Ping: return status == Status::Ok;
    case Method::Fuzz: return status == Status::Ok || status == Status::Interesting || status == Status::Failure;
    case Method::Exec: return status == Status::Ok || status == Status::Skipped || status == Status::Failure;
    case Method::ExecBatch: return status == Status::Ok || status == Status::Failure;
    case Method::Minimize: return status == Status::Done || status == Status::Budget || status == Status::Failure;
  }
  return false;
}

std::optional<std::string> LineBuffer::next_line() {
  auto nl = buf_.find('\n');
  if (nl == std::string::npos) {
    if (buf_.size() > kMaxMessageBytes) {
      throw ProtocolError("RPC message longer than " + std::to_string(kMaxMessageBytes) + " bytes without a newline");
    }
    return std::nullopt;
  }
  std::string line = buf_.substr(0, nl);
  buf_.erase(0, nl + 1);
  return line;
}

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace cfuzz::core::rpc
