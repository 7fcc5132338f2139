#pragma once
// UTF-8 validity of names read from files: names end up in JSON trajectories and the viewer,
// which need valid UTF-8, so an invalid name is rejected where it is read. Also the conversion
// to and from code points that NumPy's unicode arrays (npz_archive.h) store.

#include <string>
#include <string_view>

namespace quasidyn {

// True when `text` is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, code
// points <= U+10FFFF).
bool IsValidUtf8(std::string_view text);

// The code points of well-formed UTF-8 `text` into *out; false (and *out unspecified) when it
// is not well-formed.
bool DecodeUtf8(std::string_view text, std::u32string* out);

// Appends the UTF-8 encoding of code point `code` (<= U+10FFFF, not a surrogate) to *out;
// false for an invalid code point.
bool AppendUtf8(char32_t code, std::string* out);

}  // namespace quasidyn
