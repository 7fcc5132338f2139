#include "quasidyn/viewer/svg_plot.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/testing/scratch_files.h"

namespace quasidyn {
namespace {

void ExpectTicks(const std::vector<double>& actual, const std::vector<double>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    // Ticks are i·d: exact up to one rounding of the product.
    EXPECT_NEAR(actual[i], expected[i], 4e-16 * std::max(1.0, std::abs(expected[i]))) << i;
  }
}

// Hand-computed with the 1-2-5 rule: (hi − lo)/6 fixes the decade, then the first step with at
// most 6 intervals between ⌊lo/d⌋·d and ⌈hi/d⌉·d.
TEST(NiceTicks, UsesTheSmallestOneTwoFiveStepWithinTheLimit) {
  // [0, 7]: d = 1 gives 7 intervals, d = 2 gives 4.
  ExpectTicks(NiceTicks(0, 7), {0, 2, 4, 6, 8});
  // [−0.3, 1.2]: d = 0.1 → 15, 0.2 → 8 (−0.4 … 1.2), 0.5 → 4 (−0.5 … 1.5).
  ExpectTicks(NiceTicks(-0.3, 1.2), {-0.5, 0, 0.5, 1, 1.5});
  // [0.3, 0.6]: d = 0.05 → 6 intervals; 0.3/0.05 must not round down to an extra tick.
  ExpectTicks(NiceTicks(0.3, 0.6), {0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6});
  // [0, 100] with at most 4 intervals: 20 → 5, 50 → 2.
  ExpectTicks(NiceTicks(0, 100, 4), {0, 50, 100});
}

TEST(NiceTicks, WidensAnEmptyRange) {
  ExpectTicks(NiceTicks(0, 0), {-1, -0.5, 0, 0.5, 1});  // [−1, 1], d = 0.5
  // [4.5, 5.5]: d = 0.1 → 10 intervals, 0.2 → 6 (4.4 … 5.6).
  ExpectTicks(NiceTicks(5, 5), {4.4, 4.6, 4.8, 5, 5.2, 5.4, 5.6});
}

TEST(NiceTicks, RejectsBadBounds) {
  EXPECT_THROW(NiceTicks(1, 0), std::invalid_argument);
  EXPECT_THROW(NiceTicks(0, NAN), std::invalid_argument);
  EXPECT_THROW(NiceTicks(-INFINITY, 0), std::invalid_argument);
  EXPECT_THROW(NiceTicks(0, 1, 1), std::invalid_argument);
}

TEST(EscapeXml, ReplacesTheFiveSpecialCharacters) {
  EXPECT_EQ(EscapeXml(R"(a<b>&"c'd)"), "a&lt;b&gt;&amp;&quot;c&apos;d");
  EXPECT_EQ(EscapeXml("plain φ [m]"), "plain φ [m]");
}

LinePlot DiagonalPlot() {
  LinePlot plot;
  plot.title = "z <of> cube";
  plot.x_label = "t [s]";
  plot.y_label = "z [m]";
  plot.series.push_back({"measured", {0, 1, 2}, {0, 1, 2}, "", false});
  return plot;
}

TEST(LinePlotToSvg, MapsDataIntoThePlotArea) {
  // 640 × 360 px minus margins (70, 20, 40, 50): x ∈ [70, 620], y ∈ [40, 310]. The ticks of
  // [0, 2] are 0, 0.5, …, 2, so (0,0) → (70, 310), (1,1) → (345, 175), (2,2) → (620, 40).
  const std::string svg = LinePlotToSvg(DiagonalPlot());
  EXPECT_NE(svg.find("points=\"70.00,310.00 345.00,175.00 620.00,40.00\""), std::string::npos)
      << svg;
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"360\"", 0),
            0u);
  EXPECT_NE(svg.find(">z &lt;of&gt; cube</text>"), std::string::npos);  // escaped title
  EXPECT_NE(svg.find(">measured</text>"), std::string::npos);           // legend
  EXPECT_NE(svg.find(">1.5</text>"), std::string::npos);                // a tick label
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
}

TEST(LinePlotToSvg, DashesAndColoursAsAsked) {
  LinePlot plot = DiagonalPlot();
  plot.series.push_back({"target", {0, 2}, {1, 1}, "#123456", true});
  const std::string svg = LinePlotToSvg(plot);
  // The second series: horizontal at y = 1 → py = 175, dashed, in its own colour.
  EXPECT_NE(svg.find("stroke=\"#123456\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\" "
                     "points=\"70.00,175.00 620.00,175.00\""),
            std::string::npos)
      << svg;
}

// A target point (mpc_figures' paths.svg: the MPC's goal) is a one-point series: a dot at it,
// and in the legend; a one-point polyline would draw nothing.
TEST(LinePlotToSvg, DrawsATargetPointAsADot) {
  LinePlot plot = DiagonalPlot();
  plot.series.push_back({"target", {1}, {1}, "#000000"});
  const std::string svg = LinePlotToSvg(plot);
  EXPECT_NE(svg.find("<circle cx=\"345.00\" cy=\"175.00\" r=\"4.0\" fill=\"#000000\"/>"),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find(">target</text>"), std::string::npos);
  // The legend's sample is a dot too (inside the legend box, top right), not a line.
  size_t circles = 0;
  for (size_t at = svg.find("<circle"); at != std::string::npos; at = svg.find("<circle", at + 1))
    ++circles;
  EXPECT_EQ(circles, 2u) << svg;
  EXPECT_EQ(svg.find("points=\"345.00,175.00\""), std::string::npos) << "a one-point polyline";
  // A longer series asks for dots with `markers`: one per point, beside its line.
  plot.series.back() = {"goals", {0, 2}, {1, 1}, "#123456", false, true};
  const std::string dotted = LinePlotToSvg(plot);
  EXPECT_NE(dotted.find("points=\"70.00,175.00 620.00,175.00\""), std::string::npos);
  EXPECT_NE(dotted.find("<circle cx=\"70.00\" cy=\"175.00\""), std::string::npos);
  EXPECT_NE(dotted.find("<circle cx=\"620.00\" cy=\"175.00\""), std::string::npos);
}

TEST(LinePlotToSvg, RejectsBadSeriesNamingThem) {
  LinePlot plot = DiagonalPlot();
  plot.series[0].y.pop_back();
  try {
    LinePlotToSvg(plot);
    FAIL() << "accepted x and y of different sizes";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'measured': x has 3 values but y has 2"),
              std::string::npos)
        << e.what();
  }
  plot = DiagonalPlot();
  plot.series[0].y[1] = NAN;
  EXPECT_THROW(LinePlotToSvg(plot), std::invalid_argument);
  plot = DiagonalPlot();
  plot.series[0].x.clear();
  plot.series[0].y.clear();
  EXPECT_THROW(LinePlotToSvg(plot), std::invalid_argument);
  plot = DiagonalPlot();
  plot.series.clear();
  EXPECT_THROW(LinePlotToSvg(plot), std::invalid_argument);
  plot = DiagonalPlot();
  plot.width = 10;
  EXPECT_THROW(LinePlotToSvg(plot), std::invalid_argument);
}

