// A settings block read from YAML and written to JSON by its schema (io/settings_reader.h,
// io/settings_json.h), on a block of the test's own.

#include "quasidyn/io/settings_reader.h"

#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <string>

#include "quasidyn/io/settings_json.h"
#include "quasidyn/model/scene_error.h"

namespace quasidyn {
namespace {

enum class ReaderMode { kSlow, kFast };
const char* ReaderModeName(ReaderMode mode) { return mode == ReaderMode::kSlow ? "slow" : "fast"; }

struct ReaderSub {
  int count = 4;
  bool strict = false;
};

struct ReaderBlock {
  double length = 0.5;
  int steps = 3;
  double limit = 60.0;
  Eigen::VectorXd weights;
  ReaderMode mode = ReaderMode::kSlow;
  std::vector<std::string> anchors{"all"};
  std::optional<ReaderSub> sub;
};

const SettingsSchema<ReaderBlock>& ReaderSchema() {
  static const SettingsSchema<ReaderBlock>* const schema = [] {
    using B = ReaderBlock;
    auto* s = new SettingsSchema<B>("toy", "a block of the tests");
    s->Number("shape.length", &B::length).Name("length").Unit("m").Above(0).Doc("a length");
    s->Integer("shape.steps", &B::steps).Name("steps").AtLeast(1).Doc("a count");
    s->Number("limit", &B::limit).Unit("s").Above(0).MayBeInfinite().Doc("a time");
    s->Field("weights", &B::weights).AtLeast(0).Doc("weights");
    s->Choice("mode", &B::mode, {ReaderMode::kSlow, ReaderMode::kFast}, ReaderModeName)
        .Noun("mode")
        .Doc("a mode");
    s->Field("anchors", &B::anchors).Choices({"all", "none"}).Noun("link").Doc("names");
    s->Section("sub", &B::sub, "an optional sub-block");
    s->Field("sub.count", &B::sub, &ReaderSub::count).AtLeast(2).Doc("its count");
    s->Field("sub.strict", &B::sub, &ReaderSub::strict).Doc("a switch");
    return s;
  }();
  return *schema;
}

ReaderBlock Read(const std::string& text) {
  const YamlValue root = YamlValue::Parse(text, "block.yaml");
  const YamlValue block = root.Get("toy");
  ReaderBlock out;
  FieldLines lines(block);
  ReadSettingsBlock(ReaderSchema(), block, &out, &lines);
  return out;
}

void ExpectError(const std::string& text, int line, const std::string& field,
                 const std::string& problem_part) {
  try {
    Read(text);
    ADD_FAILURE() << "no error for\n" << text;
  } catch (const SceneError& e) {
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_EQ(e.field(), field) << e.what();
    EXPECT_NE(std::string(e.what()).find(problem_part), std::string::npos) << e.what();
  }
}

TEST(SettingsReader, ReadsNestedKeysSubBlocksAndKeepsTheRest) {
  const ReaderBlock b = Read("toy:\n  shape: {length: 2}\n  mode: fast\n  sub: {count: 5}\n");
  EXPECT_EQ(b.length, 2.0);
  EXPECT_EQ(b.steps, 3);  // not given: the struct's
  EXPECT_EQ(b.mode, ReaderMode::kFast);
  ASSERT_TRUE(b.sub.has_value());
  EXPECT_EQ(b.sub->count, 5);
  EXPECT_FALSE(b.sub->strict);  // the sub-block's default
  EXPECT_FALSE(Read("toy:\n  limit: 3\n").sub.has_value());
  EXPECT_TRUE(Read("toy:\n  sub: {}\n").sub.has_value());  // the key alone turns it on
}

TEST(SettingsReader, InfinityWhereTheSettingAllowsIt) {
  EXPECT_EQ(Read("toy:\n  limit: .inf\n").limit, std::numeric_limits<double>::infinity());
  EXPECT_EQ(Read("toy:\n  limit: Infinity\n").limit, std::numeric_limits<double>::infinity());
  ExpectError("toy:\n  shape: {length: .inf}\n", 2, "toy.shape.length", "must be finite");
  ExpectError("toy:\n  limit: .nan\n", 2, "toy.limit", "must be finite");
}

TEST(SettingsReader, ProblemsAreAtTheValuesLine) {
  ExpectError("toy:\n  shape:\n    length: -1\n", 3, "toy.shape.length",
              "must be > 0 [m] (got -1)");
  ExpectError("toy:\n  shape: {steps: 0}\n", 2, "toy.shape.steps", "must be >= 1 (got 0)");
  ExpectError("toy:\n  shape: {steps: 1.5}\n", 2, "toy.shape.steps", "must be an integer");
  ExpectError("toy:\n  mode: medium\n", 2, "toy.mode", "unknown mode 'medium' (slow, fast)");
  ExpectError("toy:\n  weights: [1, -2]\n", 2, "toy.weights", "entry 1 must be >= 0 (got -2)");
  ExpectError("toy:\n  anchors: some\n", 2, "toy.anchors", "expected all, none or a list");
  ExpectError("toy:\n  sub: {count: 1}\n", 2, "toy.sub.count", "must be >= 2 (got 1)");
  ExpectError("toy:\n  sub: {strict: often}\n", 2, "toy.sub.strict", "must be true or false");
}

TEST(SettingsReader, UnknownKeysAreRefusedAtEveryLevel) {
  ExpectError("toy:\n  lenght: 1\n", 2, "toy.lenght", "unknown key");
  ExpectError("toy:\n  shape: {lenght: 1}\n", 2, "toy.shape.lenght",
              "unknown key (did you mean 'length'?)");
  ExpectError("toy:\n  sub: {counts: 3}\n", 2, "toy.sub.counts", "unknown key");
  ExpectError("toy:\n  shape: 3\n", 2, "toy.shape", "must be a map");
}

TEST(SettingsReader, WhatTheJsonWriterWritesReadsBackTheSame) {
  ReaderBlock b;
  b.length = 0.25;
  b.limit = std::numeric_limits<double>::infinity();
  b.weights = Eigen::Vector2d(1.0, 3.0);
  b.mode = ReaderMode::kFast;
  b.anchors = {"a/b"};
  b.sub = ReaderSub{6, true};
  const nlohmann::json j = SettingsBlockToJson(ReaderSchema(), b);
  EXPECT_EQ(j["limit"], "Infinity");
  EXPECT_EQ(j["shape"]["length"], 0.25);
  EXPECT_EQ(j["anchors"], nlohmann::json::array({"a/b"}));  // a free name stays a list
  const ReaderBlock back = Read("toy: " + j.dump() + "\n");
  EXPECT_EQ(back.length, b.length);
  EXPECT_EQ(back.limit, b.limit);
  EXPECT_EQ(back.weights, b.weights);
  EXPECT_EQ(back.mode, b.mode);
  EXPECT_EQ(back.anchors, b.anchors);
  ASSERT_TRUE(back.sub.has_value());
  EXPECT_EQ(back.sub->count, 6);
  EXPECT_TRUE(back.sub->strict);
  // A stand-alone name is written as the name; an absent sub-block and an empty list not at all.
  const nlohmann::json defaults = SettingsBlockToJson(ReaderSchema(), ReaderBlock{});
  EXPECT_EQ(defaults["anchors"], "all");
  EXPECT_FALSE(defaults.contains("sub"));
  EXPECT_FALSE(defaults.contains("weights"));
}

}  // namespace
}  // namespace quasidyn
