/* l_iconv.c — tabula.c.iconv: text from one charset to another through the C
 * library's iconv (SGF files name theirs in CA[], e.g. gb2312).
 *   iconv.convert(text, from [, to = "UTF-8"]) -> text | nil, message */
#include <errno.h>
#include <iconv.h>
#include <lauxlib.h>
#include <lua.h>
#include <string.h>

static int l_convert(lua_State *L)
{
    size_t len;
    const char *in = luaL_checklstring(L, 1, &len);
    const char *from = luaL_checkstring(L, 2);
    const char *to = luaL_optstring(L, 3, "UTF-8");
    iconv_t cd = iconv_open(to, from);
    if (cd == (iconv_t)-1) {
        luaL_pushfail(L);
        lua_pushfstring(L, "unknown charset conversion %s -> %s", from, to);
        return 2;
    }
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    char *src = (char *)in;
    size_t left = len;
    while (left > 0) {
        char *dst = luaL_prepbuffsize(&b, 4096);
        size_t room = 4096;
        size_t r = iconv(cd, &src, &left, &dst, &room);
        luaL_addsize(&b, 4096 - room);
        if (r == (size_t)-1 && errno != E2BIG) {
            size_t at = len - left;
            iconv_close(cd);
            luaL_pushresult(&b);
            luaL_pushfail(L);
            lua_pushfstring(L, "invalid %s text at byte %d", from, (int)at + 1);
            return 2;
        }
    }
    iconv_close(cd);
    luaL_pushresult(&b);
    return 1;
}

int luaopen_tabula_iconv(lua_State *L)
{
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, l_convert);
    lua_setfield(L, -2, "convert");
    return 1;
}
