#include "runtime/libfuzzer/libfuzzer_units.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <utility>

#include "core/sha1.h"
#include "corpus_format/codec.h"

namespace fuzzer::cfuzz {

namespace fs = std::filesystem;

namespace {

// write_unit's temporary files: ".<name>.tmp<pid>", never read as units (another process
// may be about to rename one).
constexpr const char* kTemporarySuffix = ".tmp";

bool is_temporary(const fs::path& p) {
  std::string name = p.filename().string();
  return name.starts_with(".") && name.find(kTemporarySuffix) != std::string::npos;
}

}  // namespace

std::optional<corpus::Entry> entry_of_unit(const std::string& bytes, const std::vector<corpus::Type>& types, bool raw,
                                           std::uint64_t max_len) {
  if (raw) {
    std::string cut = bytes.substr(0, max_len);  // as libFuzzer cuts units to -max_len
    corpus::Entry e;
    if (types[0] == corpus::Type::Bytes) {
      e.emplace_back(corpus::Bytes(cut.begin(), cut.end()));
    } else {
      e.emplace_back(cut);
    }
    return e;
  }
  try {
    corpus::Entry e = corpus::decode(bytes);
    corpus::check_types(e, types, "unit");
    return e;
  } catch (const corpus::CorpusError&) {
    return std::nullopt;
  }
}

std::vector<fs::path> unit_files(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_directory(ec) && it->path().filename().string().starts_with(".")) {
      it.disable_recursion_pending();
    } else if (it->is_regular_file(ec) && !is_temporary(it->path())) {
      files.push_back(it->path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

void write_unit(const fs::path& path, const std::string& unit) {
  fs::path tmp = path.parent_path() / ("." + path.filename().string() + kTemporarySuffix + std::to_string(getpid()));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(unit.data(), static_cast<std::streamsize>(unit.size()));
    if (!out) throw std::string("cannot write " + tmp.string());
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) throw std::string("cannot write " + path.string() + ": " + ec.message());
}

std::string raw_bytes(const corpus::Entry& e) {
  if (const auto* b = std::get_if<corpus::Bytes>(&e[0])) return std::string(b->begin(), b->end());
  return std::get<std::string>(e[0]);
}

UnitForm::UnitForm(std::vector<corpus::Type> t)
    : types(std::move(t)),
      raw(types.size() == 1 && (types[0] == corpus::Type::Bytes || types[0] == corpus::Type::String)) {}

std::string UnitForm::unit(const corpus::Entry& e) const { return raw ? raw_bytes(e) : corpus::encode(e); }

std::string unit_name(const std::string& unit) {
  char hex[core::kSha1HexSize + 1];
  core::sha1_hex(reinterpret_cast<const std::uint8_t*>(unit.data()), unit.size(), hex);
  return hex;
}

std::string read_unit(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::string(path.string() + ": cannot read");
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace fuzzer::cfuzz
