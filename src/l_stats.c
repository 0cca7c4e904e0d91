/* l_stats.c — tabula.c.stats: resampling statistics for reports (src/stats.c). */
#include "stats.h"

#include <lauxlib.h>
#include <lua.h>
#include <stdlib.h>

/* bootstrap_mean(values, draws, seed) -> lo, hi | nil (no values) */
static int l_bootstrap_mean(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer draws = luaL_checkinteger(L, 2);
    lua_Integer seed = luaL_checkinteger(L, 3);
    luaL_argcheck(L, draws >= 1 && draws <= 10000000, 2, "draws must be between 1 and 10000000");
    size_t n = (size_t)luaL_len(L, 1);
    if (n == 0) { lua_pushnil(L); lua_pushnil(L); return 2; }
    double *xs = lua_newuserdatauv(L, n * sizeof *xs, 0);   /* freed by the GC */
    for (size_t i = 0; i < n; i++) {
        lua_rawgeti(L, 1, (lua_Integer)i + 1);
        int ok;
        xs[i] = lua_tonumberx(L, -1, &ok);
        if (!ok) return luaL_error(L, "bootstrap_mean: value %d is not a number", (int)i + 1);
        lua_pop(L, 1);
    }
    double lo, hi;
    if (stats_bootstrap_mean(xs, n, (int)draws, (uint64_t)seed, &lo, &hi)) return luaL_error(L, "out of memory");
    lua_pushnumber(L, lo);
    lua_pushnumber(L, hi);
    return 2;
}

int luaopen_tabula_stats(lua_State *L)
{
    static const luaL_Reg fns[] = {{"bootstrap_mean", l_bootstrap_mean}, {NULL, NULL}};
    luaL_newlib(L, fns);
    return 1;
}
