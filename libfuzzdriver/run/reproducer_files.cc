#include "libfuzzdriver/run/reproducer_files.h"

#include <filesystem>

#include "core/go_duration.h"
#include "corpus_format/codec.h"
#include "libfuzzdriver/corpus/content_name.h"
#include "libfuzzdriver/corpus/failure_claim.h"
#include "libfuzzdriver/util/base64.h"
#include "libfuzzdriver/util/file_io.h"

namespace cfuzz::driver {

namespace fs = std::filesystem;

std::string ReproducerFiles::rerun_command(const std::string& name, const std::string& srcdir) const {
  std::string cmd = s_.command + " --run " + s_.test + "/" + name;
  if (srcdir != s_.srcdir) {
    cmd += " --srcdir " + srcdir;
  } else if (!s_.srcdir_flag.empty()) {
    cmd += " --srcdir " + s_.srcdir_flag;
  }
  return cmd;
}

std::string ReproducerFiles::write(const corpus::Entry& input, const std::string& srcdir, std::string* rerun,
                                   const std::string& confine_below) const {
  std::string dir = srcdir + "/testdata/fuzz/" + s_.test;
  std::string text = corpus::encode(input);
  std::string name = content_name(text);
  fs::path path = fs::path(dir) / name;
  if (confine_below.empty()) {
    make_directories(dir);
    write_file_atomic(path, text);
  } else {
    Directory::open_below(confine_below, dir, /*create=*/true).write_file_atomic(name, text);
  }
  *rerun = rerun_command(name, srcdir);
  std::error_code ec;
  fs::path shown = fs::proximate(path, ec);
  if (ec || shown.string().starts_with("../..")) shown = path;
  return shown.string();
}

std::string ReproducerFiles::limit_flags(const core::FailureRecord& f) const {
  switch (static_cast<core::FailureKind>(f.kind)) {
    case core::FailureKind::Timeout: return " --timeout " + core::format_duration(s_.timeout);
    case core::FailureKind::OutOfMemory: return " --rss-limit-mb " + std::to_string(s_.rss_limit_mb);
    case core::FailureKind::StackLimit:  // the seed run has the same default
      return s_.stack_limit_kb ? " --stack-limit-kb " + std::to_string(*s_.stack_limit_kb) : "";
    default: return "";
  }
}

void ReproducerFiles::save(const corpus::Entry& input, FailureReport* r) const {
  FailureClaim claim(s_.cache_root, (fs::path(s_.cache_dir).parent_path() / ".claims").string(), s_.test,
                     core::failure_signature(r->failure), s_.run_start);
  if (!claim.acquire()) {
    fs::path other = claim.other_path();
    r->written_by_other_run = true;
    r->written_to = other.string();
    // <srcdir>/testdata/fuzz/<Name>/<file>
    fs::path srcdir = other.parent_path().parent_path().parent_path().parent_path();
    std::error_code ec;
    r->rerun =
        rerun_command(other.filename().string(), fs::equivalent(srcdir, s_.srcdir, ec) ? s_.srcdir : srcdir.string()) +
        limit_flags(r->failure);
    return;
  }
  try {
    r->written_to = write(input, s_.srcdir, &r->rerun);
    claim.record(r->written_to);
  } catch (const std::exception& e) {
    r->write_error = e.what();
    std::string text = corpus::encode(input);
    r->input_v1 = text;
    r->input_base64 = base64_encode(text);
    std::string fallback = (fs::path(s_.cache_dir).parent_path() / "failures").string();
    try {
      r->written_to = write(input, fallback, &r->rerun, s_.cache_root);
      claim.record(r->written_to);
    } catch (const std::exception& e2) {
      r->write_error += "; and not under " + fallback + " either: " + e2.what();
    }
  }
  if (!r->rerun.empty()) r->rerun += limit_flags(r->failure);
}

}  // namespace cfuzz::driver
