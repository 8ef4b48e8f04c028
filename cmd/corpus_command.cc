// `cfuzz corpus`: tools for `go test fuzz v1` corpus files. Each subcommand fills an
// options struct and calls libfuzzdriver/corpus/corpus_tools.h; nothing here a test of the
// library cannot reach.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cmd/subcommands.h"
#include "corpus_format/value.h"
#include "libfuzzdriver/corpus/corpus_tools.h"

namespace cfuzz::cmd {

namespace {

struct Bin2V1Options {
  std::vector<std::string> inputs;
  std::string output_dir;
  std::string type = "[]byte";
};

struct V12BinOptions {
  std::vector<std::string> inputs;
  std::string output_dir;
};

struct ShowOptions {
  std::vector<std::string> inputs;
  bool full = false;
};

struct FmtOptions {
  std::vector<std::string> paths;
  bool check = false;
};

std::vector<std::filesystem::path> to_paths(const std::vector<std::string>& names) {
  return {names.begin(), names.end()};
}

void print_converted(const std::vector<driver::ConvertedFile>& files) {
  for (const auto& f : files) {
    std::printf("%s %s (%zu bytes, from %s)\n", f.unchanged ? "unchanged" : "wrote", f.output.c_str(), f.raw_bytes,
                f.input.c_str());
  }
}

void add_convert(CLI::App& corpus) {
  CLI::App* convert =
      corpus.add_subcommand("convert", "Convert raw files (a libFuzzer or AFL corpus, samples) to v1 entries and back");
  convert->require_subcommand(1);

  auto b2v = std::make_shared<Bin2V1Options>();
  CLI::App* bin2v1 = convert->add_subcommand("bin2v1", "Turn raw files into v1 entries of one []byte or string");
  bin2v1->add_option("files", b2v->inputs, "Raw input files, or directories of them (the regular files inside)")
      ->required()
      ->type_name("FILE|DIR");
  bin2v1
      ->add_option("-o,--output", b2v->output_dir,
                   "Directory to write the entries to, typically testdata/fuzz/FuzzName "
                   "(created if missing)")
      ->required()
      ->type_name("DIR");
  bin2v1
      ->add_option("--type", b2v->type,
                   "Go type of the value in each entry: []byte or string (must match the fuzz "
                   "argument)")
      ->check(CLI::IsMember({"[]byte", "string"}))
      ->capture_default_str();
  bin2v1->footer(
      "Each FILE becomes one v1 corpus entry holding its bytes as the single value, for a fuzz\n"
      "test that takes one []byte (or string) argument. An entry is named by the XXH3-64 hash\n"
      "of its content (16 hex digits) and written atomically; one that already exists with the\n"
      "same content is left alone. Prints one line per entry.\n\n"
      "Example: cfuzz corpus convert bin2v1 afl-out/queue/* -o testdata/fuzz/FuzzParse");
  bin2v1->callback([b2v] {
    const corpus::Type type = b2v->type == "string" ? corpus::Type::String : corpus::Type::Bytes;
    print_converted(
        driver::convert_bin_to_v1(driver::expand_corpus_paths(to_paths(b2v->inputs)), b2v->output_dir, type));
  });

  auto v2b = std::make_shared<V12BinOptions>();
  CLI::App* v12bin = convert->add_subcommand("v12bin", "Turn v1 entries of one []byte or string into raw files");
  v12bin->add_option("files", v2b->inputs, "v1 corpus entry files, or directories of them")
      ->required()
      ->type_name("FILE|DIR");
  v12bin
      ->add_option("-o,--output", v2b->output_dir,
                   "Directory to write the raw files to (created if missing; must not be the "
                   "entries' own directory)")
      ->required()
      ->type_name("DIR");
  v12bin->footer(
      "Each entry FILE must hold exactly one []byte or string value; it becomes a raw file with\n"
      "exactly those bytes, named like the entry (testdata/fuzz/FuzzX/abc becomes DIR/abc).\n"
      "Any other entry is an error, and nothing is written until every FILE has been read.\n\n"
      "Example: cfuzz corpus convert v12bin testdata/fuzz/FuzzParse/* -o /tmp/raw");
  v12bin->callback([v2b] {
    print_converted(driver::convert_v1_to_bin(driver::expand_corpus_paths(to_paths(v2b->inputs)), v2b->output_dir));
  });
}

void add_show(CLI::App& corpus) {
  auto opts = std::make_shared<ShowOptions>();
  CLI::App* show = corpus.add_subcommand("show", "Print the values in v1 entries");
  show->add_option("files", opts->inputs, "v1 corpus entry files")->required()->type_name("FILE");
  show->add_flag("--full", opts->full, "Print []byte and string values in full (by default only the first 256 bytes)");
  show->footer(
      "Prints each FILE's name, then one line per value: its index, its type as the file\n"
      "spells it, and the value. Strings are Go-quoted with their length; bytes and runes also\n"
      "show their number, NaNs their bit pattern.\n\n"
      "Example: cfuzz corpus show testdata/fuzz/FuzzParse/*");
  show->callback([opts] {
    driver::ShowOptions options;
    if (opts->full) options.max_bytes = 0;
    for (const auto& input : opts->inputs) {
      const std::string text = driver::show_file(input, options);
      std::fwrite(text.data(), 1, text.size(), stdout);
    }
  });
}

void add_fmt(CLI::App& corpus, int& exit_code) {
  auto opts = std::make_shared<FmtOptions>();
  CLI::App* fmt = corpus.add_subcommand("fmt", "Rewrite v1 entries in canonical form");
  fmt->add_option("paths", opts->paths, "Entry files, or directories of them")->required()->type_name("FILE|DIR");
  fmt->add_flag("--check", opts->check,
                "Rewrite nothing; list the entries that are not canonical and exit with status "
                "1 if there are any");
  fmt->footer(
      "The canonical form is the exact bytes Go's encoder writes for the entry's values, which\n"
      "normalises spacing, comments, number bases, escapes and line endings. A DIR stands for\n"
      "the regular files directly inside it. Every entry is decoded before any is rewritten;\n"
      "files are rewritten atomically, only when they change, and keep their names.\n\n"
      "Example: cfuzz corpus fmt --check testdata/fuzz/*");
  fmt->callback([opts, &exit_code] {
    const driver::FormatResult result = driver::format_corpus(to_paths(opts->paths), opts->check);
    for (const auto& path : result.non_canonical) {
      if (opts->check) {
        std::printf("%s: not in canonical form\n", path.c_str());
      } else {
        std::printf("formatted %s\n", path.c_str());
      }
    }
    if (opts->check && !result.non_canonical.empty()) exit_code = 1;
  });
}

}  // namespace

void add_corpus_command(CLI::App& app, int& exit_code) {
  CLI::App* corpus = app.add_subcommand("corpus", "Work with corpus entries in the `go test fuzz v1` format");
  corpus->require_subcommand(1);
  add_convert(*corpus);
  add_show(*corpus);
  add_fmt(*corpus, exit_code);
  add_corpus_minimize_command(*corpus, exit_code);
}

}  // namespace cfuzz::cmd
