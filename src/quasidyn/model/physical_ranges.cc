#include "quasidyn/model/physical_ranges.h"

#include "quasidyn/common/argument_check.h"

namespace quasidyn {
namespace {

// "[1e-06, 10] s": the bounds and the unit (none for a pure number). Built with append():
// GCC 12 reports a false -Wrestrict on operator+ with a short literal (GCC bug 105329).
std::string BoundsText(const PhysicalRange& range) {
  std::string text("[");
  text.append(NumberText(range.min)).append(", ").append(NumberText(range.max)).append("]");
  if (range.unit != "-") text.append(" ").append(range.unit);
  return text;
}

}  // namespace

const std::vector<const PhysicalRange*>& AllPhysicalRanges() {
  static const std::vector<const PhysicalRange*> all = {
      &kTimeStepRange,         &kDurationRange,       &kMassRange,
      &kInertiaRange,          &kStiffnessRange,      &kDampingRange,
      &kContactToleranceRange, &kFrictionRange,       &kKappaRange,
      &kMassScaleRange,        &kEllipsoidRatioRange, &kEllipsoidRadiusRange,
      &kTriggerToleranceRange, &kFeedbackScaleRange,  &kTrackingGainRange,
      &kSettingLengthRange,    &kSettingWeightRange,  &kSettingTimeLimitRange};
  return all;
}

std::string PhysicalRangeText(const PhysicalRange& range) {
  std::string text(range.zero_allowed ? "0 or " : "");
  return text.append(BoundsText(range));
}

bool InPhysicalRange(const PhysicalRange& range, double value) {
  if (range.zero_allowed && value == 0.0) return true;
  return value >= range.min && value <= range.max;  // false for NaN
}

std::string PhysicalRangeProblem(const PhysicalRange& range, double value,
                                 const std::string& shown) {
  if (InPhysicalRange(range, value)) return "";
  std::string text(range.zero_allowed ? "must be 0 or lie within " : "must lie within ");
  return text.append(BoundsText(range))
      .append(", got ")
      .append(shown.empty() ? NumberText(value) : shown);
}

}  // namespace quasidyn
