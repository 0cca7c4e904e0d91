/* l_xqsearch.c — tabula.c.xqsearch: the built-in search over Board userdata.
 *   search(board, {depth=, nodes=, time_ms=}) -> { best, score, mate, depth, nodes, pv = {...}, stopped }
 *   mate(board, {plies=, checks_only=, nodes=}) -> { found = true|false|nil(budget), plies, nodes, pv }
 *   defend(board, {horizon=5}) -> { {move, mate_plies, check}, ... } best first
 * One search context (transposition tables) per Lua state, made on first use. */
#include "xqsearch.h"

#include <lauxlib.h>
#include <lua.h>

#define BOARD_MT "tabula.xiangqi.board"
#define CTX_MT "tabula.xqsearch.ctx"

static xqs_ctx *get_ctx(lua_State *L)
{
    lua_getfield(L, LUA_REGISTRYINDEX, CTX_MT ".instance");
    xqs_ctx **p = lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (p && *p) return *p;
    p = lua_newuserdatauv(L, sizeof *p, 0);
    *p = xqs_new(8);
    if (!*p) luaL_error(L, "out of memory for the search tables");
    luaL_setmetatable(L, CTX_MT);
    lua_setfield(L, LUA_REGISTRYINDEX, CTX_MT ".instance");
    return *p;
}

static int ctx_gc(lua_State *L)
{
    xqs_ctx **p = luaL_checkudata(L, 1, CTX_MT);
    xqs_free(*p);
    *p = NULL;
    return 0;
}

static lua_Integer opt_int(lua_State *L, int idx, const char *k, lua_Integer dflt)
{
    if (lua_type(L, idx) != LUA_TTABLE) return dflt;
    lua_getfield(L, idx, k);
    lua_Integer v = luaL_optinteger(L, -1, dflt);
    lua_pop(L, 1);
    return v;
}

static void push_move(lua_State *L, xq_move m)
{
    char s[5];
    xq_format_iccs(m, s);
    lua_pushstring(L, s);
}

static void push_pv(lua_State *L, const xq_move *pv, int n)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        push_move(L, pv[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "pv");
}

static int l_search(lua_State *L)
{
    xq_board *b = luaL_checkudata(L, 1, BOARD_MT);
    xqs_limits lim = {(int)opt_int(L, 2, "depth", 0), (uint64_t)opt_int(L, 2, "nodes", 0),
                      (double)opt_int(L, 2, "time_ms", 0)};
    if (!lim.depth && !lim.nodes && lim.time_ms <= 0) lim.depth = 6;
    xqs_result r;
    xqs_search(get_ctx(L), b, &lim, &r);
    lua_createtable(L, 0, 8);
    if (r.best) { push_move(L, r.best); lua_setfield(L, -2, "best"); }
    lua_pushinteger(L, r.score); lua_setfield(L, -2, "score");
    lua_pushinteger(L, r.mate); lua_setfield(L, -2, "mate");
    lua_pushinteger(L, r.depth); lua_setfield(L, -2, "depth");
    lua_pushinteger(L, (lua_Integer)r.nodes); lua_setfield(L, -2, "nodes");
    lua_pushboolean(L, r.stopped); lua_setfield(L, -2, "stopped");
    push_pv(L, r.pv, r.pv_len);
    return 1;
}

static int l_mate(lua_State *L)
{
    xq_board *b = luaL_checkudata(L, 1, BOARD_MT);
    int plies = (int)opt_int(L, 2, "plies", 9);
    int checks_only = 0;
    if (lua_type(L, 2) == LUA_TTABLE) {
        lua_getfield(L, 2, "checks_only");
        checks_only = lua_toboolean(L, -1);
        lua_pop(L, 1);
    }
    xqs_mate_result r;
    xqs_mate(get_ctx(L), b, plies, checks_only, (uint64_t)opt_int(L, 2, "nodes", 0), &r);
    lua_createtable(L, 0, 5);
    if (r.found >= 0) { lua_pushboolean(L, r.found == 1); lua_setfield(L, -2, "found"); }
    else { lua_pushliteral(L, "budget"); lua_setfield(L, -2, "stopped"); }
    if (r.found == 1) { lua_pushinteger(L, r.plies); lua_setfield(L, -2, "plies"); }
    lua_pushinteger(L, (lua_Integer)r.nodes); lua_setfield(L, -2, "nodes");
    push_pv(L, r.pv, r.pv_len);
    return 1;
}

static int l_defend(lua_State *L)
{
    xq_board *b = luaL_checkudata(L, 1, BOARD_MT);
    xqs_defence out[XQ_MAX_MOVES];
    int n = xqs_defend(get_ctx(L), b, (int)opt_int(L, 2, "horizon", 5), out);
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_createtable(L, 0, 3);
        push_move(L, out[i].move); lua_setfield(L, -2, "move");
        lua_pushinteger(L, out[i].mate_plies); lua_setfield(L, -2, "mate_plies");
        lua_pushboolean(L, out[i].gives_check); lua_setfield(L, -2, "check");
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int l_evaluate(lua_State *L)
{
    lua_pushinteger(L, xqs_evaluate(luaL_checkudata(L, 1, BOARD_MT)));
    return 1;
}

int luaopen_tabula_xqsearch(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"search", l_search}, {"mate", l_mate}, {"defend", l_defend}, {"evaluate", l_evaluate}, {NULL, NULL},
    };
    luaL_newmetatable(L, CTX_MT);
    lua_pushcfunction(L, ctx_gc);
    lua_setfield(L, -2, "__gc");
    lua_pop(L, 1);
    luaL_newlib(L, fns);
    return 1;
}
