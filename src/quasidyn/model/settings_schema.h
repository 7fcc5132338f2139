#pragma once
// A settings block declared once (the shape of formulations/parameters.h's ParameterSpec, for
// every other block: planning, MPC, the stabiliser, the optimiser, replanning, rollouts): each
// setting's spec (model/setting_spec.h: key, name, type, unit, range, doc) and how to read and
// write it in the block's struct. Every face is generated from the declaration:
//
//   const SettingsSchema<PlanningSettings>& schema = PlanningSettingsSchema();
//   ReadSettingsBlock(schema, yaml_block, &settings, &lines);   io/settings_reader.h (file:line)
//   SettingsBlockToJson(schema, settings);                        io/settings_json.h
//   AddSettingFlags(command, schema.specs(), &overrides);         apps/quasidyn/setting_flags.h
//   TakeSettingKeywords(schema.specs(), kwargs, &overrides);      python/src/setting_keywords.h
//   ApplySettingOverrides(schema, overrides, &settings);          checked, "planning.<path>: ..."
//   CheckSettingsBlock(schema, settings);                         every range at once
//   `quasidyn settings planning --markdown`                       the docs' table
//
// A declaration reads like the table it generates:
//
//   schema.Number("metric.kappa", &PlanningSettings::kappa)
//       .Name("kappa").Unit("1/(N·m)").Above(0)
//       .Doc("log-barrier weight κ of the metric's linearisations (method log-barrier)");

#include <Eigen/Core>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "quasidyn/model/physical_ranges.h"
#include "quasidyn/model/setting_spec.h"

namespace quasidyn {

// A value given for a setting by name (the command line's flag or Python's keyword, without
// dashes: "kappa", "plant_check_substeps"), in the order given.
struct SettingOverride {
  std::string name;
  SettingValue value;
};
using SettingOverrides = std::vector<SettingOverride>;

// The first problem a check found: the setting's path in the block and what is wrong.
struct SettingsProblem {
  std::string field;    // "metric.kappa"
  std::string problem;  // "must be > 0 [1/(N·m)] (got -1)"
};

// An optional sub-block (planning's goal_connection): absent means off; any of its keys, or the
// sub-block alone, turns it on with its defaults.
struct SettingSectionSpec {
  std::string name;  // its key in the block, the prefix of its settings' paths
  std::string doc;
};

namespace settings_detail {

// SettingValue <-> a field of type M.
template <typename M>
SettingValue ToValue(const M& field) {
  if constexpr (std::is_same_v<M, bool>)
    return field;
  else if constexpr (std::is_integral_v<M>)
    return static_cast<std::int64_t>(field);
  else if constexpr (std::is_floating_point_v<M>)
    return static_cast<double>(field);
  else if constexpr (std::is_same_v<M, std::string>)
    return field;
  else if constexpr (std::is_same_v<M, Eigen::VectorXd>)
    return std::vector<double>(field.data(), field.data() + field.size());
  else
    return std::vector<std::string>(field);
}

template <typename M>
M FromValue(const SettingValue& value) {
  if constexpr (std::is_same_v<M, bool>)
    return std::get<bool>(value);
  else if constexpr (std::is_integral_v<M>)
    return static_cast<M>(std::get<std::int64_t>(value));
  else if constexpr (std::is_floating_point_v<M>)
    return static_cast<M>(std::get<double>(value));
  else if constexpr (std::is_same_v<M, std::string>)
    return std::get<std::string>(value);
  else if constexpr (std::is_same_v<M, Eigen::VectorXd>) {
    const std::vector<double>& x = std::get<std::vector<double>>(value);
    return Eigen::Map<const Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(x.size()));
  } else
    return std::get<std::vector<std::string>>(value);
}

template <typename M>
constexpr SettingKind KindOf() {
  if constexpr (std::is_same_v<M, bool>)
    return SettingKind::kBool;
  else if constexpr (std::is_integral_v<M>)
    return SettingKind::kInteger;
  else if constexpr (std::is_floating_point_v<M>)
    return SettingKind::kNumber;
  else if constexpr (std::is_same_v<M, std::string>)
    return SettingKind::kChoice;
  else if constexpr (std::is_same_v<M, Eigen::VectorXd>)
    return SettingKind::kNumbers;
  else
    return SettingKind::kNames;
}

// "a.b_c" -> "a_b_c".
std::string DefaultSettingName(const std::string& path);

// "<block>.<field>: <problem>" as std::invalid_argument.
[[noreturn]] void ThrowSettingProblem(const std::string& block, const std::string& field,
                                      const std::string& problem);

// The names of `specs` closest to `name`, for an unknown one: " (did you mean 'x'?)".
std::string SettingNameSuggestion(const std::vector<SettingSpec>& specs, const std::string& name);

}  // namespace settings_detail

