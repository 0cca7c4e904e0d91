/* image_layout.c — where the option arrows run and where their letters go
 * (see image.h). Pure C; no cairo, no Lua. */
#include "image.h"

#include <math.h>
#include <stdlib.h>

#define SAMPLES 100          /* points along each shaft */
#define STROKE 3.0           /* half the width of a shaft */
#define HEAD 13.0            /* the head, taken as a disc of this radius */
#define KEEP 24              /* candidate places kept per label */

/* penalties: the search minimises their sum, so a rule is broken only where no
 * place keeps it; the test on the 108 problems checks that none is broken */
#define OVER_PIECE 100000.0
#define OVER_LABEL 50000.0
#define NOT_NEAREST 20000.0
#define NOT_OWN_PIECE 10000.0
#define OVER_ARROW 1000.0

void img_point(const img_geometry *g, int file, int rank, double *x, double *y)
{
    *x = g->x0 + file * g->cell;
    *y = g->y0 + (9 - rank) * g->cell;     /* Black at the top */
}

void img_path_point(const img_arrow_path *p, double t, double *x, double *y)
{
    double u = 1 - t;
    *x = u * u * p->sx + 2 * u * t * p->cx + t * t * p->ex;
    *y = u * u * p->sy + 2 * u * t * p->cy + t * t * p->ey;
}

static int gcd(int a, int b)
{
    a = abs(a);
    b = abs(b);
    while (b) { int t = a % b; a = b; b = t; }
    return a;
}

/* how many other arrows leave the same point along the same line and are
 * shorter (ties broken by order): 0 for a lone arrow */
static int rank_on_ray(const img_board *b, int i)
{
    const img_arrow *a = &b->arrows[i];
    int df = a->to_file - a->from_file, dr = a->to_rank - a->from_rank, k = gcd(df, dr);
    int n = 0;
    for (int j = 0; k && j < b->narrows; j++) {
        const img_arrow *o = &b->arrows[j];
        int of = o->to_file - o->from_file, orr = o->to_rank - o->from_rank, ok = gcd(of, orr);
        if (j == i || !ok || o->from_file != a->from_file || o->from_rank != a->from_rank) continue;
        if (of / ok != df / k || orr / ok != dr / k) continue;
        if (ok < k || (ok == k && j < i)) n++;
    }
    return n;
}

static void shape(const img_board *b, const img_geometry *g, int i, int flip, double wider, img_arrow_path *q)
{
    const img_arrow *a = &b->arrows[i];
    double x1, y1, x2, y2;
    img_point(g, a->from_file, a->from_rank, &x1, &y1);
    img_point(g, a->to_file, a->to_rank, &x2, &y2);
    double dx = x2 - x1, dy = y2 - y1, len = hypot(dx, dy);
    q->sx = q->cx = q->ex = q->lx = x1;
    q->sy = q->cy = q->ey = q->ly = y1;
    if (len < 1) return;
    /* control point off the middle, perpendicular: arrows sharing a line bend
     * to alternate sides, the longer ones more */
    int r = rank_on_ray(b, i);
    double side = (r % 2 ? -1 : 1) * (flip ? -1 : 1), bend = (0.22 + wider + 0.16 * (r / 2)) * len;
    double nx = -dy / len, ny = dx / len;
    q->cx = (x1 + x2) / 2 + side * nx * bend;
    q->cy = (y1 + y2) / 2 + side * ny * bend;
    /* start at the edge of the moving piece; end on the target point, or at
     * the edge of the captured piece */
    double d = hypot(q->cx - x1, q->cy - y1);
    q->sx = x1 + (q->cx - x1) / d * g->radius;
    q->sy = y1 + (q->cy - y1) / d * g->radius;
    q->ex = x2;
    q->ey = y2;
    if (a->capture) {
        d = hypot(q->cx - x2, q->cy - y2);
        q->ex = x2 + (q->cx - x2) / d * g->radius;
        q->ey = y2 + (q->cy - y2) / d * g->radius;
    }
}

/* distance from a point to a box centred on (lx,ly) */
static double box_dist(double lx, double ly, double x, double y)
{
    double dx = fabs(x - lx) - IMG_LABEL_HALF, dy = fabs(y - ly) - IMG_LABEL_HALF;
    if (dx < 0) dx = 0;
    if (dy < 0) dy = 0;
    return hypot(dx, dy);
}

static double seg_dist(double x, double y, double ax, double ay, double bx, double by)
{
    double vx = bx - ax, vy = by - ay, l2 = vx * vx + vy * vy;
    double t = l2 > 0 ? ((x - ax) * vx + (y - ay) * vy) / l2 : 0;
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    return hypot(x - ax - t * vx, y - ay - t * vy);
}

typedef struct {
    double pts[SAMPLES + 1][2];
    double hx, hy;            /* the head's centre */
    double x0, y0, x1, y1;    /* bounding box of the samples and the head */
} shaft;

