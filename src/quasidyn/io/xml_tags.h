#pragma once
// A linear, non-recursive scan of the tags of an XML text, for the things the model readers
// need before urdfdom, libsdformat or MuJoCo parse a file: the quasidyn <capsule> extension and
// the document order of the <joint> elements (io/urdf_loader.h), a bound on the element depth
// (urdfdom's XML parser recurses once per nesting level, so a deep document would overflow the
// stack), and the numbers of every attribute and element text (io/model_file_numbers.h).
//
// Not a validating parser: comments (`<!-- -->`), processing instructions and declarations
// are skipped, a CDATA section is text of its element, quoted attribute values may contain
// '>', everything else is left to the model's parser. Time and memory are linear in the text;
// no recursion, no regex (std::regex recurses once per character and overflows the stack on
// long tags).

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
  // Offset one past the '>' of the element's end tag ("</name>"), `end` for a self-closing
  // element, npos when the text ends before the element does.
  size_t element_end = static_cast<size_t>(-1);
  int depth = 0;  // 1 for the root element
  // Index in XmlScan::start_tags of the element that contains this one; kNoParent for a
  // top-level element.
  size_t parent = kNoParent;
  static constexpr size_t kNoParent = static_cast<size_t>(-1);
};

// A run of character data directly inside an element (not inside a child element): the text
// between two tags, or the content of a CDATA section. Runs of only whitespace are left out;
// entity references (&amp;, &#49;) are left as written (XmlDecodeReferences decodes them).
struct XmlText {
  size_t element = 0;     // index in XmlScan::start_tags of the containing element
  std::string_view text;  // views into the scanned text
};

struct XmlScan {
  std::vector<XmlStartTag> start_tags;  // in document order
  int max_depth = 0;                    // deepest nesting of elements (0 for no element)
  size_t deepest_offset = 0;            // offset of the first start tag at max_depth
  std::vector<XmlText> texts;           // in document order; none outside the root element
};

struct XmlAttributeValue {
  std::string_view name;   // e.g. "xyz"
  std::string_view value;  // between the quotes, entity references not decoded
};

// Scans `xml` (which must outlive the result: the tags view into it). A tag that never closes
// ends the scan (urdfdom reports the malformed document).
XmlScan ScanXmlTags(std::string_view xml);

// The value of attribute `key` in a start tag's attribute text (quoted with ' or "), or
// nullopt when absent.
std::optional<std::string_view> XmlAttribute(std::string_view attributes, std::string_view key);

// Every attribute of a start tag's attribute text, in the order written (a repeated name is
// listed each time it occurs); the views point into `attributes`.
std::vector<XmlAttributeValue> XmlAttributes(std::string_view attributes);

// `text` with XML's entity and character references replaced by what they stand for: &lt;
// &gt; &amp; &quot; &apos;, &#N; and &#xH; (as UTF-8). An unknown or malformed reference is
// kept as written.
std::string XmlDecodeReferences(std::string_view text);

// The 1-based line of `offset` (0 <= offset <= xml.size()) in `xml`: 1 + the number of '\n'
// before it. Linear in offset.
int XmlLineAt(std::string_view xml, size_t offset);

}  // namespace quasidyn
