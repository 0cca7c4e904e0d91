/* l_frames.c — tabula.c.frames: the hot loops of tabula.view.frames (src/frames.c).
 *   tokens(ids, list, s, mode [, seps]) -> the token ids of s: mode "tags" cuts before each
 *     tag and after it, mode "after" after each byte in seps; each token is looked up in the
 *     dictionary (ids: token -> id; list: id + 1 -> token) and added when new (id #list)
 *   ops(a, b) -> the operations that make id list b from id list a (frames.h) */
#include <lauxlib.h>
#include <lua.h>
#include <stdlib.h>
#include <string.h>

#include "frames.h"

static int l_tokens(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, 2, LUA_TTABLE);
    size_t n;
    const char *s = luaL_checklstring(L, 3, &n);
    const char *mode = luaL_checkstring(L, 4);
    size_t *cuts = malloc((2 * n + 2) * sizeof *cuts);
    if (!cuts) return luaL_error(L, "frames: out of memory");
    size_t k;
    if (strcmp(mode, "tags") == 0) k = frames_cut_tags(s, n, cuts);
    else if (strcmp(mode, "after") == 0) k = frames_cut_after(s, n, luaL_checkstring(L, 5), cuts);
    else { free(cuts); return luaL_argerror(L, 4, "mode must be tags or after"); }
    lua_Integer next = (lua_Integer)lua_rawlen(L, 2);
    lua_createtable(L, (int)(k + 1), 0);
    lua_Integer m = 0;
    size_t at = 0;
    for (size_t c = 0; c <= k; c++) {
        size_t j = c < k ? cuts[c] : n;
        if (j <= at) continue;
        lua_pushlstring(L, s + at, j - at); /* the token */
        lua_pushvalue(L, -1);
        if (lua_rawget(L, 1) == LUA_TNIL) {
            lua_pop(L, 1);
            lua_pushvalue(L, -1);
            lua_rawseti(L, 2, next + 1);     /* list[id + 1] = token */
            lua_pushinteger(L, next);
            lua_rawset(L, 1);                /* ids[token] = id */
            lua_pushinteger(L, next++);
        } else {
            lua_remove(L, -2);
        }
        lua_rawseti(L, -2, ++m);
        at = j;
    }
    free(cuts);
    return 1;
}

/* the integers of list i, in a new array (its length in *n) */
static int64_t *ints(lua_State *L, int i, size_t *n)
{
    luaL_checktype(L, i, LUA_TTABLE);
    *n = (size_t)lua_rawlen(L, i);
    int64_t *v = malloc((*n + 1) * sizeof *v);
    if (!v) return NULL;
    for (size_t k = 0; k < *n; k++) {
        lua_rawgeti(L, i, (lua_Integer)k + 1);
        v[k] = (int64_t)lua_tointeger(L, -1);
        lua_pop(L, 1);
    }
    return v;
}

static int l_ops(lua_State *L)
{
    size_t na, nb;
    int64_t *a = ints(L, 1, &na), *b = ints(L, 2, &nb);
    int64_t *out = malloc((nb + 1) * sizeof *out);
    long k = (a && b && out) ? frames_ops(a, na, b, nb, out) : -1;
    if (k >= 0) {
        lua_createtable(L, (int)k, 0);
        for (long i = 0; i < k; i++) {
            lua_pushinteger(L, (lua_Integer)out[i]);
            lua_rawseti(L, -2, i + 1);
        }
    }
    free(a);
    free(b);
    free(out);
    if (k < 0) return luaL_error(L, "frames: out of memory");
    return 1;
}

int luaopen_tabula_frames(lua_State *L)
{
    static const luaL_Reg fns[] = {{"tokens", l_tokens}, {"ops", l_ops}, {NULL, NULL}};
    luaL_newlib(L, fns);
    return 1;
}