static void sample(const img_arrow_path *p, shaft *s)
{
    for (int k = 0; k <= SAMPLES; k++) img_path_point(p, (double)k / SAMPLES, &s->pts[k][0], &s->pts[k][1]);
    double tx = p->ex - p->cx, ty = p->ey - p->cy, tl = hypot(tx, ty);
    if (tl < 1e-9) tl = 1;
    s->hx = p->ex - tx / tl * 11;
    s->hy = p->ey - ty / tl * 11;
    s->x0 = s->x1 = s->hx;
    s->y0 = s->y1 = s->hy;
    for (int k = 0; k <= SAMPLES; k++) {
        s->x0 = fmin(s->x0, s->pts[k][0]);
        s->x1 = fmax(s->x1, s->pts[k][0]);
        s->y0 = fmin(s->y0, s->pts[k][1]);
        s->y1 = fmax(s->y1, s->pts[k][1]);
    }
}

/* distance from a point to a shaft's bounding box: a lower bound of the
 * distance to the shaft */
static double bbox_dist(const shaft *s, double x, double y)
{
    double dx = fmax(fmax(s->x0 - x, x - s->x1), 0), dy = fmax(fmax(s->y0 - y, y - s->y1), 0);
    return hypot(dx, dy);
}

/* distance from a point to a shaft */
static double shaft_dist(const shaft *s, double x, double y)
{
    double best = INFINITY;
    for (int k = 0; k < SAMPLES; k++) {
        double d = seg_dist(x, y, s->pts[k][0], s->pts[k][1], s->pts[k + 1][0], s->pts[k + 1][1]);
        if (d < best) best = d;
    }
    return best;
}

/* does a label box at (lx,ly) touch a shaft or its head? */
static int box_on_shaft(const shaft *s, double lx, double ly)
{
    if (bbox_dist(s, lx, ly) >= IMG_LABEL_HALF * M_SQRT2 + HEAD + 4) return 0;    /* far from all of it */
    if (box_dist(lx, ly, s->hx, s->hy) < HEAD + 2) return 1;
    /* samples are at most a few pixels apart; the margin covers the gaps */
    for (int k = 0; k <= SAMPLES; k++)
        if (box_dist(lx, ly, s->pts[k][0], s->pts[k][1]) < STROKE + 4) return 1;
    return 0;
}

typedef struct { double x, y, cost; } place;

static int by_cost(const void *a, const void *b)
{
    double d = ((const place *)a)->cost - ((const place *)b)->cost;
    return d < 0 ? -1 : d > 0;
}

/* what a label of arrow i at (x,y) costs, before other labels are known */
static double place_cost(const img_board *b, const img_geometry *g, const img_arrow_path *p,
                         const shaft *s, int i, double x, double y)
{
    double h = IMG_LABEL_HALF;
    /* inside the picture, clear of the coordinates outside the board (ranks on the
     * left, files below); the margins above and to the right are free, so a piece on
     * the top row or the right file boxed in by others keeps its letters beside it */
    if (x - h < g->x0 - 0.55 * g->cell || y + h > g->y0 + 9.55 * g->cell ||
        x - h < 2 || y - h < 2 || x + h > b->width - 2 || y + h > b->height - 2)
        return INFINITY;
    double cost = hypot(x - p[i].sx, y - p[i].sy);
    /* the letter belongs to the piece its arrow leaves: strictly nearer to that
     * piece's point than to any other piece's */
    double ox, oy;
    img_point(g, b->arrows[i].from_file, b->arrows[i].from_rank, &ox, &oy);
    double own_piece = hypot(x - ox, y - oy);
    for (int k = 0; k < b->npieces; k++) {
        double px, py;
        img_point(g, b->pieces[k].file, b->pieces[k].rank, &px, &py);
        if (box_dist(x, y, px, py) < g->radius + 4) cost += OVER_PIECE;
        else if ((b->pieces[k].file != b->arrows[i].from_file || b->pieces[k].rank != b->arrows[i].from_rank) &&
                 hypot(x - px, y - py) < own_piece - 0.5) cost += NOT_OWN_PIECE;
    }
    if (cost >= OVER_PIECE) return cost;     /* kept only where nothing is free */
    double own = shaft_dist(&s[i], x, y);
    for (int j = 0; j < b->narrows; j++) {
        if (box_on_shaft(&s[j], x, y)) cost += OVER_ARROW;
        if (j != i && bbox_dist(&s[j], x, y) < own + 6 && shaft_dist(&s[j], x, y) < own + 6) cost += NOT_NEAREST;
    }
    return cost;
}

