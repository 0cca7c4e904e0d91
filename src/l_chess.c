/* l_chess.c — tabula.c.chess: a chess Game userdata over src/chess.c. Moves
 * cross the boundary in UCI ("e2e4", "e7e8q"); SAN and PGN live in Lua
 * (games/chess/). */
#include "chess.h"

#include <lauxlib.h>
#include <lua.h>
#include <stdlib.h>
#include <string.h>

#define GAME_MT "tabula.chess.game"

static ch_game *check_game(lua_State *L, int i) { return luaL_checkudata(L, i, GAME_MT); }

static ch_game *new_game(lua_State *L)
{
    ch_game *g = lua_newuserdatauv(L, sizeof *g, 0);
    luaL_setmetatable(L, GAME_MT);
    return g;
}

static int l_new(lua_State *L)
{
    const char *fen = luaL_optstring(L, 1, CH_START_FEN);
    ch_game *g = new_game(L);
    char err[200];
    if (ch_from_fen(&g->b, fen, err, sizeof err)) {
        luaL_pushfail(L);
        lua_pushstring(L, err);
        return 2;
    }
    return 1;
}

static int l_fen(lua_State *L)
{
    char out[128];
    ch_to_fen(&check_game(L, 1)->b, out, sizeof out);
    lua_pushstring(L, out);
    return 1;
}

static int l_side(lua_State *L)
{
    lua_pushstring(L, check_game(L, 1)->b.side ? "black" : "white");
    return 1;
}

static int cmp_moves(const void *a, const void *b)
{
    char x[6], y[6];
    ch_format_uci(*(const ch_move *)a, x);
    ch_format_uci(*(const ch_move *)b, y);
    return strcmp(x, y);
}

static void push_sq(lua_State *L, int sq)
{
    char s[3] = {(char)('a' + CH_FILE(sq)), (char)('1' + CH_RANK(sq)), 0};
    lua_pushstring(L, s);
}

/* moves([details]) -> sorted UCI list; with details, a list of
 * { uci, piece = "N", from, to, capture = bool, promotion = "q", castle = "O-O" } */
