/* image.h — Xiangqi board images (PNG) drawn with cairo: grid, palace
 * diagonals, river text, coordinates outside the board, pieces as characters
 * on discs, and curved coloured arrows with labels. Pure C; no Lua. */
#ifndef TABULA_IMAGE_H
#define TABULA_IMAGE_H

#include <stddef.h>

typedef struct {
    int file, rank;          /* 0..8, 0..9 (rank 0 is Red's back rank) */
    const char *text;        /* UTF-8 character(s) drawn on the disc */
    int red;                 /* 1: Red's colours, 0: Black's */
} img_piece;

typedef struct {
    int from_file, from_rank, to_file, to_rank;
    double r, g, b;          /* colour, 0..1 */
    const char *label;       /* drawn next to the arrow's start */
    int capture;             /* stop at the edge of the piece on the target */
} img_arrow;

typedef struct {
    int width, height;       /* 792 x 870 for Jianghu108 */
    const char *font;        /* font family for the characters, e.g. "WenQuanYi Zen Hei" */
    const char *files;       /* 9 file labels left to right, e.g. "ABCDEFGHI" */
    int rank_base;           /* the number shown for rank 0 (1 for Jianghu) */
    const char *river_left, *river_right;
    const img_piece *pieces;
    int npieces;
    const img_arrow *arrows;
    int narrows;
} img_board;

/* geometry, so tests and callers can find things on the picture */
typedef struct { double x0, y0, cell, radius; } img_geometry;
void img_geometry_of(const img_board *b, img_geometry *g);

/* Draw and encode as PNG into a malloc'd buffer. Returns 0, or -1 with err. */
int img_render_png(const img_board *b, unsigned char **png, size_t *len, char *err, size_t errlen);

/* Decode a PNG and read pixels (for checks): returns an opaque handle or NULL. */
typedef struct img_pixels img_pixels;
img_pixels *img_load_png(const unsigned char *png, size_t len);
void img_size(const img_pixels *p, int *w, int *h);
void img_pixel(const img_pixels *p, int x, int y, int *r, int *g, int *b);
void img_free(img_pixels *p);

#endif
