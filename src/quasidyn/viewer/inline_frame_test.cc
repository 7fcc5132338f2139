#include "quasidyn/viewer/inline_frame.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace quasidyn {
namespace {

// The attribute value read back as a browser does: &amp; and &quot; decoded (the only entities
// EscapeHtmlAttribute writes).
std::string Unescape(const std::string& value) {
  std::string out;
  for (size_t i = 0; i < value.size();) {
    if (value.compare(i, 5, "&amp;") == 0) {
      out += '&';
      i += 5;
    } else if (value.compare(i, 6, "&quot;") == 0) {
      out += '"';
      i += 6;
    } else {
      out += value[i++];
    }
  }
  return out;
}

TEST(EscapeHtmlAttribute, EscapesAmpersandsAndQuotesOnly) {
  EXPECT_EQ(EscapeHtmlAttribute(R"(a "b" & <c>)"), "a &quot;b&quot; &amp; <c>");
  EXPECT_EQ(EscapeHtmlAttribute("&quot;"), "&amp;quot;");  // an entity in the page stays text
}

TEST(InlineFrameHtml, IsOneFrameWhoseSrcdocIsThePage) {
  const std::string page =
      "<!DOCTYPE html><html><body><p title=\"x\">a && b &amp; \"c\"</p>"
      "<script>if (1 < 2 && \"\" === '') {}</script></body></html>";
  const std::string frame = InlineFrameHtml(page, 300);
  const std::string open = "srcdoc=\"";
  ASSERT_EQ(frame.rfind("<iframe ", 0), 0u);
  const size_t start = frame.find(open) + open.size();
  const size_t end = frame.find('"', start);  // the value cannot hold a raw quote
  ASSERT_NE(end, std::string::npos);
  EXPECT_EQ(frame.substr(end), "\"></iframe>");
  EXPECT_EQ(Unescape(frame.substr(start, end - start)), page);
  EXPECT_NE(frame.find("height:300px"), std::string::npos);
  EXPECT_NE(frame.find("sandbox=\"allow-scripts\""), std::string::npos);
}

TEST(InlineFrameHtml, RefusesAHeightOutOfRange) {
  EXPECT_NO_THROW(InlineFrameHtml("<p></p>", kInlineFrameMinHeight));
  EXPECT_NO_THROW(InlineFrameHtml("<p></p>", kInlineFrameMaxHeight));
  EXPECT_THROW(InlineFrameHtml("<p></p>", kInlineFrameMinHeight - 1), std::invalid_argument);
  try {
    InlineFrameHtml("<p></p>", kInlineFrameMaxHeight + 1);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("height"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace quasidyn
