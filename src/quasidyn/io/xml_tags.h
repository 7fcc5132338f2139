#pragma once
// A linear, non-recursive scan of the tags of an XML text, for the two things the URDF reader
// needs before urdfdom parses a file: the quasidyn <capsule> extension and the document order
// of the <joint> elements (io/urdf_loader.h), and a bound on the element depth (urdfdom's XML
// parser recurses once per nesting level, so a deep document would overflow the stack).
//
// Not a validating parser: comments (`<!-- -->`), CDATA, processing instructions and
// declarations are skipped, quoted attribute values may contain '>', everything else is left
// to urdfdom. Time and memory are linear in the text; no recursion, no regex (std::regex
// recurses once per character and overflows the stack on long tags).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace quasidyn {

struct XmlStartTag {
  std::string_view name;        // element name, e.g. "capsule"
  std::string_view attributes;  // text between the name and the closing "/>" or ">"
  size_t begin = 0;             // offset of '<' in the text
  size_t end = 0;               // offset one past the closing '>'
  bool self_closing = false;    // "<name .../>"
  int depth = 0;                // 1 for the root element
};

struct XmlScan {
  std::vector<XmlStartTag> start_tags;  // in document order
  int max_depth = 0;                    // deepest nesting of elements (0 for no element)
  size_t deepest_offset = 0;            // offset of the first start tag at max_depth
};

// Scans `xml` (which must outlive the result: the tags view into it). A tag that never closes
// ends the scan (urdfdom reports the malformed document).
XmlScan ScanXmlTags(std::string_view xml);

// The value of attribute `key` in a start tag's attribute text (quoted with ' or "), or
// nullopt when absent.
std::optional<std::string_view> XmlAttribute(std::string_view attributes, std::string_view key);

}  // namespace quasidyn
