#pragma once
// The elements, attributes and text of an XML document as tinyxml2 reads them, in document
// order with their lines, for the things the model readers need before urdfdom, libsdformat
// or MuJoCo parse a file: the quasidyn <capsule> extension and what a URDF declares
// (io/urdf_audit.h), the `drake:` elements of an SDF, and the numbers of every attribute and
// element text (io/model_file_numbers.h).
//
// A malformed document (an unclosed or mismatched element, a bad attribute, elements nested
// deeper than kMaxXmlDepth) gives no elements and an error with its line.
// Comments, processing instructions and declarations are left out; a CDATA section is text
// of its element; entity and character references (&amp;, &#49;) are decoded.

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tinyxml2 {
class XMLDocument;
class XMLElement;
}  // namespace tinyxml2

namespace quasidyn {

// Nesting depth of XML elements read (a URDF needs ~6): tinyxml2's bound, which the model
// readers enforce before urdfdom's parser (TinyXML, which recurses once per level without a
// bound) sees a file (io/loader_limits.h lists it with the scene loader's other limits).
inline constexpr int kMaxXmlDepth = 98;

struct XmlAttributeValue {
  std::string name;   // e.g. "xyz"
  std::string value;  // references decoded
  int line = 0;       // 1-based line of the attribute's name
};

struct XmlStartTag {
  std::string name;                           // element name, e.g. "capsule"
  std::vector<XmlAttributeValue> attributes;  // in the order written
  int line = 0;                               // 1-based line of the start tag
  bool self_closing = false;                  // "<name .../>"
  int depth = 0;                              // 1 for the root element
  // Index in XmlScan::start_tags of the element that contains this one; kNoParent for a
  // top-level element.
  size_t parent = kNoParent;
  static constexpr size_t kNoParent = static_cast<size_t>(-1);
  // The element in XmlScan::document (to edit it, XmlDocumentText); null once removed.
  tinyxml2::XMLElement* element = nullptr;
};

// A run of character data directly inside an element (not inside a child element): the text
// between two tags, or the content of a CDATA section. Runs of only whitespace are left out.
struct XmlText {
  size_t element = 0;  // index in XmlScan::start_tags of the containing element
  std::string text;    // references decoded
  int line = 0;        // 1-based line of the run's first character that is not whitespace
};

struct XmlScan {
  std::vector<XmlStartTag> start_tags;  // in document order
  int max_depth = 0;                    // deepest nesting of elements (0 for no element)
  std::vector<XmlText> texts;           // in document order
  std::string error;                    // "" for a well-formed document, else its problem
  int error_line = 0;                   // 1-based line of the error
  std::shared_ptr<tinyxml2::XMLDocument> document;  // the tree the tags point into
};

// Reads `xml` with tinyxml2 (never throws for its content).
XmlScan ScanXmlTags(std::string_view xml);

// The value of attribute `key` of a start tag, or nullopt when absent.
std::optional<std::string_view> XmlAttribute(const std::vector<XmlAttributeValue>& attributes,
                                             std::string_view key);

// The document as tinyxml2 writes it, with the edits made through XmlStartTag::element.
std::string XmlDocumentText(const XmlScan& scan);

// Removes start_tags[index] and its content from the document (their `element` become null).
void RemoveXmlElement(XmlScan* scan, size_t index);

}  // namespace quasidyn
