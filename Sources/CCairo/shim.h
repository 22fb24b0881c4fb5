// The C libraries Waterflow draws and encodes with. Only the `Cairo` module imports this.
#ifndef WATERFLOW_CCAIRO_SHIM_H
#define WATERFLOW_CCAIRO_SHIM_H
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo-ft.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <png.h>
#include <libdeflate.h>
#include <pixman.h>
#include <turbojpeg.h>
#include <webp/decode.h>
#include <fontconfig/fontconfig.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <hb.h>
#include <fribidi.h>
#include <stdint.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* Pango's type-checking casts are macros Swift cannot call; these few helpers do the casts. */

/* A font map that sees only the fonts of `config`: never the system's fonts or fontconfig's
   own configuration files, so the output cannot depend on what is installed. */
static inline PangoFontMap *waterflow_font_map_new(FcConfig *config) {
  PangoFontMap *map = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT);
  if (map) pango_fc_font_map_set_config((PangoFcFontMap *)map, config);
  return map;
}

/* A Pango context that lays out text the same way on every machine: no hinting, unhinted
   metrics, grey anti-aliasing and unrounded glyph positions (so layout is independent of the
   output's scale), and a fixed language instead of the process's locale. */
static inline PangoContext *waterflow_pango_context_new(PangoFontMap *map) {
  PangoContext *context = pango_font_map_create_context(map);
  if (!context) return NULL;
  cairo_font_options_t *options = cairo_font_options_create();
  cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
  cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
  pango_cairo_context_set_font_options(context, options);
  cairo_font_options_destroy(options);
  pango_context_set_round_glyph_positions(context, FALSE);
  pango_context_set_language(context, pango_language_from_string("en"));
  return context;
}

static inline void waterflow_object_unref(void *object) { g_object_unref(object); }

/* An ARGB32 image surface filled with transparent black, as cairo_image_surface_create makes
   one, but a big one (2 MiB or more) has its pixels in transparent huge pages where the kernel
   has them: a 750x1334 frame otherwise takes ~1,000 page faults when it is first drawn, before
   any frame is done. The pixels are freed with the surface, whoever holds the last reference. */
static inline cairo_surface_t *waterflow_image_surface_create(int width, int height) {
  static cairo_user_data_key_t pixels_key;
  int stride = cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, width);
  size_t bytes = (size_t)stride * (size_t)height;
  /* Whole huge pages: a partial one at the end would be faulted in 4 KiB at a time. */
  size_t huge = ((size_t)2 << 20), rounded = (bytes + huge - 1) / huge * huge;
  void *pixels = NULL;
  if (stride <= 0 || bytes < huge || posix_memalign(&pixels, huge, rounded) != 0)
    return cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
  madvise(pixels, rounded, MADV_HUGEPAGE);
  memset(pixels, 0, bytes);
  cairo_surface_t *surface = cairo_image_surface_create_for_data(
      (unsigned char *)pixels, CAIRO_FORMAT_ARGB32, width, height, stride);
  if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS
      || cairo_surface_set_user_data(surface, &pixels_key, pixels, free) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(surface);
    free(pixels);
    return cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
  }
  return surface;
}

/* The Up filter of a row of opaque premultiplied ARGB pixels, packed as PNG's RGB bytes: byte by
   byte, row minus the row above, in R, G, B order. PNGCodec's frame encoder spends a tenth of a
   scroll frame here in portable Swift, which compares eight pixels at a time but packs pixel by
   pixel; with AVX2 one subtraction and one byte shuffle pack eight pixels. No library has this
   step (libpng and libdeflate take rows already packed). Same bytes as the Swift code, which
   CPUs without AVX2 (and other architectures) keep using.

   Writes 3 x width bytes at `out`, and may write up to 4 bytes past them (the next row's filter
   byte and first bytes, written after this row, or the buffer's slack). Returns 0 when some
   pixel is not opaque, 1 when every byte written is zero, 2 otherwise, and -1 without AVX2. */
