#pragma once
// "Did you mean ...?" for a mistyped name: the closest of the accepted names by edit distance
// (Levenshtein: insertions, deletions and substitutions of one character each cost 1).

#include <string>
#include <string_view>
#include <vector>

namespace quasidyn {

// The number of single-character edits that turn a into b.
int EditDistance(std::string_view a, std::string_view b);

// The accepted name closest to `name`, when it is at most max(1, |name| / 3) edits away (a
// typo, not another word); empty otherwise.
std::string ClosestName(std::string_view name, const std::vector<std::string>& accepted);

// " (did you mean 'x'?)" for ClosestName, or empty.
std::string DidYouMean(std::string_view name, const std::vector<std::string>& accepted);

// "a, b, c" (for messages listing the accepted names).
std::string JoinNames(const std::vector<std::string>& names, std::string_view separator = ", ");

}  // namespace quasidyn
