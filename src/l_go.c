/* l_go.c — tabula.c.go: a Go game userdata over src/go.c. Points cross the
 * boundary as strings: SGF ("dd", "aa" = top-left) on output; on input SGF,
 * GTP ("D16", columns A-T without I, rows from the bottom) or "pass" ("tt"
 * and "" are passes too, as in SGF). Colours are "black" / "white". */
#include "go.h"

#include <ctype.h>
#include <lauxlib.h>
#include <lua.h>
#include <stdlib.h>
#include <string.h>

#define GAME_MT "tabula.go.game"

static go_game *check_game(lua_State *L, int i) { return luaL_checkudata(L, i, GAME_MT); }

static go_game *new_game(lua_State *L)
{
    go_game *g = lua_newuserdatauv(L, sizeof *g, 0);
    luaL_setmetatable(L, GAME_MT);
    return g;
}

/* parse a point; returns GO_PASS for a pass, -1 when not a point of this board */
static int parse_point(const go_board *b, const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || strcmp(s, "pass") == 0 || strcmp(s, "PASS") == 0 || strcmp(s, "Pass") == 0) return GO_PASS;
    if (n == 2 && islower((unsigned char)s[0]) && islower((unsigned char)s[1])) {
        if (strcmp(s, "tt") == 0 && b->size <= 19) return GO_PASS;
        int p = go_point(b, s[0] - 'a', s[1] - 'a');
        return p ? p : -1;
    }
    int c = toupper((unsigned char)s[0]);
    if (c < 'A' || c > 'Z' || c == 'I' || n < 2 || n > 3) return -1;
    int x = c - 'A' - (c > 'I');
    char *end;
    long row = strtol(s + 1, &end, 10);
    if (*end || row < 1 || row > b->size) return -1;
    int p = go_point(b, x, b->size - (int)row);
    return p ? p : -1;
}

static int check_point(lua_State *L, const go_board *b, int i)
{
    const char *s = luaL_checkstring(L, i);
    int p = parse_point(b, s);
    if (p < 0) luaL_argerror(L, i, lua_pushfstring(L, "'%s' is not a point of a %dx%d board", s, b->size, b->size));
    return p;
}

static void push_point(lua_State *L, const go_board *b, int p)
{
    if (p == GO_PASS) { lua_pushliteral(L, "pass"); return; }
    char s[3] = { (char)('a' + go_x(b, p)), (char)('a' + go_y(b, p)), 0 };
    lua_pushstring(L, s);
}

static int check_color(lua_State *L, int i, int dflt)
{
    if (lua_isnoneornil(L, i)) return dflt;
    const char *s = luaL_checkstring(L, i);
    if (!strcmp(s, "black") || !strcmp(s, "B") || !strcmp(s, "b")) return GO_BLACK;
    if (!strcmp(s, "white") || !strcmp(s, "W") || !strcmp(s, "w")) return GO_WHITE;
    if (!strcmp(s, "empty") || !strcmp(s, "E")) return GO_EMPTY;
    return luaL_argerror(L, i, lua_pushfstring(L, "'%s' is not a colour (black, white)", s));
}

/* a colour that can move: black or white ("empty" is refused here) */
static int check_player(lua_State *L, int i, int dflt)
{
    int c = check_color(L, i, dflt);
    luaL_argcheck(L, c != GO_EMPTY, i, "black or white");
    return c;
}

static void push_color(lua_State *L, int c)
{
    if (c == GO_BLACK) lua_pushliteral(L, "black");
    else if (c == GO_WHITE) lua_pushliteral(L, "white");
    else lua_pushnil(L);
}

/* go.new(size [, {superko = bool, suicide = bool}]) */
static int l_new(lua_State *L)
{
    lua_Integer size = luaL_optinteger(L, 1, 19);
    luaL_argcheck(L, size >= 2 && size <= GO_MAX_SIZE, 1, "board size must be 2..25");
    go_game *g = new_game(L);
    go_game_init(g, (int)size);
    if (lua_istable(L, 2)) {
        lua_getfield(L, 2, "superko");
        g->superko = lua_toboolean(L, -1);
        lua_getfield(L, 2, "suicide");
        g->start.allow_suicide = g->b.allow_suicide = lua_toboolean(L, -1);
        lua_pop(L, 2);
    }
    return 1;
}

