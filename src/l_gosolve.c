/* l_gosolve.c — tabula.c.gosolve: the local life-and-death solver (src/gosolve.c)
 * on a game of tabula.c.go.
 *   local s = gosolve.new([table_bits = 20])
 *   s:solve(game, { attacker = "white", target = "dd", allowed = {"aa", ...},
 *                   nodes = 200000, depth = 30, ko_winner = "black"|"white"|nil,
 *                   method = "dfpn"|"id", targets = {"dd", ...}, all = false,
 *                   outside_safe = false, near = 0, simulate = true })
 *     -> "win" | "loss" | "unknown" (for the side to move), proof depth, nodes
 *   s:simulated() -> siblings the last solve proved by simulation (df-pn)
 *   s:status(game, query) -> "attacker" | "defender" | nil (who has already won) */
#include "gosolve.h"

#include <lauxlib.h>
#include <lua.h>
#include <string.h>

#define SOLVER_MT "tabula.gosolve"
#define GAME_MT "tabula.go.game"

typedef struct { gs_solver *s; } box;

static int parse_sgf_point(const go_board *b, const char *s)
{
    if (strlen(s) != 2 || s[0] < 'a' || s[1] < 'a') return 0;
    return go_point(b, s[0] - 'a', s[1] - 'a');
}

static int color_of(lua_State *L, int t, const char *field, int required)
{
    lua_getfield(L, t, field);
    const char *s = lua_tostring(L, -1);
    int c = 0;
    if (s && !strcmp(s, "black")) c = GO_BLACK;
    else if (s && !strcmp(s, "white")) c = GO_WHITE;
    else if (s || required) return luaL_error(L, "query.%s must be \"black\" or \"white\"", field);
    lua_pop(L, 1);
    return c;
}

static void read_query(lua_State *L, const go_board *b, int t, gs_query *q)
{
    luaL_checktype(L, t, LUA_TTABLE);
    memset(q, 0, sizeof *q);
    q->attacker = color_of(L, t, "attacker", 1);
    q->ko_winner = color_of(L, t, "ko_winner", 0);
    lua_getfield(L, t, "target");
    const char *tp = lua_tostring(L, -1);
    q->target = tp ? parse_sgf_point(b, tp) : 0;
    if (!q->target) luaL_error(L, "query.target must be an SGF point of the board");
    lua_pop(L, 1);
    lua_getfield(L, t, "allowed");
    luaL_checktype(L, -1, LUA_TTABLE);
    int n = (int)luaL_len(L, -1);
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        const char *s = lua_tostring(L, -1);
        int p = s ? parse_sgf_point(b, s) : 0;
        if (!p) luaL_error(L, "query.allowed[%d] is not an SGF point of the board", i);
        q->allowed[p] = 1;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    lua_getfield(L, t, "targets");
    if (!lua_isnil(L, -1)) {
        luaL_checktype(L, -1, LUA_TTABLE);
        n = (int)luaL_len(L, -1);
        if (n > GS_MAX_TARGETS) luaL_error(L, "query.targets has more than %d points", GS_MAX_TARGETS);
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, -1, i);
            const char *s = lua_tostring(L, -1);
            int p = s ? parse_sgf_point(b, s) : 0;
            if (!p) luaL_error(L, "query.targets[%d] is not an SGF point of the board", i);
            q->targets[q->ntargets++] = p;
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    lua_getfield(L, t, "all");
    q->all = lua_toboolean(L, -1);
    lua_pop(L, 1);
    lua_getfield(L, t, "outside_safe");
    q->outside_safe = lua_toboolean(L, -1);
    lua_pop(L, 1);
    lua_getfield(L, t, "near");
    q->near = (int)luaL_optinteger(L, -1, 0);
    lua_getfield(L, t, "simulate");
    q->simulate = lua_isnil(L, -1) || lua_toboolean(L, -1);
    lua_pop(L, 1);
    lua_getfield(L, t, "method");
    const char *m = lua_tostring(L, -1);
    if (!m || !strcmp(m, "dfpn")) q->method = GS_DFPN;
    else if (!strcmp(m, "id")) q->method = GS_ID;
    else luaL_error(L, "query.method must be \"dfpn\" or \"id\"");
    lua_pop(L, 2);
    lua_getfield(L, t, "nodes");
    q->max_nodes = (long)luaL_optinteger(L, -1, 200000);
    lua_getfield(L, t, "depth");
    q->max_depth = (int)luaL_optinteger(L, -1, 40);
    lua_pop(L, 2);
}

static int l_new(lua_State *L)
{
    int bits = (int)luaL_optinteger(L, 1, 20);
    luaL_argcheck(L, bits >= 10 && bits <= 26, 1, "table bits must be 10..26");
    box *x = lua_newuserdatauv(L, sizeof *x, 0);
    x->s = NULL;
    luaL_setmetatable(L, SOLVER_MT);
    x->s = gs_new(bits);
    if (!x->s) return luaL_error(L, "out of memory for the solver's table");
    return 1;
}

static box *check_box(lua_State *L)
{
    box *x = luaL_checkudata(L, 1, SOLVER_MT);
    if (!x->s) luaL_error(L, "solver is closed");
    return x;
}

static int l_solve(lua_State *L)
{
    box *x = check_box(L);
    go_game *g = luaL_checkudata(L, 2, GAME_MT);
    gs_query q;
    read_query(L, &g->b, 3, &q);
    gs_clear(x->s);
    int depth = 0;
    gs_result r = gs_solve(x->s, &g->b, &q, &depth);
    lua_pushstring(L, r == GS_WIN ? "win" : r == GS_LOSS ? "loss" : "unknown");
    if (r == GS_UNKNOWN) lua_pushnil(L); else lua_pushinteger(L, depth);
    lua_pushinteger(L, gs_nodes(x->s));
    return 3;
}

static int l_simulated(lua_State *L)
{
    box *x = check_box(L);
    lua_pushinteger(L, gs_simulated(x->s));
    return 1;
}

static int l_status(lua_State *L)
{
    check_box(L);
    go_game *g = luaL_checkudata(L, 2, GAME_MT);
    gs_query q;
    read_query(L, &g->b, 3, &q);
    gs_result r = gs_status(&g->b, &q);
    if (r == GS_WIN) lua_pushliteral(L, "attacker");
    else if (r == GS_LOSS) lua_pushliteral(L, "defender");
    else lua_pushnil(L);
    return 1;
}

static int l_gc(lua_State *L)
{
    box *x = luaL_checkudata(L, 1, SOLVER_MT);
    gs_free(x->s);
    x->s = NULL;
    return 0;
}

int luaopen_tabula_gosolve(lua_State *L)
{
    static const luaL_Reg methods[] = { {"solve", l_solve}, {"status", l_status}, {"simulated", l_simulated}, {"close", l_gc}, {NULL, NULL} };
    luaL_newmetatable(L, SOLVER_MT);
    luaL_newlib(L, methods);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, l_gc);
    lua_setfield(L, -2, "__gc");
    lua_pop(L, 1);
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, l_new);
    lua_setfield(L, -2, "new");
    return 1;
}
