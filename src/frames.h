/* frames.h — the compact frames of a report's long trial views (tabula.view.frames):
 * where a drawing is cut into tokens, and the copy/put operations that make one list of
 * token ids from the list before it. Pure C: no Lua. */
#ifndef TABULA_FRAMES_H
#define TABULA_FRAMES_H
#include <stddef.h>
#include <stdint.h>

/* frames_cut_tags(s, n, cuts) -> how many cut offsets were written to cuts (room for 2 n):
 * before each '<' of a tag ("<...>") and after its '>', as tokens(..., "svg") cuts */
size_t frames_cut_tags(const char *s, size_t n, size_t *cuts);

/* frames_cut_after(s, n, seps, cuts) -> how many offsets were written (room for n): after
 * each byte of s that is in the NUL-terminated set seps */
size_t frames_cut_after(const char *s, size_t n, const char *seps, size_t *cuts);

/* frames_ops(a, na, b, nb, out) -> how many values were written to out (room for nb): the
 * operations that make b from a (ids >= 0), exactly as tabula.view.frames' Lua ops: at
 * each place of b the longest run of a that matches there, tried at the place the last
 * copy ended first, then (when that run is shorter than 4) at the last 8 places of a
 * holding the token, the latest first; a run of 2 or more is written -length, start - place
 * (1-based places), else the id itself. -1 when memory ran out. */
long frames_ops(const int64_t *a, size_t na, const int64_t *b, size_t nb, int64_t *out);

#endif
