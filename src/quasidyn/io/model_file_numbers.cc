#include "quasidyn/io/model_file_numbers.h"

#include <locale.h>
#include <stdlib.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <span>
#include <sstream>
#include <unordered_map>
#include <utility>
#include <vector>

#include "quasidyn/files/utf8.h"
#include "quasidyn/io/loader_limits.h"
#include "quasidyn/model/physical_ranges.h"

namespace quasidyn {
namespace {

// What the numbers of one attribute or element text must satisfy.
enum class Range {
  kLimited,    // finite and |x| <= kMaxSceneNumber
  kDirection,  // finite (a URDF joint axis: the scene builder normalises it without overflow)
  // finite, and |x| <= kMaxSceneNumber or |x| >= kSdfNoJointLimit (SDFormat's "no limit")
  kSdfJointLimit,
  // finite: a physics engine's own parameter that no formulation reads (Gazebo's <ode> and
  // <bullet> contact stiffness, damping and error reduction, the bounce threshold), which model
  // files give beyond 1e12 (Drake's schunk_wsg_50_with_tip.sdf: <kp>1e+13</kp>)
  kUnread,
};

// One attribute (or element text) that holds numbers.
struct NumberField {
  std::string_view element;    // the element's name; empty: any element (MJCF)
  std::string_view attribute;  // the attribute's name; empty: the element's text (SDF)
  Range range = Range::kLimited;
  // A positive physical input's usable range (model/physical_ranges.h), checked after the limit.
  const PhysicalRange* physical = nullptr;
};

// A model file's mass [kg]: kMassRange, or 0 (a robot's massless link, or a link without
// <inertial>'s default; a moving body's mass > 0 is checked by the scene builder).
constexpr PhysicalRange kModelFileMassRange{
    kMassRange.quantity, kMassRange.unit, kMassRange.min, kMassRange.max, true, kMassRange.reason};

// URDF (urdfdom's reader; <capsule> is the quasidyn extension, io/urdf_loader.h).
constexpr NumberField kUrdfNumbers[] = {
    {"origin", "xyz"},
    {"origin", "rpy"},
    {"axis", "xyz", Range::kDirection},
    {"limit", "lower"},
    {"limit", "upper"},
    {"limit", "effort"},
    {"limit", "velocity"},
    {"mass", "value", Range::kLimited, &kModelFileMassRange},
    {"inertia", "ixx", Range::kLimited, &kInertiaRange},
    {"inertia", "ixy"},
    {"inertia", "ixz"},
    {"inertia", "iyy", Range::kLimited, &kInertiaRange},
    {"inertia", "iyz"},
    {"inertia", "izz", Range::kLimited, &kInertiaRange},
    {"box", "size"},
    {"sphere", "radius"},
    {"cylinder", "radius"},
    {"cylinder", "length"},
    {"capsule", "radius"},
    {"capsule", "length"},
    {"drake:capsule", "radius"},  // Drake's spelling of the same
    {"drake:capsule", "length"},
    {"mesh", "scale"},
    {"dynamics", "damping"},
    {"dynamics", "friction"},
    {"safety_controller", "soft_lower_limit"},
    {"safety_controller", "soft_upper_limit"},
    {"safety_controller", "k_position"},
    {"safety_controller", "k_velocity"},
    {"mimic", "multiplier"},
    {"mimic", "offset"},
    {"calibration", "rising"},
    {"calibration", "falling"},
    {"calibration", "reference_position"},
};

// SDF: elements whose text is numbers (poses, shapes, inertials, joint axes and limits,
// surface friction and contact).
constexpr NumberField kSdfNumbers[] = {
    {"pose", ""},
    {"size", ""},
    {"radius", ""},
    {"length", ""},
    {"scale", ""},
    {"normal", ""},
    {"mass", "", Range::kLimited, &kModelFileMassRange},
    {"density", ""},
    {"ixx", "", Range::kLimited, &kInertiaRange},
    {"ixy", ""},
    {"ixz", ""},
    {"iyy", "", Range::kLimited, &kInertiaRange},
    {"iyz", ""},
    {"izz", "", Range::kLimited, &kInertiaRange},
    {"xyz", ""},  // libsdformat normalises it with overflow: 1e200 became zero
    {"lower", "", Range::kSdfJointLimit},
    {"upper", "", Range::kSdfJointLimit},
    {"effort", ""},
    {"velocity", ""},
    {"stiffness", ""},
    {"dissipation", ""},
    {"damping", ""},
    {"friction", ""},
    {"spring_reference", ""},
    {"spring_stiffness", ""},
    {"initial_position", ""},
    {"mu", ""},
    {"mu2", ""},
    {"fdir1", ""},
    {"slip1", ""},
    {"slip2", ""},
    {"coefficient", ""},
    {"patch_radius", ""},
    {"surface_radius", ""},
    {"restitution_coefficient", "", Range::kUnread},
    {"threshold", "", Range::kUnread},
    {"soft_cfm", "", Range::kUnread},
    {"soft_erp", "", Range::kUnread},
    {"kp", "", Range::kUnread},
    {"kd", "", Range::kUnread},
    {"max_vel", "", Range::kUnread},
    {"min_depth", "", Range::kUnread},
    {"cfm", "", Range::kUnread},
    {"erp", "", Range::kUnread},
    {"gravity", ""},
    {"magnetic_field", ""},
};

// MJCF: attributes that are numbers on whichever element carries them (frames, inertials,
// geoms, joints, meshes, actuators, tendons, equalities, <option>, <compiler> bounds). Colours,
// lights, cameras and keyframes, which quasidyn ignores, are not listed.
constexpr NumberField kMjcfNumbers[] = {
    {"", "pos"},
    {"", "quat"},
    {"", "euler"},
    {"", "axisangle"},
    {"", "xyaxes"},
    {"", "zaxis"},
    {"", "fromto"},
    {"", "size"},
    {"", "axis"},  // MuJoCo normalises it with overflow: 1e200 0 0 became a zero axis
    {"", "range"},
    {"", "mass", Range::kLimited, &kModelFileMassRange},
    {"", "density"},
    {"", "diaginertia", Range::kLimited, &kInertiaRange},
    {"", "fullinertia"},
    {"", "friction"},
    {"", "scale"},
    {"", "vertex"},
    {"", "refpos"},
    {"", "refquat"},
    {"", "fitscale"},
    {"", "damping"},
    {"", "stiffness"},
    {"", "armature"},
    {"", "frictionloss"},
    {"", "ref"},
    {"", "springref"},
    {"", "springdamper"},
    {"", "springlength"},
    {"", "margin"},
    {"", "gap"},
    {"", "solmix"},
    {"", "solref"},
    {"", "solimp"},
    {"", "solreflimit"},
    {"", "solimplimit"},
    {"", "solreffriction"},
    {"", "solimpfriction"},
    {"", "gear"},
    {"", "ctrlrange"},
    {"", "forcerange"},
    {"", "actrange"},
    {"", "actuatorfrcrange"},
    {"", "lengthrange"},
    {"", "gainprm"},
    {"", "biasprm"},
    {"", "dynprm"},
    {"", "kp"},
    {"", "kv"},
    {"", "anchor"},
    {"", "relpose"},
    {"", "polycoef"},
    {"", "torquescale"},
    {"", "timestep"},
    {"", "gravity"},
    {"", "wind"},
    {"", "magnetic"},
    {"", "viscosity"},
    {"", "impratio"},
    {"", "o_margin"},
    {"", "o_solref"},
    {"", "o_solimp"},
    {"", "o_friction"},
    {"", "boundmass"},
    {"", "boundinertia"},
    {"", "settotalmass"},
};

// The table of the format the root element names, or an empty one for an unknown root.
std::span<const NumberField> TableOf(const XmlScan& scan) {
  if (scan.start_tags.empty()) return {};
  const std::string_view root = scan.start_tags.front().name;
  if (root == "robot") return kUrdfNumbers;  // urdfdom, and libsdformat or MuJoCo reading URDF
  if (root == "sdf") return kSdfNumbers;
  if (root == "mujoco") return kMjcfNumbers;
  return {};
}

// The entry for `attribute` of `element` (empty attribute: the element's text), or null.
const NumberField* Lookup(std::span<const NumberField> table, std::string_view element,
                          std::string_view attribute) {
  for (const NumberField& field : table) {
    if ((field.element.empty() || field.element == element) && field.attribute == attribute)
      return &field;
  }
  return nullptr;
}

// The "C" locale, so '.' is the decimal point whatever the process's locale (urdfdom,
// libsdformat and MuJoCo read numbers the same way); null when it cannot be made.
locale_t CLocale() {
  static const locale_t c = newlocale(LC_ALL_MASK, "C", locale_t{});
  return c;
}

// The problem with one space-separated token of a numeric field, or "" when it is fine. The
// token's longest prefix that strtod reads is checked (a token that is no number at all is
// left to the model's parser); that prefix is shown as written when it is not finite.
std::string TokenProblem(const std::string& token, Range range, const PhysicalRange* physical) {
  char* stop = nullptr;
  errno = 0;
  const double value = CLocale() != locale_t{} ? strtod_l(token.c_str(), &stop, CLocale())
                                               : std::strtod(token.c_str(), &stop);
  if (stop == token.c_str()) return "";
  const std::string written = token.substr(0, static_cast<size_t>(stop - token.c_str()));
  const bool overflow = errno == ERANGE && std::isinf(value);  // e.g. "1e400"
  if (std::isnan(value) || (std::isinf(value) && !overflow) ||
      (overflow && (range == Range::kDirection || range == Range::kUnread)))
    return NumberNotFiniteProblem(written);
  if (overflow) return NumberBeyondLimitProblem(written);
  const double magnitude = std::abs(value);
  if (magnitude <= kMaxSceneNumber && physical != nullptr && !InPhysicalRange(*physical, value))
    return PhysicalRangeProblem(*physical, value, written);
  if (range == Range::kDirection || range == Range::kUnread || magnitude <= kMaxSceneNumber)
    return "";
  if (range == Range::kSdfJointLimit && magnitude >= kSdfNoJointLimit) return "";
  std::ostringstream shown;
  shown << value;
  return NumberBeyondLimitProblem(shown.str());
}

bool IsXmlSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The first bad number of one field's text.
struct BadNumber {
  size_t index = 0;         // among the field's space-separated tokens
  bool several = false;     // the field holds more than one token
  int newlines_before = 0;  // newlines of the (decoded) text before the token
  std::string problem;
};

// The space-separated tokens of `text` as (offset, size) pairs.
std::vector<std::pair<size_t, size_t>> Tokens(std::string_view text) {
  std::vector<std::pair<size_t, size_t>> tokens;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && IsXmlSpace(text[i])) ++i;
    if (i >= text.size()) break;
    const size_t begin = i;
    while (i < text.size() && !IsXmlSpace(text[i])) ++i;
    tokens.emplace_back(begin, i - begin);
  }
  return tokens;
}

