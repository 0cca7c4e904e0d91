/* frames.c — see frames.h */
#include "frames.h"

#include <stdlib.h>
#include <string.h>

size_t frames_cut_tags(const char *s, size_t n, size_t *cuts)
{
    size_t k = 0, i = 0;
    while (i < n) {
        const char *lt = memchr(s + i, '<', n - i);
        if (!lt) break;
        const char *gt = memchr(lt, '>', n - (size_t)(lt - s));
        if (!gt) break;            /* no '>' after it: no tag from here on */
        cuts[k++] = (size_t)(lt - s);
        cuts[k++] = (size_t)(gt - s) + 1;
        i = (size_t)(gt - s) + 1;
    }
    return k;
}

size_t frames_cut_after(const char *s, size_t n, const char *seps, size_t *cuts)
{
    unsigned char in[256] = {0};
    for (const unsigned char *p = (const unsigned char *)seps; *p; p++) in[*p] = 1;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (in[(unsigned char)s[i]]) cuts[k++] = i + 1;
    return k;
}

/* the index of a: per id, its last 8 places (1-based), the latest first */
#define PLACES 8
typedef struct {
    int64_t id; /* -1: empty slot */
    int n;
    size_t at[PLACES];
} slot;

static slot *find(slot *t, size_t mask, int64_t id)
{
    size_t h = ((uint64_t)id * 0x9E3779B97F4A7C15ull) >> 17;
    for (size_t i = h & mask;; i = (i + 1) & mask)
        if (t[i].id == id || t[i].id == -1) return &t[i];
}

long frames_ops(const int64_t *a, size_t na, const int64_t *b, size_t nb, int64_t *out)
{
    size_t cap = 16;
    while (cap < 2 * na + 2) cap *= 2;
    slot *t = malloc(cap * sizeof *t);
    if (!t) return -1;
    for (size_t i = 0; i < cap; i++) t[i].id = -1;
    for (size_t i = na; i >= 1; i--) {
        slot *s = find(t, cap - 1, a[i - 1]);
        if (s->id == -1) { s->id = a[i - 1]; s->n = 0; }
        if (s->n < PLACES) s->at[s->n++] = i;
    }
    long k = 0;
    size_t j = 1, nxt = 1;
    while (j <= nb) {
        size_t best = 0, blen = 0;
#define TRY(p)                                                                              \
    do {                                                                                    \
        size_t p_ = (p), len_ = 0;                                                          \
        while (p_ + len_ <= na && j + len_ <= nb && a[p_ + len_ - 1] == b[j + len_ - 1]) len_++; \
        if (len_ > blen) { best = p_; blen = len_; }                                        \
    } while (0)
        if (nxt <= na && a[nxt - 1] == b[j - 1]) TRY(nxt);
        if (blen < 4) {
            slot *s = find(t, cap - 1, b[j - 1]);
            if (s->id != -1)
                for (int q = 0; q < s->n; q++) TRY(s->at[q]);
        }
#undef TRY
        if (blen >= 2) {
            out[k++] = -(int64_t)blen;
            out[k++] = (int64_t)best - (int64_t)j;
            j += blen;
            nxt = best + blen;
        } else {
            out[k++] = b[j - 1];
            j++;
            if (blen == 1) nxt = best + 1;
        }
    }
    free(t);
    return k;
}