static int l_size(lua_State *L) { lua_pushinteger(L, check_game(L, 1)->b.size); return 1; }

static int l_to_move(lua_State *L) { push_color(L, check_game(L, 1)->b.to_move); return 1; }

static int l_set_to_move(lua_State *L)
{
    go_game *g = check_game(L, 1);
    int c = check_color(L, 2, GO_BLACK);
    luaL_argcheck(L, c != GO_EMPTY, 2, "black or white");
    go_game_set_to_move(g, c);
    return 0;
}

static int l_get(lua_State *L)
{
    go_game *g = check_game(L, 1);
    int p = check_point(L, &g->b, 2);
    push_color(L, p ? g->b.color[p] : GO_EMPTY);
    return 1;
}

/* setup(point, colour|"empty") — a setup stone (no captures), like SGF AB/AW/AE */
static int l_setup(lua_State *L)
{
    go_game *g = check_game(L, 1);
    int p = check_point(L, &g->b, 2);
    luaL_argcheck(L, p != GO_PASS, 2, "a point, not a pass");
    int c = check_color(L, 3, GO_EMPTY);
    if (go_game_setup(g, c, p)) return luaL_error(L, "game history is full");
    return 0;
}

/* play(point [, colour]) -> true | nil, reason */
static int l_play(lua_State *L)
{
    go_game *g = check_game(L, 1);
    int p = check_point(L, &g->b, 2);
    int c = check_player(L, 3, g->b.to_move);
    go_error e = go_game_play(g, c, p);
    if (e != GO_OK) {
        luaL_pushfail(L);
        lua_pushstring(L, go_error_text(e));
        return 2;
    }
    lua_pushboolean(L, 1);
    return 1;
}

static int l_is_legal(lua_State *L)
{
    go_game *g = check_game(L, 1);
    int p = check_point(L, &g->b, 2);
    int c = check_player(L, 3, g->b.to_move);
    go_error e = go_game_check(g, c, p);
    lua_pushboolean(L, e == GO_OK);
    if (e == GO_OK) return 1;
    lua_pushstring(L, go_error_text(e));
    return 2;
}

static int l_undo(lua_State *L)
{
    go_game *g = check_game(L, 1);
    lua_pushboolean(L, go_game_undo(g) == 0);
    return 1;
}

static int l_copy(lua_State *L)
{
    go_game *g = check_game(L, 1);
    go_game *c = new_game(L);
    memcpy(c, g, sizeof *g);
    return 1;
}

/* legal_moves([colour [, no_eyes]]) -> sorted SGF points (not pass) */
static int l_legal_moves(lua_State *L)
{
    go_game *g = check_game(L, 1);
    int c = check_player(L, 2, g->b.to_move);
    int no_eyes = lua_toboolean(L, 3);
    lua_newtable(L);
    int n = 0;
    for (int y = 0; y < g->b.size; y++)
        for (int x = 0; x < g->b.size; x++) {
            int p = go_point(&g->b, x, y);
            if (g->b.color[p] != GO_EMPTY) continue;
            if (no_eyes && go_is_eye(&g->b, p, c)) continue;
            if (go_game_check(g, c, p) != GO_OK) continue;
            push_point(L, &g->b, p);
            lua_rawseti(L, -2, ++n);
        }
    return 1;
}

/* stones() -> { black = {...}, white = {...} } in SGF order (row by row) */
static int l_stones(lua_State *L)
{
    go_game *g = check_game(L, 1);
    lua_createtable(L, 0, 2);
    for (int c = GO_BLACK; c <= GO_WHITE; c++) {
        lua_newtable(L);
        int n = 0;
        for (int x = 0; x < g->b.size; x++)
            for (int y = 0; y < g->b.size; y++) {
                int p = go_point(&g->b, x, y);
                if (g->b.color[p] == c) { push_point(L, &g->b, p); lua_rawseti(L, -2, ++n); }
            }
        lua_setfield(L, -2, c == GO_BLACK ? "black" : "white");
    }
    return 1;
}

