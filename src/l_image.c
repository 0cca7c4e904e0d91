/* l_image.c — tabula.c.image: board pictures.
 *   render_xiangqi{ width=, height=, font=, files="ABCDEFGHI", rank_base=1,
 *     river = {"楚河", "汉界"}, pieces = {{square="e0", text="帥", side="red"}, ...},
 *     arrows = {{from="b6", to="b9", color={r,g,b} (0-255), label="A", capture=bool}, ...} }
 *     -> png bytes | nil, message
 *   layout{ the same table } -> { {sx=, sy=, cx=, cy=, ex=, ey=, lx=, ly=}, ... }, label_half
 *     (each arrow's shaft as a quadratic Bézier s-c-e and its label's centre)
 *   geometry{ width=, height= } -> { x0, y0, cell, radius }   (rank 9 at y0, file a at x0)
 *   load_png(bytes) -> pixels | nil; pixels:size() -> w, h; pixels:pixel(x, y) -> r, g, b */
#include "image.h"

#include <lauxlib.h>
#include <lua.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PIXELS_MT "tabula.image.pixels"

static int opt_int(lua_State *L, int t, const char *k, int dflt)
{
    lua_getfield(L, t, k);
    int v = (int)luaL_optinteger(L, -1, dflt);
    lua_pop(L, 1);
    return v;
}

static const char *opt_str(lua_State *L, int t, const char *k, const char *dflt)
{
    lua_getfield(L, t, k);
    const char *v = luaL_optstring(L, -1, dflt);
    lua_pop(L, 1);      /* strings from the table stay anchored by it */
    return v;
}

static int square(lua_State *L, const char *s, int *f, int *r)
{
    if (!s || strlen(s) != 2 || s[0] < 'a' || s[0] > 'i' || s[1] < '0' || s[1] > '9')
        return luaL_error(L, "bad square '%s' (want a0..i9)", s ? s : "nil");
    *f = s[0] - 'a';
    *r = s[1] - '0';
    return 0;
}

static void read_board(lua_State *L, img_board *b)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    b->width = opt_int(L, 1, "width", 792);
    b->height = opt_int(L, 1, "height", 870);
    b->font = opt_str(L, 1, "font", "WenQuanYi Zen Hei");
    b->files = opt_str(L, 1, "files", "ABCDEFGHI");
    if (strlen(b->files) != 9) luaL_error(L, "files must be 9 characters");
    b->rank_base = opt_int(L, 1, "rank_base", 1);
    lua_getfield(L, 1, "river");
    if (lua_istable(L, -1)) {
        lua_rawgeti(L, -1, 1);
        b->river_left = lua_tostring(L, -1);
        lua_rawgeti(L, -2, 2);
        b->river_right = lua_tostring(L, -1);
        lua_pop(L, 2);
    }
    lua_pop(L, 1);
}

