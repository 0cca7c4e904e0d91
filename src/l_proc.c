/* l_proc.c — tabula.c.proc: child processes for engines and tests. The Lua
 * side (lua/tabula/proc.lua) waits for output with the event loop. */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <lauxlib.h>
#include <lua.h>
#include <signal.h>
#include <stdlib.h>
#include <poll.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define PROC_MT "tabula.proc"

static proc_t *check_proc(lua_State *L)
{
    return luaL_checkudata(L, 1, PROC_MT);
}

/* the flag options of spawn's third argument */
static int spawn_flags(lua_State *L, int idx)
{
    if (lua_isnoneornil(L, idx)) return 0;
    luaL_checktype(L, idx, LUA_TTABLE);
    int flags = 0;
    lua_getfield(L, idx, "protocol");
    if (lua_toboolean(L, -1)) flags |= PROC_PROTOCOL;
    lua_getfield(L, idx, "owned");
    if (lua_toboolean(L, -1)) flags |= PROC_OWNED;
    lua_pop(L, 2);
    return flags;
}

/* spawn({argv...}, stderr_mode [, {protocol = bool, owned = bool, cwd = dir,
 * env = {"NAME=value", ...}, log = file}]) -> proc | nil, message.
 * protocol: the pipes are the child's fd 3 and 4 (stdout goes to our stderr);
 * owned: the child dies with this process, in a process group of its own (see proc.h);
 * cwd, env (its whole environment), log (its stdout and stderr): proc_place */
static int l_spawn(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    static const char *const modes[] = {"null", "inherit", "stdout", NULL};
    int mode = luaL_checkoption(L, 2, "null", modes);
    int flags = spawn_flags(L, 3);
    lua_Integer n = luaL_len(L, 1);
    if (n < 1) return luaL_argerror(L, 1, "argv is empty");
    char **argv = lua_newuserdatauv(L, sizeof(char *) * (size_t)(n + 1), 0);  /* freed by GC */
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, 1, i);
        argv[i - 1] = (char *)luaL_checkstring(L, -1);   /* anchored in the argv table */
        lua_pop(L, 1);
    }
    argv[n] = NULL;
    proc_t *p = lua_newuserdatauv(L, sizeof *p, 0);
    memset(p, 0, sizeof *p);
    p->in_fd = p->out_fd = -1;
    p->exited = 1;
    luaL_setmetatable(L, PROC_MT);
    int pidx = lua_gettop(L);
    proc_place where = {NULL, NULL, NULL};
    if (lua_istable(L, 3)) {
        lua_getfield(L, 3, "cwd");
        where.cwd = lua_tostring(L, -1);          /* anchored in the options table */
        lua_getfield(L, 3, "log");
        where.log = lua_tostring(L, -1);
        lua_getfield(L, 3, "env");
        if (lua_istable(L, -1)) {                 /* { "NAME=value", ... }: the whole environment */
            lua_Integer ne = luaL_len(L, -1);
            char **envp = lua_newuserdatauv(L, sizeof(char *) * (size_t)(ne + 1), 0);
            for (lua_Integer i = 1; i <= ne; i++) {
                lua_rawgeti(L, -2, i);
                envp[i - 1] = (char *)luaL_checkstring(L, -1);
                lua_pop(L, 1);
            }
            envp[ne] = NULL;
            where.envp = envp;
        }
        /* the userdata and strings stay on the stack until spawn returns */
    }
    if (proc_spawn_in(p, argv, mode, flags, &where)) {
        int e = errno;
        p->exited = 1;
        luaL_pushfail(L);
        if (e == ENOENT) lua_pushfstring(L, "cannot start %s: no such program", argv[0]);
        else lua_pushfstring(L, "cannot start %s: %s", argv[0], strerror(e));
        return 2;
    }
    lua_pushvalue(L, pidx);
    return 1;
}

static int l_write(lua_State *L)
{
    proc_t *p = check_proc(L);
    size_t len;
    const char *s = luaL_checklstring(L, 2, &len);
    if (proc_write(p, s, len)) {
        luaL_pushfail(L);
        lua_pushstring(L, errno == EPIPE ? "the process has closed its input (it died?)" : strerror(errno));
        return 2;
    }
    lua_pushboolean(L, 1);
    return 1;
}

/* read() -> data | "" at EOF | false when nothing is ready yet */
/* push what a non-blocking read returned: data | "" at EOF | false when
 * nothing was ready | nil, message */
static int push_read(lua_State *L, const char *buf, ssize_t r)
{
    if (r < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK) { lua_pushboolean(L, 0); return 1; }
        luaL_pushfail(L);
        lua_pushstring(L, strerror(errno));
        return 2;
    }
    lua_pushlstring(L, buf, (size_t)r);
    return 1;
}

static int l_read(lua_State *L)
{
    proc_t *p = check_proc(L);
    char buf[65536];
    return push_read(L, buf, proc_read(p, buf, sizeof buf));
}

static int l_fd(lua_State *L)
{
    lua_pushinteger(L, check_proc(L)->out_fd);
    return 1;
}

static int l_pid(lua_State *L)
{
    lua_pushinteger(L, check_proc(L)->pid);
    return 1;
}

static int l_kill(lua_State *L)
{
    proc_t *p = check_proc(L);
    proc_kill(p, (int)luaL_optinteger(L, 2, SIGKILL));
    return 0;
}

/* reap(wait) -> exited, how ("exit"|"signal"), code */
static int l_reap(lua_State *L)
{
    proc_t *p = check_proc(L);
    if (!proc_reap(p, lua_toboolean(L, 2))) { lua_pushboolean(L, 0); return 1; }
    lua_pushboolean(L, 1);
    if (WIFSIGNALED(p->status)) {
        lua_pushliteral(L, "signal");
        lua_pushinteger(L, WTERMSIG(p->status));
    } else {
        lua_pushliteral(L, "exit");
        lua_pushinteger(L, WEXITSTATUS(p->status));
    }
    return 3;
}

