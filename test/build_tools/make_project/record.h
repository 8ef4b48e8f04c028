#ifndef RECORD_H
#define RECORD_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The total weight of the "key:value;" records in text[0..size) (keys: id, name, size),
 * or -1 if the text is malformed. */
int record_weight(const char* text, size_t size);

#ifdef __cplusplus
}
#endif

#endif
