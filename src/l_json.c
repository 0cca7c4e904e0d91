/* l_json.c — tabula.c.json: decode and encode between JSON text and Lua values.
 *
 * Decoding: objects and arrays become tables carrying the metatables
 * json.object_mt / json.array_mt (so an empty one round-trips as what it was);
 * null becomes the sentinel json.null; integer literals become Lua integers
 * when they fit in 64 bits, exactly. Encoding always sorts object keys, so the
 * output is canonical: the same value always gives the same bytes. */
#include "json.h"

#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_MT "tabula.json.array"
#define OBJECT_MT "tabula.json.object"

static char null_sentinel;
#define JSON_NULL ((void *)&null_sentinel)

/* ---- decode ---- */

static void push_tree(lua_State *L, const cJSON *item, int depth)
{
    luaL_checkstack(L, 4, "JSON nesting too deep");
    if (cJSON_IsRaw(item)) {                       /* an integer literal */
        if (!lua_stringtonumber(L, item->valuestring)) lua_pushnumber(L, strtod(item->valuestring, NULL));
    } else if (cJSON_IsNumber(item)) {
        lua_pushnumber(L, item->valuedouble);
    } else if (cJSON_IsString(item)) {                 /* valueint: its length (see json.h) */
        lua_pushlstring(L, item->valuestring, item->valueint >= 0 ? (size_t)item->valueint : strlen(item->valuestring));
    } else if (cJSON_IsTrue(item) || cJSON_IsFalse(item)) {
        lua_pushboolean(L, cJSON_IsTrue(item));
    } else if (cJSON_IsNull(item)) {
        lua_pushlightuserdata(L, JSON_NULL);
    } else if (cJSON_IsArray(item)) {
        lua_createtable(L, cJSON_GetArraySize(item), 0);
        lua_Integer i = 0;
        for (const cJSON *c = item->child; c; c = c->next) {
            push_tree(L, c, depth + 1);
            lua_rawseti(L, -2, ++i);
        }
        luaL_setmetatable(L, ARRAY_MT);
    } else {
        lua_createtable(L, 0, cJSON_GetArraySize(item));
        for (const cJSON *c = item->child; c; c = c->next) {
            push_tree(L, c, depth + 1);
            lua_setfield(L, -2, c->string);
        }
        luaL_setmetatable(L, OBJECT_MT);
    }
}

/* The Lua sink of json_read: values go straight onto the Lua stack, no cJSON
 * tree. A container's members wait on the stack until it closes, so its table
 * is created with its exact size and filled in order, as push_tree does (same
 * tables, same pairs order); past FLUSH members the table is made early. */
#define FLUSH 4096
typedef struct {
    int made;            /* the table exists (below nothing: at the top - pending) */
    int is_object;
    lua_Integer n;       /* members so far */
} open_container;

typedef struct {
    lua_State *L;
    int depth;
    open_container open[JSON_MAX_DEPTH + 1];
} lua_sink;

/* stack: table?, k1, v1, ... (or v1, ...) -> the table with the pending members set */
static void make_table(lua_State *L, open_container *c)
{
    int k = (int)(c->is_object ? 2 * c->n : c->n);
    lua_createtable(L, c->is_object ? 0 : (int)c->n, c->is_object ? (int)c->n : 0);
    lua_insert(L, -(k + 1));
    int t = lua_gettop(L) - k;
    for (int i = 0; i < (int)c->n; i++) {
        if (c->is_object) {
            lua_pushvalue(L, t + 1 + 2 * i);
            lua_pushvalue(L, t + 2 + 2 * i);
            lua_rawset(L, t);
        } else {
            lua_pushvalue(L, t + 1 + i);
            lua_rawseti(L, t, i + 1);
        }
    }
    lua_settop(L, t);
    c->made = 1;
}

/* a value was pushed: count it as a member of the innermost container */
static int sink_put(lua_sink *s)
{
    if (s->depth == 0) return 0;
    open_container *c = &s->open[s->depth - 1];
    c->n++;
    if (c->made) {
        if (c->is_object) lua_rawset(s->L, -3);
        else lua_rawseti(s->L, -2, c->n);
    } else if (c->n >= FLUSH) {
        make_table(s->L, c);
    } else {
        luaL_checkstack(s->L, 4, "JSON too large");
    }
    return 0;
}

