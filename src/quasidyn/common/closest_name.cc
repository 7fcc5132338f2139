#include "quasidyn/common/closest_name.h"

#include <algorithm>
#include <numeric>

namespace quasidyn {

int EditDistance(std::string_view a, std::string_view b) {
  // One row of the dynamic programme at a time (Wagner & Fischer 1974).
  std::vector<int> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (size_t i = 1; i <= a.size(); ++i) {
    int diagonal = row[0];
    row[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      const int above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string ClosestName(std::string_view name, const std::vector<std::string>& accepted) {
  const int limit = std::max(1, static_cast<int>(name.size()) / 3);
  std::string best;
  int best_distance = limit + 1;
  for (const std::string& candidate : accepted) {
    const int distance = EditDistance(name, candidate);
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  return best;
}

std::string DidYouMean(std::string_view name, const std::vector<std::string>& accepted) {
  const std::string closest = ClosestName(name, accepted);
  return closest.empty() ? "" : " (did you mean '" + closest + "'?)";
}

std::string JoinNames(const std::vector<std::string>& names, std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += separator;
    out += names[i];
  }
  return out;
}

}  // namespace quasidyn
