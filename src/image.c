/* image.c — see image.h. */
#include "image.h"

#include "cairo_api.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void img_geometry_of(const img_board *b, img_geometry *g)
{
    /* the board is 8 x 9 cells, centred, leaving a margin for the coordinates */
    double cw = (b->width - 150) / 8.0, ch = (b->height - 150) / 9.0;
    g->cell = cw < ch ? cw : ch;
    g->x0 = (b->width - 8 * g->cell) / 2;
    g->y0 = (b->height - 9 * g->cell) / 2;
    g->radius = g->cell * 0.43;
}


static void centred_text(cairo_t *cr, const char *text, double x, double y)
{
    cairo_text_extents_t e;
    cairo.text_extents(cr, text, &e);
    cairo.move_to(cr, x - e.width / 2 - e.x_bearing, y - e.height / 2 - e.y_bearing);
    cairo.show_text(cr, text);
    cairo.new_path(cr);
}

static void draw_grid(cairo_t *cr, const img_geometry *g)
{
    cairo.set_source_rgb(cr, 0.15, 0.1, 0.05);
    cairo.set_line_width(cr, 2);
    double x, y, x2, y2;
    for (int r = 0; r <= 9; r++) {              /* ranks: full width */
        img_point(g, 0, r, &x, &y);
        img_point(g, 8, r, &x2, &y2);
        cairo.move_to(cr, x, y);
        cairo.line_to(cr, x2, y2);
    }
    for (int f = 0; f <= 8; f++) {              /* files: broken by the river except at the edges */
        img_point(g, f, 0, &x, &y);
        img_point(g, f, 4, &x2, &y2);
        cairo.move_to(cr, x, y);
        cairo.line_to(cr, x2, y2);
        img_point(g, f, 5, &x, &y);
        img_point(g, f, 9, &x2, &y2);
        cairo.move_to(cr, x, y);
        cairo.line_to(cr, x2, y2);
        if (f == 0 || f == 8) {
            img_point(g, f, 4, &x, &y);
            img_point(g, f, 5, &x2, &y2);
            cairo.move_to(cr, x, y);
            cairo.line_to(cr, x2, y2);
        }
    }
    /* palace diagonals */
    const int palaces[2][2] = {{0, 2}, {7, 9}};
    for (int p = 0; p < 2; p++) {
        img_point(g, 3, palaces[p][0], &x, &y);
        img_point(g, 5, palaces[p][1], &x2, &y2);
        cairo.move_to(cr, x, y);
        cairo.line_to(cr, x2, y2);
        img_point(g, 5, palaces[p][0], &x, &y);
        img_point(g, 3, palaces[p][1], &x2, &y2);
        cairo.move_to(cr, x, y);
        cairo.line_to(cr, x2, y2);
    }
    cairo.stroke(cr);
    /* a thicker frame */
    cairo.set_line_width(cr, 4);
    img_point(g, 0, 9, &x, &y);
    cairo.rectangle(cr, x - 6, y - 6, 8 * g->cell + 12, 9 * g->cell + 12);
    cairo.stroke(cr);
}

static void draw_piece(cairo_t *cr, const img_geometry *g, const img_piece *p)
{
    double x, y;
    img_point(g, p->file, p->rank, &x, &y);
    cairo.new_path(cr);                 /* text leaves a current point behind */
    double rr = p->red ? 0.78 : 0.08, gg = p->red ? 0.05 : 0.08, bb = p->red ? 0.05 : 0.08;
    cairo.arc(cr, x, y, g->radius, 0, 2 * M_PI);
    cairo.set_source_rgb(cr, 0.96, 0.87, 0.70);      /* wood */
    cairo.fill_preserve(cr);
    cairo.set_source_rgb(cr, rr, gg, bb);
    cairo.set_line_width(cr, 3);
    cairo.stroke(cr);
    cairo.arc(cr, x, y, g->radius * 0.82, 0, 2 * M_PI);
    cairo.set_line_width(cr, 1.5);
    cairo.stroke(cr);
    cairo.set_font_size(cr, g->radius * 1.15);
    centred_text(cr, p->text, x, y);
}

