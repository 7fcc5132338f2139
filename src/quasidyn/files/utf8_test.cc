// UTF-8 validity and the code-point conversions of NumPy's unicode arrays (files/utf8.h).

#include "quasidyn/files/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace quasidyn {
namespace {

TEST(Utf8Test, AcceptsWellFormedAndRejectsMalformedSequences) {
  EXPECT_TRUE(IsValidUtf8("plain"));
  EXPECT_TRUE(IsValidUtf8("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"));  // é € 😀
  EXPECT_FALSE(IsValidUtf8("\xFF"));
  EXPECT_FALSE(IsValidUtf8("\xC3"));              // truncated
  EXPECT_FALSE(IsValidUtf8("\xC0\xAF"));          // overlong '/'
  EXPECT_FALSE(IsValidUtf8("\xE0\x80\xAF"));      // overlong 3-byte
  EXPECT_FALSE(IsValidUtf8("\xED\xA0\x80"));      // surrogate U+D800
  EXPECT_FALSE(IsValidUtf8("\xF4\x90\x80\x80"));  // > U+10FFFF
}

TEST(Utf8Test, DecodeAndAppendRoundTrip) {
  const std::string text = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80";  // a é € 😀
  std::u32string codes;
  ASSERT_TRUE(DecodeUtf8(text, &codes));
  EXPECT_EQ(codes, (std::u32string{U'a', U'\u00E9', U'\u20AC', U'\U0001F600'}));
  std::string back;
  for (char32_t code : codes) ASSERT_TRUE(AppendUtf8(code, &back));
  EXPECT_EQ(back, text);
  EXPECT_FALSE(DecodeUtf8("\xC3", &codes));
  EXPECT_FALSE(AppendUtf8(0xD800, &back));    // a surrogate
  EXPECT_FALSE(AppendUtf8(0x110000, &back));  // beyond U+10FFFF
}

}  // namespace
}  // namespace quasidyn
