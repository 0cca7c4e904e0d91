/* l_stats.c — tabula.c.stats: resampling statistics for reports (src/stats.c). */
#include "stats.h"

#include <lauxlib.h>
#include <lua.h>
#include <stdlib.h>

/* the arguments (table, draws, seed) of a resampling function */
static void check_resampling(lua_State *L, lua_Integer *draws, lua_Integer *seed)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    *draws = luaL_checkinteger(L, 2);
    *seed = luaL_checkinteger(L, 3);
    luaL_argcheck(L, *draws >= 1 && *draws <= 10000000, 2, "draws must be between 1 and 10000000");
}

/* bootstrap_mean(values, draws, seed) -> lo, hi | nil (no values) */
static int l_bootstrap_mean(lua_State *L)
{
    lua_Integer draws, seed;
    check_resampling(L, &draws, &seed);
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

static void push_estimate(lua_State *L, double value, double lo, double hi, size_t cases)
{
    lua_createtable(L, 0, 4);
    lua_pushnumber(L, value);
    lua_setfield(L, -2, "value");
    lua_pushnumber(L, lo);
    lua_setfield(L, -2, "lo");
    lua_pushnumber(L, hi);
    lua_setfield(L, -2, "hi");
    lua_pushinteger(L, (lua_Integer)cases);
    lua_setfield(L, -2, "cases");
}

/* pass_table(units, draws, seed) -> rows: units = { {n=, c=}... } (trials and
 * successes per case, in bootstrap order); rows[k] = { k, cases, pass_at =
 * {value, lo, hi, cases}, pass_hat = {...} } for k = 1..max n (stats_pass_table) */
static int l_pass_table(lua_State *L)
{
    lua_Integer draws, seed;
    check_resampling(L, &draws, &seed);
    size_t n = (size_t)luaL_len(L, 1);
    int *counts = lua_newuserdatauv(L, (2 * n + 1) * sizeof *counts, 0);   /* freed by the GC */
    int kmax = 0;
    for (size_t i = 0; i < n; i++) {
        lua_rawgeti(L, 1, (lua_Integer)i + 1);
        lua_Integer tn = (lua_getfield(L, -1, "n"), lua_tointeger(L, -1));
        lua_Integer tc = (lua_getfield(L, -2, "c"), lua_tointeger(L, -1));
        lua_pop(L, 3);
        if (tn < 0 || tc < 0 || tc > tn || tn > 100000000)
            return luaL_error(L, "pass_table: case %d has %d successes of %d trials", (int)i + 1, (int)tc, (int)tn);
        counts[i] = (int)tn;
        counts[n + i] = (int)tc;
        if (tn > kmax) kmax = (int)tn;
    }
    stats_pass_row *rows = lua_newuserdatauv(L, ((size_t)kmax + 1) * sizeof *rows, 0);
    if (stats_pass_table(counts, counts + n, n, (int)draws, (uint64_t)seed, rows)) return luaL_error(L, "out of memory");
    lua_createtable(L, kmax, 0);
    for (int k = 1; k <= kmax; k++) {
        const stats_pass_row *r = &rows[k - 1];
        lua_createtable(L, 0, 4);
        lua_pushinteger(L, k);
        lua_setfield(L, -2, "k");
        lua_pushinteger(L, (lua_Integer)r->cases);
        lua_setfield(L, -2, "cases");
        push_estimate(L, r->at, r->at_lo, r->at_hi, r->cases);
        lua_setfield(L, -2, "pass_at");
        push_estimate(L, r->hat, r->hat_lo, r->hat_hi, r->cases);
        lua_setfield(L, -2, "pass_hat");
        lua_rawseti(L, -2, k);
    }
    return 1;
}

int luaopen_tabula_stats(lua_State *L)
{
    static const luaL_Reg fns[] = {{"bootstrap_mean", l_bootstrap_mean}, {"pass_table", l_pass_table}, {NULL, NULL}};
    luaL_newlib(L, fns);
    return 1;
}
