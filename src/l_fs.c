/* l_fs.c — tabula.c.fs: directories, atomic writes, JSONL appenders, sha256.
 * Expected failures (a missing file, a full disk) return nil, message. */
#include "fs.h"
#include "sha256.h"

#include <dirent.h>
#include <errno.h>
#include <lauxlib.h>
#include <lua.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define APPENDER_MT "tabula.fs.appender"
#define LOCK_MT "tabula.fs.lock"

static int fail_errno(lua_State *L, const char *what, const char *path)
{
    int e = errno;
    luaL_pushfail(L);
    lua_pushfstring(L, "%s %s: %s", what, path, strerror(e));
    return 2;
}

static int l_mkdir_p(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    if (fs_mkdir_p(path)) return fail_errno(L, "cannot create directory", path);
    lua_pushboolean(L, 1);
    return 1;
}

static int l_write_atomic(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    size_t len;
    const char *data = luaL_checklstring(L, 2, &len);
    if (fs_write_atomic(path, data, len)) return fail_errno(L, "cannot write", path);
    lua_pushboolean(L, 1);
    return 1;
}

static int l_read(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    char *data;
    size_t len;
    if (fs_read_all(path, &data, &len)) return fail_errno(L, "cannot read", path);
    lua_pushlstring(L, data, len);
    free(data);
    return 1;
}

/* stat(path) -> "file" | "dir" | "other" | nil */
static int l_kind(lua_State *L)
{
    struct stat st;
    if (stat(luaL_checkstring(L, 1), &st) != 0) { luaL_pushfail(L); return 1; }
    lua_pushstring(L, S_ISDIR(st.st_mode) ? "dir" : S_ISREG(st.st_mode) ? "file" : "other");
    return 1;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* list(dir) -> sorted array of names (without . and ..) */
static int l_list(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    DIR *d = opendir(path);
    if (!d) return fail_errno(L, "cannot list", path);
    size_t n = 0, cap = 32;
    char **names = malloc(cap * sizeof *names);
    struct dirent *de;
    while (names && (de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
        if (n == cap) {
            char **n2 = realloc(names, (cap *= 2) * sizeof *names);
            if (!n2) { for (size_t i = 0; i < n; i++) free(names[i]); free(names); names = NULL; break; }
            names = n2;
        }
        names[n++] = strdup(de->d_name);
    }
    closedir(d);
    if (!names) return luaL_error(L, "out of memory listing %s", path);
    qsort(names, n, sizeof *names, cmp_str);
    lua_createtable(L, (int)n, 0);
    for (size_t i = 0; i < n; i++) {
        lua_pushstring(L, names[i]);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
        free(names[i]);
    }
    free(names);
    return 1;
}

static int l_remove(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    if (unlink(path) != 0 && rmdir(path) != 0) return fail_errno(L, "cannot remove", path);
    lua_pushboolean(L, 1);
    return 1;
}

static int l_sha256(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    sha256_ctx c;
    unsigned char d[32];
    char hex[65];
    sha256_init(&c);
    sha256_update(&c, s, len);
    sha256_final(&c, d);
    sha256_hex(d, hex);
    lua_pushstring(L, hex);
    return 1;
}

static int l_sha256_file(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    char hex[65];
    if (fs_sha256_file(path, hex)) return fail_errno(L, "cannot read", path);
    lua_pushstring(L, hex);
    return 1;
}

/* ---- appender userdata ---- */

static fs_appender *check_appender(lua_State *L)
{
    return luaL_checkudata(L, 1, APPENDER_MT);
}

/* appender(path) -> appender, torn_bytes | nil, message */
static int l_appender(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    fs_appender *a = lua_newuserdatauv(L, sizeof *a, 0);
    a->fd = -1;
    luaL_setmetatable(L, APPENDER_MT);
    size_t torn;
    if (fs_appender_open(a, path, &torn)) return fail_errno(L, "cannot open for appending", path);
    lua_pushinteger(L, (lua_Integer)torn);
    return 2;
}

/* appender:write(line) -> true | nil, message; the line must not hold a newline */
static int l_appender_write(lua_State *L)
{
    fs_appender *a = check_appender(L);
    size_t len;
    const char *line = luaL_checklstring(L, 2, &len);
    if (memchr(line, '\n', len)) return luaL_argerror(L, 2, "a JSONL record must not contain a newline");
    if (a->fd < 0) return luaL_error(L, "write to a closed appender");
    if (fs_appender_write(a, line, len)) {
        luaL_pushfail(L);
        lua_pushfstring(L, "cannot append record: %s", strerror(errno));
        return 2;
    }
    lua_pushboolean(L, 1);
    return 1;
}

static int l_appender_close(lua_State *L)
{
    fs_appender_close(check_appender(L));
    return 0;
}

/* lock(path) -> lock | nil, message, holder_pid: an advisory lock held until
 * lock:unlock(), garbage collection or the end of the process */
static int l_lock(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    int *fd = lua_newuserdatauv(L, sizeof *fd, 0);
    *fd = -1;
    luaL_setmetatable(L, LOCK_MT);
    long holder;
    *fd = fs_lock(path, &holder);
    if (*fd < 0) {
        if (errno != EWOULDBLOCK) return fail_errno(L, "cannot lock", path);
        luaL_pushfail(L);
        lua_pushfstring(L, "%s is locked by process %d", path, (int)holder);
        lua_pushinteger(L, holder);
        return 3;
    }
    return 1;
}

static int l_unlock(lua_State *L)
{
    int *fd = luaL_checkudata(L, 1, LOCK_MT);
    if (*fd >= 0) { close(*fd); *fd = -1; }
    return 0;
}

static int l_appender_tostring(lua_State *L)
{
    fs_appender *a = check_appender(L);
    lua_pushfstring(L, "appender (%s)", a->fd < 0 ? "closed" : "open");
    return 1;
}

int luaopen_tabula_fs(lua_State *L)
{
    static const luaL_Reg methods[] = {
        {"write", l_appender_write}, {"close", l_appender_close}, {NULL, NULL},
    };
    static const luaL_Reg meta[] = {
        {"__gc", l_appender_close}, {"__close", l_appender_close},
        {"__tostring", l_appender_tostring}, {NULL, NULL},
    };
    static const luaL_Reg fns[] = {
        {"mkdir_p", l_mkdir_p}, {"write_atomic", l_write_atomic}, {"read", l_read},
        {"kind", l_kind}, {"list", l_list}, {"remove", l_remove}, {"sha256", l_sha256},
        {"sha256_file", l_sha256_file}, {"appender", l_appender}, {"lock", l_lock}, {NULL, NULL},
    };
    static const luaL_Reg lock_methods[] = {{"unlock", l_unlock}, {NULL, NULL}};
    static const luaL_Reg lock_meta[] = {{"__gc", l_unlock}, {"__close", l_unlock}, {NULL, NULL}};
    luaL_newmetatable(L, APPENDER_MT);
    luaL_setfuncs(L, meta, 0);
    luaL_newlib(L, methods);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
    luaL_newmetatable(L, LOCK_MT);
    luaL_setfuncs(L, lock_meta, 0);
    luaL_newlib(L, lock_methods);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
    luaL_newlib(L, fns);
    return 1;
}
