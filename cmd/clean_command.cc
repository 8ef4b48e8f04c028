// `cfuzz clean ./target`: delete a target's generated corpus (Go's go clean -fuzzcache).
#include <cstdio>
#include <filesystem>

#include "cmd/shared_flags.h"
#include "cmd/subcommands.h"
#include "libfuzzdriver/corpus/cache_dir.h"

namespace cfuzz::cmd {

void add_clean_command(CLI::App& app, int& exit_code) {
  auto* sub = app.add_subcommand("clean", "Delete the generated corpus (cache) of a target, or of all targets");
  auto target = std::make_shared<std::string>();
  auto cachedir = std::make_shared<std::string>();
  auto all = std::make_shared<bool>(false);
  sub->add_option("target", *target, "The target binary whose cache to delete");
  add_cachedir_flag(sub, cachedir.get(), "The target's cache directory, if it was given to cfuzz run");
  sub->add_flag("--all", *all, "Delete the caches of all targets (the whole default cache root)");
  sub->callback([target, cachedir, all, &exit_code] {
    namespace fs = std::filesystem;
    std::string dir;
    if (*all) {
      dir = driver::default_cache_root();
    } else if (!target->empty()) {
      std::error_code ec;
      fs::path abs = fs::weakly_canonical(*target, ec);
      dir = driver::target_cache_dir(*cachedir, abs.string());
    } else if (!cachedir->empty()) {
      dir = *cachedir;
    } else {
      throw std::runtime_error("clean: name a target, --cachedir DIR, or --all");
    }
    std::error_code ec;
    auto removed = fs::remove_all(dir, ec);
    if (ec) throw std::runtime_error("cannot remove " + dir + ": " + ec.message());
    std::printf("removed %s (%ju files)\n", dir.c_str(), static_cast<std::uintmax_t>(removed));
    exit_code = 0;
  });
}

}  // namespace cfuzz::cmd
