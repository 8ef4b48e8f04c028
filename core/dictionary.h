// Dictionaries: words the mutator inserts into inputs.
//
// The user's, from --dict files in the AFL/libFuzzer format:
//
//   # comment
//   kw_get="GET"
//   "\x89PNG\r\n"        (the name is optional; \\, \" and \xNN escapes)
//   header@2="HDR:"      (AFL's @level suffix is accepted and ignored)
//
// and an automatic one: constants the target was seen comparing with, reported by the
// workers after each call and kept once seen in two different calls (one side of a
// strcmp is often just input bytes; a real constant recurs). Words credited with new
// coverage are printed at the end as libFuzzer's "recommended dictionary".
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cfuzz::core {

// Throws std::runtime_error "dictionary FILE: line N: ..." for a malformed line.
std::vector<std::string> parse_dictionary_file(const std::string& path);

// One line of a dictionary file: `"..."` with the escapes the format allows.
std::string quote_dictionary_word(const std::string& word);

class Dictionary {
 public:
  static constexpr std::size_t kMaxAutoWords = 512;

  void add_user_words(const std::vector<std::string>& words);
  // Constants a worker saw in one call.
  void note_constants(const std::vector<std::string>& words);
  // Words a mutation chain used when it found new coverage.
  void credit(const std::vector<std::string>& words);

  // All words for the next calls; the same object until the words change.
  std::shared_ptr<const std::vector<std::string>> words_for_calls();

  // Automatic words credited with new coverage, most useful first: (word, uses).
  std::vector<std::pair<std::string, std::uint64_t>> recommended() const;
  std::size_t size() const { return user_.size() + auto_.size(); }

 private:
  std::vector<std::string> user_;
  std::vector<std::string> auto_;
  std::map<std::string, int> candidates_;  // seen once so far
  std::map<std::string, std::uint64_t> credits_;
  std::shared_ptr<const std::vector<std::string>> cached_;
};

}  // namespace cfuzz::core
