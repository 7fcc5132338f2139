#pragma once
// A viewer page shown inside another HTML document, e.g. a Jupyter notebook's output cell
// (Python's Trajectory, Plan and compare results, docs/python.md "In a notebook"): the whole
// page (html_writer.h) goes into the srcdoc attribute of one <iframe>, so its scripts, styles
// and element ids live in a document of their own and cannot collide with the notebook's or with
// a second page's. The frame is sandboxed to scripts only (no access to the notebook's page).

#include <string>
#include <string_view>

namespace quasidyn {

// The frame's default height [px]: the viewer's panel and its bar at the bottom fit.
inline constexpr int kInlineFrameHeight = 520;
// The heights InlineFrameHtml accepts [px].
inline constexpr int kInlineFrameMinHeight = 100, kInlineFrameMaxHeight = 4000;

// `page` (any HTML document) as the text of an HTML attribute value in double quotes: & and "
// become &amp; and &quot; (HTML Living Standard § 13.1.2.3: such a value may contain neither
// an ambiguous ampersand nor a "); everything else, '<' included, stands as it is.
std::string EscapeHtmlAttribute(std::string_view page);

// One element, <iframe srcdoc="page" ...>, 100 % wide and `height_px` high, in
// [kInlineFrameMinHeight, kInlineFrameMaxHeight]. Throws std::invalid_argument naming the
// height when it is out of that range.
std::string InlineFrameHtml(std::string_view page, int height_px = kInlineFrameHeight);

}  // namespace quasidyn
