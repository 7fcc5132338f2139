#include "quasidyn/io/xml_tags.h"

#include <algorithm>

namespace quasidyn {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool IsNameChar(char c) { return !IsSpace(c) && c != '/' && c != '>' && c != '=' && c != '<'; }

// Offset one past the '>' closing the tag that starts at `begin`, skipping quoted values;
// npos when the text ends first.
size_t TagEnd(std::string_view xml, size_t begin) {
  char quote = 0;
  for (size_t i = begin + 1; i < xml.size(); ++i) {
    const char c = xml[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '>') {
      return i + 1;
    }
  }
  return std::string_view::npos;
}

// Offset one past `terminator` searched from `from`; npos when absent.
size_t After(std::string_view xml, size_t from, std::string_view terminator) {
  const size_t at = xml.find(terminator, from);
  return at == std::string_view::npos ? at : at + terminator.size();
}

}  // namespace

XmlScan ScanXmlTags(std::string_view xml) {
  XmlScan scan;
  int depth = 0;
  size_t i = 0;
  while ((i = xml.find('<', i)) != std::string_view::npos) {
    const std::string_view rest = xml.substr(i);
    size_t end = std::string_view::npos;
    if (rest.substr(0, 4) == "<!--") {
      end = After(xml, i + 4, "-->");
    } else if (rest.substr(0, 9) == "<![CDATA[") {
      end = After(xml, i + 9, "]]>");
    } else if (rest.substr(0, 2) == "<?") {
      end = After(xml, i + 2, "?>");
    } else if (rest.substr(0, 2) == "<!") {
      end = TagEnd(xml, i);
    } else if (rest.substr(0, 2) == "</") {
      end = TagEnd(xml, i);
      depth = std::max(depth - 1, 0);
    } else {
      end = TagEnd(xml, i);
      if (end == std::string_view::npos) break;
      XmlStartTag tag;
      tag.begin = i;
      tag.end = end;
      size_t name_end = i + 1;
      while (name_end < end && IsNameChar(xml[name_end])) ++name_end;
      tag.name = xml.substr(i + 1, name_end - i - 1);
      size_t attributes_end = end - 1;  // the '>'
      tag.self_closing = attributes_end > name_end && xml[attributes_end - 1] == '/';
      if (tag.self_closing) --attributes_end;
      tag.attributes = xml.substr(name_end, attributes_end - name_end);
      tag.depth = depth + 1;
      if (tag.depth > scan.max_depth) {
        scan.max_depth = tag.depth;
        scan.deepest_offset = i;
      }
      if (!tag.self_closing) ++depth;
      scan.start_tags.push_back(tag);
    }
    if (end == std::string_view::npos) break;
    i = end;
  }
  return scan;
}

std::optional<std::string_view> XmlAttribute(std::string_view attributes, std::string_view key) {
  size_t i = 0;
  const size_t n = attributes.size();
  while (i < n) {
    while (i < n && IsSpace(attributes[i])) ++i;
    const size_t name_begin = i;
    while (i < n && IsNameChar(attributes[i])) ++i;
    const std::string_view name = attributes.substr(name_begin, i - name_begin);
    while (i < n && IsSpace(attributes[i])) ++i;
    if (i >= n || attributes[i] != '=') {
      if (i == name_begin) ++i;  // a stray character: step over it
      continue;
    }
    ++i;
    while (i < n && IsSpace(attributes[i])) ++i;
    if (i >= n || (attributes[i] != '"' && attributes[i] != '\'')) continue;
    const char quote = attributes[i++];
    const size_t value_end = attributes.find(quote, i);
    if (value_end == std::string_view::npos) return std::nullopt;
    if (name == key) return attributes.substr(i, value_end - i);
    i = value_end + 1;
  }
  return std::nullopt;
}

}  // namespace quasidyn
