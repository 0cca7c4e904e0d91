/* l_xiangqi.c — tabula.c.xiangqi: the Board userdata over src/xiangqi.c.
 * Moves cross this boundary in ICCS ("h2e2"). Notations, rendering and the
 * piece census are Lua (games/xiangqi/). */
#include "xiangqi.h"

#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BOARD_MT "tabula.xiangqi.board"

static xq_board *check_board(lua_State *L, int idx)
{
    return luaL_checkudata(L, idx, BOARD_MT);
}

static xq_board *new_board(lua_State *L)
{
    xq_board *b = lua_newuserdatauv(L, sizeof *b, 0);
    luaL_setmetatable(L, BOARD_MT);
    return b;
}

static void push_move(lua_State *L, xq_move m)
{
    char s[5];
    xq_format_iccs(m, s);
    lua_pushstring(L, s);
}

/* new([fen]) -> board | nil, message */
static int l_new(lua_State *L)
{
    const char *fen = luaL_optstring(L, 1, XQ_START_FEN);
    xq_board *b = new_board(L);
    char err[200];
    if (xq_from_fen(b, fen, err, sizeof err)) {
        luaL_pushfail(L);
        lua_pushstring(L, err);
        return 2;
    }
    return 1;
}

static int type_of_letter(char c)
{
    switch (c) {
    case 'K': return XQ_KING; case 'A': return XQ_ADVISOR; case 'B': return XQ_ELEPHANT;
    case 'N': return XQ_HORSE; case 'R': return XQ_ROOK; case 'C': return XQ_CANNON;
    case 'P': return XQ_PAWN; default: return -1;
    }
}

static int parse_square(const char *s, int *sq)
{
    if (!s || strlen(s) != 2 || s[0] < 'a' || s[0] > 'i' || s[1] < '0' || s[1] > '9') return -1;
    *sq = XQ_SQ(s[0] - 'a', s[1] - '0');
    return 0;
}

/* from_pieces({{square="e0", piece="K"}, ...}, side) -> board | nil, message
 * piece letters: uppercase Red, lowercase Black (KABNRCP). */
static int l_from_pieces(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    const char *side = luaL_optstring(L, 2, "red");
    int n = (int)luaL_len(L, 1);
    if (n > 64) return luaL_argerror(L, 1, "too many pieces");
    int squares[64];
    uint8_t pieces[64];
    for (int i = 0; i < n; i++) {
        lua_rawgeti(L, 1, i + 1);
        lua_getfield(L, -1, "square");
        lua_getfield(L, -2, "piece");
        const char *sq = lua_tostring(L, -2), *pc = lua_tostring(L, -1);
        if (parse_square(sq, &squares[i])) {
            luaL_pushfail(L);
            lua_pushfstring(L, "piece %d: bad square '%s' (want a0..i9)", i + 1, sq ? sq : "nil");
            return 2;
        }
        char c = pc && strlen(pc) == 1 ? pc[0] : '?';
        int black = c >= 'a' && c <= 'z';
        int t = type_of_letter(black ? (char)(c - 'a' + 'A') : c);
        if (t < 0) {
            luaL_pushfail(L);
            lua_pushfstring(L, "piece %d: unknown piece '%s' (want KABNRCP or kabnrcp)", i + 1, pc ? pc : "nil");
            return 2;
        }
        pieces[i] = (uint8_t)(t | (black ? XQ_BLACK_BIT : 0));
        lua_pop(L, 3);
    }
    xq_board *b = new_board(L);
    char err[200];
    if (xq_from_pieces(b, squares, pieces, n, strcmp(side, "black") == 0, err, sizeof err)) {
        luaL_pushfail(L);
        lua_pushstring(L, err);
        return 2;
    }
    return 1;
}

static int l_fen(lua_State *L)
{
    char out[160];
    xq_to_fen(check_board(L, 1), out, sizeof out);
    lua_pushstring(L, out);
    return 1;
}

static int l_side(lua_State *L)
{
    lua_pushstring(L, check_board(L, 1)->side ? "black" : "red");
    return 1;
}

static int cmp_moves(const void *a, const void *b)
{
    char x[5], y[5];
    xq_format_iccs(*(const xq_move *)a, x);
    xq_format_iccs(*(const xq_move *)b, y);
    return strcmp(x, y);
}

