#pragma once
// UTF-8 validity of names read from files: names end up in JSON trajectories and the viewer,
// which need valid UTF-8, so an invalid name is rejected where it is read.

#include <string_view>

namespace quasidyn {

// True when `text` is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, code
// points <= U+10FFFF).
bool IsValidUtf8(std::string_view text);

}  // namespace quasidyn
