/* draw.h — a PNG from a list of drawing primitives (rectangles, lines,
 * circles, centred text) with cairo. The Go board renderer builds the list in
 * Lua and sends the same list to SVG or here. Pure C; no Lua. */
#ifndef TABULA_DRAW_H
#define TABULA_DRAW_H

#include <stddef.h>

typedef enum { DRAW_RECT, DRAW_LINE, DRAW_CIRCLE, DRAW_TEXT } draw_kind;

typedef struct {
    draw_kind kind;
    double x, y, w, h;          /* rect: corner and size; line: x,y to w,h; circle: centre, radius w */
    double fill[4];             /* rgba; alpha 0 = no fill */
    double stroke[4];           /* rgba; alpha 0 = no stroke */
    double width;               /* stroke width */
    const char *text;           /* DRAW_TEXT: UTF-8, centred on x, y; h = font size */
} draw_prim;

/* draws and writes the PNG to path, or, with path NULL, into *out (malloc'd,
 * *outlen bytes; the caller frees it). 0, or -1 with a message in err. */
int draw_png(const char *path, int width, int height, const draw_prim *prims, int n,
             const char *font, unsigned char **out, size_t *outlen, char *err, int errlen);
#endif
