/* l_http.c — tabula.c.http: start transfers and read their results; the Lua
 * side (lua/tabula/http.lua) waits on the tokens through the event loop.
 *   request{ method=, url=, headers={...}, body=, connect_timeout=, timeout=,
 *            idle_timeout= (seconds), stream=bool, max_bytes= } -> req | nil, message
 *            (a function in on_chunk also means stream; other fields are ignored)
 *   req:tokens() -> done_token, stream_token
 *   req:result() -> { status, headers = {name=value}, body, seconds } | nil, code, message
 *                   (headers is made from raw_headers, the block as received,
 *                   when it is first read: most callers never read it)
 *                   (code "too_large" when the body passed max_bytes)
 *   req:chunk() -> data, finished      req:cancel() */
#include "http.h"

#include <ctype.h>
#include <lauxlib.h>
#include <lua.h>
#include <stdlib.h>
#include <string.h>

#define REQ_MT "tabula.http.request"
#define RESULT_MT "tabula.http.result"

typedef struct { http_req *r; } lreq;

static http_req *check_req(lua_State *L)
{
    lreq *p = luaL_checkudata(L, 1, REQ_MT);
    if (!p->r) luaL_error(L, "request already cancelled");
    return p->r;
}

static const char *field_str(lua_State *L, const char *k, size_t *len)
{
    lua_getfield(L, 1, k);
    const char *s = lua_isnil(L, -1) ? NULL : luaL_checklstring(L, -1, len);
    lua_pop(L, 1);    /* still anchored by the options table */
    return s;
}

static long field_ms(lua_State *L, const char *k)
{
    lua_getfield(L, 1, k);
    double v = lua_isnil(L, -1) ? 0 : luaL_checknumber(L, -1);
    lua_pop(L, 1);
    if (!(v > 0)) return 0;
    if (v > 1e9) v = 1e9;                           /* about 30 years: no limit */
    return (long)(v * 1000);
}

static int l_request(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    http_options o;
    memset(&o, 0, sizeof o);
    size_t n;
    o.url = field_str(L, "url", &n);
    if (!o.url) return luaL_argerror(L, 1, "url is required");
    o.method = field_str(L, "method", &n);
    o.body = field_str(L, "body", &o.body_len);
    o.connect_timeout_ms = field_ms(L, "connect_timeout");
    o.timeout_ms = field_ms(L, "timeout");
    o.idle_timeout_ms = field_ms(L, "idle_timeout");
    lua_getfield(L, 1, "max_bytes");
    lua_Integer mb = lua_isnil(L, -1) ? 0 : luaL_checkinteger(L, -1);
    o.max_bytes = mb > 0 ? (size_t)mb : 0;
    lua_pop(L, 1);
    lua_getfield(L, 1, "stream");
    lua_getfield(L, 1, "on_chunk");
    o.stream = lua_toboolean(L, -2) || lua_isfunction(L, -1);
    lua_pop(L, 2);
    /* headers: a list of "Name: value" strings */
    const char *hdrs[128];
    int nh = 0;
    lua_getfield(L, 1, "headers");
    if (lua_istable(L, -1)) {
        lua_Integer len = luaL_len(L, -1);
        for (lua_Integer i = 1; i <= len && nh < 127; i++) {
            lua_rawgeti(L, -1, i);
            hdrs[nh++] = luaL_checkstring(L, -1);
            lua_pop(L, 1);   /* anchored by the headers table */
        }
    }
    hdrs[nh] = NULL;
    o.headers = hdrs;
    char err[256];
    lreq *p = lua_newuserdatauv(L, sizeof *p, 1);
    p->r = NULL;
    luaL_setmetatable(L, REQ_MT);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1);
    p->r = http_start(loop_default(), &o, err, sizeof err);
    lua_remove(L, -2);   /* the headers table */
    if (!p->r) {
        luaL_pushfail(L);
        lua_pushstring(L, err);
        return 2;
    }
    return 1;
}

static int l_tokens(lua_State *L)
{
    http_req *r = check_req(L);
    lua_pushinteger(L, (lua_Integer)http_done_token(r));
    lua_pushinteger(L, (lua_Integer)http_stream_token(r));
    return 2;
}

