// Standard base64 (RFC 4648, with padding): how a failing input is printed when it could
// not be written anywhere, so that it can still be recovered from the log.
#pragma once

#include <string>
#include <string_view>

namespace cfuzz::driver {

std::string base64_encode(std::string_view bytes);

}  // namespace cfuzz::driver
