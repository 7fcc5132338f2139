#include "quasidyn/io/xml_tags.h"

#include <algorithm>
#include <utility>

#include "quasidyn/io/utf8.h"

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
  std::vector<size_t> open;  // indices of the elements open at i, outermost first
  // Character data directly inside the innermost open element (none outside the root).
  const auto add_text = [&](size_t begin, size_t end) {
    if (open.empty() || begin >= end) return;
    const std::string_view text = xml.substr(begin, end - begin);
    if (std::all_of(text.begin(), text.end(), IsSpace)) return;
    scan.texts.push_back({open.back(), text});
  };
  size_t i = 0;
  size_t text_begin = 0;  // where the character data before the next tag starts
  while ((i = xml.find('<', i)) != std::string_view::npos) {
    add_text(text_begin, i);
    const std::string_view rest = xml.substr(i);
    size_t end = std::string_view::npos;
    if (rest.substr(0, 4) == "<!--") {
      end = After(xml, i + 4, "-->");
    } else if (rest.substr(0, 9) == "<![CDATA[") {
      end = After(xml, i + 9, "]]>");
      if (end != std::string_view::npos) add_text(i + 9, end - 3);
    } else if (rest.substr(0, 2) == "<?") {
      end = After(xml, i + 2, "?>");
    } else if (rest.substr(0, 2) == "<!") {
      end = TagEnd(xml, i);
    } else if (rest.substr(0, 2) == "</") {
      end = TagEnd(xml, i);
      if (!open.empty()) {
        scan.start_tags[open.back()].element_end = end;
        open.pop_back();
      }
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
      tag.depth = static_cast<int>(open.size()) + 1;
      if (!open.empty()) tag.parent = open.back();
      if (tag.depth > scan.max_depth) {
        scan.max_depth = tag.depth;
        scan.deepest_offset = i;
      }
      if (tag.self_closing) tag.element_end = end;
      if (!tag.self_closing) open.push_back(scan.start_tags.size());
      scan.start_tags.push_back(tag);
    }
    if (end == std::string_view::npos) break;
    i = end;
    text_begin = end;
  }
  return scan;
}

std::optional<std::string_view> XmlAttribute(std::string_view attributes, std::string_view key) {
  for (const XmlAttributeValue& attribute : XmlAttributes(attributes)) {
    if (attribute.name == key) return attribute.value;
  }
  return std::nullopt;
}

std::vector<XmlAttributeValue> XmlAttributes(std::string_view attributes) {
  std::vector<XmlAttributeValue> all;
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
    if (value_end == std::string_view::npos) break;
    all.push_back({name, attributes.substr(i, value_end - i)});
    i = value_end + 1;
  }
  return all;
}

namespace {

// The reference `name` (between '&' and ';') decoded onto `out`; false when unknown.
bool AppendReference(std::string_view name, std::string* out) {
  static constexpr std::pair<std::string_view, char> kNamed[] = {
      {"lt", '<'}, {"gt", '>'}, {"amp", '&'}, {"quot", '"'}, {"apos", '\''}};
  for (const auto& [entity, c] : kNamed) {
    if (name == entity) {
      out->push_back(c);
      return true;
    }
  }
  if (name.size() < 2 || name[0] != '#') return false;
  const bool hex = name[1] == 'x';
  const std::string_view digits = name.substr(hex ? 2 : 1);
  if (digits.empty() || digits.size() > 8) return false;
  unsigned long code = 0;
  for (const char c : digits) {
    int digit = -1;
    if (c >= '0' && c <= '9') digit = c - '0';
    if (hex && c >= 'a' && c <= 'f') digit = c - 'a' + 10;
    if (hex && c >= 'A' && c <= 'F') digit = c - 'A' + 10;
    if (digit < 0) return false;
    code = code * (hex ? 16 : 10) + static_cast<unsigned long>(digit);
  }
  return code != 0 && code <= 0x10FFFF && AppendUtf8(static_cast<char32_t>(code), out);
}

}  // namespace

std::string XmlDecodeReferences(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const size_t amp = text.find('&', i);
    if (amp == std::string_view::npos) break;
    out.append(text.substr(i, amp - i));
    const size_t semicolon = text.find(';', amp + 1);
    // References are short (&#x10FFFF; at most); a lone '&' is kept.
    if (semicolon != std::string_view::npos && semicolon - amp <= 10 &&
        AppendReference(text.substr(amp + 1, semicolon - amp - 1), &out)) {
      i = semicolon + 1;
    } else {
      out.push_back('&');
      i = amp + 1;
    }
  }
  out.append(text.substr(std::min(i, text.size())));
  return out;
}

int XmlLineAt(std::string_view xml, size_t offset) {
  const std::string_view before = xml.substr(0, std::min(offset, xml.size()));
  return 1 + static_cast<int>(std::count(before.begin(), before.end(), '\n'));
}

}  // namespace quasidyn
