/* l_zlib.c — tabula.c.zlib: raw DEFLATE (RFC 1951, no zlib or gzip header) through zlib, for
 * the data report pages keep compressed (tabula.view.frames; the page inflates it itself).
 *   deflate_raw(s [, level]) -> the compressed bytes (level 0-9, default 9) */
#include <lauxlib.h>
#include <lua.h>
#include <string.h>
#include <zlib.h>

static int l_deflate_raw(lua_State *L)
{
    size_t n;
    const char *s = luaL_checklstring(L, 1, &n);
    int level = (int)luaL_optinteger(L, 2, 9);
    luaL_argcheck(L, level >= 0 && level <= 9, 2, "level must be 0 to 9");
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, level, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) != Z_OK)
        return luaL_error(L, "zlib: cannot start deflate");
    uLong cap = deflateBound(&z, (uLong)n);
    luaL_Buffer b;
    unsigned char *out = (unsigned char *)luaL_buffinitsize(L, &b, (size_t)cap);
    z.next_in = (Bytef *)s;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    int r = deflate(&z, Z_FINISH);
    size_t len = (size_t)z.total_out;
    deflateEnd(&z);
    if (r != Z_STREAM_END) return luaL_error(L, "zlib: deflate did not finish (%d)", r);
    luaL_pushresultsize(&b, len);
    return 1;
}

int luaopen_tabula_zlib(lua_State *L)
{
    static const luaL_Reg fns[] = {{"deflate_raw", l_deflate_raw}, {NULL, NULL}};
    luaL_newlib(L, fns);
    return 1;
}