static void draw_arrow(cairo_t *cr, const img_arrow *a, const img_arrow_path *p)
{
    if (hypot(p->ex - p->sx, p->ey - p->sy) < 1) return;
    cairo.new_path(cr);
    cairo.set_source_rgba(cr, a->r, a->g, a->b, 0.9);
    cairo.set_line_width(cr, 6);
    cairo.set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo.move_to(cr, p->sx, p->sy);
    /* the quadratic shaft as a cubic */
    cairo.curve_to(cr, p->sx + (p->cx - p->sx) * 2 / 3, p->sy + (p->cy - p->sy) * 2 / 3,
                   p->ex + (p->cx - p->ex) * 2 / 3, p->ey + (p->cy - p->ey) * 2 / 3, p->ex, p->ey);
    cairo.stroke(cr);
    /* the head, along the curve's last tangent */
    double tx = p->ex - p->cx, ty = p->ey - p->cy, tl = hypot(tx, ty);
    tx /= tl; ty /= tl;
    double hl = 22, hw = 12, ex = p->ex, ey = p->ey;
    cairo.move_to(cr, ex, ey);
    cairo.line_to(cr, ex - tx * hl - ty * hw, ey - ty * hl + tx * hw);
    cairo.line_to(cr, ex - tx * hl + ty * hw, ey - ty * hl - tx * hw);
    cairo.close_path(cr);
    cairo.fill(cr);
}

/* the letter on a white disc, where the layout put it */
static void draw_label(cairo_t *cr, const img_arrow *a, const img_arrow_path *p, const img_board *b)
{
    if (!a->label) return;
    cairo.select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo.set_font_size(cr, 26);
    cairo.set_source_rgb(cr, 1, 1, 1);
    cairo.new_path(cr);
    cairo.arc(cr, p->lx, p->ly, IMG_LABEL_HALF, 0, 2 * M_PI);
    cairo.fill(cr);
    cairo.set_source_rgb(cr, a->r, a->g, a->b);
    centred_text(cr, a->label, p->lx, p->ly);
    cairo.select_font_face(cr, b->font, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
}

/* the small corner marks on the cannon and soldier points */
static void draw_marks(cairo_t *cr, const img_geometry *g)
{
    static const int points[][2] = {
        {1, 2}, {7, 2}, {1, 7}, {7, 7},                                 /* cannons */
        {0, 3}, {2, 3}, {4, 3}, {6, 3}, {8, 3}, {0, 6}, {2, 6}, {4, 6}, {6, 6}, {8, 6},   /* soldiers */
    };
    double gap = g->cell * 0.07, len = g->cell * 0.16;
    cairo.set_source_rgb(cr, 0.15, 0.1, 0.05);
    cairo.set_line_width(cr, 2);
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++) {
        double x, y;
        img_point(g, points[i][0], points[i][1], &x, &y);
        for (int sx = -1; sx <= 1; sx += 2)
            for (int sy = -1; sy <= 1; sy += 2) {
                int f = points[i][0] + sx;
                if (f < 0 || f > 8) continue;       /* no mark past the edge */
                cairo.move_to(cr, x + sx * gap, y + sy * (gap + len));
                cairo.line_to(cr, x + sx * gap, y + sy * gap);
                cairo.line_to(cr, x + sx * (gap + len), y + sy * gap);
            }
    }
    cairo.stroke(cr);
}

typedef struct { unsigned char *data; size_t len, cap; } png_buf;

static cairo_status_t write_png(void *closure, const unsigned char *data, unsigned int length)
{
    png_buf *p = closure;
    if (p->len + length > p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 65536;
        while (cap < p->len + length) cap *= 2;
        unsigned char *d = realloc(p->data, cap);
        if (!d) return CAIRO_STATUS_NO_MEMORY;
        p->data = d;
        p->cap = cap;
    }
    memcpy(p->data + p->len, data, length);
    p->len += length;
    return CAIRO_STATUS_SUCCESS;
}

