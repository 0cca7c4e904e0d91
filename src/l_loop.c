/* l_loop.c — tabula.c.loop: the C event loop as seen from the Lua scheduler
 * (lua/tabula/loop.lua). Lua never gets C callbacks: a timer or a one-shot fd
 * watch posts its own id as a token, and step() returns the posted tokens. */
#include "loop.h"

#include <lauxlib.h>
#include <lua.h>
#include <stdlib.h>

static loop_t *get_loop(lua_State *L)
{
    loop_t *lp = loop_default();
    if (!lp) luaL_error(L, "out of memory creating the event loop");
    return lp;
}

static void on_timer(void *ud, uint64_t id)
{
    loop_signal((loop_t *)ud, id);
}

/* timer(ms) -> token: posts token after ms milliseconds */
static int add_timer(lua_State *L, double due_ms)
{
    loop_t *lp = get_loop(L);
    uint64_t id = loop_timer(lp, due_ms, on_timer, lp);   /* a past due time fires at once */
    if (!id) return luaL_error(L, "out of memory adding a timer");
    lua_pushinteger(L, (lua_Integer)id);
    return 1;
}

static int l_timer(lua_State *L)
{
    return add_timer(L, loop_now() + luaL_checknumber(L, 1));
}

/* timer_at(ms) -> token: posts token when now() reaches ms */
static int l_timer_at(lua_State *L)
{
    return add_timer(L, luaL_checknumber(L, 1));
}

/* cancel(token) -> boolean: drops a pending timer */
static int l_cancel(lua_State *L)
{
    lua_pushboolean(L, loop_timer_cancel(get_loop(L), (uint64_t)luaL_checkinteger(L, 1)));
    return 1;
}

typedef struct { loop_t *lp; uint64_t token; } fd_wait;

static void on_fd(void *ud, int fd, int events)
{
    fd_wait *w = ud;
    (void)events;
    loop_signal(w->lp, w->token);
    loop_watch(w->lp, fd, 0, NULL, NULL);
    free(w);
}

/* watch(fd, "r"|"w") -> token: posted once, when fd is readable/writable (or failed) */
static int l_watch(lua_State *L)
{
    int fd = (int)luaL_checkinteger(L, 1);
    const char *mode = luaL_optstring(L, 2, "r");
    int ev = mode[0] == 'w' ? LOOP_WRITE : LOOP_READ;
    loop_t *lp = get_loop(L);
    fd_wait *w = malloc(sizeof *w);
    if (!w) return luaL_error(L, "out of memory watching fd %d", fd);
    w->lp = lp;
    w->token = loop_token(lp);
    if (loop_watch(lp, fd, ev, on_fd, w)) { free(w); return luaL_error(L, "out of memory watching fd %d", fd); }
    lua_pushinteger(L, (lua_Integer)w->token);
    return 1;
}

/* unwatch(fd): stops a watch set by watch() before it fired */
static int l_unwatch(lua_State *L)
{
    loop_t *lp = get_loop(L);
    int fd = (int)luaL_checkinteger(L, 1);
    free(loop_watch_data(lp, fd));   /* only l_watch's fd_wait records are watched from Lua */
    loop_watch(lp, fd, 0, NULL, NULL);
    return 0;
}

/* step(max_wait_ms) -> {tokens...} : one turn of the loop */
static int l_step(lua_State *L)
{
    double wait = luaL_optnumber(L, 1, -1);
    loop_t *lp = get_loop(L);
    if (loop_run_once(lp, wait) < 0) return luaL_error(L, "event loop: poll failed");
    lua_createtable(L, (int)loop_pending_signals(lp), 0);
    uint64_t buf[256];
    size_t n, k = 0;
    while ((n = loop_take_signals(lp, buf, 256)) > 0)
        for (size_t i = 0; i < n; i++) {
            lua_pushinteger(L, (lua_Integer)buf[i]);
            lua_rawseti(L, -2, (lua_Integer)++k);
        }
    return 1;
}

static int l_now(lua_State *L)
{
    lua_pushnumber(L, loop_now());
    return 1;
}

/* pending() -> timers, signals: what the loop still holds */
static int l_pending(lua_State *L)
{
    loop_t *lp = get_loop(L);
    lua_pushinteger(L, (lua_Integer)loop_timer_count(lp));
    lua_pushinteger(L, (lua_Integer)loop_pending_signals(lp));
    return 2;
}

int luaopen_tabula_loop(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"timer", l_timer}, {"timer_at", l_timer_at}, {"cancel", l_cancel}, {"watch", l_watch}, {"unwatch", l_unwatch},
        {"step", l_step}, {"now", l_now}, {"pending", l_pending}, {NULL, NULL},
    };
    luaL_newlib(L, fns);
    return 1;
}