static int sink_value(void *ud, int kind, const char *str, size_t len, double x)
{
    lua_sink *s = ud;
    lua_State *L = s->L;
    switch (kind) {
    case JSON_STRING: lua_pushlstring(L, str, len); break;
    case JSON_INTEGER: if (!lua_stringtonumber(L, str)) lua_pushnumber(L, x); break;
    case JSON_NUMBER: lua_pushnumber(L, x); break;
    case JSON_TRUE: lua_pushboolean(L, 1); break;
    case JSON_FALSE: lua_pushboolean(L, 0); break;
    default: lua_pushlightuserdata(L, JSON_NULL); break;
    }
    return sink_put(s);
}

static int sink_begin(void *ud, int is_object)
{
    lua_sink *s = ud;
    luaL_checkstack(s->L, 4, "JSON nesting too deep");
    s->open[s->depth++] = (open_container){0, is_object, 0};
    return 0;
}

static int sink_key(void *ud, const char *str, size_t len)
{
    lua_pushlstring(((lua_sink *)ud)->L, str, len);
    return 0;
}

static int sink_end(void *ud, int is_object)
{
    lua_sink *s = ud;
    open_container *c = &s->open[--s->depth];
    if (!c->made) make_table(s->L, c);
    luaL_setmetatable(s->L, is_object ? OBJECT_MT : ARRAY_MT);
    return sink_put(s);
}

static int opt_flag(lua_State *L, int idx, const char *name)
{
    if (lua_type(L, idx) != LUA_TTABLE) return 0;
    lua_getfield(L, idx, name);
    int v = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return v;
}

static int push_error(lua_State *L, const json_error *err)
{
    luaL_pushfail(L);
    lua_pushfstring(L, "line %d, column %d (byte %d): %s", (int)err->line, (int)err->column,
                    (int)err->offset, err->message);
    lua_pushinteger(L, (lua_Integer)err->line);
    lua_pushinteger(L, (lua_Integer)err->column);
    lua_pushinteger(L, (lua_Integer)err->offset);
    return 5;
}

/* decode(text [, {lenient=true, keys={...}}]) -> value | nil, message, line, column, offset
 * With keys, an object decodes to a table of only those top-level fields. */
