#include "quasidyn/viewer/html_writer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/scratch_files.h"
#include "quasidyn/viewer/viewer_bundle.h"

namespace quasidyn {
namespace {

using nlohmann::json;
const std::string kExamples = std::string(QUASIDYN_SOURCE_DIR) + "/examples/";

Trajectory OneStep(const Scene& scene) {
  Trajectory trajectory;
  trajectory.scene_name = scene.name;
  trajectory.formulation = "qp";
  trajectory.time_step = 0.01;
  trajectory.nq = scene.nq;
  trajectory.q0 = scene.q0;
  TrajectoryStep step;
  step.t = 0.01;
  step.q = scene.q0;
  step.status = SolverStatus::kSolved;
  trajectory.steps = {step};
  trajectory.steps_requested = 1;
  trajectory.status = SolverStatus::kSolved;
  return trajectory;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

const std::string kDataOpen = "<script id=\"quasidyn-data\" type=\"application/json\">";

TEST(ViewerBundle, IsNonEmptyScriptThatCannotCloseItsElement) {
  const std::string bundle(ViewerBundle());
  EXPECT_GT(bundle.size(), 100000u);  // three.js alone is several hundred kB minified
  EXPECT_EQ(Count(bundle, "</script"), 0u);
  EXPECT_EQ(Count(bundle, "<!--"), 0u);
  EXPECT_NE(bundle.find("quasidyn-data"), std::string::npos);  // reads the page's data element
}

TEST(EscapeJsonForScriptElement, EscapesEveryLessThanSign) {
  EXPECT_EQ(EscapeJsonForScriptElement(R"("a</b")"), R"("a\u003c/b")");
  EXPECT_EQ(EscapeJsonForScriptElement(R"(["<!--", 1])"), R"(["\u003c!--", 1])");
  EXPECT_EQ(EscapeJsonForScriptElement(R"({"a": "b > c"})"), R"({"a": "b > c"})");
  // The escaped text is the same JSON value.
  const std::string text = R"({"name": "</script><!--<script>", "x": [1, 2]})";
  EXPECT_EQ(json::parse(EscapeJsonForScriptElement(text)), json::parse(text));
}

TEST(ViewerHtml, EmbedsTheDataAndTheBundleInOnePage) {
  Scene scene = LoadScene(kExamples + "planar_pushing/scene.yaml");
  scene.name = "evil</script><!--<script>alert(1)</script>";  // must stay inside the data
  const Trajectory trajectory = OneStep(scene);
  const std::string html = ViewerHtmlToString(scene, trajectory);

  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find(std::string(ViewerBundle())), std::string::npos);
  // Exactly the data element and the bundle's element close: the name could not break out.
  EXPECT_EQ(Count(html, "</script>"), 2u);
  EXPECT_EQ(Count(html, "<script"), 2u);
  // No external resource: nothing is loaded by src= or href=.
  EXPECT_EQ(Count(html, " src="), 0u);
  EXPECT_EQ(Count(html, "<link"), 0u);
  // The title shows the name HTML-escaped.
  EXPECT_NE(html.find("<title>evil&lt;/script&gt;"), std::string::npos);

  // The data element parses back to the viewer data (JSON reads \u003c as '<').
  const size_t begin = html.find(kDataOpen);
  ASSERT_NE(begin, std::string::npos);
  const size_t start = begin + kDataOpen.size();
  const size_t end = html.find("</script>", start);
  const json embedded = json::parse(html.substr(start, end - start));
  EXPECT_EQ(embedded, BuildViewerData(scene, trajectory));
  EXPECT_EQ(embedded["scene"]["name"], scene.name);
}

TEST(ViewerHtml, WritesTheSamePageToAFile) {
  const Scene scene = LoadScene(kExamples + "planar_pushing/scene.yaml");
  const Trajectory trajectory = OneStep(scene);
  const testing::ScratchDirectory dir;
  const std::filesystem::path path = dir / "page.html";
  WriteViewerHtml(scene, trajectory, path.string());
  EXPECT_EQ(testing::ReadWholeFile(path), ViewerHtmlToString(scene, trajectory));
}

TEST(ViewerHtml, NamesAPathItCannotWrite) {
  const Scene scene = LoadScene(kExamples + "planar_pushing/scene.yaml");
  const testing::ScratchDirectory dir;
  const std::string path = testing::UnwritablePath(dir.path(), "page.html").string();
  try {
    WriteViewerHtml(scene, OneStep(scene), path);
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

TEST(ViewerHtml, AWriteThatFailsMidwayKeepsThePreviousPage) {
  const Scene scene = LoadScene(kExamples + "planar_pushing/scene.yaml");
  const testing::ScratchDirectory dir;
  const std::filesystem::path path = dir / "page.html";
  testing::WriteWholeFile(path, "previous page");
  {
    const testing::FileSizeLimit limit(4096);  // the page is far larger
    EXPECT_THROW(WriteViewerHtml(scene, OneStep(scene), path.string()), std::runtime_error);
  }
  EXPECT_EQ(testing::ReadWholeFile(path), "previous page");
  EXPECT_EQ(testing::FileNames(dir.path()), std::vector<std::string>{"page.html"});
  EXPECT_THROW(WriteViewerHtml(scene, OneStep(scene), ""), std::invalid_argument);
}

TEST(ViewerHtml, RejectsATrajectoryOfAnotherScene) {
  const Scene pushing = LoadScene(kExamples + "planar_pushing/scene.yaml");
  const Scene arm = LoadScene(kExamples + "arm_cubes/scene.yaml");
  EXPECT_THROW(ViewerHtmlToString(pushing, OneStep(arm)), std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
