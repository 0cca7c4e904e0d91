/* l_host.c — tabula.c.host: where the Lua library lives, versions, and the
 * protected call that runs the Lua main (tabula_run). */
#include "http.h"
#include "libs.h"

#include <curl/curlver.h>
#include <cJSON.h>
#include <lauxlib.h>
#include <limits.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[PATH_MAX];

static int has_lua_tree(const char *dir)
{
    char p[PATH_MAX + 64];
    struct stat st;
    if (strlen(dir) >= PATH_MAX) return 0;
    snprintf(p, sizeof p, "%.*s/lua/tabula/main.lua", PATH_MAX, dir);
    return stat(p, &st) == 0;
}

/* The project root: $TABULA_ROOT, else the first directory holding
 * lua/tabula/main.lua among the binary's directory, its parents (a build
 * directory), and <prefix>/share/tabula (an install). */
static const char *find_root(void)
{
    const char *env = getenv("TABULA_ROOT");
    if (env && *env) return env;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return ".";
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) *slash = 0;
    static const char *const rel[] = {"", "/..", "/../..", "/../share/tabula", NULL};
    for (int i = 0; rel[i]; i++) {
        char cand[PATH_MAX];
        if (snprintf(cand, sizeof cand, "%.*s%s", PATH_MAX - 32, exe, rel[i]) >= (int)sizeof cand) continue;
        if (has_lua_tree(cand) && realpath(cand, root)) return root;
    }
    return ".";
}

static int l_versions(lua_State *L)
{
    lua_newtable(L);
    lua_pushstring(L, TABULA_VERSION);
    lua_setfield(L, -2, "tabula");
    lua_pushstring(L, LUA_RELEASE);
    lua_setfield(L, -2, "lua");
    /* libcurl is loaded on the first request (curl_api.h): until then, the
     * version tabula was built against (the same soname, so the same ABI) */
    const char *curl_loaded = http_curl_version();
    lua_pushstring(L, curl_loaded ? curl_loaded : LIBCURL_VERSION);
    lua_setfield(L, -2, "libcurl");
    lua_pushstring(L, cJSON_Version());
    lua_setfield(L, -2, "cjson");
    return 1;
}

static int l_getenv(lua_State *L)
{
    const char *v = getenv(luaL_checkstring(L, 1));
    if (v) lua_pushstring(L, v); else luaL_pushfail(L);
    return 1;
}

static int l_isatty(lua_State *L)
{
    lua_pushboolean(L, isatty((int)luaL_optinteger(L, 1, 0)));
    return 1;
}

int luaopen_tabula_host(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"versions", l_versions}, {"getenv", l_getenv}, {"isatty", l_isatty}, {NULL, NULL},
    };
    luaL_newlib(L, fns);
    lua_pushstring(L, root[0] ? root : find_root());
    lua_setfield(L, -2, "root");
    lua_pushstring(L, TABULA_VERSION);
    lua_setfield(L, -2, "version");
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        lua_pushstring(L, exe);
        lua_setfield(L, -2, "exe");
    }
    return 1;
}

/* message handler: the error with a traceback (error objects with __tostring kept) */
static int traceback(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) msg = lua_tostring(L, -1);
        else msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

int tabula_run(lua_State *L, int argc, char **argv)
{
    const char *dir = find_root();
    lua_getglobal(L, "package");
    lua_pushfstring(L, "%s/lua/?.lua;%s/lua/?/init.lua;%s/?.lua;%s/?/init.lua", dir, dir, dir, dir);
    lua_setfield(L, -2, "path");
    lua_pushliteral(L, "");          /* C modules are linked in, never loaded from disk */
    lua_setfield(L, -2, "cpath");
    lua_pop(L, 1);

    lua_pushcfunction(L, traceback);
    lua_getglobal(L, "require");
    lua_pushliteral(L, "tabula.main");
    lua_newtable(L);                                   /* argv, without the program name */
    for (int i = 1; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, i);
    }
    /* stack: traceback, require, "tabula.main", argv */
    lua_insert(L, -3);                                 /* traceback, argv, require, name */
    int status = lua_pcall(L, 1, 1, 1);                /* require "tabula.main" */
    if (status == LUA_OK) {
        lua_insert(L, -2);                             /* traceback, main, argv */
        status = lua_pcall(L, 1, 1, 1);
    }
    if (status != LUA_OK) {
        fprintf(stderr, "tabula: %s\n", lua_tostring(L, -1));
        return 1;
    }
    int rc = lua_isinteger(L, -1) ? (int)lua_tointeger(L, -1) : 0;
    return rc;
}