template <typename T>
class SettingsSchema {
 public:
  struct Setting {
    SettingSpec spec;
    std::function<SettingValue(const T&)> get;
    std::function<void(const SettingValue&, T*)> set;  // the value is of spec's kind, checked
  };

  // Edits the spec of the setting just declared: SettingsSchema::Number(...).Unit("m").Above(0).
  class SpecEditor {
   public:
    explicit SpecEditor(SettingSpec* spec) : spec_(spec) {}
    SpecEditor& Name(std::string name) { return Set(&SettingSpec::name, std::move(name)); }
    // The command line's flag when it is not the name's (Python's u_std, the flag --std).
    SpecEditor& Flag(std::string flag) { return Set(&SettingSpec::flag, std::move(flag)); }
    SpecEditor& Unit(std::string unit) { return Set(&SettingSpec::unit, std::move(unit)); }
    SpecEditor& Doc(std::string doc) { return Set(&SettingSpec::doc, std::move(doc)); }
    SpecEditor& Noun(std::string noun) { return Set(&SettingSpec::noun, std::move(noun)); }
    SpecEditor& Size(int size) { return Set(&SettingSpec::size, size); }
    // kNames: the names that stand alone (a list holds others).
    SpecEditor& Choices(std::vector<std::string> names) {
      return Set(&SettingSpec::choices, std::move(names));
    }
    SpecEditor& Above(double x) { return Lower(x, true); }     // > x
    SpecEditor& AtLeast(double x) { return Lower(x, false); }  // >= x
    SpecEditor& Below(double x) { return Upper(x, true); }     // < x
    SpecEditor& AtMost(double x) { return Upper(x, false); }   // <= x
    SpecEditor& MayBeInfinite() { return Set(&SettingSpec::finite, false); }
    // [range.min, range.max] of a positive physical input (model/physical_ranges.h); its unit
    // stays the one Unit() gave. A later AtMost/Below narrows the upper bound.
    SpecEditor& Within(const PhysicalRange& range) {
      Lower(range.min, false);
      return Upper(range.max, false);
    }

   private:
    template <typename F>
    SpecEditor& Set(F SettingSpec::*field, F value) {
      spec_->*field = std::move(value);
      return *this;
    }
    SpecEditor& Lower(double x, bool open) {
      spec_->lower = x;
      spec_->lower_open = open;
      return *this;
    }
    SpecEditor& Upper(double x, bool open) {
      spec_->upper = x;
      spec_->upper_open = open;
      return *this;
    }
    SettingSpec* spec_;
  };

  // `block`: the block's key in a scene file, and the prefix of its problems ("planning").
  SettingsSchema(std::string block, std::string doc)
      : block_(std::move(block)), doc_(std::move(doc)) {}
  SettingsSchema(const SettingsSchema&) = delete;
  SettingsSchema& operator=(const SettingsSchema&) = delete;

  const std::string& block() const { return block_; }
  const std::string& doc() const { return doc_; }
  const std::vector<Setting>& settings() const { return settings_; }
  // The specs alone, in declaration order, their default_text filled (the faces that need no
  // T: flags, keywords, docs).
  std::vector<SettingSpec> specs() const {
    std::vector<SettingSpec> out;
    for (const Setting& s : settings_) {
      out.push_back(s.spec);
      out.back().default_text = DefaultText(s);
    }
    return out;
  }
  const std::vector<SettingSectionSpec>& sections() const { return section_specs_; }

  // ---- declaration ----

  // A field of T: bool, an integer type, a floating type, Eigen::VectorXd or a vector of names.
  template <typename M>
  SpecEditor Field(std::string path, M T::*member) {
    return Declare(
        std::move(path), settings_detail::KindOf<M>(), Limits<M>(),
        [member](const T& t) { return settings_detail::ToValue(t.*member); },
        [member](const SettingValue& v, T* t) { t->*member = settings_detail::FromValue<M>(v); });
  }
  template <typename M>
  SpecEditor Number(std::string path, M T::*member) {
    static_assert(std::is_floating_point_v<M>);
    return Field(std::move(path), member);
  }
  template <typename M>
  SpecEditor Integer(std::string path, M T::*member) {
    static_assert(std::is_integral_v<M> && !std::is_same_v<M, bool>);
    return Field(std::move(path), member);
  }

  // A field of a struct S that is a member of T (always there): the lineariser's
  // randomized.samples declared as its block's `samples`.
  template <typename S, typename M>
  SpecEditor Field(std::string path, S T::*outer, M S::*member) {
    return Declare(
        std::move(path), settings_detail::KindOf<M>(), Limits<M>(),
        [outer, member](const T& t) { return settings_detail::ToValue((t.*outer).*member); },
        [outer, member](const SettingValue& v, T* t) {
          (t->*outer).*member = settings_detail::FromValue<M>(v);
        });
  }

