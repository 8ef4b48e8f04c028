#include "libfuzzdriver/corpus/testdata_corpus.h"

#include <filesystem>

#include "core/value_shape.h"
#include "corpus_format/codec.h"
#include "corpus_format/corpus_dir.h"

namespace cfuzz::driver {

std::string testdata_dir(const TargetInfo& target, const TestInfo& test) {
  return target.srcdir + "/testdata/fuzz/" + test.name;
}

std::vector<std::pair<std::string, corpus::Entry>> read_testdata(const TargetInfo& target, const TestInfo& test) {
  std::vector<std::pair<std::string, corpus::Entry>> out;
  std::string dir = testdata_dir(target, test);
  std::error_code ec;
  // Something other than a directory in the corpus directory's place is an error too.
  if (!std::filesystem::exists(std::filesystem::symlink_status(dir, ec))) return out;
  for (const auto& path : corpus::list_corpus_files(dir)) {
    corpus::Entry e = corpus::read_file(path.string());
    corpus::check_types(e, test.types, path.string());
    core::check_shapes(e, test.shapes, path.string());
    out.emplace_back(path.filename().string(), std::move(e));
  }
  return out;
}

}  // namespace cfuzz::driver
