#include "quasidyn/viewer/html_writer.h"

#include <stdexcept>

#include "quasidyn/common/atomic_file_writer.h"
#include "quasidyn/viewer/viewer_bundle.h"

namespace quasidyn {
namespace {

// HTML text content: & < > escaped (for the page title).
std::string EscapeHtmlText(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string EscapeJsonForScriptElement(const std::string& json_text) {
  std::string out;
  out.reserve(json_text.size());
  for (char c : json_text) {
    if (c == '<') {
      out += "\\u003c";
    } else {
      out += c;
    }
  }
  return out;
}

std::string ViewerHtmlToString(const Scene& scene, const Trajectory& trajectory,
                               const ViewerDataOptions& options) {
  const std::string data =
      EscapeJsonForScriptElement(BuildViewerData(scene, trajectory, options).dump());
  const std::string_view bundle = ViewerBundle();
  std::string html;
  html.reserve(data.size() + bundle.size() + 1024);
  html += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  html += "<meta name=\"generator\" content=\"quasidyn\">\n";
  html += "<title>" + EscapeHtmlText(scene.name) + " — quasidyn viewer</title>\n";
  html += "<style>html,body{margin:0;height:100%;overflow:hidden;background:#1d2127}</style>\n";
  html += "</head>\n<body>\n";
  html += "<script id=\"quasidyn-data\" type=\"application/json\">";
  html += data;
  html += "</script>\n<script>";
  html += bundle;
  html += "</script>\n</body>\n</html>\n";
  return html;
}

void WriteViewerHtml(const Scene& scene, const Trajectory& trajectory, const std::string& path,
                     const ViewerDataOptions& options) {
  if (path.empty()) throw std::invalid_argument("WriteViewerHtml: the output path is empty");
  WriteFileAtomically(path, ViewerHtmlToString(scene, trajectory, options));
}

}  // namespace quasidyn