// The first bad number of `decoded` (an attribute value or a run of element text), or
// nullopt; its index counts from `first_index` (the tokens of the element's earlier runs).
// Adds the number of tokens of `decoded` to *count. Its newlines are counted from the start
// of the text, or with `from_first_token` from its first token (the line of a text run).
std::optional<BadNumber> FirstBadNumber(const std::string& decoded, const NumberField& field,
                                        size_t first_index, size_t* count, bool from_first_token) {
  const std::vector<std::pair<size_t, size_t>> tokens = Tokens(decoded);
  *count += tokens.size();
  for (size_t k = 0; k < tokens.size(); ++k) {
    const auto [begin, size] = tokens[k];
    std::string problem = TokenProblem(decoded.substr(begin, size), field.range, field.physical);
    if (problem.empty()) continue;
    const size_t from = from_first_token ? tokens.front().first : 0;
    const auto newlines = std::count(decoded.begin() + from, decoded.begin() + begin, '\n');
    return BadNumber{first_index + k, false, static_cast<int>(newlines), std::move(problem)};
  }
  return std::nullopt;
}

// "joint j1" for the nearest element at or above start_tags[index] with a (non-empty,
// UTF-8) name attribute, or "" when there is none.
std::string NamedElement(const XmlScan& scan, size_t index) {
  for (size_t i = index; i != XmlStartTag::kNoParent; i = scan.start_tags[i].parent) {
    const XmlStartTag& tag = scan.start_tags[i];
    const std::optional<std::string_view> name = XmlAttribute(tag.attributes, "name");
    if (!name) continue;
    std::string named = tag.name;
    named.append(" ").append(*name);
    if (!name->empty() && IsValidUtf8(named)) return named;
  }
  return "";
}

