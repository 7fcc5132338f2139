#include "quasidyn/viewer/inline_frame.h"

#include <stdexcept>

namespace quasidyn {

std::string EscapeHtmlAttribute(std::string_view page) {
  std::string out;
  out.reserve(page.size() + page.size() / 16);
  for (char c : page) {
    if (c == '&') {
      out += "&amp;";
    } else if (c == '"') {
      out += "&quot;";
    } else {
      out += c;
    }
  }
  return out;
}

std::string InlineFrameHtml(std::string_view page, int height_px) {
  if (height_px < kInlineFrameMinHeight || height_px > kInlineFrameMaxHeight)
    throw std::invalid_argument(
        "InlineFrameHtml: height must be in [" + std::to_string(kInlineFrameMinHeight) + ", " +
        std::to_string(kInlineFrameMaxHeight) + "] px (got " + std::to_string(height_px) + ")");
  std::string html =
      "<iframe class=\"quasidyn-viewer\" sandbox=\"allow-scripts\" style=\"width:100%;height:" +
      std::to_string(height_px) + "px;border:0\" title=\"quasidyn viewer\" srcdoc=\"";
  html += EscapeHtmlAttribute(page);
  html += "\"></iframe>";
  return html;
}

}  // namespace quasidyn