static int l_decode(lua_State *L)
{
    size_t len;
    const char *text = luaL_checklstring(L, 1, &len);
    json_error err;
    if (lua_type(L, 2) != LUA_TTABLE || lua_getfield(L, 2, "keys") == LUA_TNIL) {
        /* the whole value, straight into Lua tables */
        static const json_sink sink = {sink_value, sink_begin, sink_key, sink_end};
        lua_settop(L, 2);
        int mode = opt_flag(L, 2, "lenient") ? JSON_LENIENT : JSON_STRICT;
        char small[2048];   /* on the C stack, or a userdata: nothing leaks when Lua raises */
        char *scratch = len < sizeof small ? small : lua_newuserdatauv(L, len + 1, 0);
        int top = lua_gettop(L);
        lua_sink s;
        s.L = L;
        s.depth = 0;
        if (json_read(text, len, mode, &sink, &s, scratch, &err)) {
            lua_settop(L, top);
            return push_error(L, &err);
        }
        return 1;
    }
    cJSON *tree = json_parse(text, len, opt_flag(L, 2, "lenient") ? JSON_LENIENT : JSON_STRICT, &err);
    if (!tree) return push_error(L, &err);
    if (lua_type(L, 2) == LUA_TTABLE && lua_getfield(L, 2, "keys") == LUA_TTABLE && cJSON_IsObject(tree)) {
        /* only the named top-level fields: reading ids and states from big records */
        lua_newtable(L);
        for (lua_Integer i = 1; lua_rawgeti(L, -2, i) == LUA_TSTRING; i++) {
            const cJSON *c = cJSON_GetObjectItemCaseSensitive(tree, lua_tostring(L, -1));
            if (c) { push_tree(L, c, 1); lua_setfield(L, -3, lua_tostring(L, -2)); }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    } else {
        push_tree(L, tree, 0);
    }
    cJSON_Delete(tree);
    return 1;
}

/* ---- encode ---- */

typedef struct {
    lua_State *L;
    int lenient;
    size_t replaced;      /* bytes of invalid UTF-8 replaced by U+FFFD */
    /* the compact writer's output: a userdata at stack index out_idx */
    int out_idx;
    char *out;
    size_t len, cap;
} encoder;

/* Length of the valid UTF-8 sequence at s[0..n), or 0 when it is not one. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    if (c < 0x80) return 1;
    size_t len;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c >= 0xE0 && c <= 0xEF) { len = 3; if (c == 0xE0) lo = 0xA0; if (c == 0xED) hi = 0x9F; }
    else if (c >= 0xF0 && c <= 0xF4) { len = 4; if (c == 0xF0) lo = 0x90; if (c == 0xF4) hi = 0x8F; }
    else return 0;
    if (n < len || s[1] < lo || s[1] > hi) return 0;
    for (size_t i = 2; i < len; i++) if (s[i] < 0x80 || s[i] > 0xBF) return 0;
    return len;
}

/* The escape of a byte that needs one in a JSON string, as cJSON writes it:
 * '"', '\\' and control characters; NULL for any other byte. */
static const char *escape_of(unsigned char c, char esc[8])
{
    if (c >= 0x20 && c != '"' && c != '\\') return NULL;
    switch (c) {
    case '"': return "\\\"";
    case '\\': return "\\\\";
    case '\b': return "\\b";
    case '\f': return "\\f";
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    default: snprintf(esc, 8, "\\u%04x", c); return esc;
    }
}

/* Any byte string as valid UTF-8: pushes onto the Lua stack either the JSON
 * string literal (quoted and escaped as cJSON escapes, NUL as \u0000) when
 * quoted is set, or the bare text with NUL and invalid bytes as U+FFFD (for
 * object keys, which are escaped when written). Invalid UTF-8 bytes become
 * U+FFFD, counted in e->replaced. */
static void push_clean(encoder *e, const char *str, size_t len, int quoted)
{
    luaL_Buffer b;
    const unsigned char *s = (const unsigned char *)str;
    luaL_buffinit(e->L, &b);
    if (quoted) luaL_addchar(&b, '"');
    for (size_t i = 0; i < len;) {
        unsigned char c = s[i];
        size_t k = utf8_seq(s + i, len - i);
        if (k == 0 || (c == 0 && !quoted)) {
            luaL_addstring(&b, "\xEF\xBF\xBD");
            e->replaced++;
            i++;
            continue;
        }
        char esc[8];
        const char *x = quoted ? escape_of(c, esc) : NULL;
        if (x) luaL_addstring(&b, x);
        else luaL_addlstring(&b, str + i, k);
        i += k;
    }
    if (quoted) luaL_addchar(&b, '"');
    luaL_pushresult(&b);
}

/* Is s[0..len) valid UTF-8 without NUL bytes? */
static int clean_text(const char *s, size_t len)
{
    for (size_t i = 0; i < len;) {
        size_t k = utf8_seq((const unsigned char *)s + i, len - i);
        if (k == 0 || s[i] == 0) return 0;
        i += k;
    }
    return 1;
}

static int has_mt(lua_State *L, int idx, const char *name)
{
    if (!lua_getmetatable(L, idx)) return 0;
    luaL_getmetatable(L, name);
    int eq = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
    return eq;
}

/* Is the table at idx a sequence 1..n with no other keys? Sets *n. */
static int is_sequence(lua_State *L, int idx, lua_Integer *n)
{
    lua_Integer count = 0, max = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TNUMBER || !lua_isinteger(L, -1)) { lua_pop(L, 1); return 0; }
        lua_Integer k = lua_tointeger(L, -1);
        if (k < 1) { lua_pop(L, 1); return 0; }
        if (k > max) max = k;
        count++;
    }
    *n = max;
    return count == max;
}

typedef struct { const char *s; size_t len; } objkey;

