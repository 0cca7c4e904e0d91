/* l_sock.c — tabula.c.sock: loopback sockets (sock.h) for servers inside
 * tabula. Reading goes through tabula.c.proc's read_fd, writing through
 * send below (proc.write_fd blocks the whole loop on a peer that stops
 * reading); waiting through loop.await_fd. Every listen and connect here
 * sets SIGPIPE to ignored: a peer that is gone fails a write with EPIPE.
 *   listen_tcp(host, port) -> fd, port | nil, message
 *   listen_unix(path)      -> fd | nil, message
 *   accept(fd)             -> fd | false (none waiting) | nil, message
 *   connect_unix(path)     -> fd | nil, message
 *   connect_tcp(host, port) -> fd | nil, message
 *   close(fd)
 *   shutdown(fd)           no more writes (the peer reads end of file)
 *   send(fd, data)         -> bytes sent | false (none fit now: await_fd(fd, "w")) | nil, message:
 *                          never blocks the loop (proc.write_fd does, on a peer that stops
 *                          reading) and never raises SIGPIPE (a peer that is gone: nil, message) */
#include "sock.h"

#include <errno.h>
#include <lauxlib.h>
#include <lua.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int push_fd(lua_State *L, int fd)
{
    if (fd < 0) {
        luaL_pushfail(L);
        lua_pushstring(L, strerror(errno));
        return 2;
    }
    lua_pushinteger(L, fd);
    return 1;
}

static int l_listen_tcp(lua_State *L)
{
    int bound = 0;
    int fd = sock_listen_tcp(luaL_checkstring(L, 1), (int)luaL_checkinteger(L, 2), &bound);
    if (fd < 0) return push_fd(L, fd);
    lua_pushinteger(L, fd);
    lua_pushinteger(L, bound);
    return 2;
}

static int l_listen_unix(lua_State *L) { return push_fd(L, sock_listen_unix(luaL_checkstring(L, 1))); }

static int l_accept(lua_State *L)
{
    int fd = sock_accept((int)luaL_checkinteger(L, 1));
    if (fd < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) { lua_pushboolean(L, 0); return 1; }
    return push_fd(L, fd);
}

static int l_connect_unix(lua_State *L) { return push_fd(L, sock_connect_unix(luaL_checkstring(L, 1))); }

static int l_connect_tcp(lua_State *L)
{
    return push_fd(L, sock_connect_tcp(luaL_checkstring(L, 1), (int)luaL_checkinteger(L, 2)));
}

static int l_close(lua_State *L)
{
    close((int)luaL_checkinteger(L, 1));
    return 0;
}

static int l_send(lua_State *L)
{
    size_t len;
    const char *data = luaL_checklstring(L, 2, &len);
    long w = sock_send((int)luaL_checkinteger(L, 1), data, len);
    if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) { lua_pushboolean(L, 0); return 1; }
    if (w < 0) {
        luaL_pushfail(L);
        lua_pushstring(L, strerror(errno));
        return 2;
    }
    lua_pushinteger(L, w);
    return 1;
}

static int l_shutdown(lua_State *L)
{
    shutdown((int)luaL_checkinteger(L, 1), SHUT_WR);
    return 0;
}

int luaopen_tabula_sock(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"listen_tcp", l_listen_tcp}, {"listen_unix", l_listen_unix}, {"accept", l_accept},
        {"connect_unix", l_connect_unix}, {"connect_tcp", l_connect_tcp}, {"close", l_close},
        {"shutdown", l_shutdown}, {"send", l_send}, {NULL, NULL},
    };
    luaL_newlib(L, fns);
    return 1;
}
