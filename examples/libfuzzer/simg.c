#include "simg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_warning(const char* message) { fprintf(stderr, "simg: %s\n", message); }

static simg_warning_fn warning_handler = print_warning;

void simg_set_warning_handler(simg_warning_fn fn) { warning_handler = fn; }

static void warn(const char* message) {
  if (warning_handler != NULL) warning_handler(message);
}

static unsigned read_u16(const uint8_t* p) { return (unsigned)p[0] << 8 | p[1]; }

int simg_parse(const uint8_t* data, size_t size, struct simg_info* info) {
  memset(info, 0, sizeof *info);
  if (size < 4 || memcmp(data, "SIMG", 4) != 0) return -1;
  size_t pos = 4;
  int have_head = 0;
  while (pos + 6 <= size) {
    const uint8_t* type = data + pos;
    size_t len = read_u16(data + pos + 4);
    const uint8_t* payload = data + pos + 6;
    if (len > size - pos - 6) goto bad; /* the payload runs past the end */
    pos += 6 + len;

    if (memcmp(type, "HEAD", 4) == 0) {
      if (have_head || len != 5) goto bad;
      info->width = read_u16(payload);
      info->height = read_u16(payload + 2);
      info->bits_per_pixel = payload[4];
      if (info->width == 0 || info->height == 0) goto bad;
      have_head = 1;
    } else if (!have_head) {
      goto bad; /* HEAD comes first */
    } else if (memcmp(type, "NAME", 4) == 0) {
      if (len > 64 || info->title != NULL) goto bad;
      info->title = malloc(len);
      if (info->title == NULL) goto bad;
      memcpy(info->title, payload, len);
      info->title[len] = '\0';
    } else if (memcmp(type, "END ", 4) == 0) {
      return 0;
    } else {
      warn("skipping an unknown chunk");
    }
  }
  if (have_head) return 0; /* END is optional */
bad:
  simg_free(info);
  return -1;
}

void simg_free(struct simg_info* info) {
  free(info->title);
  info->title = NULL;
}