static int cmp_keys(const void *a, const void *b)
{
    const objkey *x = a, *y = b;
    int c = memcmp(x->s, y->s, x->len < y->len ? x->len : y->len);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* pushes the message; -1 */
static int encode_error(encoder *e, const char *msg)
{
    lua_pushstring(e->L, msg);
    return -1;
}

/* The table at idx: 1 an array of *n items, 0 an object, -1 an error (pushed). */
static int table_kind(encoder *e, int idx, lua_Integer *n)
{
    lua_State *L = e->L;
    *n = 0;
    int as_array = has_mt(L, idx, ARRAY_MT);
    int as_object = has_mt(L, idx, OBJECT_MT);
    if (!as_array && !as_object) return is_sequence(L, idx, n);
    if (as_array && !is_sequence(L, idx, n))
        return encode_error(e, "table marked as a JSON array has non-sequence keys");
    return as_array;
}

/* The object's string keys, sorted (malloc'd; the caller frees them), or NULL
 * with the message pushed. */
static objkey *sorted_keys(encoder *e, int idx, size_t *count)
{
    lua_State *L = e->L;
    size_t nk = 0, cap = 16;
    objkey *keys = malloc(cap * sizeof *keys);
    if (!keys) { encode_error(e, "out of memory"); return NULL; }
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING) {
            int numeric = lua_type(L, -1) == LUA_TNUMBER;
            free(keys);
            lua_pop(L, 1);
            encode_error(e, numeric
                ? "table mixes array and object keys (JSON objects need string keys)"
                : "JSON object keys must be strings");
            return NULL;
        }
        if (nk == cap) {
            objkey *k2 = realloc(keys, (cap *= 2) * sizeof *keys);
            if (!k2) { free(keys); lua_pop(L, 1); encode_error(e, "out of memory"); return NULL; }
            keys = k2;
        }
        keys[nk].s = lua_tolstring(L, -1, &keys[nk].len);   /* anchored by the table itself */
        nk++;
    }
    qsort(keys, nk, sizeof *keys, cmp_keys);
    *count = nk;
    return keys;
}

/* a field's value failed: stack: value, message -> "message (in field 'k')" */
static void in_field(lua_State *L, const char *key)
{
    lua_pushfstring(L, "%s (in field '%s')", lua_tostring(L, -1), key);
    lua_replace(L, -3);
    lua_pop(L, 1);
}

/* The number at idx as JSON text in buf: 0, or -1 with the message pushed. */
static int format_number(encoder *e, int idx, char buf[32])
{
    lua_State *L = e->L;
    if (lua_isinteger(L, idx)) {
        snprintf(buf, 32, LUA_INTEGER_FMT, lua_tointeger(L, idx));
        return 0;
    }
    double x = lua_tonumber(L, idx);
    if (isfinite(x)) {
        json_format_double(x, buf);
    } else {
        if (!e->lenient) return encode_error(e, "cannot encode NaN or infinity in JSON");
        snprintf(buf, 32, "%s", isnan(x) ? "NaN" : x > 0 ? "Infinity" : "-Infinity");
    }
    return 0;
}

/* Checks done for every value before it is written: 0, or -1 (pushed). */
static int check_value(encoder *e, int idx, int depth)
{
    lua_State *L = e->L;
    if (depth > 512) return encode_error(e, "value nested too deep (a cycle?)");
    luaL_checkstack(L, 6, "JSON nesting too deep");
    int t = lua_type(L, idx);
    if (t == LUA_TLIGHTUSERDATA && lua_touserdata(L, idx) != JSON_NULL)
        return encode_error(e, "cannot encode a light userdata");
    if (t != LUA_TNIL && t != LUA_TBOOLEAN && t != LUA_TLIGHTUSERDATA && t != LUA_TNUMBER &&
        t != LUA_TSTRING && t != LUA_TTABLE) {
        lua_pushfstring(L, "cannot encode a %s in JSON", luaL_typename(L, idx));
        return -1;
    }
    return 0;
}

/* ---- pretty text: a cJSON tree, printed by cJSON ---- */

static cJSON *build(encoder *e, int idx, int depth);

static cJSON *build_table(encoder *e, int idx, int depth)
{
    lua_State *L = e->L;
    lua_Integer n;
    int kind = table_kind(e, idx, &n);
    if (kind < 0) return NULL;
    if (kind == 1) {
        cJSON *arr = cJSON_CreateArray();
        if (!arr) { encode_error(e, "out of memory"); return NULL; }
        for (lua_Integer i = 1; i <= n; i++) {
            lua_rawgeti(L, idx, i);
            cJSON *v = build(e, lua_gettop(L), depth + 1);
            if (!v) { lua_remove(L, -2); cJSON_Delete(arr); return NULL; }
            lua_pop(L, 1);
            cJSON_AddItemToArray(arr, v);
        }
        return arr;
    }
    size_t nk;
    objkey *keys = sorted_keys(e, idx, &nk);
    if (!keys) return NULL;
    cJSON *obj = cJSON_CreateObject();
    if (!obj) { free(keys); encode_error(e, "out of memory"); return NULL; }
    for (size_t i = 0; i < nk; i++) {
        lua_pushlstring(L, keys[i].s, keys[i].len);
        lua_rawget(L, idx);
        cJSON *v = build(e, lua_gettop(L), depth + 1);
        if (!v) { in_field(L, keys[i].s); cJSON_Delete(obj); free(keys); return NULL; }
        lua_pop(L, 1);
        if (clean_text(keys[i].s, keys[i].len)) {
            cJSON_AddItemToObject(obj, keys[i].s, v);
        } else {                                    /* a key that is not valid UTF-8 text */
            push_clean(e, keys[i].s, keys[i].len, 0);
            cJSON_AddItemToObject(obj, lua_tostring(L, -1), v);
            lua_pop(L, 1);
        }
    }
    free(keys);
    return obj;
}