#if defined(__x86_64__)
__attribute__((target("avx2")))
static inline int waterflow_up_filter_opaque_row_avx2(
    const uint32_t *row, const uint32_t *above, long width, uint8_t *out) {
  const __m256i pack = _mm256_setr_epi8(
      2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1,
      2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
  __m256i any = _mm256_setzero_si256();
  __m256i alpha = _mm256_set1_epi32(-1);
  long x = 0;
  for (; x + 8 <= width; x += 8) {
    __m256i a = _mm256_loadu_si256((const __m256i *)(row + x));
    __m256i d = _mm256_sub_epi8(a, _mm256_loadu_si256((const __m256i *)(above + x)));
    any = _mm256_or_si256(any, d);
    alpha = _mm256_and_si256(alpha, a);
    __m256i packed = _mm256_shuffle_epi8(d, pack);
    _mm_storeu_si128((__m128i *)(out + 3 * x), _mm256_castsi256_si128(packed));
    _mm_storeu_si128((__m128i *)(out + 3 * x + 12), _mm256_extracti128_si256(packed, 1));
  }
  uint32_t anyWord = 0, alphaWord = 0xffffffffu;
  for (; x < width; x++) {
    uint32_t a = row[x], b = above[x];
    /* Byte-wise subtraction without borrows between bytes (Hacker's Delight 2-18). */
    uint32_t d = ((a | 0x80808080u) - (b & ~0x80808080u)) ^ ((a ^ ~b) & 0x80808080u);
    anyWord |= d;
    alphaWord &= a;
    out[3 * x] = (uint8_t)(d >> 16);
    out[3 * x + 1] = (uint8_t)(d >> 8);
    out[3 * x + 2] = (uint8_t)d;
  }
  /* Every pixel counts, not only those that differ from the one above as in the Swift code:
     one equal to an opaque pixel is opaque, so the answer is the same. */
  __m128i alpha4 = _mm_and_si128(_mm256_castsi256_si128(alpha), _mm256_extracti128_si256(alpha, 1));
  __m128i any4 = _mm_or_si128(_mm256_castsi256_si128(any), _mm256_extracti128_si256(any, 1));
  uint32_t lanes[4], anyLanes[4];
  _mm_storeu_si128((__m128i *)lanes, alpha4);
  _mm_storeu_si128((__m128i *)anyLanes, any4);
  alphaWord &= lanes[0] & lanes[1] & lanes[2] & lanes[3];
  anyWord |= anyLanes[0] | anyLanes[1] | anyLanes[2] | anyLanes[3];
  if ((alphaWord & 0xff000000u) != 0xff000000u) return 0;
  return anyWord == 0 ? 1 : 2;
}
#endif

static inline int waterflow_up_filter_opaque_row(
    const uint32_t *row, const uint32_t *above, long width, uint8_t *out) {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx2"))
    return waterflow_up_filter_opaque_row_avx2(row, above, width, out);
#endif
  (void)row; (void)above; (void)width; (void)out;
  return -1;
}

/* Whether waterflow_up_filter_opaque_row filters here (rather than returning -1). */
static inline int waterflow_has_vector_row_filter(void) {
#if defined(__x86_64__)
  return __builtin_cpu_supports("avx2") ? 1 : 0;
#else
  return 0;
#endif
}

/* The benchmark baseline: the renderer's drawing of plain cells (background, clip, per cell a
   clipped fill and an index tag), written directly against cairo. `waterflow bench` times it
   against the Swift renderer on the same surface to show what the wrapper costs. */
static inline void waterflow_baseline_draw(
    cairo_surface_t *surface, cairo_font_face_t *face, double scale, double offset_y,
    double width, double height, int count, const double *rects, const double *colors,
    const char *const *labels) {
  cairo_t *cr = cairo_create(surface);
  cairo_font_options_t *options = cairo_font_options_create();
  cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
  cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
  cairo_set_font_options(cr, options);
  cairo_font_options_destroy(options);
  cairo_scale(cr, scale, scale);
  cairo_set_source_rgba(cr, 0.95, 0.95, 0.96, 1);
  cairo_rectangle(cr, 0, 0, width, height);
  cairo_fill(cr);
  cairo_save(cr);
  cairo_rectangle(cr, 0, 0, width, height);
  cairo_clip(cr);
  cairo_translate(cr, 0, -offset_y);
  for (int i = 0; i < count; i++) {
    const double *r = rects + 4 * i;
    const double *c = colors + 3 * i;
    cairo_save(cr);
    cairo_rectangle(cr, r[0], r[1], r[2], r[3]);
    cairo_clip(cr);
    cairo_set_source_rgba(cr, c[0], c[1], c[2], 1);
    cairo_rectangle(cr, r[0], r[1], r[2], r[3]);
    cairo_fill(cr);
    cairo_set_font_face(cr, face);
    cairo_set_font_size(cr, 12);
    cairo_text_extents_t e;
    cairo_text_extents(cr, labels[i], &e);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.8);
    double x = r[0] + 4, y = r[1] + 4, w = e.x_advance + 8, h = 16, rad = 3, half = 1.5707963267948966;
    cairo_new_sub_path(cr);
    cairo_arc(cr, x + w - rad, y + rad, rad, -half, 0);
    cairo_arc(cr, x + w - rad, y + h - rad, rad, 0, half);
    cairo_arc(cr, x + rad, y + h - rad, rad, half, 2 * half);
    cairo_arc(cr, x + rad, y + rad, rad, 2 * half, 3 * half);
    cairo_close_path(cr);
    cairo_fill(cr);
    cairo_set_source_rgba(cr, 0.1, 0.1, 0.12, 1);
    cairo_move_to(cr, x + 4, y + 12.5);
    cairo_show_text(cr, labels[i]);
    cairo_restore(cr);
  }
  cairo_restore(cr);
  cairo_destroy(cr);
}

#endif
