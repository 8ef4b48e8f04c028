#include "core/dictionary.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "core/address_values.h"

namespace cfuzz::core {

std::vector<std::string> parse_dictionary_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("dictionary " + path + ": cannot read the file");
  std::vector<std::string> words;
  std::string line;
  int number = 0;
  auto bad = [&](const std::string& why) {
    return std::runtime_error("dictionary " + path + ": line " + std::to_string(number) + ": " + why);
  };
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos || line[b] == '#') continue;
    std::size_t e = line.find_last_not_of(" \t");
    std::size_t open = line.find('"', b);
    if (open == std::string::npos || line[e] != '"' || e == open) {
      throw bad("expected a quoted word, as in kw=\"value\" or \"value\"");
    }
    std::string word;
    for (std::size_t i = open + 1; i < e; ++i) {
      char c = line[i];
      if (c != '\\') {
        word += c;
        continue;
      }
      if (i + 1 >= e) throw bad("a backslash ends the word");
      char n = line[++i];
      if (n == '\\' || n == '"') {
        word += n;
      } else if (n == 'x' && i + 2 < e && isxdigit(static_cast<unsigned char>(line[i + 1])) &&
                 isxdigit(static_cast<unsigned char>(line[i + 2]))) {
        word += static_cast<char>(std::stoi(line.substr(i + 1, 2), nullptr, 16));
        i += 2;
      } else {
        throw bad(std::string("unknown escape \\") + n + " (only \\\\, \\\" and \\xNN are allowed)");
      }
    }
    if (word.empty()) throw bad("the word is empty");
    words.push_back(std::move(word));
  }
  return words;
}

std::string quote_dictionary_word(const std::string& word) {
  std::string out = "\"";
  for (unsigned char c : word) {
    if (c == '\\' || c == '"') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char buf[5];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    }
  }
  return out + "\"";
}

namespace {

// An 8-byte word that is an address (core/address_values.h) in either byte order: the
// mutator writes comparison operands both ways.
bool word_is_address(const std::string& w) {
  if (w.size() != 8) return false;
  std::uint64_t v = 0;
  std::memcpy(&v, w.data(), 8);
  return looks_like_address(v) || looks_like_address(__builtin_bswap64(v));
}

// Words worth keeping: two bytes at least (one byte is what random mutation tries anyway).
bool keepable(const std::string& w) { return w.size() >= 2 && !word_is_address(w); }

}  // namespace

void Dictionary::add_user_words(const std::vector<std::string>& words) {
  for (const auto& w : words) {
    if (std::find(user_.begin(), user_.end(), w) == user_.end()) user_.push_back(w);
  }
  cached_.reset();
}

void Dictionary::note_constants(const std::vector<std::string>& words) {
  for (const auto& w : words) {
    if (!keepable(w)) continue;
    if (std::find(user_.begin(), user_.end(), w) != user_.end()) continue;
    if (std::find(auto_.begin(), auto_.end(), w) != auto_.end()) continue;
    if (++candidates_[w] < 2) continue;
    candidates_.erase(w);
    if (auto_.size() == kMaxAutoWords) auto_.erase(auto_.begin());  // the oldest goes
    auto_.push_back(w);
    cached_.reset();
  }
  // Forget one-off candidates now and then, so that noise does not pile up.
  if (candidates_.size() > 8 * kMaxAutoWords) candidates_.clear();
}

void Dictionary::credit(const std::vector<std::string>& words) {
  for (const auto& w : words) {
    if (!keepable(w)) continue;
    credits_[w]++;
    // A word that helped find coverage is worth inserting elsewhere too (libFuzzer's
    // persistent automatic dictionary).
    bool known = std::find(user_.begin(), user_.end(), w) != user_.end() ||
                 std::find(auto_.begin(), auto_.end(), w) != auto_.end();
    if (!known) {
      if (auto_.size() == kMaxAutoWords) auto_.erase(auto_.begin());
      auto_.push_back(w);
      cached_.reset();
    }
  }
}

std::shared_ptr<const std::vector<std::string>> Dictionary::words_for_calls() {
  if (!cached_) {
    auto v = std::make_shared<std::vector<std::string>>(user_);
    v->insert(v->end(), auto_.begin(), auto_.end());
    cached_ = v;
  }
  return cached_;
}

std::vector<std::pair<std::string, std::uint64_t>> Dictionary::recommended() const {
  std::vector<std::pair<std::string, std::uint64_t>> out;
  for (const auto& [w, uses] : credits_) {
    if (std::find(user_.begin(), user_.end(), w) != user_.end()) continue;
    out.emplace_back(w, uses);
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  if (out.size() > 64) out.resize(64);
  return out;
}

}  // namespace cfuzz::core