static cJSON *build(encoder *e, int idx, int depth)
{
    lua_State *L = e->L;
    if (check_value(e, idx, depth)) return NULL;
    switch (lua_type(L, idx)) {
    case LUA_TBOOLEAN: return cJSON_CreateBool(lua_toboolean(L, idx));
    case LUA_TNUMBER: {
        char buf[32];
        return format_number(e, idx, buf) ? NULL : cJSON_CreateRaw(buf);
    }
    case LUA_TSTRING: {
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        if (clean_text(s, len)) return cJSON_CreateString(s);
        push_clean(e, s, len, 1);                  /* NUL as \u0000, invalid bytes as U+FFFD */
        cJSON *raw = cJSON_CreateRaw(lua_tostring(L, -1));
        lua_pop(L, 1);
        return raw;
    }
    case LUA_TTABLE: return build_table(e, idx, depth);
    default: return cJSON_CreateNull();           /* nil, json.null */
    }
}

/* ---- compact text, written directly: what cJSON_PrintUnformatted prints
 * for the tree build() makes, without making the tree ---- */

static void out_add(encoder *e, const char *s, size_t n)
{
    if (e->len + n > e->cap) {              /* a bigger userdata replaces the old one */
        size_t cap = e->cap * 2;
        while (cap < e->len + n) cap *= 2;
        char *d = lua_newuserdatauv(e->L, cap, 0);
        memcpy(d, e->out, e->len);
        lua_replace(e->L, e->out_idx);
        e->out = d;
        e->cap = cap;
    }
    memcpy(e->out + e->len, s, n);
    e->len += n;
}

/* a string literal, escaped as cJSON escapes (s is valid UTF-8 without NUL) */
static void out_string(encoder *e, const char *s, size_t n)
{
    out_add(e, "\"", 1);
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        char esc[8];
        const char *x = escape_of((unsigned char)s[i], esc);
        if (!x) continue;
        out_add(e, s + run, i - run);
        out_add(e, x, strlen(x));
        run = i + 1;
    }
    out_add(e, s + run, n - run);
    out_add(e, "\"", 1);
}

static int write_value(encoder *e, int idx, int depth);

static int write_table(encoder *e, int idx, int depth)
{
    lua_State *L = e->L;
    lua_Integer n;
    int kind = table_kind(e, idx, &n);
    if (kind < 0) return -1;
    if (kind == 1) {
        out_add(e, "[", 1);
        for (lua_Integer i = 1; i <= n; i++) {
            if (i > 1) out_add(e, ",", 1);
            lua_rawgeti(L, idx, i);
            if (write_value(e, lua_gettop(L), depth + 1)) { lua_remove(L, -2); return -1; }
            lua_pop(L, 1);
        }
        out_add(e, "]", 1);
        return 0;
    }
    size_t nk;
    objkey *keys = sorted_keys(e, idx, &nk);
    if (!keys) return -1;
    out_add(e, "{", 1);
    for (size_t i = 0; i < nk; i++) {
        if (i > 0) out_add(e, ",", 1);
        if (clean_text(keys[i].s, keys[i].len)) {
            out_string(e, keys[i].s, keys[i].len);
        } else {                                    /* a key that is not valid UTF-8 text */
            size_t cl;
            push_clean(e, keys[i].s, keys[i].len, 0);
            const char *c = lua_tolstring(L, -1, &cl);
            out_string(e, c, cl);
            lua_pop(L, 1);
        }
        out_add(e, ":", 1);
        lua_pushlstring(L, keys[i].s, keys[i].len);
        lua_rawget(L, idx);
        if (write_value(e, lua_gettop(L), depth + 1)) { in_field(L, keys[i].s); free(keys); return -1; }
        lua_pop(L, 1);
    }
    free(keys);
    out_add(e, "}", 1);
    return 0;
}

