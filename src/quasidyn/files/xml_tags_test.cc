// The XML scanner the model readers run before their own parsers (files/xml_tags.h): elements,
// attributes and text with their lines; malformed documents give an error with its line.

#include "quasidyn/files/xml_tags.h"

#include <gtest/gtest.h>

#include <string>

namespace quasidyn {
namespace {

TEST(XmlTagsTest, MalformedDocumentGivesNoElementsAndTheErrorLine) {
  const XmlScan scan = ScanXmlTags("<a>\n<b x='1' x='2'/>\n</a>");
  EXPECT_TRUE(scan.start_tags.empty());
  EXPECT_EQ(scan.error_line, 2);
  EXPECT_NE(scan.error.find("malformed XML"), std::string::npos) << scan.error;
  const XmlScan empty = ScanXmlTags("");
  EXPECT_FALSE(empty.error.empty());
  EXPECT_EQ(empty.error_line, 1);
}

TEST(XmlTagsTest, ReferencesAreDecodedAndLinesCounted) {
  const XmlScan scan = ScanXmlTags("<r>\n<n v=\"a&amp;b\">\n\n  x&#49;</n></r>");
  ASSERT_EQ(scan.start_tags.size(), 2u);
  EXPECT_EQ(scan.start_tags[1].line, 2);
  EXPECT_EQ(XmlAttribute(scan.start_tags[1].attributes, "v"), "a&b");
  ASSERT_EQ(scan.texts.size(), 1u);
  EXPECT_EQ(scan.texts[0].line, 4);
  EXPECT_EQ(scan.texts[0].text, "\n\n  x1");
}

TEST(XmlTagsTest, ScansNamesAttributesDepthAndSkipsCommentsAndQuotes) {
  const std::string xml =
      "<?xml version=\"1.0\"?><!DOCTYPE r><r a='1>2'><!-- <c/> --><b x=\"y\"/>"
      "<![CDATA[<d>]]><e><f/></e></r>";
  const XmlScan scan = ScanXmlTags(xml);
  ASSERT_EQ(scan.start_tags.size(), 4u);
  EXPECT_EQ(scan.start_tags[0].name, "r");
  EXPECT_EQ(XmlAttribute(scan.start_tags[0].attributes, "a"), "1>2");
  EXPECT_EQ(scan.start_tags[1].name, "b");
  EXPECT_TRUE(scan.start_tags[1].self_closing);
  EXPECT_EQ(XmlAttribute(scan.start_tags[1].attributes, "x"), "y");
  EXPECT_FALSE(XmlAttribute(scan.start_tags[1].attributes, "z").has_value());
  EXPECT_EQ(scan.start_tags[3].name, "f");
  EXPECT_EQ(scan.start_tags[3].depth, 3);
  EXPECT_EQ(scan.max_depth, 3);
}

TEST(XmlTagsTest, NestingDeeperThanTheBoundIsAnError) {
  std::string deepest;
  for (int i = 0; i < kMaxXmlDepth; ++i) deepest += "<a>";
  for (int i = 0; i < kMaxXmlDepth; ++i) deepest += "</a>";
  const XmlScan read = ScanXmlTags(deepest);
  EXPECT_TRUE(read.error.empty()) << read.error;
  EXPECT_EQ(read.max_depth, kMaxXmlDepth);
  std::string xml;
  for (int i = 0; i <= kMaxXmlDepth; ++i) xml += "<a>";
  for (int i = 0; i <= kMaxXmlDepth; ++i) xml += "</a>";
  const XmlScan scan = ScanXmlTags(xml);
  EXPECT_TRUE(scan.start_tags.empty());
  EXPECT_NE(scan.error.find("at most " + std::to_string(kMaxXmlDepth)), std::string::npos)
      << scan.error;
}

}  // namespace
}  // namespace quasidyn