  // An optional number (std::optional<double>): unset, it means what the setting's doc says (the
  // scene's value, the formulation's) and reads as an empty list, which has no default in the
  // docs' tables and is no problem (SettingProblem); a value given sets it.
  template <typename M>
  SpecEditor Number(std::string path, std::optional<M> T::*member) {
    static_assert(std::is_floating_point_v<M>);
    return Declare(
        std::move(path), SettingKind::kNumber, Limits<M>(),
        [member](const T& t) {
          const std::optional<M>& x = t.*member;
          return x ? SettingValue(static_cast<double>(*x)) : SettingValue(std::vector<double>());
        },
        [member](const SettingValue& v, T* t) {
          if (const double* x = std::get_if<double>(&v))
            t->*member = static_cast<M>(*x);
          else
            (t->*member).reset();
        });
  }

  // A field of an optional sub-block S (declared by Section first): reads S's default when the
  // sub-block is absent; setting it turns the sub-block on.
  template <typename S, typename M>
  SpecEditor Field(std::string path, std::optional<S> T::*section, M S::*member) {
    return Declare(
        std::move(path), settings_detail::KindOf<M>(), Limits<M>(),
        [section, member](const T& t) {
          const std::optional<S>& s = t.*section;
          return settings_detail::ToValue(s ? (*s).*member : S{}.*member);
        },
        [section, member](const SettingValue& v, T* t) {
          std::optional<S>& s = t->*section;
          if (!s) s.emplace();
          (*s).*member = settings_detail::FromValue<M>(v);
        });
  }

  // An enum field: its names, in order, from `name_of` (the enum's own Name function).
  template <typename E>
  SpecEditor Choice(std::string path, E T::*member, std::vector<E> values,
                    const char* (*name_of)(E)) {
    std::vector<std::string> names;
    for (const E value : values) names.emplace_back(name_of(value));
    SpecEditor editor = Declare(
        std::move(path), SettingKind::kChoice, {},
        [member, name_of](const T& t) { return SettingValue(std::string(name_of(t.*member))); },
        [member, values, name_of](const SettingValue& v, T* t) {
          for (const E value : values)
            if (std::get<std::string>(v) == name_of(value)) t->*member = value;
        });
    settings_.back().spec.choices = std::move(names);
    return editor;
  }

  // A setting read and written by functions of its own (a value with no field of its kind).
  SpecEditor Custom(std::string path, SettingKind kind, std::function<SettingValue(const T&)> get,
                    std::function<void(const SettingValue&, T*)> set) {
    return Declare(std::move(path), kind, {}, std::move(get), std::move(set));
  }

  // Every setting of another block's schema, as a nested block of this one (a struct S member of
  // T): paths "<prefix>.<its path>", names `name_prefix` + its name ("" keeps them). One
  // declaration serves both blocks (the stabiliser's settings inside replanning's).
  template <typename S>
  void Include(const std::string& prefix, S T::*member, const SettingsSchema<S>& nested,
               const std::string& name_prefix = "") {
    // `nested` must outlive this schema (the blocks' schemas are static).
    for (const SettingSectionSpec& section : nested.sections()) {
      const SettingsSchema<S>* inner = &nested;
      section_specs_.push_back({prefix + "." + section.name, section.doc});
      sections_.push_back({prefix + "." + section.name,
                           [inner, member, name = section.name](const T& t) {
                             return inner->SectionOn(name, t.*member);
                           },
                           [inner, member, name = section.name](T* t) {
                             inner->EnableSection(name, &(t->*member));
                           }});
    }
    for (const auto& setting : nested.settings()) {
      const auto get = setting.get;
      const auto set = setting.set;
      SettingSpec spec = setting.spec;
      spec.path = prefix + "." + spec.path;
      spec.name = name_prefix + spec.name;
      if (!spec.section.empty()) spec.section = prefix + "." + spec.section;
      if (FindByPath(spec.path) != nullptr || FindByName(spec.name) != nullptr)
        throw std::logic_error("settings block " + block_ + ": '" + spec.path + "' (" + spec.name +
                               ") declared twice");
      settings_.push_back({std::move(spec), [member, get](const T& t) { return get(t.*member); },
                           [member, set](const SettingValue& v, T* t) { set(v, &(t->*member)); }});
    }
  }

  // An optional sub-block of T (std::optional<S> T::*): declare before its fields.
  template <typename S>
  void Section(std::string name, std::optional<S> T::*member, std::string doc) {
    section_specs_.push_back({name, std::move(doc)});
    sections_.push_back({std::move(name), [member](const T& t) { return (t.*member).has_value(); },
                         [member](T* t) {
                           if (!(t->*member)) (t->*member).emplace();
                         }});
  }

  // ---- use ----

