#include "quasidyn/files/xml_tags.h"

#include <tinyxml2.h>

#include <algorithm>

namespace quasidyn {
namespace {

// tinyxml2 refuses a document whose elements nest deeper than this (it counts the document
// and the element being read too); kMaxXmlDepth names the same bound.
static_assert(kMaxXmlDepth == TINYXML2_MAX_ELEMENT_DEPTH - 2);

bool IsXmlBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The problem of a document tinyxml2 refused: its error's name and what it says of it after
// the line ("XMLElement name=link").
std::string XmlErrorText(const tinyxml2::XMLDocument& document) {
  if (document.ErrorID() == tinyxml2::XML_ELEMENT_DEPTH_EXCEEDED) {
    std::string text = "XML elements nested more than ";
    text.append(std::to_string(kMaxXmlDepth))
        .append(" deep; at most ")
        .append(std::to_string(kMaxXmlDepth))
        .append(" levels are read");
    return text;
  }
  std::string text = "malformed XML (tinyxml2: ";
  text.append(document.ErrorName());
  const std::string message = document.ErrorStr() != nullptr ? document.ErrorStr() : "";
  const size_t at = message.find("Line number=");
  const size_t detail = at == std::string::npos ? at : message.find(": ", at);
  if (detail != std::string::npos) text.append(", ").append(message.substr(detail + 2));
  return text + ")";
}

// Adds the children of `node` (the element start_tags[parent], or the document for kNoParent
// at depth 0) to `scan`. Recursive: tinyxml2 has bounded the depth (kMaxXmlDepth).
void AddChildren(tinyxml2::XMLNode* node, size_t parent, int depth, XmlScan* scan) {
  for (tinyxml2::XMLNode* child = node->FirstChild(); child != nullptr;
       child = child->NextSibling()) {
    if (tinyxml2::XMLElement* element = child->ToElement()) {
      XmlStartTag tag;
      tag.name = element->Name();
      for (const tinyxml2::XMLAttribute* a = element->FirstAttribute(); a != nullptr; a = a->Next())
        tag.attributes.push_back({a->Name(), a->Value(), a->GetLineNum()});
      tag.line = element->GetLineNum();
      tag.self_closing = element->ClosingType() == tinyxml2::XMLElement::CLOSED;
      tag.depth = depth + 1;
      tag.parent = parent;
      tag.element = element;
      scan->max_depth = std::max(scan->max_depth, tag.depth);
      scan->start_tags.push_back(std::move(tag));
      AddChildren(element, scan->start_tags.size() - 1, depth + 1, scan);
    } else if (const tinyxml2::XMLText* text = child->ToText();
               text != nullptr && parent != XmlStartTag::kNoParent) {
      const std::string_view value = text->Value();
      if (std::all_of(value.begin(), value.end(), IsXmlBlank)) continue;
      scan->texts.push_back({parent, std::string(value), text->GetLineNum()});
    }
  }
}

}  // namespace

XmlScan ScanXmlTags(std::string_view xml) {
  XmlScan scan;
  scan.document = std::make_shared<tinyxml2::XMLDocument>();
  if (scan.document->Parse(xml.data(), xml.size()) != tinyxml2::XML_SUCCESS) {
    scan.error = XmlErrorText(*scan.document);
    scan.error_line = std::max(1, scan.document->ErrorLineNum());
    return scan;
  }
  AddChildren(scan.document.get(), XmlStartTag::kNoParent, 0, &scan);
  return scan;
}

std::optional<std::string_view> XmlAttribute(const std::vector<XmlAttributeValue>& attributes,
                                             std::string_view key) {
  for (const XmlAttributeValue& attribute : attributes) {
    if (attribute.name == key) return attribute.value;
  }
  return std::nullopt;
}

std::string XmlDocumentText(const XmlScan& scan) {
  if (scan.document == nullptr) return "";
  tinyxml2::XMLPrinter printer;
  scan.document->Print(&printer);
  return printer.CStr();
}

void RemoveXmlElement(XmlScan* scan, size_t index) {
  XmlStartTag& tag = scan->start_tags.at(index);
  if (tag.element == nullptr) return;  // removed already, or inside a removed element
  tag.element->Parent()->DeleteChild(tag.element);
  // Its content: the tags after it down to the next one no deeper than it.
  for (size_t t = index; t < scan->start_tags.size(); ++t) {
    if (t > index && scan->start_tags[t].depth <= tag.depth) break;
    scan->start_tags[t].element = nullptr;
  }
}

}  // namespace quasidyn