static int l_moves(lua_State *L)
{
    ch_game *g = check_game(L, 1);
    int details = lua_toboolean(L, 2);
    ch_move moves[CH_MAX_MOVES];
    int n = ch_gen_moves(&g->b, moves);
    qsort(moves, (size_t)n, sizeof *moves, cmp_moves);
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        char u[6];
        ch_format_uci(moves[i], u);
        if (!details) {
            lua_pushstring(L, u);
        } else {
            ch_move m = moves[i];
            lua_createtable(L, 0, 7);
            lua_pushstring(L, u); lua_setfield(L, -2, "uci");
            char pc[2] = {" PNBRQK"[CH_TYPE(g->b.sq[CH_FROM(m)])], 0};
            lua_pushstring(L, pc); lua_setfield(L, -2, "piece");
            push_sq(L, CH_FROM(m)); lua_setfield(L, -2, "from");
            push_sq(L, CH_TO(m)); lua_setfield(L, -2, "to");
            lua_pushboolean(L, CH_FLAGS(m) & CH_F_CAPTURE); lua_setfield(L, -2, "capture");
            if (CH_FLAGS(m) & CH_F_EP) { lua_pushboolean(L, 1); lua_setfield(L, -2, "en_passant"); }
            if (CH_PROMO(m)) {
                char pr[2] = {" PNBRQK"[CH_PROMO(m)], 0};
                lua_pushstring(L, pr); lua_setfield(L, -2, "promotion");
            }
            if (CH_FLAGS(m) & CH_F_CASTLE) {
                lua_pushstring(L, CH_FILE(CH_TO(m)) == 6 ? "O-O" : "O-O-O");
                lua_setfield(L, -2, "castle");
            }
        }
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int l_play(lua_State *L)
{
    ch_game *g = check_game(L, 1);
    const char *u = luaL_checkstring(L, 2);
    ch_move m = ch_find_uci(&g->b, u);
    if (!m) {
        luaL_pushfail(L);
        lua_pushfstring(L, "illegal move %s", u);
        return 2;
    }
    if (ch_play(g, m)) return luaL_error(L, "game history is full");
    lua_pushboolean(L, 1);
    return 1;
}

static int l_undo(lua_State *L)
{
    ch_game *g = check_game(L, 1);
    if (g->b.nhist == 0) { luaL_pushfail(L); return 1; }
    char u[6];
    ch_format_uci(g->hist[g->b.nhist - 1].move, u);
    ch_unplay(g);
    lua_pushstring(L, u);
    return 1;
}

static int l_copy(lua_State *L)
{
    ch_game *g = check_game(L, 1);
    ch_game *c = new_game(L);
    memcpy(c, g, sizeof *g);
    return 1;
}

static int l_in_check(lua_State *L)
{
    lua_pushboolean(L, ch_in_check(&check_game(L, 1)->b));
    return 1;
}

/* gives_check(uci) -> check, mate (nil, reason for an illegal move) */
static int l_gives_check(lua_State *L)
{
    ch_game *g = check_game(L, 1);
    ch_move m = ch_find_uci(&g->b, luaL_checkstring(L, 2));
    if (!m) { luaL_pushfail(L); lua_pushliteral(L, "illegal move"); return 2; }
    ch_undo u;
    ch_do_move(&g->b, m, &u);
    int check = ch_in_check(&g->b);
    ch_move tmp[CH_MAX_MOVES];
    int mate = check && ch_gen_moves(&g->b, tmp) == 0;
    ch_undo_move(&g->b, &u);
    lua_pushboolean(L, check);
    lua_pushboolean(L, mate);
    return 2;
}

static int l_status(lua_State *L)
{
    static const char *const names[] = {"ongoing", "checkmate", "stalemate", "insufficient_material",
                                        "fivefold_repetition", "seventy_five_moves"};
    lua_pushstring(L, names[ch_status_of(check_game(L, 1))]);
    return 1;
}

static int l_perft(lua_State *L)
{
    ch_game *g = check_game(L, 1);
    int d = (int)luaL_checkinteger(L, 2);
    luaL_argcheck(L, d >= 0 && d <= 10, 2, "depth must be 0..10");
    lua_pushinteger(L, (lua_Integer)ch_perft(&g->b, d));
    return 1;
}

static int l_at(lua_State *L)
{
    ch_game *g = check_game(L, 1);
    const char *s = luaL_checkstring(L, 2);
    if (strlen(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8') return luaL_argerror(L, 2, "a square like e4");
    uint8_t p = g->b.sq[CH_SQ(s[0] - 'a', s[1] - '1')];
    if (!p) { luaL_pushfail(L); return 1; }
    char c = " PNBRQK"[CH_TYPE(p)];
    char out[2] = {CH_COLOR(p) ? (char)(c - 'A' + 'a') : c, 0};
    lua_pushstring(L, out);
    return 1;
}

static int l_history(lua_State *L)
{
    ch_game *g = check_game(L, 1);
    lua_createtable(L, g->b.nhist, 0);
    for (int i = 0; i < g->b.nhist; i++) {
        char u[6];
        ch_format_uci(g->hist[i].move, u);
        lua_pushstring(L, u);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int l_counters(lua_State *L)
{
    ch_game *g = check_game(L, 1);
    lua_pushinteger(L, g->b.nhist);
    lua_pushinteger(L, g->b.halfmove);
    lua_pushinteger(L, ch_count_repetitions(g));
    return 3;
}

int luaopen_tabula_chess(lua_State *L)
{
    static const luaL_Reg methods[] = {
        {"fen", l_fen}, {"side", l_side}, {"moves", l_moves}, {"play", l_play}, {"undo", l_undo},
        {"copy", l_copy}, {"in_check", l_in_check}, {"gives_check", l_gives_check}, {"status", l_status},
        {"perft", l_perft}, {"at", l_at}, {"history", l_history}, {"counters", l_counters}, {NULL, NULL},
    };
    static const luaL_Reg fns[] = {{"new", l_new}, {NULL, NULL}};
    luaL_newmetatable(L, GAME_MT);
    luaL_newlib(L, methods);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
    luaL_newlib(L, fns);
    lua_pushstring(L, CH_START_FEN);
    lua_setfield(L, -2, "START");
    return 1;
}