/* grid() -> rows from the top, each a list of 0 empty / 1 black / 2 white */
static int l_grid(lua_State *L)
{
    go_game *g = check_game(L, 1);
    int s = g->b.size;
    lua_createtable(L, s, 0);
    for (int y = 0; y < s; y++) {
        lua_createtable(L, s, 0);
        for (int x = 0; x < s; x++) {
            lua_pushinteger(L, g->b.color[go_point(&g->b, x, y)]);
            lua_rawseti(L, -2, x + 1);
        }
        lua_rawseti(L, -2, y + 1);
    }
    return 1;
}

static void push_points(lua_State *L, const go_board *b, const int *pts, int n)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) { push_point(L, b, pts[i]); lua_rawseti(L, -2, i + 1); }
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* group(point) -> stones, liberties (nil for an empty point) */
static int l_group(lua_State *L)
{
    go_game *g = check_game(L, 1);
    int p = check_point(L, &g->b, 2);
    if (p == GO_PASS || g->b.color[p] == GO_EMPTY) { lua_pushnil(L); return 1; }
    int pts[GO_AREA];
    int n = go_chain_stones(&g->b, p, pts);
    qsort(pts, (size_t)n, sizeof *pts, cmp_int);
    push_points(L, &g->b, pts, n);
    n = go_chain_libs(&g->b, p, pts);
    push_points(L, &g->b, pts, n);
    return 2;
}

static int l_hash(lua_State *L)
{
    go_game *g = check_game(L, 1);
    char s[17];
    static const char hx[] = "0123456789abcdef";
    for (int i = 0; i < 16; i++) s[i] = hx[(g->b.hash >> (60 - 4 * i)) & 15];
    s[16] = 0;
    lua_pushstring(L, s);
    return 1;
}

static int l_ko(lua_State *L)
{
    go_game *g = check_game(L, 1);
    if (!g->b.ko) { lua_pushnil(L); return 1; }
    push_point(L, &g->b, g->b.ko);
    return 1;
}

static int l_captures(lua_State *L)
{
    go_game *g = check_game(L, 1);
    lua_pushinteger(L, g->b.captured[GO_BLACK]);
    lua_pushinteger(L, g->b.captured[GO_WHITE]);
    return 2;
}

static int l_is_eye(lua_State *L)
{
    go_game *g = check_game(L, 1);
    int p = check_point(L, &g->b, 2);
    int c = check_player(L, 3, g->b.to_move);
    lua_pushboolean(L, p != GO_PASS && go_is_eye(&g->b, p, c));
    return 1;
}

/* benson(colour) -> sorted list of that colour's unconditionally alive stones */
static int l_benson(lua_State *L)
{
    go_game *g = check_game(L, 1);
    int c = check_color(L, 2, GO_BLACK);
    luaL_argcheck(L, c != GO_EMPTY, 2, "black or white");
    uint8_t alive[GO_AREA];
    go_benson(&g->b, c, alive);
    lua_newtable(L);
    int n = 0;
    for (int x = 0; x < g->b.size; x++)
        for (int y = 0; y < g->b.size; y++) {
            int p = go_point(&g->b, x, y);
            if (alive[p]) { push_point(L, &g->b, p); lua_rawseti(L, -2, ++n); }
        }
    return 1;
}

static int l_score(lua_State *L)
{
    lua_pushinteger(L, go_area_score(&check_game(L, 1)->b));
    return 1;
}

/* playouts(n, seed [, komi]) -> black wins, moves played in total. Light
 * playouts from this position (the game itself is unchanged). */
