// parcae: command-line front end.
//   parcae run DECK [-o OUTDIR] [--threads T] [--ignore-unsupported]
//   parcae check DECK [--ignore-unsupported]
//   parcae keywords            (keyword coverage table, Markdown)
// Exit codes: 0 normal termination / valid deck, 1 input error, 2 run stopped with an error
// (instability), 3 internal error.
#include <filesystem>
#include <iostream>
#include <set>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "io/keyword_reader.hpp"
#include "solvers/explicit/solver.hpp"

namespace {

using namespace parcae;

int report_input_error(const std::exception& e) {
  std::cerr << "parcae: input error\n";
  if (const auto* many = dynamic_cast<const DeckErrors*>(&e)) {
    for (const auto& err : many->errors()) std::cerr << "  " << err.what() << "\n";
    std::cerr << fmt::format("{} problem(s); nothing was run.\n", many->errors().size());
  } else {
    std::cerr << "  " << e.what() << "\n";
  }
  return 1;
}

void print_notes(const Model& model) {
  for (const auto& n : model.notes)
    std::cerr << fmt::format("warning: {}: keyword {} is {}\n", n.loc.str(), n.keyword,
                             n.error ? "not supported (ignored: --ignore-unsupported)"
                                     : "accepted but not used (output/control option)");
}

int cmd_check(const std::string& deck, bool ignore) {
  Model model = read_deck(deck, ReadOptions{ignore});
  std::cout << fmt::format("{}: deck is valid\n", deck);
  std::cout << fmt::format("  {} nodes, {} solids, {} shells, {} parts, {} materials\n",
                           model.nodes.size(), model.solids.size(), model.shells.size(),
                           model.parts.size(), model.materials.size());
  std::cout << "keywords used:\n";
  for (const auto& k : model.keywords_used) std::cout << "  " << k << "\n";
  std::set<std::string> seen;
  bool any = false;
  for (const auto& n : model.notes) {
    if (!seen.insert(n.keyword).second) continue;
    if (!any) std::cout << "keywords not supported (ignored):\n";
    any = true;
    std::cout << fmt::format("  {} (first at {})\n", n.keyword, n.loc.str());
  }
  if (!any) std::cout << "keywords not supported: none\n";
  return 0;
}

int cmd_run(const std::string& deck, const std::string& outdir, int threads, bool ignore) {
  Model model = read_deck(deck, ReadOptions{ignore});
  print_notes(model);
  RunOptions opt;
  opt.outdir = outdir.empty() ? (std::filesystem::path(deck).stem().string() + ".out") : outdir;
  opt.threads = threads;
  opt.log = &std::cout;
  std::cout << fmt::format("parcae run {} -> {}\n", deck, opt.outdir);
  const RunSummary s = run_explicit(model, opt);
  if (!s.normal_termination) {
    std::cerr << "parcae: run stopped: " << s.error << "\n";
    return 2;
  }
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{"parcae: parallel explicit dynamics for LS-DYNA keyword decks"};
  app.require_subcommand(1);
  std::string deck, outdir;
  int threads = 0;
  bool ignore = false;
  auto* run = app.add_subcommand("run", "run a keyword deck");
  run->add_option("deck", deck, "keyword deck (.k)")->required();
  run->add_option("-o,--outdir", outdir, "output directory (default: <deck stem>.out)");
  run->add_option("--threads", threads, "OpenMP threads")->check(CLI::Range(1, 1024));
  run->add_flag("--ignore-unsupported", ignore, "warn about unsupported keywords, do not stop");
  auto* check = app.add_subcommand("check", "read and validate a deck without running it");
  check->add_option("deck", deck, "keyword deck (.k)")->required();
  check->add_flag("--ignore-unsupported", ignore, "warn about unsupported keywords");
  auto* kw = app.add_subcommand("keywords", "print the keyword coverage table (Markdown)");
  CLI11_PARSE(app, argc, argv);
  try {
    if (*kw) {
      std::cout << keyword_coverage_markdown();
      return 0;
    }
    if (*check) return cmd_check(deck, ignore);
    return cmd_run(deck, outdir, threads, ignore);
  } catch (const InputError& e) {
    return report_input_error(e);
  } catch (const DeckErrors& e) {
    return report_input_error(e);
  } catch (const RuntimeError& e) {
    std::cerr << "parcae: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "parcae: internal error: " << e.what() << "\n";
    return 3;
  }
}
