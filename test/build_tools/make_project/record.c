#include "record.h"

#include <string.h>

struct field {
  const char* name;
  int weight;
};

static const struct field fields[] = {{"id", 1}, {"name", 2}, {"size", 4}};

static const struct field* find_field(const char* key, size_t len) {
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; ++i) {
    if (strlen(fields[i].name) == len && memcmp(fields[i].name, key, len) == 0) return &fields[i];
  }
  return NULL;
}

int record_weight(const char* text, size_t size) {
  int weight = 0;
  size_t pos = 0;
  while (pos < size) {
    const char* colon = memchr(text + pos, ':', size - pos);
    if (colon == NULL) return -1;
    size_t key_len = (size_t)(colon - (text + pos));
    const struct field* f = find_field(text + pos, key_len);
    /* The planted bug: an empty key is not rejected, and f is NULL. */
    if (f == NULL && key_len > 0) return -1;
    const char* end = memchr(colon, ';', size - pos - key_len);
    if (end == NULL) return -1;
    weight += f->weight;
    pos = (size_t)(end - text) + 1;
  }
  return weight;
}
