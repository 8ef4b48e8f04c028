// Go's lexical rules (go/scanner), for one line of a corpus file.
//
// Go's decoder hands each line to go/parser, so what counts as a token, a literal, a
// comment or an error is decided by Go's scanner. This scanner reproduces it for the
// purposes of the codec: it finds the same token boundaries and rejects the same malformed
// input (bad escapes, misplaced '_' in numbers, unterminated literals and comments, NUL,
// invalid UTF-8, a byte order mark after the start). Comments are skipped, as the parser
// skips them. Automatic semicolons are not produced: within a single line Go only inserts
// one at the very end, where the parser discards it.
//
// Simplification: any non-ASCII character outside literals and comments is reported as
// an error here, while Go would read a letter as part of an identifier. No identifier that
// a value line may contain is non-ASCII, so both reject the same lines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cfuzz::corpus {

enum class TokenKind : std::uint8_t {
  Ident,
  Int,
  Float,
  Imag,
  Char,
  String,  // interpreted "..." or raw `...`
  LParen,
  RParen,
  LBrack,
  RBrack,
  Comma,
  Period,
  Ellipsis,
  // The prefix operators from which Go's parser builds a unary expression.
  Add,
  Sub,
  Not,
  Xor,
  And,
  Tilde,
  Arrow,  // <-
  // Any other operator or delimiter (*, ==, --, {, ;, ...): never part of a value line.
  Other,
};

struct Token {
  TokenKind kind;
  std::size_t offset;     // byte offset of the token in the line
  std::string_view text;  // the token's source text
};

struct ScanError {
  std::size_t offset;  // byte offset in the line where the problem is
  std::string message;
};

struct ScanResult {
  std::vector<Token> tokens;
  std::optional<ScanError> error;  // set when the line is not lexically valid Go
};

// Scans one line (already trimmed of surrounding white space; a byte order mark at its
// very start is skipped, as Go skips one at the start of a source file).
ScanResult scan_line(std::string_view line);

// A human-readable name for a token kind, for error messages ("')'", "identifier").
std::string_view describe_token_kind(TokenKind kind);

}  // namespace cfuzz::corpus
