#include "compare_command.h"

#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "interrupt.h"
#include "log.h"
#include "output_paths.h"
#include "quasidyn/simulation/formulation_comparison.h"
#include "quasidyn/viewer/comparison_page.h"
#include "scene_file.h"

namespace quasidyn::cli {
namespace {

struct CompareOptions {
  std::string scene_path, csv_path, html_path, reference;
  int steps = 0;
  int refinement = 10;
  std::vector<std::string> formulations;
};

void RunCompare(const CompareOptions& options) {
  const ScenePtr scene =
      std::make_shared<const Scene>(LoadSceneFile(options.scene_path, "compare"));
  if (options.steps < 0)
    throw std::invalid_argument("--steps must be >= 1 (got " + std::to_string(options.steps) + ")");
  if (options.refinement < 1)
    throw std::invalid_argument("--reference-refinement must be >= 1 (got " +
                                std::to_string(options.refinement) + ")");
  std::vector<NamedPath> outputs;
  if (!options.csv_path.empty()) outputs.push_back({"--csv", options.csv_path, CsvExtensions()});
  if (!options.html_path.empty())
    outputs.push_back({"--html", options.html_path, HtmlExtensions()});
  CheckOutputPaths(SceneInputs(*scene, "SCENE"), outputs);

  ComparisonOptions compare;
  compare.steps = options.steps;
  compare.reference_refinement = options.refinement;
  compare.reference_formulation = options.reference;
  compare.formulations = options.formulations;
  if (ShowsProgress())
    compare.progress = [](const std::string& run) { LogStream() << "compare: " << run << "\n"; };
  Comparison comparison;
  {
    InterruptScope interrupt;  // Ctrl-C keeps the finished rows (docs/cli.md)
    compare.cancel = interrupt.token();
    comparison = CompareFormulations(scene, compare);
  }
  if (comparison.interrupted && comparison.rows.empty()) {
    ReportInterrupted("compare", "during the reference run: no row finished, nothing written");
  }
  const std::string table = ComparisonText(comparison);
  std::cout << table;
  if (!options.csv_path.empty()) {
    std::ofstream file(options.csv_path);
    file << ComparisonCsv(comparison);
    if (!file) throw std::runtime_error("--csv: cannot write " + options.csv_path);
    std::cout << "table            " << options.csv_path << "\n";
  }
  if (!options.html_path.empty()) {
    WriteComparisonHtml(*scene, comparison, options.html_path);
    std::cout << "viewer           " << options.html_path << "\n";
  }
  std::cout << std::flush;
  if (comparison.interrupted) {
    std::string written;
    for (const std::string& path : {options.csv_path, options.html_path})
      if (!path.empty()) written += (written.empty() ? "" : " and ") + path;
    ReportInterrupted("compare",
                      "after " + std::to_string(comparison.rows.size()) + " of " +
                          std::to_string(comparison.planned) + " formulations: " +
                          (written.empty() ? std::string("the finished rows printed")
                                           : "wrote " + written + " (the finished rows)"));
  }
}

}  // namespace

void AddCompareCommand(CLI::App& app) {
  auto options = std::make_shared<CompareOptions>();
  CLI::App* command = app.add_subcommand(
      "compare",
      "Run every registered formulation that can step a scene side by side against the scene's "
      "finest-step reference: time per step, contacts, penetration, object displacement, final "
      "difference; a table, CSV and one viewer page with the runs overlaid");
  command->add_option("SCENE", options->scene_path, "Scene file (YAML)")->required();
  command->add_option("--steps", options->steps,
                      "Steps N >= 1 of the scene's h (default: its schedule to its end)");
  command->add_option("--reference-refinement", options->refinement,
                      "R >= 1: the reference runs at h / R (default 10)");
  command->add_option("--reference", options->reference,
                      "The reference's formulation (default: the scene's own when second order, "
                      "else the first registered second-order one that steps the scene)");
  command
      ->add_option("--formulations", options->formulations,
                   "Only these formulations (comma-separated; default: every registered one)")
      ->delimiter(',');
  command->add_option("--csv", options->csv_path, "Write the table as CSV to this file");
  command->add_option("--html", options->html_path,
                      "Write one viewer page with the reference and every run overlaid");
  AddQuietFlag(command);
  command->callback([options] { RunCompare(*options); });
}

}  // namespace quasidyn::cli
