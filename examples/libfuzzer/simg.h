/* SIMG, a toy chunked image header format:
 *
 *   "SIMG" then chunks of: type (4 ASCII bytes), length (2 bytes, big-endian), payload.
 *   HEAD  width (u16 BE), height (u16 BE), bits per pixel (u8)      required, first
 *   NAME  the image title, up to 64 bytes of text
 *   END   no payload; ends the file
 *
 * Unknown chunks are skipped with a warning. */
#ifndef SIMG_H
#define SIMG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct simg_info {
  unsigned width, height, bits_per_pixel;
  char* title; /* NUL-terminated, or NULL */
};

/* Where warnings go; NULL silences them. The default prints to stderr. */
typedef void (*simg_warning_fn)(const char* message);
void simg_set_warning_handler(simg_warning_fn fn);

/* Returns 0 and fills *info (free it with simg_free), or -1 if the data is not SIMG. */
int simg_parse(const uint8_t* data, size_t size, struct simg_info* info);
void simg_free(struct simg_info* info);

#ifdef __cplusplus
}
#endif

#endif
