/* image.h — Xiangqi board images (PNG) drawn with cairo: grid, palace
 * diagonals, cannon and soldier position marks, river text, coordinates outside the board, pieces as characters
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
/* the pixel of a board point (file 0..8, rank 0..9) */
void img_point(const img_geometry *g, int file, int rank, double *x, double *y);

/* The arrows' shapes and their labels' places. Each shaft is a quadratic
 * Bézier from (sx,sy) through control (cx,cy) to (ex,ey); each label is a
 * square of half side IMG_LABEL_HALF centred on (lx,ly). Arrows leaving one
 * piece along one line bend to alternate sides by growing amounts, so they
 * part (where that leaves a rule broken, the other sides and wider bends are
 * tried); each label goes next to its own arrow's start, in free space: off
 * every piece disc, every other label and every arrow, nearer to its own
 * arrow than to any other, and no nearer to another piece than to the one its
 * arrow leaves (see img_layout in image_layout.c). */
#define IMG_LABEL_HALF 14.0
#define IMG_MAX_ARROWS 16
typedef struct {
    double sx, sy, cx, cy, ex, ey;
    double lx, ly;
} img_arrow_path;

/* Fill paths[0 .. b->narrows-1]. */
void img_layout(const img_board *b, const img_geometry *g, img_arrow_path *paths);

/* The point on a shaft at t in [0,1]. */
void img_path_point(const img_arrow_path *p, double t, double *x, double *y);

/* Draw and encode as PNG into a malloc'd buffer. Returns 0, or -1 with err. */
int img_render_png(const img_board *b, unsigned char **png, size_t *len, char *err, size_t errlen);

/* Decode a PNG and read pixels (for checks): returns an opaque handle, or
 * NULL with a message in err. */
typedef struct img_pixels img_pixels;
img_pixels *img_load_png(const unsigned char *png, size_t len, char *err, size_t errlen);
void img_size(const img_pixels *p, int *w, int *h);
void img_pixel(const img_pixels *p, int x, int y, int *r, int *g, int *b);
void img_free(img_pixels *p);

#endif