static int l_playouts(lua_State *L)
{
    go_game *g = check_game(L, 1);
    lua_Integer n = luaL_checkinteger(L, 2);
    go_rng r = { (uint64_t)luaL_optinteger(L, 3, 1) };
    double komi = luaL_optnumber(L, 4, 7.5);
    int max = 3 * g->b.size * g->b.size;
    lua_Integer wins = 0, moves = 0;
    for (lua_Integer i = 0; i < n; i++) {
        go_board b = g->b;
        b.passes = 0;
        moves += go_playout(&b, &r, max);
        if (go_area_score(&b) - komi > 0) wins++;
    }
    lua_pushinteger(L, wins);
    lua_pushinteger(L, moves);
    return 2;
}

/* playout(seed [, max_moves]) -> a new game at the end of one light playout */
static int l_playout(lua_State *L)
{
    go_game *g = check_game(L, 1);
    go_rng r = { (uint64_t)luaL_optinteger(L, 2, 1) };
    int max = (int)luaL_optinteger(L, 3, 3 * g->b.size * g->b.size);
    go_game *c = new_game(L);
    memcpy(c, g, sizeof *g);
    c->b.passes = 0;
    go_playout(&c->b, &r, max);
    c->start = c->b;           /* the playout is not in the history */
    c->n = 0;
    c->keys[0] = c->b.hash;
    return 1;
}

static int l_passes(lua_State *L) { lua_pushinteger(L, check_game(L, 1)->b.passes); return 1; }

static int l_moves_played(lua_State *L) { lua_pushinteger(L, check_game(L, 1)->n); return 1; }

static int l_tostring(lua_State *L)
{
    go_game *g = check_game(L, 1);
    luaL_Buffer buf;
    luaL_buffinit(L, &buf);
    for (int y = 0; y < g->b.size; y++) {
        for (int x = 0; x < g->b.size; x++) {
            int c = g->b.color[go_point(&g->b, x, y)];
            luaL_addchar(&buf, c == GO_BLACK ? 'X' : c == GO_WHITE ? 'O' : '.');
        }
        luaL_addchar(&buf, '\n');
    }
    luaL_pushresult(&buf);
    return 1;
}

/* point(x, y) with 0-based column and row from the top -> SGF point; nil off the board */
static int l_point(lua_State *L)
{
    go_game *g = check_game(L, 1);
    int p = go_point(&g->b, (int)luaL_checkinteger(L, 2), (int)luaL_checkinteger(L, 3));
    if (!p) { lua_pushnil(L); return 1; }
    push_point(L, &g->b, p);
    return 1;
}

/* parse(text) -> SGF point, "pass", or nil, message */
static int l_parse(lua_State *L)
{
    go_game *g = check_game(L, 1);
    const char *s = luaL_checkstring(L, 2);
    int p = parse_point(&g->b, s);
    if (p < 0) { luaL_pushfail(L); lua_pushfstring(L, "'%s' is not a point of a %dx%d board", s, g->b.size, g->b.size); return 2; }
    push_point(L, &g->b, p);
    return 1;
}

static const luaL_Reg methods[] = {
    {"size", l_size}, {"to_move", l_to_move}, {"set_to_move", l_set_to_move},
    {"get", l_get}, {"setup", l_setup}, {"play", l_play}, {"is_legal", l_is_legal},
    {"undo", l_undo}, {"copy", l_copy}, {"legal_moves", l_legal_moves},
    {"stones", l_stones}, {"grid", l_grid}, {"group", l_group}, {"hash", l_hash},
    {"ko", l_ko}, {"captures", l_captures}, {"is_eye", l_is_eye}, {"benson", l_benson},
    {"score", l_score}, {"playouts", l_playouts}, {"playout", l_playout},
    {"passes", l_passes}, {"history_length", l_moves_played},
    {"point", l_point}, {"parse", l_parse},
    {NULL, NULL},
};

int luaopen_tabula_go(lua_State *L)
{
    luaL_newmetatable(L, GAME_MT);
    luaL_newlib(L, methods);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, l_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pop(L, 1);
    lua_createtable(L, 0, 2);
    lua_pushcfunction(L, l_new);
    lua_setfield(L, -2, "new");
    lua_pushinteger(L, GO_MAX_SIZE);
    lua_setfield(L, -2, "max_size");
    return 1;
}
