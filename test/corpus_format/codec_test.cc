// decode() and encode() on whole files: Go's own test vectors, every literal form the
// decoder must accept, and the errors it must give.
#include "corpus_format/codec.h"

#include <bit>
#include <cmath>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "test/corpus_format/test_support.h"
#include "test/support/files.h"
#include "test/support/temp_dir.h"

namespace cfuzz::corpus {
namespace {

using testing::describe_all;

std::string v1(std::string_view body) { return std::string(kHeader) + "\n" + std::string(body); }

// Decodes `in` and encodes the result again.
std::string reencode(std::string_view in) { return encode(decode(in, "f")); }

// The message of the CorpusError that decoding `in` throws ("" when it does not throw).
std::string decode_error(std::string_view in, std::string_view file = "testdata/fuzz/FuzzX/abc") {
  try {
    decode(in, file);
  } catch (const CorpusError& e) {
    return e.what();
  }
  return "";
}

Value decode_one(std::string_view line) {
  const Entry e = decode(v1(std::string(line) + "\n"), "f");
  EXPECT_EQ(e.size(), 1u) << line;
  return e.empty() ? Value{} : e[0];
}

// ---- Go 1.19's own vectors (internal/fuzz/encoding_test.go) ----

TEST(GoVectors, RejectsWhatGoRejects) {
  for (const char* in : {
           "int(1234)",
           "go test fuzz v1\nstring(\"a\"bcad\")",
           "go test fuzz v1\nint()",
           "go test fuzz v1\nuint(-32)",
           "go test fuzz v1\nint8(1234456)",
           "go test fuzz v1\nint(20*5)",
           "go test fuzz v1\nint(--5)",
           "go test fuzz v1\nbool(0)",
           "go test fuzz v1\nbyte('aa)",
           "go test fuzz v1\nbyte('☃')",
       }) {
    EXPECT_THROW(decode(in, "f"), CorpusError) << in;
  }
}

TEST(GoVectors, CanonicalFilesRoundTripUnchanged) {
  for (const char* in : {
           "go test fuzz v1\nfloat64(0)\nfloat32(0)\n",
           "go test fuzz v1\nint(-23)\nint8(-2)\nint64(2342425)\nuint(1)\nuint16(234)\n"
           "uint32(352342)\nuint64(123)\nrune('œ')\nbyte('K')\nbyte('ÿ')\n[]byte(\"hello¿\")\n"
           "[]byte(\"a\")\nbool(true)\nstring(\"hello\\xbd\\xb2=\\xbc ⌘\")\nfloat64(-12.5)\n"
           "float32(2.5)\n",
           "go test fuzz v1\nfloat32(-0)\nfloat64(-0)\nfloat32(+Inf)\nfloat32(-Inf)\n"
           "float32(NaN)\nfloat64(+Inf)\nfloat64(-Inf)\nfloat64(NaN)\n"
           "math.Float64frombits(0x7ff8000000000002)\nmath.Float32frombits(0x7fc00001)\n",
       }) {
    EXPECT_EQ(reencode(in), in);
  }
}

TEST(GoVectors, NonCanonicalFilesAreNormalised) {
  struct Case {
    const char* in;
    const char* want;
  } cases[] = {
      {"go test fuzz v1\nstring(\"has extra newline\")\n\n", "go test fuzz v1\nstring(\"has extra newline\")\n"},
      {"go test fuzz v1\nstring(\"extra\")\n[]byte(\"spacing\")  \n    ",
       "go test fuzz v1\nstring(\"extra\")\n[]byte(\"spacing\")\n"},
      {"go test fuzz v1\nint(0x0)\nint32(0x41)\nint64(0xfffffffff)\nuint32(0xcafef00d)\n"
       "uint64(0xffffffffffffffff)\nuint8(0b0000000)\nbyte(0x0)\nbyte('\\000')\n"
       "byte('\\u0000')\nbyte('\\'')\nmath.Float64frombits(9221120237041090562)\n"
       "math.Float32frombits(2143289345)",
       "go test fuzz v1\nint(0)\nrune('A')\nint64(68719476735)\nuint32(3405705229)\n"
       "uint64(18446744073709551615)\nbyte('\\x00')\nbyte('\\x00')\nbyte('\\x00')\n"
       "byte('\\x00')\nbyte('\\'')\nmath.Float64frombits(0x7ff8000000000002)\n"
       "math.Float32frombits(0x7fc00001)\n"},
      {"go test fuzz v1\nrune(0)\nrune(0x41)\nrune(-1)\nrune(0xfffd)\nrune(0xd800)\n"
       "rune(0x10ffff)\nrune(0x110000)\n",
       "go test fuzz v1\nrune('\\x00')\nrune('A')\nint32(-1)\nrune('�')\nint32(55296)\n"
       "rune('\\U0010ffff')\nint32(1114112)\n"},
      {"go test fuzz v1\nint(0x7fffffffffffffff)\nuint(0xffffffffffffffff)",
       "go test fuzz v1\nint(9223372036854775807)\nuint(18446744073709551615)\n"},
      {"go test fuzz v1\r\nint(0)\r\n", "go test fuzz v1\nint(0)\n"},
  };
  for (const auto& c : cases) EXPECT_EQ(reencode(c.in), c.want) << c.in;
}

// ---- the file as a whole ----

TEST(Decode, HeaderOnlyFileHasNoValues) {
  EXPECT_TRUE(decode("go test fuzz v1\n", "f").empty());
  EXPECT_TRUE(decode("go test fuzz v1\r\n\n  \n", "f").empty());
}

TEST(Decode, BlankAndWhiteSpaceLinesAreSkippedAnywhere) {
  const Entry e = decode("go test fuzz v1\n\n \t\nint(1)\n\r\n\u00a0\u3000\nint(2)\n\n", "f");
  EXPECT_EQ(describe_all(e), "int:1 int:2");
}

TEST(Decode, ValueLinesAreTrimmedOfUnicodeWhiteSpace) {
  EXPECT_EQ(describe_all(decode(v1("\u00a0\u2028 int(7)\u0085\u3000\r\n"), "f")), "int:7");
}

TEST(Decode, WrongHeaderIsAnErrorOnLineOne) {
  EXPECT_EQ(decode_error("go test fuzz v2\nint(1)\n"),
            "corpus file testdata/fuzz/FuzzX/abc: line 1: expected the header line "
            "\"go test fuzz v1\", got \"go test fuzz v2\"");
  EXPECT_NE(decode_error(" go test fuzz v1\nint(1)\n"), "");
  EXPECT_NE(decode_error("go test fuzz v1 \nint(1)\n"), "");
  EXPECT_NE(decode_error("go test fuzz v1\r\r\nint(1)\n"), "");
  EXPECT_NE(decode_error("\xEF\xBB\xBFgo test fuzz v1\nint(1)\n"), "");
}

TEST(Decode, EmptyFileIsAnError) {
  EXPECT_EQ(decode_error(""),
            "corpus file testdata/fuzz/FuzzX/abc: line 1: file is empty; expected the header "
            "line \"go test fuzz v1\"");
}

TEST(Decode, HeaderWithoutNewlineIsAnError) {
  EXPECT_NE(decode_error("go test fuzz v1"), "");
  EXPECT_NE(decode_error("go test fuzz v1\r"), "");
}

TEST(Decode, LastLineNeedsNoNewline) {
  EXPECT_EQ(describe_all(decode("go test fuzz v1\nbool(false)", "f")), "bool:false");
}

// ---- every literal form ----

TEST(Literals, IntegersInEveryBaseAndWithSeparators) {
  struct Case {
    const char* line;
    const char* want;
  } cases[] = {
      {"int(0)", "int:0"},
      {"int(-0)", "int:0"},
      {"int(42)", "int:42"},
      {"int(0x2A)", "int:42"},
      {"int(0X2a)", "int:42"},
      {"int(0o52)", "int:42"},
      {"int(0O52)", "int:42"},
      {"int(052)", "int:42"},
      {"int(0b101010)", "int:42"},
      {"int(0B101010)", "int:42"},
      {"int(1_000_000)", "int:1000000"},
      {"int(0x_dead_beef)", "int:3735928559"},
      {"int(0_52)", "int:42"},
      {"int(-0x8000000000000000)", "int:-9223372036854775808"},
      {"int8(-128)", "int8:-128"},
      {"int8(0x7f)", "int8:127"},
      {"int16(-32768)", "int16:-32768"},
      {"int32(-2147483648)", "int32:-2147483648"},
      {"int64(9223372036854775807)", "int64:9223372036854775807"},
      {"uint(18446744073709551615)", "uint:18446744073709551615"},
      {"uint8(255)", "uint8:255"},
      {"uint16(0xffff)", "uint16:65535"},
      {"uint32(0o37777777777)", "uint32:4294967295"},
      {"uint64(0b1111)", "uint64:15"},
  };
  for (const auto& c : cases) EXPECT_EQ(testing::describe(decode_one(c.line)), c.want) << c.line;
}

TEST(Literals, ByteAndRuneTakeCharactersOrIntegers) {
  struct Case {
    const char* line;
    const char* want;
  } cases[] = {
      {"byte('a')", "uint8:97"},         {"byte('\\x00')", "uint8:0"},     {"byte('\\377')", "uint8:255"},
      {"byte('\\xff')", "uint8:255"},    {"byte('\\u00ff')", "uint8:255"}, {"byte('ÿ')", "uint8:255"},
      {"byte('\\'')", "uint8:39"},       {"byte('\"')", "uint8:34"},       {"byte('\\\\')", "uint8:92"},
      {"byte('\\a')", "uint8:7"},        {"byte('\\v')", "uint8:11"},      {"byte(255)", "uint8:255"},
      {"byte(0xff)", "uint8:255"},       {"rune('☃')", "int32:9731"},      {"rune('\\U0010ffff')", "int32:1114111"},
      {"rune('\\u2028')", "int32:8232"}, {"rune(-1)", "int32:-1"},         {"rune(0x7fffffff)", "int32:2147483647"},
      {"rune('\\xff')", "int32:255"},
  };
  for (const auto& c : cases) EXPECT_EQ(testing::describe(decode_one(c.line)), c.want) << c.line;
}

TEST(Literals, StringsInterpretedAndRaw) {
  struct Case {
    const char* line;
    std::string want;
  } cases[] = {
      {"string(\"\")", ""},
      {"string(\"a\\tb\")", "a\tb"},
      {"string(\"\\a\\b\\f\\n\\r\\t\\v\\\\\\\"\")", "\a\b\f\n\r\t\v\\\""},
      {"string(\"\\x00\\xff\")", std::string("\0\xff", 2)},
      {"string(\"\\000\\377\")", std::string("\0\xff", 2)},
      {"string(\"\\u00e9\\U0001F600\")", "é\U0001F600"},
      {"string(\"é'\")", "é'"},
      {"string(`raw \\n \"quoted\"`)", "raw \\n \"quoted\""},
      {"string(`a\rb`)", "ab"},  // carriage returns vanish from raw strings, as in Go
      {"string(``)", ""},
      {"string(\"a\rb\")", "a\rb"},
      {"[]byte(\"\\xde\\xad\")", "\xde\xad"},
      {"[]byte(`x`)", "x"},
  };
  for (const auto& c : cases) {
    const Value v = decode_one(c.line);
    if (type_of(v) == Type::Bytes) {
      const Bytes& b = std::get<Bytes>(v);
      EXPECT_EQ(std::string(b.begin(), b.end()), c.want) << c.line;
    } else {
      EXPECT_EQ(std::get<std::string>(v), c.want) << c.line;
    }
  }
}

TEST(Literals, FloatsInEveryForm) {
  struct Case {
    const char* line;
    double want;
  } cases[] = {
      {"float64(1.5)", 1.5},
      {"float64(-1.5)", -1.5},
      {"float64(.5)", 0.5},
      {"float64(1.)", 1.0},
      {"float64(1e3)", 1000.0},
      {"float64(1E-3)", 0.001},
      {"float64(1_000.000_1)", 1000.0001},
      {"float64(0x1p-2)", 0.25},
      {"float64(0X1.8P1)", 3.0},
      {"float64(0x.8p1)", 1.0},
      {"float64(0x_1p4)", 16.0},
      {"float64(017)", 17.0},
      {"float64(09.5)", 9.5},
      {"float64(0)", 0.0},
      {"float64(5e-324)", 4.9406564584124654e-324},
      {"float64(1.7976931348623157e308)", 1.7976931348623157e308},
      {"float64(1e-400)", 0.0},  // underflow is not an error in Go
  };
  for (const auto& c : cases) {
    const Value v = decode_one(c.line);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(std::get<double>(v)), std::bit_cast<std::uint64_t>(c.want)) << c.line;
  }
  EXPECT_EQ(std::get<float>(decode_one("float32(0.1)")), 0.1f);
  EXPECT_EQ(std::get<float>(decode_one("float32(3.4028235e38)")), std::numeric_limits<float>::max());
  EXPECT_EQ(std::get<float>(decode_one("float32(1e-50)")), 0.0f);
}

TEST(Literals, FloatSpecialsAndBitPatterns) {
  EXPECT_EQ(testing::describe(decode_one("float64(NaN)")), "float64:7ff8000000000001");
  EXPECT_EQ(testing::describe(decode_one("float32(NaN)")), "float32:7fc00000");
  EXPECT_EQ(testing::describe(decode_one("float64(+Inf)")), "float64:7ff0000000000000");
  EXPECT_EQ(testing::describe(decode_one("float64(-Inf)")), "float64:fff0000000000000");
  EXPECT_EQ(testing::describe(decode_one("float32(-0)")), "float32:80000000");
  EXPECT_EQ(testing::describe(decode_one("math.Float64frombits(0x7ff0000000000001)")), "float64:7ff0000000000001");
  EXPECT_EQ(testing::describe(decode_one("math.Float32frombits(0xffc00000)")), "float32:ffc00000");
  EXPECT_EQ(testing::describe(decode_one("math.Float64frombits(1)")), "float64:1");
  // Go's parser quirk: any prefix operator other than '-' before Inf reads as +Inf.
  EXPECT_EQ(testing::describe(decode_one("float64(^Inf)")), "float64:7ff0000000000000");
  EXPECT_EQ(testing::describe(decode_one("float64(<-Inf)")), "float64:7ff0000000000000");
}

TEST(Literals, BoolsAreTrueOrFalse) {
  EXPECT_EQ(testing::describe(decode_one("bool(true)")), "bool:true");
  EXPECT_EQ(testing::describe(decode_one("bool(false)")), "bool:false");
}

TEST(Literals, GoSyntaxAroundTheValueIsAccepted) {
  // Comments that Go's scanner drops, spaces inside the call, a trailing comma or "..."
  // in the call, and a byte order mark at the start of the line: go/parser accepts all.
  for (const char* line : {"int(5) // five", "int(5) /* five */", "int(5)/**/ // x", "int( 5 )", "int(\t5\r)",
                           "int(/* c */5)", "int(5,)", "int(5 ...)", "int(5 ...,)", "\xEF\xBB\xBFint(5)"}) {
    EXPECT_EQ(testing::describe(decode_one(line)), "int:5") << line;
  }
  EXPECT_EQ(testing::describe(decode_one("int(- 5)")), "int:-5");
  EXPECT_EQ(testing::describe(decode_one("int(-/**/5)")), "int:-5");
  EXPECT_EQ(describe_all({decode_one("[ ] byte ( \"x\" )")}), "bytes:78");
  EXPECT_EQ(describe_all({decode_one("math . Float64frombits ( 0 )")}), "float64:0");
}

// ---- errors ----

TEST(Errors, MalformedLineNamesFileAndLine) {
  EXPECT_EQ(decode_error(v1("int(1)\n\nint(20*5)\n")),
            "corpus file testdata/fuzz/FuzzX/abc: line 4: int(20*5): expected ')' after the "
            "value inside int(...), found '*' (values must be single literals, not "
            "expressions)");
}

TEST(Errors, OutOfRangeValueNamesTypeAndValue) {
  EXPECT_EQ(decode_error(v1("int(1)\nint(2)\nint8(300)\n")),
            "corpus file testdata/fuzz/FuzzX/abc: line 4: expected int8 value, got 300 (out of "
            "range)");
}

TEST(Errors, ErrorWithoutFileNameSaysCorpusEntry) {
  EXPECT_EQ(decode_error(v1("uint(-1)\n"), ""),
            "corpus entry: line 2: expected uint value, got -1 (unsigned values cannot be "
            "negative)");
}

TEST(Errors, CorpusErrorCarriesItsParts) {
  try {
    decode(v1("int(1)\nbogus(1)\n"), "dir/x");
    FAIL() << "no error";
  } catch (const CorpusError& e) {
    EXPECT_EQ(e.file(), "dir/x");
    EXPECT_EQ(e.line(), 3);
    EXPECT_EQ(std::string(e.what()), "corpus file dir/x: line 3: " + e.message());
  }
}

TEST(Errors, EveryKindOfBadLineIsRejectedWithAClearReason) {
  struct Case {
    const char* line;
    const char* reason;  // a part of the message that must appear
  } cases[] = {
      {"uintptr(5)", "unknown type uintptr"},
      {"complex64(1)", "unknown type complex64"},
      {"Int(5)", "unknown type Int"},
      {"[]uint8(\"x\")", "expected []byte, found []uint8"},
      {"[4]byte(\"x\")", "array types"},
      {"fmt.Sprint(1)", "unknown function fmt.Sprint"},
      {"math.Float64bits(1)", "unknown function math.Float64bits"},
      {"int(1) int(2)", "each line holds exactly one value"},
      {"int(1);", "each line holds exactly one value"},
      {"int(1, 2)", "takes exactly one value"},
      {"int(5", "missing ')'"},
      {"int 5", "expected '(' after int"},
      {"(int)(5)", "expected a type"},
      {"int((5))", "expected a literal value"},
      {"int(x)", "expected a literal value inside int(...), found identifier x"},
      {"int(+5)", "only '-' may come before a number"},
      {"int(-x)", "expected a number after '-'"},
      {"int(1.5)", "expected an integer literal inside int(...)"},
      {"int('a')", "expected an integer literal"},
      {"uint8('a')", "expected an integer literal"},
      {"int32('a')", "expected an integer literal"},
      {"uint(-0)", "unsigned values cannot be negative"},
      {"byte(256)", "expected byte value, got 256 (out of range)"},
      {"byte(\"a\")", "expected a rune literal"},
      {"rune(0x80000000)", "expected rune value, got 0x80000000 (out of range)"},
      {"int64(9223372036854775808)", "out of range"},
      {"uint64(18446744073709551616)", "out of range"},
      {"float32(1e50)", "expected float32 value, got 1e50 (out of range)"},
      {"float64(1e309)", "out of range"},
      {"float64(0x10)", "needs a 'p' exponent"},
      {"float64(0o17)", "octal and binary literals are not accepted"},
      {"float64(1i)", "expected a number inside float64(...), found imaginary literal 1i"},
      {"float64(Inf)", "expected a literal value"},
      {"float64(-NaN)", "expected a number after '-'"},
      {"float64(\"1\")", "expected a number"},
      {"math.Float32frombits(0x100000000)", "expected uint32 bit pattern value"},
      {"math.Float64frombits(1.5)", "expected an integer bit pattern"},
      {"math.Float64frombits(-1)", "cannot be negative"},
      {"string(5)", "expected a string literal inside string(...)"},
      {"string(-\"x\")", "expected a string literal inside string(...)"},
      {"[]byte('a')", "expected a string literal inside []byte(...)"},
      {"bool(1)", "expected true or false"},
      {"bool(True)", "expected true or false"},
      {"bool(!true)", "expected true or false"},
      {"string(\"a\\q\")", "unknown escape sequence \\q at column 10"},
      {"string(\"\\'\")", "unknown escape sequence \\' (only the enclosing quote may be escaped)"},
      {"string(\"\\ud800\")", "invalid Unicode code point"},
      {"string(\"\\U00110000\")", "invalid Unicode code point"},
      {"string(\"\\400\")", "invalid Unicode code point"},
      {"string(\"\\x4\")", "illegal character in escape sequence"},
      {"string(\"abc)", "string literal not terminated"},
      {"string(`abc)", "raw string literal not terminated"},
      {"byte('')", "empty rune literal"},
      {"byte('ab')", "more than one character"},
      {"byte('\\\"')", "unknown escape sequence"},
      {"int(09)", "invalid digit '9' in octal literal"},
      {"int(1__0)", "'_' must separate successive digits"},
      {"int(0x)", "hexadecimal literal has no digits"},
      {"float64(1e)", "exponent has no digits"},
      {"float64(0x1.5)", "hexadecimal mantissa requires a 'p' exponent"},
      {"float64(0b1.0)", "invalid radix point in binary literal"},
      {"int(1) /* open", "comment not terminated"},
      {"int(\v5)", "unexpected character U+000B"},
      {"int(5) # x", "unexpected character '#'"},
      {"ínt(5)", "outside a quoted literal"},
      {"// just a comment", "found only comments"},
      {"\xEF\xBB\xBF", "byte order mark"},
      {"int(5)\xEF\xBB\xBF", "byte order mark"},
  };
  for (const auto& c : cases) {
    const std::string message = decode_error(v1(std::string(c.line) + "\n"));
    EXPECT_NE(message.find(c.reason), std::string::npos)
        << c.line << "\n  message: " << message << "\n  wanted: " << c.reason;
  }
}

TEST(Errors, RawControlBytesAndBadUtf8AreRejectedEvenInsideLiterals) {
  EXPECT_NE(decode_error(v1(std::string("string(\"a\0b\")\n", 14))).find("NUL character"), std::string::npos);
  EXPECT_NE(decode_error(v1("string(\"\xff\")\n")).find("invalid UTF-8 encoding at column 9"), std::string::npos);
  EXPECT_NE(decode_error(v1("int(1) // \xff\n")), "");
  EXPECT_NE(decode_error(v1("string(`\xed\xa0\x80`)\n")), "");
}

TEST(Errors, LinesOfControlCharactersGiveShortMessages) {
  // Found by decode_fuzzer: quoting multiplies the size of control characters by four,
  // so messages quoting such a line (twice) used to grow past 500 bytes.
  const std::string line = "\"a\f" + std::string(17, '\x11') + "!" + std::string(47, '\x11') + "[|\"";
  const std::string message = decode_error(v1(line + "\n"));
  EXPECT_NE(message, "");
  EXPECT_LT(message.size(), 300u) << message;
}

TEST(Errors, MessagesStayOnOneLineWhateverTheInput) {
  const std::string message = decode_error(v1("bogus(\"\x01\x02\x1b[31m" + std::string(500, 'x') + "\")\n"));
  EXPECT_EQ(message.find('\n'), std::string::npos);
  EXPECT_EQ(message.find('\x1b'), std::string::npos);
  EXPECT_LT(message.size(), 400u);
}

TEST(Errors, ALongIdentifierIsShownCutShort) {
  // Found by fuzzing the decoder under cfuzz: the type name was repeated in full.
  for (const std::string& tail : {std::string(""), std::string("."), std::string("(")}) {
    const std::string message = decode_error(v1(std::string(2000, 'P') + tail + "\n"));
    EXPECT_NE(message, "");
    EXPECT_LT(message.size(), 400u) << message;
  }
  // Cut at a character boundary: no half of a two-byte letter.
  std::string letters = "P";
  for (int i = 0; i < 1000; ++i) letters += "\xc3\xa9";  // é
  const std::string message = decode_error(v1(letters + "\n"));
  EXPECT_LT(message.size(), 400u) << message;
  EXPECT_EQ(message.find("\xc3..."), std::string::npos) << message;
}

// ---- encode ----

TEST(Encode, WritesEachTypeTheWayGoDoes) {
  const Entry e = {Bytes{0, 'a', 0xff},
                   std::string("é\u00a0\"'"),
                   true,
                   std::uint8_t{'\''},
                   std::int32_t{0x2603},
                   std::int32_t{-5},
                   GoInt{-23},
                   std::int8_t{-128},
                   std::int16_t{300},
                   std::int64_t{1} << 40,
                   GoUint{1},
                   std::uint16_t{65535},
                   std::uint32_t{7},
                   std::uint64_t{18446744073709551615u},
                   2.5f,
                   1e6,
                   std::bit_cast<double>(std::uint64_t{0x7ff8000000000002}),
                   std::bit_cast<float>(std::uint32_t{0x7fc00000}),
                   -0.0};
  EXPECT_EQ(encode(e),
            "go test fuzz v1\n"
            "[]byte(\"\\x00a\\xff\")\n"
            "string(\"é\\u00a0\\\"'\")\n"
            "bool(true)\n"
            "byte('\\'')\n"
            "rune('☃')\n"
            "int32(-5)\n"
            "int(-23)\n"
            "int8(-128)\n"
            "int16(300)\n"
            "int64(1099511627776)\n"
            "uint(1)\n"
            "uint16(65535)\n"
            "uint32(7)\n"
            "uint64(18446744073709551615)\n"
            "float32(2.5)\n"
            "float64(1e+06)\n"
            "math.Float64frombits(0x7ff8000000000002)\n"
            "float32(NaN)\n"
            "float64(-0)\n");
}

TEST(Encode, EmptyEntryIsRefused) { EXPECT_THROW(encode({}), std::invalid_argument); }

// ---- check_types and read_file ----

TEST(CheckTypes, CountMismatchInGosWords) {
  try {
    check_types({std::string("x")}, {Type::Bytes, Type::Int8}, "f");
    FAIL();
  } catch (const CorpusError& e) {
    EXPECT_EQ(e.message(), "wrong number of values in corpus entry: 1, want 2");
    EXPECT_EQ(e.line(), 0);
    EXPECT_EQ(std::string(e.what()), "corpus file f: wrong number of values in corpus entry: 1, want 2");
  }
}

TEST(CheckTypes, TypeMismatchInGosWords) {
  try {
    check_types({std::string("x"), GoInt{1}}, {Type::Bytes, Type::Int8});
    FAIL();
  } catch (const CorpusError& e) {
    EXPECT_EQ(e.message(), "mismatched types in corpus entry: [string int], want [[]uint8 int8]");
  }
}

TEST(CheckTypes, AliasesAreTheSameType) {
  // uint8(5) satisfies a byte parameter and int32 a rune one, as in Go; int is not int64.
  EXPECT_NO_THROW(check_types(decode(v1("uint8(5)\nint32(1)\n")), {Type::Byte, Type::Rune}));
  EXPECT_THROW(check_types(decode(v1("int(5)\n")), {Type::Int64}), CorpusError);
}

TEST(ReadFile, DecodesAFileAndNamesItInErrors) {
  test::TempDir dir;
  const auto good = dir.path() / "good";
  const auto bad = dir.path() / "bad";
  test::write_file(good, "go test fuzz v1\nint(3)\n");
  test::write_file(bad, "go test fuzz v1\nint(3\n");
  EXPECT_EQ(describe_all(read_file(good.string())), "int:3");
  try {
    read_file(bad.string());
    FAIL();
  } catch (const CorpusError& e) {
    EXPECT_EQ(e.file(), bad.string());
    EXPECT_EQ(e.line(), 2);
  }
  try {
    read_file((dir.path() / "missing").string());
    FAIL();
  } catch (const CorpusError& e) {
    EXPECT_NE(std::string(e.what()).find("missing: cannot open: No such file"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cfuzz::corpus
