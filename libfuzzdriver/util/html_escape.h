// Text and attribute values written into the coverage page: HTML-escaped, so that source code
// (`a < b && c`), paths and names show as written and cannot close an element or attribute.
#pragma once

#include <string>
#include <string_view>

namespace cfuzz::driver {

inline void append_html_escaped(std::string& out, std::string_view text) {
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
}

inline std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  append_html_escaped(out, text);
  return out;
}

}  // namespace cfuzz::driver
