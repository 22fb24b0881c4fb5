// The C libraries Waterflow draws and encodes with. Only the `Cairo` module imports this.
#ifndef WATERFLOW_CCAIRO_SHIM_H
#define WATERFLOW_CCAIRO_SHIM_H
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo-ft.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <png.h>
#include <libdeflate.h>
#include <pixman.h>
#endif