int img_render_png(const img_board *b, unsigned char **png, size_t *len, char *err, size_t errlen)
{
    if (cairo_api_load(err, errlen)) return -1;
    cairo_surface_t *s = cairo.image_surface_create(CAIRO_FORMAT_RGB24, b->width, b->height);
    if (cairo.surface_status(s) != CAIRO_STATUS_SUCCESS) {
        snprintf(err, errlen, "cannot create a %dx%d image", b->width, b->height);
        cairo.surface_destroy(s);
        return -1;
    }
    cairo_t *cr = cairo.create(s);
    img_geometry g;
    img_geometry_of(b, &g);
    cairo.set_source_rgb(cr, 0.93, 0.80, 0.56);       /* the board */
    cairo.paint(cr);
    draw_grid(cr, &g);
    draw_marks(cr, &g);
    cairo.select_font_face(cr, b->font, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    /* river */
    double x, y;
    cairo.set_source_rgb(cr, 0.2, 0.15, 0.1);
    cairo.set_font_size(cr, g.cell * 0.5);
    img_point(&g, 2, 4, &x, &y);
    if (b->river_left) centred_text(cr, b->river_left, x, y - g.cell / 2);
    img_point(&g, 6, 4, &x, &y);
    if (b->river_right) centred_text(cr, b->river_right, x, y - g.cell / 2);
    /* coordinates outside the board: files below, ranks on the left */
    cairo.select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo.set_font_size(cr, 24);
    for (int f = 0; f < 9; f++) {
        char label[4] = {b->files ? b->files[f] : (char)('a' + f), 0};
        img_point(&g, f, 0, &x, &y);
        centred_text(cr, label, x, y + g.cell * 0.75);
    }
    for (int r = 0; r < 10; r++) {
        char label[8];
        snprintf(label, sizeof label, "%d", r + b->rank_base);
        img_point(&g, 0, r, &x, &y);
        centred_text(cr, label, x - g.cell * 0.75, y);
    }
    cairo.select_font_face(cr, b->font, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    for (int i = 0; i < b->npieces; i++) draw_piece(cr, &g, &b->pieces[i]);
    img_arrow_path paths[IMG_MAX_ARROWS];
    int narrows = b->narrows < IMG_MAX_ARROWS ? b->narrows : IMG_MAX_ARROWS;
    img_layout(b, &g, paths);
    for (int i = 0; i < narrows; i++) draw_arrow(cr, &b->arrows[i], &paths[i]);
    for (int i = 0; i < narrows; i++) draw_label(cr, &b->arrows[i], &paths[i], b);
    cairo.destroy(cr);
    png_buf out = {NULL, 0, 0};
    cairo_status_t st = cairo.surface_write_to_png_stream(s, write_png, &out);
    cairo.surface_destroy(s);
    if (st != CAIRO_STATUS_SUCCESS) {
        free(out.data);
        snprintf(err, errlen, "cannot encode the PNG: %s", cairo.status_to_string(st));
        return -1;
    }
    *png = out.data;
    *len = out.len;
    return 0;
}

struct img_pixels { cairo_surface_t *s; };

typedef struct { const unsigned char *data; size_t len, pos; } png_reader;

static cairo_status_t read_png(void *closure, unsigned char *data, unsigned int length)
{
    png_reader *r = closure;
    if (r->pos + length > r->len) return CAIRO_STATUS_READ_ERROR;
    memcpy(data, r->data + r->pos, length);
    r->pos += length;
    return CAIRO_STATUS_SUCCESS;
}

img_pixels *img_load_png(const unsigned char *png, size_t len, char *err, size_t errlen)
{
    if (cairo_api_load(err, errlen)) return NULL;
    png_reader r = {png, len, 0};
    cairo_surface_t *s = cairo.image_surface_create_from_png_stream(read_png, &r);
    if (cairo.surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo.surface_destroy(s);
        snprintf(err, errlen, "not a PNG image");
        return NULL;
    }
    img_pixels *p = malloc(sizeof *p);
    if (!p) { cairo.surface_destroy(s); snprintf(err, errlen, "out of memory"); return NULL; }
    cairo.surface_flush(s);
    p->s = s;
    return p;
}

void img_size(const img_pixels *p, int *w, int *h)
{
    *w = cairo.image_surface_get_width(p->s);
    *h = cairo.image_surface_get_height(p->s);
}

void img_pixel(const img_pixels *p, int x, int y, int *r, int *g, int *b)
{
    int w, h;
    img_size(p, &w, &h);
    if (x < 0 || y < 0 || x >= w || y >= h) { *r = *g = *b = -1; return; }
    const unsigned char *row = cairo.image_surface_get_data(p->s) + (size_t)y * (size_t)cairo.image_surface_get_stride(p->s);
    uint32_t px = ((const uint32_t *)row)[x];   /* native-endian xRGB / ARGB */
    *r = (int)((px >> 16) & 255);
    *g = (int)((px >> 8) & 255);
    *b = (int)(px & 255);
}

void img_free(img_pixels *p)
{
    if (!p) return;
    cairo.surface_destroy(p->s);
    free(p);
}
