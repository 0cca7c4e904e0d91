/* cairo_api.h — the cairo functions tabula calls, reached through pointers
 * filled when the first picture is drawn or read (dynlib.h), so commands that
 * draw nothing never load cairo, fontconfig, freetype or pixman.
 * Pure C; no Lua. */
#ifndef TABULA_CAIRO_API_H
#define TABULA_CAIRO_API_H

#include <cairo.h>
#include <stddef.h>

#define CAIRO_API_FUNCS(X) \
    X(create) X(destroy) X(paint) X(new_path) X(close_path) X(move_to) X(line_to) \
    X(curve_to) X(arc) X(rectangle) X(fill) X(fill_preserve) X(stroke) X(stroke_preserve) \
    X(set_source_rgb) X(set_source_rgba) X(set_line_width) X(set_line_cap) \
    X(select_font_face) X(set_font_size) X(text_extents) X(show_text) X(status_to_string) \
    X(image_surface_create) X(image_surface_create_from_png_stream) X(image_surface_get_data) \
    X(image_surface_get_width) X(image_surface_get_height) X(image_surface_get_stride) \
    X(surface_destroy) X(surface_flush) X(surface_status) X(surface_write_to_png) \
    X(surface_write_to_png_stream)

typedef struct {
#define CAIRO_API_FIELD(f) __typeof__(cairo_##f) *f;
    CAIRO_API_FUNCS(CAIRO_API_FIELD)
#undef CAIRO_API_FIELD
} cairo_api;

/* cairo.move_to(...) and so on, valid after cairo_api_load succeeded */
extern cairo_api cairo;

/* Loads cairo once. 0, or -1 with one line naming the library in err. */
int cairo_api_load(char *err, size_t errlen);

#endif