/* the kept places of one label, cheapest first; returns how many */
static int candidates(const img_board *b, const img_geometry *g, const img_arrow_path *p,
                      const shaft *s, int i, place *out)
{
    /* a grid around the moving piece, out to nearly two cells */
    enum { STEP = 8, SPAN = 19 };
    place all[(2 * SPAN + 1) * (2 * SPAN + 1)];
    int n = 0;
    double x1, y1;
    img_point(g, b->arrows[i].from_file, b->arrows[i].from_rank, &x1, &y1);
    for (int dx = -SPAN; dx <= SPAN; dx++)
        for (int dy = -SPAN; dy <= SPAN; dy++) {
            all[n].x = x1 + dx * STEP;
            all[n].y = y1 + dy * STEP;
            n++;
        }
    for (int k = 0; k < n; k++) all[k].cost = place_cost(b, g, p, s, i, all[k].x, all[k].y);
    qsort(all, (size_t)n, sizeof all[0], by_cost);
    int kept = 0;
    for (int k = 0; k < n && kept < KEEP && isfinite(all[k].cost); k++) out[kept++] = all[k];
    return kept;
}

typedef struct {
    int narrows, count[IMG_MAX_ARROWS], pick[IMG_MAX_ARROWS], best[IMG_MAX_ARROWS];
    place cand[IMG_MAX_ARROWS][KEEP];
    double best_cost;
} search;

static int labels_touch(const place *a, const place *b)
{
    double gap = 2 * IMG_LABEL_HALF + 4;
    return fabs(a->x - b->x) < gap && fabs(a->y - b->y) < gap;
}

/* depth-first over the labels, cheapest total first, cutting what cannot win */
static void choose(search *S, int i, double cost)
{
    if (cost >= S->best_cost) return;
    if (i == S->narrows) {
        S->best_cost = cost;
        for (int k = 0; k < S->narrows; k++) S->best[k] = S->pick[k];
        return;
    }
    if (S->count[i] == 0) { S->pick[i] = -1; choose(S, i + 1, cost); return; }
    for (int c = 0; c < S->count[i]; c++) {
        double add = S->cand[i][c].cost;
        for (int j = 0; j < i; j++)
            if (S->pick[j] >= 0 && labels_touch(&S->cand[i][c], &S->cand[j][S->pick[j]])) add += OVER_LABEL;
        S->pick[i] = c;
        choose(S, i + 1, cost + add);
    }
}

/* one layout with the arrows in `flip` (a bit mask) bent to their other side: the
 * shafts, every label's candidates and the cheapest choice; returns its cost (the
 * labels go into paths) */
static double attempt(const img_board *b, const img_geometry *g, int n, unsigned flip, double wider,
                      img_arrow_path *paths, shaft *s, search *S)
{
    for (int i = 0; i < n; i++) shape(b, g, i, (int)(flip >> i & 1u), wider, &paths[i]);
    for (int i = 0; i < n; i++) sample(&paths[i], &s[i]);
    S->narrows = n;
    S->best_cost = INFINITY;
    for (int i = 0; i < n; i++) {
        S->count[i] = b->arrows[i].label ? candidates(b, g, paths, s, i, S->cand[i]) : 0;
        S->best[i] = -1;
    }
    choose(S, 0, 0);
    for (int i = 0; i < n; i++)
        if (S->best[i] >= 0) {
            paths[i].lx = S->cand[i][S->best[i]].x;
            paths[i].ly = S->cand[i][S->best[i]].y;
        }
    return S->best_cost;
}

/* the arrows bend to alternate sides of their line; where that leaves a rule broken
 * (a cramped corner, 71's letters between the top row's pieces), the other sides are
 * tried too, then every side with wider bends (up to FLIP_MAX arrows: 2 * 2^n layouts),
 * and the cheapest layout is kept */
#define FLIP_MAX 6
void img_layout(const img_board *b, const img_geometry *g, img_arrow_path *paths)
{
    int n = b->narrows < IMG_MAX_ARROWS ? b->narrows : IMG_MAX_ARROWS;
    for (int i = 0; i < n; i++) shape(b, g, i, 0, 0, &paths[i]);
    shaft *s = malloc(sizeof *s * (size_t)(n ? n : 1));
    search *S = malloc(sizeof *S);
    img_arrow_path *trial = malloc(sizeof *trial * (size_t)(n ? n : 1));
    if (!s || !S || !trial) { free(s); free(S); free(trial); return; }     /* labels stay on the pieces */
    double best = attempt(b, g, n, 0, 0, paths, s, S);
    unsigned layouts = n <= FLIP_MAX ? 2u << n : 1;
    for (unsigned k = 1; best >= NOT_OWN_PIECE && k < layouts; k++) {
        unsigned flip = k & ((1u << n) - 1);
        double cost = attempt(b, g, n, flip, k >> n ? 0.18 : 0, trial, s, S);
        if (cost < best) {
            best = cost;
            for (int i = 0; i < n; i++) paths[i] = trial[i];
        }
    }
    free(trial);
    free(S);
    free(s);
}
