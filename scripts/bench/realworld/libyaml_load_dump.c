// A fuzz harness of our own for libyaml, whose source ships none: it loads every document of
// the input (yaml_parser_load: scanner, parser, composer) and writes each back out
// (yaml_emitter_dump: serializer, emitter) into a fixed memory buffer. Uses only the API
// documented in yaml.h.
#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

static unsigned char output[1 << 16];

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  yaml_parser_t parser;
  yaml_emitter_t emitter;
  size_t written = 0;
  if (!yaml_parser_initialize(&parser)) return 0;
  if (!yaml_emitter_initialize(&emitter)) {
    yaml_parser_delete(&parser);
    return 0;
  }
  yaml_parser_set_input_string(&parser, data, size);
  yaml_emitter_set_output_string(&emitter, output, sizeof output, &written);
  for (;;) {
    yaml_document_t document;
    if (!yaml_parser_load(&parser, &document)) break;  // a syntax error
    int end_of_stream = yaml_document_get_root_node(&document) == NULL;
    // yaml_emitter_dump deletes the document, whether it succeeds or not; given the empty
    // document that marks the end of the stream, it closes the output.
    if (!yaml_emitter_dump(&emitter, &document) || end_of_stream) break;
  }
  yaml_emitter_delete(&emitter);
  yaml_parser_delete(&parser);
  return 0;
}