static void push_headers(lua_State *L, const char *h, size_t len)
{
    lua_newtable(L);
    const char *p = h, *end = h + len;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol) eol = end;
        const char *colon = memchr(p, ':', (size_t)(eol - p));
        if (colon && colon > p) {
            luaL_Buffer b;
            luaL_buffinit(L, &b);
            for (const char *q = p; q < colon; q++) luaL_addchar(&b, (char)tolower((unsigned char)*q));
            luaL_pushresult(&b);
            const char *v = colon + 1, *ve = eol;
            while (v < ve && (*v == ' ' || *v == '\t')) v++;
            while (ve > v && (ve[-1] == '\r' || ve[-1] == ' ')) ve--;
            lua_pushvalue(L, -1);
            lua_rawget(L, -3);
            if (lua_isstring(L, -1)) {           /* repeated header: join with ", " */
                lua_pushliteral(L, ", ");
                lua_pushlstring(L, v, (size_t)(ve - v));
                lua_concat(L, 3);
            } else {
                lua_pop(L, 1);
                lua_pushlstring(L, v, (size_t)(ve - v));
            }
            lua_rawset(L, -3);
        }
        p = eol + 1;
    }
}

/* result.headers, made on first use from result.raw_headers */
static int l_result_index(lua_State *L)
{
    const char *k = lua_tostring(L, 2);
    if (!k || strcmp(k, "headers") != 0) return 0;
    size_t len;
    lua_getfield(L, 1, "raw_headers");
    const char *h = lua_tolstring(L, -1, &len);
    push_headers(L, h ? h : "", h ? len : 0);
    lua_pushvalue(L, -1);
    lua_setfield(L, 1, "headers");
    return 1;
}

static int l_result(lua_State *L)
{
    http_req *r = check_req(L);
    if (!http_finished(r)) return luaL_error(L, "request has not finished");
    const char *msg;
    int code = http_error(r, &msg);
    if (code) {
        luaL_pushfail(L);
        if (http_too_large(r)) lua_pushliteral(L, "too_large");
        else lua_pushinteger(L, code);
        lua_pushstring(L, msg);
        return 3;
    }
    size_t len;
    lua_createtable(L, 0, 5);
    luaL_setmetatable(L, RESULT_MT);
    lua_pushinteger(L, http_status(r));
    lua_setfield(L, -2, "status");
    const char *h = http_headers(r, &len);
    lua_pushlstring(L, h, len);
    lua_setfield(L, -2, "raw_headers");
    const char *body = http_body(r, &len);
    lua_pushlstring(L, body, len);
    lua_setfield(L, -2, "body");
    lua_pushnumber(L, http_total_seconds(r));
    lua_setfield(L, -2, "seconds");
    return 1;
}

static int l_chunk(lua_State *L)
{
    http_req *r = check_req(L);
    size_t len;
    const char *c = http_take_chunk(r, &len);
    lua_pushlstring(L, c, len);
    http_chunk_consumed(r);
    lua_pushboolean(L, http_finished(r));
    return 2;
}

static int l_cancel(lua_State *L)
{
    lreq *p = luaL_checkudata(L, 1, REQ_MT);
    http_free(p->r);
    p->r = NULL;
    return 0;
}

static int l_in_flight(lua_State *L)
{
    lua_pushinteger(L, http_in_flight());
    return 1;
}

int luaopen_tabula_http(lua_State *L)
{
    static const luaL_Reg methods[] = {
        {"tokens", l_tokens}, {"result", l_result}, {"chunk", l_chunk}, {"cancel", l_cancel}, {NULL, NULL},
    };
    static const luaL_Reg meta[] = {{"__gc", l_cancel}, {"__close", l_cancel}, {NULL, NULL}};
    static const luaL_Reg fns[] = {{"request", l_request}, {"in_flight", l_in_flight}, {NULL, NULL}};
    luaL_newmetatable(L, REQ_MT);
    luaL_setfuncs(L, meta, 0);
    luaL_newlib(L, methods);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
    luaL_newmetatable(L, RESULT_MT);
    lua_pushcfunction(L, l_result_index);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
    luaL_newlib(L, fns);
    return 1;
}
