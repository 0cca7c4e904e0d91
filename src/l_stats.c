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

/* a row's estimate: {value, lo, hi, cases}; lo and hi only when has_ci */
static void push_estimate(lua_State *L, double value, double lo, double hi, int has_ci, size_t cases)
{
    lua_createtable(L, 0, 4);
    lua_pushnumber(L, value);
    lua_setfield(L, -2, "value");
    if (has_ci) {
        lua_pushnumber(L, lo);
        lua_setfield(L, -2, "lo");
        lua_pushnumber(L, hi);
        lua_setfield(L, -2, "hi");
    }
    lua_pushinteger(L, (lua_Integer)cases);
    lua_setfield(L, -2, "cases");
}

/* rows[k] of a pass table: { k, cases, pass_at = {...}, pass_hat = {...} },
 * set into the table on top of the stack */
static void push_row(lua_State *L, int k, size_t cases, const double at[3], const double hat[3], int has_ci)
{
    lua_createtable(L, 0, 4);
    lua_pushinteger(L, k);
    lua_setfield(L, -2, "k");
    lua_pushinteger(L, (lua_Integer)cases);
    lua_setfield(L, -2, "cases");
    push_estimate(L, at[0], at[1], at[2], has_ci, cases);
    lua_setfield(L, -2, "pass_at");
    push_estimate(L, hat[0], hat[1], hat[2], has_ci, cases);
    lua_setfield(L, -2, "pass_hat");
    lua_rawseti(L, -2, k);
}

/* read_units(L, what, limit) -> the largest n: units = { {n=, c=}... } at
 * index 1 into counts[0..n) (trials) and counts[n..2n) (successes), in a
 * userdata left on the stack; a unit with c > n or n > limit is an error */
static int *read_units(lua_State *L, const char *what, lua_Integer limit, size_t *n, int *nmax)
{
    *n = (size_t)luaL_len(L, 1);
    int *counts = lua_newuserdatauv(L, (2 * *n + 1) * sizeof *counts, 0);   /* freed by the GC */
    *nmax = 0;
    for (size_t i = 0; i < *n; i++) {
        lua_rawgeti(L, 1, (lua_Integer)i + 1);
        lua_Integer tn = (lua_getfield(L, -1, "n"), lua_tointeger(L, -1));
        lua_Integer tc = (lua_getfield(L, -2, "c"), lua_tointeger(L, -1));
        lua_pop(L, 3);
        if (tn < 0 || tc < 0 || tc > tn || tn > limit)
            luaL_error(L, "%s: case %d has %d successes of %d trials (at most %d)", what, (int)i + 1, (int)tc, (int)tn,
                       (int)limit);
        counts[i] = (int)tn;
        counts[*n + i] = (int)tc;
        if (tn > *nmax) *nmax = (int)tn;
    }
    return counts;
}

/* pass_table(units, draws, seed) -> rows: units = { {n=, c=}... } (trials and
 * successes per case, in bootstrap order); rows[k] = { k, cases, pass_at =
 * {value, lo, hi, cases}, pass_hat = {...} } for k = 1..max n (stats_pass_table) */
static int l_pass_table(lua_State *L)
{
    lua_Integer draws, seed;
    check_resampling(L, &draws, &seed);
    size_t n;
    int kmax;
    int *counts = read_units(L, "pass_table", 100000000, &n, &kmax);
    stats_pass_row *rows = lua_newuserdatauv(L, ((size_t)kmax + 1) * sizeof *rows, 0);
    if (stats_pass_table(counts, counts + n, n, (int)draws, (uint64_t)seed, rows)) return luaL_error(L, "out of memory");
    lua_createtable(L, kmax, 0);
    for (int k = 1; k <= kmax; k++) {
        const stats_pass_row *r = &rows[k - 1];
        push_row(L, k, r->cases, (double[3]){r->at, r->at_lo, r->at_hi}, (double[3]){r->hat, r->hat_lo, r->hat_hi}, 1);
    }
    return 1;
}

/* np_integers(seed, high, count) -> { ... }: the first `count` values of
 * numpy.random.default_rng(seed).integers(0, high, size=count), 1 <= high <= 2^32 */
