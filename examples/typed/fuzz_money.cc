// Typed fuzz tests: cfuzz fills each parameter with values of its own type, and the
// corpus stores them that way (see testdata/fuzz/FuzzFormatParse/).
#include <cfuzz/cfuzz.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "money.h"

// Whatever the amount, currency, precision and style, parse() reads back what format() wrote.
CFUZZ_TEST(FuzzFormatParse, f) {
  f.add(std::string("EUR"), std::int64_t{123456}, std::uint8_t{2}, false);
  f.add(std::string("JPY"), std::int64_t{-5000}, std::uint8_t{0}, true);
  f.fuzz([](cfuzz::T& t, const std::string& currency, std::int64_t amount, std::uint8_t decimals, bool german) {
    // Inputs outside format()'s contract are not failures; skipped ones are not kept.
    if (!money::valid_currency(currency) || decimals > 9) t.skip("outside the contract");

    // The style is process-wide: put it back whatever happens to this input.
    money::Style saved = money::style();
    t.cleanup([saved] { money::set_style(saved); });
    money::set_style(german ? money::kGerman : money::kEnglish);

    std::string text = money::format(amount, decimals, currency);
    t.logf("format(%lld, %u) = \"%s\"", static_cast<long long>(amount), decimals, text.c_str());
    auto back = money::parse(text, decimals, currency);
    if (!back) t.fatalf("parse rejects what format wrote: \"%s\"", text.c_str());
    if (*back != amount) {
      t.fatalf("round trip changed %lld to %lld", static_cast<long long>(amount), static_cast<long long>(*back));
    }
  });
}

// from_double() is never more than half a minor unit away from the amount.
CFUZZ_TEST(FuzzFromDouble, f) {
  f.add(19.99, std::uint8_t{2});
  f.add(-0.005, std::uint8_t{2});
  f.fuzz([](cfuzz::T& t, double amount, std::uint8_t decimals) {
    if (decimals > 9) t.skip();
    auto minor = money::from_double(amount, decimals);
    if (!minor) {
      t.logf("%g has no int64 value at %u decimals", amount, decimals);
      return;
    }
    double exact = amount * std::pow(10.0, decimals);
    if (std::fabs(static_cast<double>(*minor) - exact) > 0.5) {
      t.errorf("from_double(%.17g, %u) = %lld", amount, decimals, static_cast<long long>(*minor));
    }
  });
}