  const Setting* FindByName(const std::string& name) const {
    for (const Setting& s : settings_)
      if (s.spec.name == name) return &s;
    return nullptr;
  }
  const Setting* FindByPath(const std::string& path) const {
    for (const Setting& s : settings_)
      if (s.spec.path == path) return &s;
    return nullptr;
  }
  // Whether the optional sub-block `name` is on in `t` (true for "", no sub-block).
  bool SectionOn(const std::string& name, const T& t) const {
    for (const SectionAccess& s : sections_)
      if (s.name == name) return s.present(t);
    return true;
  }
  // Whether the setting's optional sub-block is on in `t` (true outside a sub-block).
  bool Active(const Setting& setting, const T& t) const {
    return SectionOn(setting.spec.section, t);
  }
  // Turns the optional sub-block `name` on (with its defaults) in *t.
  void EnableSection(const std::string& name, T* t) const {
    for (const SectionAccess& s : sections_)
      if (s.name == name) s.enable(t);
  }
  // The default value of `setting` (a default T, its sub-block on), as text.
  std::string DefaultText(const Setting& setting) const {
    T defaults{};
    if (!setting.spec.section.empty()) EnableSection(setting.spec.section, &defaults);
    return SettingValueText(setting.get(defaults));
  }

 private:
  struct SectionAccess {
    std::string name;
    std::function<bool(const T&)> present;
    std::function<void(T*)> enable;
  };

  template <typename M>
  static std::pair<std::int64_t, std::int64_t> Limits() {
    if constexpr (std::is_integral_v<M> && !std::is_same_v<M, bool>) {
      // An unsigned field holds no negative value; the upper end is what an int64 holds of it.
      const auto max = std::numeric_limits<M>::max();
      return {static_cast<std::int64_t>(std::numeric_limits<M>::min()),
              max > static_cast<std::make_unsigned_t<std::int64_t>>(
                        std::numeric_limits<std::int64_t>::max())
                  ? std::numeric_limits<std::int64_t>::max()
                  : static_cast<std::int64_t>(max)};
    }
    return {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()};
  }

  SpecEditor Declare(std::string path, SettingKind kind,
                     std::pair<std::int64_t, std::int64_t> limits,
                     std::function<SettingValue(const T&)> get,
                     std::function<void(const SettingValue&, T*)> set) {
    if (FindByPath(path) != nullptr ||
        FindByName(settings_detail::DefaultSettingName(path)) != nullptr)
      throw std::logic_error("settings block " + block_ + ": '" + path + "' declared twice");
    SettingSpec spec;
    spec.path = std::move(path);
    spec.name = settings_detail::DefaultSettingName(spec.path);
    spec.kind = kind;
    spec.type_min = limits.first;
    spec.type_max = limits.second;
    for (const SectionAccess& s : sections_)
      if (spec.path.rfind(s.name + ".", 0) == 0) spec.section = s.name;
    settings_.push_back({std::move(spec), std::move(get), std::move(set)});
    return SpecEditor(&settings_.back().spec);
  }

  std::string block_, doc_;
  std::vector<Setting> settings_;
  std::vector<SectionAccess> sections_;
  std::vector<SettingSectionSpec> section_specs_;
};

// The first setting of `t` outside its range (only the sub-blocks that are on), or nothing.
template <typename T>
std::optional<SettingsProblem> CheckSettingsBlock(const SettingsSchema<T>& schema, const T& t) {
  for (const auto& setting : schema.settings()) {
    if (!schema.Active(setting, t)) continue;
    const std::string problem = SettingProblem(setting.spec, setting.get(t));
    if (!problem.empty()) return SettingsProblem{setting.spec.path, problem};
  }
  return std::nullopt;
}

// Sets the setting called `name` (SettingSpec::name) to `value` in *t, checked: throws
// std::invalid_argument "<block>.<path>: <problem>", or "<block>.<name>: unknown setting (did you
// mean ...?)".
template <typename T>
void ApplySetting(const SettingsSchema<T>& schema, const std::string& name,
                  const SettingValue& value, T* t) {
  const auto* setting = schema.FindByName(name);
  if (setting == nullptr)
    settings_detail::ThrowSettingProblem(
        schema.block(), name,
        "unknown setting" + settings_detail::SettingNameSuggestion(schema.specs(), name));
  const SettingValue coerced = CoerceSetting(setting->spec, value);
  const std::string problem = SettingProblem(setting->spec, coerced);
  if (!problem.empty())
    settings_detail::ThrowSettingProblem(schema.block(), setting->spec.path, problem);
  setting->set(coerced, t);
}

// ApplySetting for each override, in order (a later one wins).
template <typename T>
void ApplySettingOverrides(const SettingsSchema<T>& schema, const SettingOverrides& overrides,
                           T* t) {
  for (const SettingOverride& o : overrides) ApplySetting(schema, o.name, o.value, t);
}

}  // namespace quasidyn
