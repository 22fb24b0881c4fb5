/* The C peer of `waterflow render` (not run by the tests; bench-render.sh builds and times it).
 *
 * Draws what scroll_pycairo.py draws for one frame of bench-scene.json, straight against cairo:
 * reads the scene's heights and prices, lays out three shortest-first columns, fills the
 * background, each visible cell clipped with its colour, its price bar (black at 30 %, white
 * centred 13 pt text) and its index label (white rounded tag, 12 pt text), at SCALE, and
 * writes the PNG with cairo_surface_write_to_png, as a C program using cairo would.
 * Usage: render_cairo SCENE OUT.png [OFFSET [SCALE]]  (SCALE: device pixels per point, default 2)
 */
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { COLUMNS = 3, MAX_ITEMS = 100000 };
static double ys[MAX_ITEMS], hs[MAX_ITEMS], xs[MAX_ITEMS];
static char prices[MAX_ITEMS][16];

static void centred(cairo_t *cr, const char *text, double x, double y, double w, double h, double size) {
  cairo_text_extents_t e;
  cairo_set_font_size(cr, size);
  cairo_text_extents(cr, text, &e);
  cairo_move_to(cr, x + w / 2 - (e.x_bearing + e.width / 2), y + h / 2 - (e.y_bearing + e.height / 2));
  cairo_show_text(cr, text);
}

int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: render_cairo SCENE OUT.png [OFFSET [SCALE]]\n"); return 2; }
  double offset = argc > 3 ? atof(argv[3]) : 0;
  FILE *f = fopen(argv[1], "rb");
  if (!f) { perror(argv[1]); return 1; }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *json = malloc(size + 1);
  if (fread(json, 1, size, f) != (size_t)size) { perror(argv[1]); return 1; }
  json[size] = 0;
  fclose(f);

  const double S = argc > 4 ? atof(argv[4]) : 2;
  const double W = 375, H = 667, top = 10, left = 10, right = 10, gap = 5, row = 5;
  const double cw = (W - left - right - (COLUMNS - 1) * gap) / COLUMNS;
  double bottoms[COLUMNS] = {0};
  int used[COLUMNS] = {0}, count = 0;
  char *items = strstr(json, "\"items\"");  /* the viewport has a height too */
  for (char *p = items ? strstr(items, "\"height\"") : NULL; p && count < MAX_ITEMS;
       p = strstr(p, "\"height\"")) {
    p += 8;
    hs[count] = strtod(strchr(p, ':') + 1, NULL);
    char *price = strstr(p, "\"price\"");
    char *quote = price ? strchr(strchr(price + 7, ':'), '"') : NULL;
    size_t n = quote ? strcspn(quote + 1, "\"") : 0;
    snprintf(prices[count], sizeof prices[count], "%.*s", (int)(n < 15 ? n : 15), quote ? quote + 1 : "");
    int c = 0;
    for (int k = 1; k < COLUMNS; k++) if (bottoms[k] < bottoms[c]) c = k;
    ys[count] = used[c] ? bottoms[c] + row : top;
    xs[count] = left + c * (cw + gap);
    bottoms[c] = ys[count] + hs[count];
    used[c] = 1;
    count++;
  }

  cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)(W * S), (int)(H * S));
  cairo_t *cr = cairo_create(surface);
  cairo_scale(cr, S, S);
  cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_source_rgb(cr, 0.95, 0.95, 0.96);
  cairo_paint(cr);
  cairo_rectangle(cr, 0, 0, W, H);
  cairo_clip(cr);
  cairo_translate(cr, 0, -offset);
  unsigned seed = 1;
  for (int i = 0; i < count; i++) {
    double rgb[3];
    for (int k = 0; k < 3; k++) { seed = seed * 1103515245u + 12345u; rgb[k] = (seed >> 16 & 0x7fff) / 32767.0; }
    double x = xs[i], y = ys[i], w = cw, h = hs[i];
    if (!(y + h > offset && y < offset + H)) continue;
    cairo_save(cr);
    cairo_rectangle(cr, x, y, w, h);
    cairo_clip(cr);
    cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
    cairo_rectangle(cr, x, y, w, h);
    cairo_fill(cr);
    cairo_set_source_rgba(cr, 0, 0, 0, 0.3);
    cairo_rectangle(cr, x, y + h - 25, w, 25);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 1, 1, 1);
    centred(cr, prices[i], x, y + h - 25, w, 25, 13);
    char label[16];
    snprintf(label, sizeof label, "%d", i);
    cairo_text_extents_t e;
    cairo_set_font_size(cr, 12);
    cairo_text_extents(cr, label, &e);
    double r = 3, lx = x + 4, ly = y + 4, lw = e.x_advance + 8, lh = 16;
    cairo_set_source_rgba(cr, 1, 1, 1, 0.8);
    cairo_new_sub_path(cr);
    cairo_arc(cr, lx + lw - r, ly + r, r, -M_PI / 2, 0);
    cairo_arc(cr, lx + lw - r, ly + lh - r, r, 0, M_PI / 2);
    cairo_arc(cr, lx + r, ly + lh - r, r, M_PI / 2, M_PI);
    cairo_arc(cr, lx + r, ly + r, r, M_PI, 3 * M_PI / 2);
    cairo_close_path(cr);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.12);
    cairo_move_to(cr, x + 8, y + 16.5);
    cairo_show_text(cr, label);
    cairo_restore(cr);
  }
  cairo_status_t status = cairo_surface_write_to_png(surface, argv[2]);
  cairo_destroy(cr);
  cairo_surface_destroy(surface);
  free(json);
  if (status != CAIRO_STATUS_SUCCESS) { fprintf(stderr, "%s: %s\n", argv[2], cairo_status_to_string(status)); return 1; }
  return 0;
}