TEST(WriteLinePlotSvg, WritesTheDocumentAndNamesAnUnwritablePath) {
  const testing::ScratchDirectory dir;
  const std::filesystem::path path = dir / "plot.svg";
  WriteLinePlotSvg(DiagonalPlot(), path.string());
  EXPECT_EQ(testing::ReadWholeFile(path), LinePlotToSvg(DiagonalPlot()));
  const std::string unwritable = testing::UnwritablePath(dir.path(), "p.svg").string();
  try {
    WriteLinePlotSvg(DiagonalPlot(), unwritable);
    FAIL() << "wrote under a regular file";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(unwritable), std::string::npos) << e.what();
  }
}

TEST(WriteLinePlotSvg, AWriteThatFailsMidwayKeepsThePreviousFile) {
  const testing::ScratchDirectory dir;
  const std::filesystem::path path = dir / "plot.svg";
  testing::WriteWholeFile(path, "previous");
  {
    const testing::FileSizeLimit limit(256);  // the document is larger
    EXPECT_THROW(WriteLinePlotSvg(DiagonalPlot(), path.string()), std::runtime_error);
  }
  EXPECT_EQ(testing::ReadWholeFile(path), "previous");
  EXPECT_EQ(testing::FileNames(dir.path()), std::vector<std::string>{"plot.svg"});
  EXPECT_THROW(WriteLinePlotSvg(DiagonalPlot(), ""), std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