/* the pieces and arrows of the table at index 1, into caller-owned arrays */
static void read_things(lua_State *L, img_board *b, img_piece *pieces, img_arrow *arrows)
{
    lua_getfield(L, 1, "pieces");
    int n = lua_istable(L, -1) ? (int)luaL_len(L, -1) : 0;
    if (n > 64) luaL_error(L, "too many pieces");
    for (int i = 0; i < n; i++) {
        lua_rawgeti(L, -1, i + 1);
        int t = lua_gettop(L);
        square(L, opt_str(L, t, "square", NULL), &pieces[i].file, &pieces[i].rank);
        pieces[i].text = opt_str(L, t, "text", "?");
        pieces[i].red = strcmp(opt_str(L, t, "side", "red"), "red") == 0;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    b->pieces = pieces;
    b->npieces = n;
    lua_getfield(L, 1, "arrows");
    int na = lua_istable(L, -1) ? (int)luaL_len(L, -1) : 0;
    if (na > IMG_MAX_ARROWS) luaL_error(L, "too many arrows");
    for (int i = 0; i < na; i++) {
        lua_rawgeti(L, -1, i + 1);
        int t = lua_gettop(L);
        img_arrow *a = &arrows[i];
        square(L, opt_str(L, t, "from", NULL), &a->from_file, &a->from_rank);
        square(L, opt_str(L, t, "to", NULL), &a->to_file, &a->to_rank);
        a->label = opt_str(L, t, "label", NULL);
        lua_getfield(L, t, "capture");
        a->capture = lua_toboolean(L, -1);
        lua_pop(L, 1);
        lua_getfield(L, t, "color");
        int c[3] = {200, 0, 0};
        if (lua_istable(L, -1))
            for (int k = 0; k < 3; k++) { lua_rawgeti(L, -1, k + 1); c[k] = (int)lua_tointeger(L, -1); lua_pop(L, 1); }
        lua_pop(L, 1);
        a->r = c[0] / 255.0; a->g = c[1] / 255.0; a->b = c[2] / 255.0;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    b->arrows = arrows;
    b->narrows = na;
}

static int l_render(lua_State *L)
{
    img_board b;
    memset(&b, 0, sizeof b);
    read_board(L, &b);
    img_piece pieces[64];
    img_arrow arrows[IMG_MAX_ARROWS];
    read_things(L, &b, pieces, arrows);
    unsigned char *png;
    size_t len;
    char err[200];
    if (img_render_png(&b, &png, &len, err, sizeof err)) {
        luaL_pushfail(L);
        lua_pushstring(L, err);
        return 2;
    }
    lua_pushlstring(L, (const char *)png, len);
    free(png);
    return 1;
}

static void set_num(lua_State *L, const char *k, double v)
{
    lua_pushnumber(L, v);
    lua_setfield(L, -2, k);
}

/* layout{ same table as render_xiangqi } -> { {sx=, sy=, cx=, cy=, ex=, ey=, lx=, ly=}, ... }, label_half */
static int l_layout(lua_State *L)
{
    img_board b;
    memset(&b, 0, sizeof b);
    read_board(L, &b);
    img_piece pieces[64];
    img_arrow arrows[IMG_MAX_ARROWS];
    read_things(L, &b, pieces, arrows);
    img_geometry g;
    img_geometry_of(&b, &g);
    img_arrow_path paths[IMG_MAX_ARROWS];
    img_layout(&b, &g, paths);
    lua_createtable(L, b.narrows, 0);
    for (int i = 0; i < b.narrows; i++) {
        const img_arrow_path *p = &paths[i];
        lua_createtable(L, 0, 8);
        set_num(L, "sx", p->sx); set_num(L, "sy", p->sy);
        set_num(L, "cx", p->cx); set_num(L, "cy", p->cy);
        set_num(L, "ex", p->ex); set_num(L, "ey", p->ey);
        set_num(L, "lx", p->lx); set_num(L, "ly", p->ly);
        lua_rawseti(L, -2, i + 1);
    }
    lua_pushnumber(L, IMG_LABEL_HALF);
    return 2;
}

static int l_geometry(lua_State *L)
{
    img_board b;
    memset(&b, 0, sizeof b);
    if (lua_isnoneornil(L, 1)) lua_newtable(L);
    read_board(L, &b);
    img_geometry g;
    img_geometry_of(&b, &g);
    lua_createtable(L, 0, 4);
    lua_pushnumber(L, g.x0); lua_setfield(L, -2, "x0");
    lua_pushnumber(L, g.y0); lua_setfield(L, -2, "y0");
    lua_pushnumber(L, g.cell); lua_setfield(L, -2, "cell");
    lua_pushnumber(L, g.radius); lua_setfield(L, -2, "radius");
    return 1;
}

static int l_load_png(lua_State *L)
{
    size_t len;
    const char *png = luaL_checklstring(L, 1, &len);
    img_pixels **p = lua_newuserdatauv(L, sizeof *p, 0);
    char err[300];
    *p = img_load_png((const unsigned char *)png, len, err, sizeof err);
    if (!*p) { luaL_pushfail(L); lua_pushstring(L, err); return 2; }
    luaL_setmetatable(L, PIXELS_MT);
    return 1;
}

static img_pixels *check_pixels(lua_State *L)
{
    img_pixels **p = luaL_checkudata(L, 1, PIXELS_MT);
    if (!*p) luaL_error(L, "image already freed");
    return *p;
}

static int l_size(lua_State *L)
{
    int w, h;
    img_size(check_pixels(L), &w, &h);
    lua_pushinteger(L, w);
    lua_pushinteger(L, h);
    return 2;
}

static int l_pixel(lua_State *L)
{
    int r, g, b;
    img_pixel(check_pixels(L), (int)luaL_checkinteger(L, 2), (int)luaL_checkinteger(L, 3), &r, &g, &b);
    lua_pushinteger(L, r);
    lua_pushinteger(L, g);
    lua_pushinteger(L, b);
    return 3;
}

static int l_gc(lua_State *L)
{
    img_pixels **p = luaL_checkudata(L, 1, PIXELS_MT);
    img_free(*p);
    *p = NULL;
    return 0;
}

int luaopen_tabula_image(lua_State *L)
{
    static const luaL_Reg methods[] = {{"size", l_size}, {"pixel", l_pixel}, {NULL, NULL}};
    static const luaL_Reg fns[] = {
        {"render_xiangqi", l_render}, {"layout", l_layout}, {"geometry", l_geometry}, {"load_png", l_load_png}, {NULL, NULL},
    };
    luaL_newmetatable(L, PIXELS_MT);
    lua_pushcfunction(L, l_gc);
    lua_setfield(L, -2, "__gc");
    luaL_newlib(L, methods);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
    luaL_newlib(L, fns);
    return 1;
}