/* moves() -> sorted list of legal moves in ICCS */
static int l_moves(lua_State *L)
{
    xq_board *b = check_board(L, 1);
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_gen_moves(b, moves);
    qsort(moves, (size_t)n, sizeof *moves, cmp_moves);
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        push_move(L, moves[i]);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static const char *const TYPE_NAMES[8] = {"", "general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier"};

/* Why is m (well-formed) not legal here? Writes a sentence for the player. */
static void explain_illegal(xq_board *b, xq_move m, const char *text, char *out, size_t len)
{
    uint8_t p = b->sq[XQ_FROM(m)];
    char from[3] = {text[0], text[1], 0}, to[3] = {text[2], text[3], 0};
    if (p == XQ_EMPTY) { snprintf(out, len, "there is no piece on %s", from); return; }
    const char *side = b->side ? "Black" : "Red";
    if (XQ_COLOR(p) != b->side) {
        snprintf(out, len, "the piece on %s is not %s's (it is the %s %s)", from, side,
                 XQ_COLOR(p) ? "Black" : "Red", TYPE_NAMES[XQ_TYPE(p)]);
        return;
    }
    xq_move pseudo[XQ_MAX_MOVES];
    int n = xq_gen_pseudo(b, pseudo);
    for (int i = 0; i < n; i++)
        if (pseudo[i] == m) {
            snprintf(out, len, "moving the %s from %s to %s would leave %s's general in check or facing the other general",
                     TYPE_NAMES[XQ_TYPE(p)], from, to, side);
            return;
        }
    if (XQ_FROM(m) == XQ_TO(m)) { snprintf(out, len, "the move does not go anywhere"); return; }
    snprintf(out, len, "the %s on %s cannot move to %s", TYPE_NAMES[XQ_TYPE(p)], from, to);
}

/* Parse and check a move: returns 0 and *m, or pushes nil, reason and returns 2. */
static int check_move(lua_State *L, xq_board *b, int idx, xq_move *m)
{
    const char *s = luaL_checkstring(L, idx);
    char why[200];
    if (xq_parse_iccs(s, m)) {
        luaL_pushfail(L);
        lua_pushfstring(L, "'%s' is not a move in ICCS coordinates (like h2e2: files a-i, ranks 0-9)", s);
        return 2;
    }
    if (!xq_is_legal(b, *m)) {
        explain_illegal(b, *m, s, why, sizeof why);
        luaL_pushfail(L);
        lua_pushfstring(L, "illegal move %s: %s", s, why);
        return 2;
    }
    return 0;
}

/* play(m) -> true | nil, reason */
static int l_play(lua_State *L)
{
    xq_board *b = check_board(L, 1);
    xq_move m;
    if (check_move(L, b, 2, &m)) return 2;
    if (xq_play(b, m)) return luaL_error(L, "game history is full (%d plies)", XQ_MAX_HISTORY);
    lua_pushboolean(L, 1);
    return 1;
}

/* undo() -> the move taken back | nil */
static int l_undo(lua_State *L)
{
    xq_board *b = check_board(L, 1);
    if (b->nhist == 0) { luaL_pushfail(L); return 1; }
    xq_move m = b->hist_move[b->nhist - 1];
    xq_unplay(b);
    push_move(L, m);
    return 1;
}

/* is_legal(m) -> bool [, reason] */
static int l_is_legal(lua_State *L)
{
    xq_board *b = check_board(L, 1);
    xq_move m;
    if (check_move(L, b, 2, &m)) { lua_pushboolean(L, 0); lua_replace(L, -3); return 2; }
    lua_pushboolean(L, 1);
    return 1;
}

static int l_copy(lua_State *L)
{
    xq_board *b = check_board(L, 1);
    xq_board *c = new_board(L);
    memcpy(c, b, sizeof *b);
    return 1;
}

static int l_in_check(lua_State *L)
{
    lua_pushboolean(L, xq_in_check(check_board(L, 1)));
    return 1;
}

/* gives_check(m) -> bool | nil, reason (m must be legal) */
static int l_gives_check(lua_State *L)
{
    xq_board *b = check_board(L, 1);
    xq_move m;
    if (check_move(L, b, 2, &m)) return 2;
    lua_pushboolean(L, xq_gives_check(b, m));
    return 1;
}

/* status() -> "ongoing" | "no_moves", in_check */
static int l_status(lua_State *L)
{
    xq_board *b = check_board(L, 1);
    lua_pushstring(L, xq_status_of(b) == XQ_NO_MOVES ? "no_moves" : "ongoing");
    lua_pushboolean(L, xq_in_check(b));
    return 2;
}

/* repetition() -> nil | { result = "draw"|"red_loses"|"black_loses", occurrences, first_ply,
 *                         red_moves, red_checks, black_moves, black_checks, reason } */
static int l_repetition(lua_State *L)
{
    xq_board *b = check_board(L, 1);
    xq_repetition r;
    xq_repetition_of(b, &r);
    if (r.result == XQ_REP_NONE) {
        luaL_pushfail(L);
        lua_pushinteger(L, r.occurrences);
        return 2;
    }
    lua_createtable(L, 0, 8);
    static const char *const names[] = {"none", "draw", "red_loses", "black_loses"};
    lua_pushstring(L, names[r.result]);
    lua_setfield(L, -2, "result");
#define FIELD(x) (lua_pushinteger(L, r.x), lua_setfield(L, -2, #x))
    FIELD(occurrences); FIELD(red_moves); FIELD(red_checks); FIELD(black_moves); FIELD(black_checks);
#undef FIELD
    lua_pushinteger(L, r.first_ply);
    lua_setfield(L, -2, "first_ply");
    if (r.result == XQ_REP_DRAW)
        lua_pushfstring(L, "third occurrence of the position; Red checked on %d of %d moves and Black on %d of %d since its first occurrence, so neither checked perpetually alone: a draw",
                        r.red_checks, r.red_moves, r.black_checks, r.black_moves);
    else
        lua_pushfstring(L, "third occurrence of the position; %s gave check with every one of its %d moves since its first occurrence (perpetual check) and loses",
                        r.result == XQ_REP_RED_LOSES ? "Red" : "Black",
                        r.result == XQ_REP_RED_LOSES ? r.red_moves : r.black_moves);
    lua_setfield(L, -2, "reason");
    return 1;
}

static int l_perft(lua_State *L)
{
    xq_board *b = check_board(L, 1);
    int d = (int)luaL_checkinteger(L, 2);
    luaL_argcheck(L, d >= 0 && d <= 12, 2, "depth must be 0..12");
    lua_pushinteger(L, (lua_Integer)xq_perft(b, d));
    return 1;
}



/* at(square) -> letter (uppercase Red, lowercase Black) | nil */
static int l_at(lua_State *L)
{
    xq_board *b = check_board(L, 1);
    int sq;
    if (parse_square(luaL_checkstring(L, 2), &sq)) return luaL_argerror(L, 2, "a square like e0 (files a-i, ranks 0-9)");
    uint8_t p = b->sq[sq];
    if (p == XQ_EMPTY) { luaL_pushfail(L); return 1; }
    char s[2] = {xq_piece_letter(p), 0};
    lua_pushstring(L, s);
    return 1;
}

/* pieces() -> list of { square = "e0", piece = "K" }, rank 9 to 0, file a to i */
static int l_pieces(lua_State *L)
{
    xq_board *b = check_board(L, 1);
    lua_newtable(L);
    int k = 0;
    for (int r = 9; r >= 0; r--)
        for (int f = 0; f < 9; f++) {
            uint8_t p = b->sq[XQ_SQ(f, r)];
            if (p == XQ_EMPTY) continue;
            char sq[3] = {(char)('a' + f), (char)('0' + r), 0}, pc[2] = {xq_piece_letter(p), 0};
            lua_createtable(L, 0, 2);
            lua_pushstring(L, sq);
            lua_setfield(L, -2, "square");
            lua_pushstring(L, pc);
            lua_setfield(L, -2, "piece");
            lua_rawseti(L, -2, ++k);
        }

    return 1;
}

/* key() -> the Zobrist key as 16 hex digits */
static int l_key(lua_State *L)
{
    char s[17];
    snprintf(s, sizeof s, "%016llx", (unsigned long long)check_board(L, 1)->key);
    lua_pushstring(L, s);
    return 1;
}

/* history() -> list of { move, check, captured } for the moves played */
static int l_history(lua_State *L)
{
    xq_board *b = check_board(L, 1);
    lua_createtable(L, b->nhist, 0);
    for (int i = 0; i < b->nhist; i++) {
        lua_createtable(L, 0, 3);
        push_move(L, b->hist_move[i]);
        lua_setfield(L, -2, "move");
        lua_pushboolean(L, b->hist_check[i]);
        lua_setfield(L, -2, "check");
        if (b->hist_captured[i]) {
            char pc[2] = {xq_piece_letter(b->hist_captured[i]), 0};
            lua_pushstring(L, pc);
            lua_setfield(L, -2, "captured");
        }
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int l_ply(lua_State *L)
{
    lua_pushinteger(L, check_board(L, 1)->nhist);
    return 1;
}

static int l_tostring(lua_State *L)
{
    char out[160];
    xq_to_fen(check_board(L, 1), out, sizeof out);
    lua_pushfstring(L, "xiangqi board (%s)", out);
    return 1;
}

static int l_eq(lua_State *L)
{
    xq_board *a = check_board(L, 1), *b = check_board(L, 2);
    lua_pushboolean(L, a->key == b->key && memcmp(a->sq, b->sq, sizeof a->sq) == 0 && a->side == b->side);
    return 1;
}

int luaopen_tabula_xiangqi(lua_State *L)
{
    static const luaL_Reg methods[] = {
        {"fen", l_fen}, {"side", l_side}, {"moves", l_moves}, {"play", l_play}, {"undo", l_undo},
        {"is_legal", l_is_legal}, {"copy", l_copy}, {"in_check", l_in_check},
        {"gives_check", l_gives_check}, {"status", l_status}, {"repetition", l_repetition},
        {"perft", l_perft}, {"at", l_at}, {"pieces", l_pieces}, {"key", l_key},
        {"history", l_history}, {"ply", l_ply}, {NULL, NULL},
    };
    static const luaL_Reg meta[] = {{"__tostring", l_tostring}, {"__eq", l_eq}, {NULL, NULL}};
    static const luaL_Reg fns[] = {{"new", l_new}, {"from_pieces", l_from_pieces}, {NULL, NULL}};
    luaL_newmetatable(L, BOARD_MT);
    luaL_setfuncs(L, meta, 0);
    luaL_newlib(L, methods);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
    luaL_newlib(L, fns);
    lua_pushstring(L, XQ_START_FEN);
    lua_setfield(L, -2, "START");
    return 1;
}