// The problem for a bad number in field `field` of start_tags[index], whose text starts at
// `line`.
ModelFileNumberProblem Describe(const XmlScan& scan, size_t index, std::string_view field, int line,
                                const BadNumber& bad) {
  const std::string named = NamedElement(scan, index);
  // Built with append(): GCC 12 reports a false -Wrestrict on chained operator+ here.
  std::string problem = named;
  if (!named.empty()) problem.append(": ");
  problem.append(field);
  if (bad.several) problem.append("[").append(std::to_string(bad.index)).append("]");
  problem.append(": ").append(bad.problem);
  return {line + bad.newlines_before, problem};
}

}  // namespace

std::optional<ModelFileNumberProblem> FindModelFileNumberProblem(const XmlScan& scan) {
  const std::span<const NumberField> table = TableOf(scan);
  if (table.empty()) return std::nullopt;
  if (table.data() == kSdfNumbers) {            // numbers are element text, maybe in several runs
    std::unordered_map<size_t, size_t> tokens;  // per element: its tokens so far
    std::optional<std::pair<size_t, BadNumber>> first;  // (run, number)
    for (size_t r = 0; r < scan.texts.size(); ++r) {
      const XmlText& text = scan.texts[r];
      // After the first bad number, only its element's later runs count (for its index).
      if (first && text.element != scan.texts[first->first].element) continue;
      const NumberField* field = Lookup(table, scan.start_tags[text.element].name, "");
      if (field == nullptr) continue;
      size_t& count = tokens[text.element];
      std::optional<BadNumber> bad =
          FirstBadNumber(text.text, *field, count, &count, /*from_first_token=*/true);
      if (bad && !first) first.emplace(r, std::move(*bad));
    }
    if (!first) return std::nullopt;
    const XmlText& text = scan.texts[first->first];
    first->second.several = tokens[text.element] > 1;
    return Describe(scan, text.element, scan.start_tags[text.element].name, text.line,
                    first->second);
  }
  for (size_t t = 0; t < scan.start_tags.size(); ++t) {  // numbers are attributes
    const XmlStartTag& tag = scan.start_tags[t];
    for (const XmlAttributeValue& attribute : tag.attributes) {
      const NumberField* field = Lookup(table, tag.name, attribute.name);
      if (field == nullptr) continue;
      size_t count = 0;
      std::optional<BadNumber> bad =
          FirstBadNumber(attribute.value, *field, 0, &count, /*from_first_token=*/false);
      if (!bad) continue;
      bad->several = count > 1;
      std::string name = tag.name;
      name.append(" ").append(attribute.name);
      return Describe(scan, t, name, attribute.line, *bad);
    }
  }
  return std::nullopt;
}

void CheckModelFileNumbers(const XmlScan& scan, const std::string& path,
                           const SourceLocation& where) {
  if (!scan.error.empty())
    ThrowAt(where, path + ":" + std::to_string(scan.error_line) + ": " + scan.error);
  if (const std::optional<ModelFileNumberProblem> bad = FindModelFileNumberProblem(scan))
    ThrowAt(where, path + ":" + std::to_string(bad->line) + ": " + bad->problem);
}

void CheckModelFileNumbers(const std::string& path, const SourceLocation& where) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return;
  std::stringstream text;
  text << file.rdbuf();
  const std::string xml = text.str();
  CheckModelFileNumbers(ScanXmlTags(xml), path, where);
}

}  // namespace quasidyn
