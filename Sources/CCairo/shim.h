// The C libraries Waterflow draws with (libdeflate and the codec's kernels are CPNGKernels's). Only the `Cairo` module imports this.
#ifndef WATERFLOW_CCAIRO_SHIM_H
#define WATERFLOW_CCAIRO_SHIM_H
#include <stdint.h>
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
#include <pixman.h>
#include <turbojpeg.h>
#include <webp/decode.h>
#include <fontconfig/fontconfig.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <hb.h>
#include <fribidi.h>
#include <stdint.h>

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

/* A second ARGB32 surface over `original`'s pixels, which keeps `original` alive until it is
   destroyed itself. For drawing one decoded photo on several threads: cairo's surface objects
   carry per-use state (their pixman image's transform and filter are set for each composite), so
   each thread draws from a surface of its own, while the pixels, which nothing writes, are one.
   Only reads `original` (the caller has flushed it once, before any thread shares it). */
static inline cairo_surface_t *waterflow_image_surface_share(cairo_surface_t *original) {
  static cairo_user_data_key_t owner_key;
  cairo_surface_t *surface = cairo_image_surface_create_for_data(
      cairo_image_surface_get_data(original), CAIRO_FORMAT_ARGB32,
      cairo_image_surface_get_width(original), cairo_image_surface_get_height(original),
      cairo_image_surface_get_stride(original));
  if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) return surface;
  cairo_surface_reference(original);
  if (cairo_surface_set_user_data(
          surface, &owner_key, original, (cairo_destroy_func_t)cairo_surface_destroy)
      != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(original);
    cairo_surface_destroy(surface);
    return cairo_image_surface_create(CAIRO_FORMAT_INVALID, 0, 0);
  }
  return surface;
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