static int l_close_input(lua_State *L)
{
    proc_t *p = check_proc(L);
    if (p->in_fd >= 0) { close(p->in_fd); p->in_fd = -1; }
    return 0;
}

/* __gc / __close: kill a child that is still running, reap it, close pipes */
static int l_gc(lua_State *L)
{
    proc_t *p = check_proc(L);
    if (!p->exited) {
        proc_kill(p, SIGKILL);
        proc_reap(p, 1);
    }
    proc_close_fds(p);
    return 0;
}

static int l_getpid(lua_State *L)
{
    lua_pushinteger(L, getpid());
    return 1;
}

/* signal(pid, sig): send a signal to any process (tests kill writers with it) */
static int l_signal(lua_State *L)
{
    int r = kill((pid_t)luaL_checkinteger(L, 1), (int)luaL_optinteger(L, 2, SIGKILL));
    lua_pushboolean(L, r == 0);
    return 1;
}

/* read_fd(fd) -> data | "" at EOF | false when nothing is ready yet: a
 * non-blocking read of an inherited descriptor (a worker reads its stdin so) */
static int l_read_fd(lua_State *L)
{
    int fd = (int)luaL_checkinteger(L, 1);
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0 && !(fl & O_NONBLOCK)) fcntl(fd, F_SETFL, fl | O_NONBLOCK);
    char buf[65536];
    return push_read(L, buf, read(fd, buf, sizeof buf));
}

/* cloexec(fd): close fd in the programs this process starts */
static int l_cloexec(lua_State *L)
{
    int fd = (int)luaL_checkinteger(L, 1);
    int fl = fcntl(fd, F_GETFD);
    if (fl >= 0) fcntl(fd, F_SETFD, fl | FD_CLOEXEC);
    return 0;
}

static int l_getppid(lua_State *L)
{
    lua_pushinteger(L, getppid());
    return 1;
}

/* state(pid) -> "R", "S", "T" (stopped), ... or nil when unknown (no such process) */
static int l_state(lua_State *L)
{
    int c = proc_state((pid_t)luaL_checkinteger(L, 1));
    if (!c) return 0;
    char s[2] = {(char)c, 0};
    lua_pushstring(L, s);
    return 1;
}

/* write_fd(fd, data) -> true | nil, message: a blocking write of all of data to
 * an inherited descriptor (a worker answers its parent on fd 4 so) */
static int l_write_fd(lua_State *L)
{
    int fd = (int)luaL_checkinteger(L, 1);
    size_t len;
    const char *s = luaL_checklstring(L, 2, &len);
    while (len) {
        ssize_t w = write(fd, s, len);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd pf = {fd, POLLOUT, 0};
            poll(&pf, 1, -1);
            continue;
        }
        if (w < 0) {
            luaL_pushfail(L);
            lua_pushstring(L, strerror(errno));
            return 2;
        }
        s += w; len -= (size_t)w;
    }
    lua_pushboolean(L, 1);
    return 1;
}

/* SIGINT/SIGTERM while trapped: the owned children are killed at once (even if
 * the Lua side is busy) and the signal number is written to the trap pipe */
static int trap_pipe[2] = {-1, -1};

static void on_trapped(int sig)
{
    int e = errno;
    proc_kill_owned();
    unsigned char b = (unsigned char)sig;
    ssize_t w = write(trap_pipe[1], &b, 1);
    (void)w;
    errno = e;
}

/* trap() -> fd: from now on SIGINT and SIGTERM kill the owned children and
 * make fd readable (read_fd gives the signal numbers as bytes); a second
 * signal acts as if untrapped */
static int l_trap(lua_State *L)
{
    if (trap_pipe[0] < 0 && pipe2(trap_pipe, O_CLOEXEC | O_NONBLOCK))
        return luaL_error(L, "trap: %s", strerror(errno));
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_trapped;
    sa.sa_flags = SA_RESETHAND | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    lua_pushinteger(L, trap_pipe[0]);
    return 1;
}

/* untrap(): SIGINT and SIGTERM act as by default again */
static int l_untrap(lua_State *L)
{
    (void)L;
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    return 0;
}

/* kill_owned(): SIGKILL every owned child's process group now */
static int l_kill_owned(lua_State *L)
{
    (void)L;
    proc_kill_owned();
    return 0;
}

int luaopen_tabula_proc(lua_State *L)
{
    static const luaL_Reg methods[] = {
        {"write", l_write}, {"read", l_read}, {"fd", l_fd}, {"pid", l_pid}, {"kill", l_kill},
        {"reap", l_reap}, {"close_input", l_close_input}, {"close", l_gc}, {NULL, NULL},
    };
    static const luaL_Reg meta[] = {{"__gc", l_gc}, {"__close", l_gc}, {NULL, NULL}};
    static const luaL_Reg fns[] = {{"spawn", l_spawn}, {"getpid", l_getpid}, {"signal", l_signal},
                                     {"read_fd", l_read_fd}, {"write_fd", l_write_fd}, {"getppid", l_getppid},
                                     {"state", l_state}, {"trap", l_trap}, {"untrap", l_untrap},
                                     {"kill_owned", l_kill_owned}, {"cloexec", l_cloexec}, {NULL, NULL}};
    luaL_newmetatable(L, PROC_MT);
    luaL_setfuncs(L, meta, 0);
    luaL_newlib(L, methods);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
    luaL_newlib(L, fns);
    return 1;
}