static int l_np_integers(lua_State *L)
{
    lua_Integer seed = luaL_checkinteger(L, 1), high = luaL_checkinteger(L, 2), count = luaL_checkinteger(L, 3);
    luaL_argcheck(L, seed >= 0, 1, "seed must be >= 0");
    luaL_argcheck(L, high >= 1 && high <= ((lua_Integer)1 << 32), 2, "high must be between 1 and 2^32");
    luaL_argcheck(L, count >= 0 && count <= 10000000, 3, "count must be between 0 and 10000000");
    stats_pcg64 g;
    stats_pcg64_seed(&g, (uint64_t)seed);
    lua_createtable(L, (int)count, 0);
    for (lua_Integer i = 1; i <= count; i++) {
        lua_pushinteger(L, (lua_Integer)stats_pcg64_below(&g, (uint64_t)high));
        lua_rawseti(L, -2, i);
    }
    return 1;
}

/* the numbers of table `idx`, or an error naming `what` */
static double *check_values(lua_State *L, int idx, size_t *n, const char *what)
{
    luaL_checktype(L, idx, LUA_TTABLE);
    *n = (size_t)luaL_len(L, idx);
    double *xs = lua_newuserdatauv(L, (*n ? *n : 1) * sizeof *xs, 0);   /* freed by the GC */
    for (size_t i = 0; i < *n; i++) {
        lua_rawgeti(L, idx, (lua_Integer)i + 1);
        int ok;
        xs[i] = lua_tonumberx(L, -1, &ok);
        if (!ok) luaL_error(L, "%s: value %d is not a number", what, (int)i + 1);
        lua_pop(L, 1);
    }
    return xs;
}

/* np_bootstrap_mean(values, draws, seed) -> mean, lo, hi: the official
 * scorer's bootstrap_mean (stats_np_bootstrap_mean); lo and hi are nil with
 * fewer than 2 values, all three nil with none */
static int l_np_bootstrap_mean(lua_State *L)
{
    lua_Integer draws, seed;
    check_resampling(L, &draws, &seed);
    luaL_argcheck(L, seed >= 0, 3, "seed must be >= 0");
    size_t n;
    double *xs = check_values(L, 1, &n, "np_bootstrap_mean");
    if (n == 0) { lua_pushnil(L); lua_pushnil(L); lua_pushnil(L); return 3; }
    double mean, lo, hi;
    int got = stats_np_bootstrap_mean(xs, n, (int)draws, (uint64_t)seed, &mean, &lo, &hi);
    if (got < 0) return luaL_error(L, "np_bootstrap_mean: out of memory or too many values");
    lua_pushnumber(L, mean);
    if (got == 0) { lua_pushnil(L); lua_pushnil(L); return 3; }
    lua_pushnumber(L, lo);
    lua_pushnumber(L, hi);
    return 3;
}

/* official_pass_rows(units, kmax, draws, base_seed) -> rows: units = { {n=, c=}... }
 * (each case's selected trials, at most kmax, and its passes, in the official
 * scorer's case order); rows[k] = { k, cases, pass_at = {value, lo, hi, cases},
 * pass_hat = {...} } for k = 1..kmax (stats_official_pass_rows; lo and hi
 * absent with fewer than 2 cases) */
static int l_official_pass_rows(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer kmax = luaL_checkinteger(L, 2), draws = luaL_checkinteger(L, 3), seed = luaL_checkinteger(L, 4);
    luaL_argcheck(L, kmax >= 1 && kmax <= 50, 2, "k must be between 1 and 50");
    luaL_argcheck(L, draws >= 1 && draws <= 10000000, 3, "draws must be between 1 and 10000000");
    luaL_argcheck(L, seed >= 0, 4, "seed must be >= 0");
    size_t n;
    int most;
    int *counts = read_units(L, "official_pass_rows", kmax, &n, &most);
    stats_official_row *rows = lua_newuserdatauv(L, (size_t)kmax * sizeof *rows, 0);
    if (stats_official_pass_rows(counts, counts + n, n, (int)kmax, (int)draws, (uint64_t)seed, rows))
        return luaL_error(L, "out of memory");
    lua_createtable(L, (int)kmax, 0);
    for (int k = 1; k <= kmax; k++) {
        const stats_official_row *r = &rows[k - 1];
        push_row(L, k, r->cases, (double[3]){r->at, r->at_lo, r->at_hi}, (double[3]){r->hat, r->hat_lo, r->hat_hi}, r->has_ci);
    }
    return 1;
}

int luaopen_tabula_stats(lua_State *L)
{
    static const luaL_Reg fns[] = {{"bootstrap_mean", l_bootstrap_mean}, {"pass_table", l_pass_table},
        {"np_integers", l_np_integers}, {"np_bootstrap_mean", l_np_bootstrap_mean},
        {"official_pass_rows", l_official_pass_rows}, {NULL, NULL}};
    luaL_newlib(L, fns);
    return 1;
}
