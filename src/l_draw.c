/* l_draw.c — tabula.c.draw: draw.png(path, width, height, prims [, font]) -> true | nil, message;
 * with path nil the PNG bytes are returned instead of true.
 * A primitive is a table: {"rect", x, y, w, h, fill = "#rrggbb", stroke = "#rrggbb", width = n},
 * {"line", x1, y1, x2, y2, stroke =, width =}, {"circle", cx, cy, r, fill =, stroke =, width =},
 * {"text", x, y, "text", size, fill =} (text centred on x, y). */
#include "draw.h"

#include <lauxlib.h>
#include <lua.h>
#include <stdlib.h>
#include <string.h>

static void color_field(lua_State *L, int t, const char *name, double out[4])
{
    out[0] = out[1] = out[2] = out[3] = 0;
    lua_getfield(L, t, name);
    const char *s = lua_tostring(L, -1);
    unsigned v;
    if (s && s[0] == '#' && strlen(s) == 7 && sscanf(s + 1, "%6x", &v) == 1) {
        out[0] = ((v >> 16) & 255) / 255.0;
        out[1] = ((v >> 8) & 255) / 255.0;
        out[2] = (v & 255) / 255.0;
        out[3] = 1;
    }
    lua_pop(L, 1);
}

static double num_at(lua_State *L, int t, int i)
{
    lua_rawgeti(L, t, i);
    double v = lua_tonumber(L, -1);
    lua_pop(L, 1);
    return v;
}

static int l_png(lua_State *L)
{
    const char *path = luaL_optstring(L, 1, NULL);
    int w = (int)luaL_checkinteger(L, 2), h = (int)luaL_checkinteger(L, 3);
    luaL_checktype(L, 4, LUA_TTABLE);
    const char *font = luaL_optstring(L, 5, NULL);
    luaL_argcheck(L, w > 0 && h > 0 && w <= 8000 && h <= 8000, 2, "image size out of range");
    int n = (int)luaL_len(L, 4);
    draw_prim *prims = lua_newuserdatauv(L, sizeof *prims * (size_t)(n > 0 ? n : 1), 0);
    for (int i = 0; i < n; i++) {
        lua_rawgeti(L, 4, i + 1);
        int t = lua_gettop(L);
        luaL_checktype(L, t, LUA_TTABLE);
        draw_prim *p = &prims[i];
        memset(p, 0, sizeof *p);
        lua_rawgeti(L, t, 1);
        const char *k = luaL_checkstring(L, -1);
        lua_pop(L, 1);
        if (!strcmp(k, "rect")) p->kind = DRAW_RECT;
        else if (!strcmp(k, "line")) p->kind = DRAW_LINE;
        else if (!strcmp(k, "circle")) p->kind = DRAW_CIRCLE;
        else if (!strcmp(k, "text")) p->kind = DRAW_TEXT;
        else return luaL_error(L, "unknown drawing primitive '%s'", k);
        p->x = num_at(L, t, 2);
        p->y = num_at(L, t, 3);
        if (p->kind == DRAW_TEXT) {
            lua_rawgeti(L, t, 4);
            p->text = lua_tostring(L, -1);     /* kept alive by the table */
            lua_pop(L, 1);
            p->h = num_at(L, t, 5);
        } else {
            p->w = num_at(L, t, 4);
            p->h = num_at(L, t, 5);
        }
        color_field(L, t, "fill", p->fill);
        color_field(L, t, "stroke", p->stroke);
        lua_getfield(L, t, "width");
        p->width = lua_isnumber(L, -1) ? lua_tonumber(L, -1) : 1;
        lua_pop(L, 2);
    }
    char err[300];
    unsigned char *bytes = NULL;
    size_t len = 0;
    if (draw_png(path, w, h, prims, n, font, &bytes, &len, err, sizeof err)) {
        luaL_pushfail(L);
        lua_pushstring(L, err);
        return 2;
    }
    if (path) { lua_pushboolean(L, 1); return 1; }
    lua_pushlstring(L, (const char *)bytes, len);
    free(bytes);
    return 1;
}

int luaopen_tabula_draw(lua_State *L)
{
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, l_png);
    lua_setfield(L, -2, "png");
    return 1;
}
