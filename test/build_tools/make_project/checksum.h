#ifndef CHECKSUM_H
#define CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Adler-32 of data[0..size). */
uint32_t adler32(const unsigned char* data, size_t size);

#ifdef __cplusplus
}
#endif

#endif
