/* libs.c — one table lists every C module the host loads (as linit.c does for
 * Lua's own libraries). Each is registered in package.preload, so it is
 * loaded on first require. */
#include "libs.h"

#include <lauxlib.h>
#include <lua-lpeg.h>
#include <stddef.h>

int luaopen_tabula_host(lua_State *L);
int luaopen_tabula_loop(lua_State *L);
int luaopen_tabula_json(lua_State *L);
int luaopen_tabula_fs(lua_State *L);
int luaopen_tabula_proc(lua_State *L);
int luaopen_tabula_xiangqi(lua_State *L);
int luaopen_tabula_xqsearch(lua_State *L);
int luaopen_tabula_http(lua_State *L);
int luaopen_tabula_image(lua_State *L);
int luaopen_tabula_chess(lua_State *L);
int luaopen_tabula_go(lua_State *L);
int luaopen_tabula_iconv(lua_State *L);
int luaopen_tabula_draw(lua_State *L);
int luaopen_tabula_gosolve(lua_State *L);
int luaopen_tabula_stats(lua_State *L);
int luaopen_tabula_sock(lua_State *L);
int luaopen_tabula_zlib(lua_State *L);
int luaopen_tabula_frames(lua_State *L);


extern const unsigned char tabula_re_lua[];
extern const size_t tabula_re_lua_len;

static int luaopen_re(lua_State *L)
{
    if (luaL_loadbuffer(L, (const char *)tabula_re_lua, tabula_re_lua_len, "=re.lua") != LUA_OK)
        return lua_error(L);
    lua_call(L, 0, 1);
    return 1;
}

static const luaL_Reg modules[] = {
    {"tabula.c.host", luaopen_tabula_host},
    {"tabula.c.loop", luaopen_tabula_loop},
    {"tabula.c.json", luaopen_tabula_json},
    {"tabula.c.stats", luaopen_tabula_stats},
    {"tabula.c.fs", luaopen_tabula_fs},
    {"tabula.c.proc", luaopen_tabula_proc},
    {"tabula.c.xiangqi", luaopen_tabula_xiangqi},
    {"tabula.c.xqsearch", luaopen_tabula_xqsearch},
    {"tabula.c.http", luaopen_tabula_http},
    {"tabula.c.image", luaopen_tabula_image},
    {"tabula.c.chess", luaopen_tabula_chess},
    {"tabula.c.go", luaopen_tabula_go},
    {"tabula.c.iconv", luaopen_tabula_iconv},
    {"tabula.c.draw", luaopen_tabula_draw},
    {"tabula.c.gosolve", luaopen_tabula_gosolve},
    {"tabula.c.sock", luaopen_tabula_sock},
    {"tabula.c.zlib", luaopen_tabula_zlib},
    {"tabula.c.frames", luaopen_tabula_frames},

    {"lpeg", luaopen_lpeg},
    {"re", luaopen_re},
    {NULL, NULL},
};

void tabula_preload(lua_State *L)
{
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    for (const luaL_Reg *m = modules; m->name; m++) {
        lua_pushcfunction(L, m->func);
        lua_setfield(L, -2, m->name);
    }
    lua_pop(L, 1);
}