/* 0, or -1 with the message on the stack */
static int write_value(encoder *e, int idx, int depth)
{
    lua_State *L = e->L;
    if (check_value(e, idx, depth)) return -1;
    switch (lua_type(L, idx)) {
    case LUA_TBOOLEAN:
        if (lua_toboolean(L, idx)) out_add(e, "true", 4); else out_add(e, "false", 5);
        return 0;
    case LUA_TNUMBER: {
        char buf[32];
        if (format_number(e, idx, buf)) return -1;
        out_add(e, buf, strlen(buf));
        return 0;
    }
    case LUA_TSTRING: {
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        if (clean_text(s, len)) { out_string(e, s, len); return 0; }
        push_clean(e, s, len, 1);                  /* NUL as \u0000, invalid bytes as U+FFFD */
        s = lua_tolstring(L, -1, &len);
        out_add(e, s, len);
        lua_pop(L, 1);
        return 0;
    }
    case LUA_TTABLE: return write_table(e, idx, depth);
    default: out_add(e, "null", 4); return 0;     /* nil, json.null */
    }
}

/* encode(value [, {pretty=true, lenient=true}]) -> text, replaced | nil, message
 * Any Lua string encodes: NUL as \u0000, and each byte that is not valid UTF-8
 * as U+FFFD; replaced counts those bytes, so the caller can say so. */
static int l_encode(lua_State *L)
{
    luaL_checkany(L, 1);
    encoder e = {L, opt_flag(L, 2, "lenient"), 0, 0, NULL, 0, 0};
    lua_settop(L, 2);
    if (!opt_flag(L, 2, "pretty")) {
        e.cap = 256;
        e.out = lua_newuserdatauv(L, e.cap, 0);
        e.out_idx = lua_gettop(L);
        if (write_value(&e, 1, 0)) {
            luaL_pushfail(L);
            lua_insert(L, -2);
            return 2;
        }
        lua_pushlstring(L, e.out, e.len);
        lua_pushinteger(L, (lua_Integer)e.replaced);
        return 2;
    }
    cJSON *tree = build(&e, 1, 0);
    if (!tree) {
        luaL_pushfail(L);
        lua_insert(L, -2);
        return 2;
    }
    char *text = opt_flag(L, 2, "pretty") ? cJSON_Print(tree) : cJSON_PrintUnformatted(tree);
    cJSON_Delete(tree);
    if (!text) return luaL_error(L, "out of memory encoding JSON");
    lua_pushstring(L, text);
    cJSON_free(text);
    lua_pushinteger(L, (lua_Integer)e.replaced);
    return 2;
}

/* array([t]) / object([t]): mark a table so it encodes as that kind even when empty */
static int mark(lua_State *L, const char *mt)
{
    if (lua_isnoneornil(L, 1)) { lua_settop(L, 0); lua_newtable(L); }
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    luaL_setmetatable(L, mt);
    return 1;
}
static int l_array(lua_State *L) { return mark(L, ARRAY_MT); }
static int l_object(lua_State *L) { return mark(L, OBJECT_MT); }

static int l_version(lua_State *L)
{
    lua_pushstring(L, cJSON_Version());
    return 1;
}

int luaopen_tabula_json(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"decode", l_decode}, {"encode", l_encode}, {"array", l_array},
        {"object", l_object}, {"cjson_version", l_version}, {NULL, NULL},
    };
    luaL_newmetatable(L, ARRAY_MT);
    lua_pushliteral(L, "array");
    lua_setfield(L, -2, "__name");
    luaL_newmetatable(L, OBJECT_MT);
    lua_pushliteral(L, "object");
    lua_setfield(L, -2, "__name");
    luaL_newlib(L, fns);
    lua_pushlightuserdata(L, JSON_NULL);
    lua_setfield(L, -2, "null");
    lua_rotate(L, -3, 1);        /* lib, array_mt, object_mt */
    lua_setfield(L, -3, "object_mt");
    lua_setfield(L, -2, "array_mt");
    return 1;
}
