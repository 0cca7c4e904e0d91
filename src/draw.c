/* draw.c — see draw.h. */
#include "draw.h"

#include "cairo_api.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { unsigned char *data; size_t len, cap; int failed; } membuf;

static cairo_status_t to_memory(void *closure, const unsigned char *data, unsigned int length)
{
    membuf *m = closure;
    if (m->len + length > m->cap) {
        size_t cap = m->cap ? m->cap : 65536;
        while (cap < m->len + length) cap *= 2;
        unsigned char *d = realloc(m->data, cap);
        if (!d) { m->failed = 1; return CAIRO_STATUS_NO_MEMORY; }
        m->data = d;
        m->cap = cap;
    }
    memcpy(m->data + m->len, data, length);
    m->len += length;
    return CAIRO_STATUS_SUCCESS;
}

static void paint(cairo_t *cr, const draw_prim *p)
{
    if (p->fill[3] > 0) {
        cairo.set_source_rgba(cr, p->fill[0], p->fill[1], p->fill[2], p->fill[3]);
        cairo.fill_preserve(cr);
    }
    if (p->stroke[3] > 0 && p->width > 0) {
        cairo.set_source_rgba(cr, p->stroke[0], p->stroke[1], p->stroke[2], p->stroke[3]);
        cairo.set_line_width(cr, p->width);
        cairo.stroke_preserve(cr);
    }
    cairo.new_path(cr);
}

int draw_png(const char *path, int width, int height, const draw_prim *prims, int n,
             const char *font, unsigned char **out, size_t *outlen, char *err, int errlen)
{
    if (cairo_api_load(err, (size_t)errlen)) return -1;
    cairo_surface_t *s = cairo.image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    cairo_t *cr = cairo.create(s);
    cairo.select_font_face(cr, font ? font : "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    for (int i = 0; i < n; i++) {
        const draw_prim *p = &prims[i];
        switch (p->kind) {
        case DRAW_RECT:
            cairo.rectangle(cr, p->x, p->y, p->w, p->h);
            paint(cr, p);
            break;
        case DRAW_LINE:
            cairo.move_to(cr, p->x, p->y);
            cairo.line_to(cr, p->w, p->h);
            cairo.set_line_cap(cr, CAIRO_LINE_CAP_SQUARE);
            paint(cr, p);
            break;
        case DRAW_CIRCLE:
            cairo.arc(cr, p->x, p->y, p->w, 0, 6.283185307179586);
            paint(cr, p);
            break;
        case DRAW_TEXT: {
            cairo_text_extents_t e;
            cairo.set_font_size(cr, p->h);
            cairo.text_extents(cr, p->text ? p->text : "", &e);
            cairo.move_to(cr, p->x - e.width / 2 - e.x_bearing, p->y - e.height / 2 - e.y_bearing);
            cairo.set_source_rgba(cr, p->fill[0], p->fill[1], p->fill[2], p->fill[3]);
            cairo.show_text(cr, p->text ? p->text : "");
            cairo.new_path(cr);
            break;
        }
        }
    }
    cairo.destroy(cr);
    cairo.surface_flush(s);
    cairo_status_t st;
    membuf m = { NULL, 0, 0, 0 };
    if (path) st = cairo.surface_write_to_png(s, path);
    else st = cairo.surface_write_to_png_stream(s, to_memory, &m);
    cairo.surface_destroy(s);
    if (st != CAIRO_STATUS_SUCCESS) {
        free(m.data);
        snprintf(err, (size_t)errlen, "cannot write %s: %s", path ? path : "the PNG", cairo.status_to_string(st));
        return -1;
    }
    if (!path) { *out = m.data; *outlen = m.len; }
    return 0;
}
