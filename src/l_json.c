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

static int opt_flag(lua_State *L, int idx, const char *name)
{
    if (lua_type(L, idx) != LUA_TTABLE) return 0;
    lua_getfield(L, idx, name);
    int v = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return v;
}

/* decode(text [, {lenient=true, keys={...}}]) -> value | nil, message, line, column, offset
 * With keys, an object decodes to a table of only those top-level fields. */
static int l_decode(lua_State *L)
{
    size_t len;
    const char *text = luaL_checklstring(L, 1, &len);
    json_error err;
    cJSON *tree = json_parse(text, len, opt_flag(L, 2, "lenient") ? JSON_LENIENT : JSON_STRICT, &err);
    if (!tree) {
        luaL_pushfail(L);
        lua_pushfstring(L, "line %d, column %d (byte %d): %s", (int)err.line, (int)err.column,
                        (int)err.offset, err.message);
        lua_pushinteger(L, (lua_Integer)err.line);
        lua_pushinteger(L, (lua_Integer)err.column);
        lua_pushinteger(L, (lua_Integer)err.offset);
        return 5;
    }
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

/* Any byte string as valid UTF-8: pushes onto the Lua stack either the JSON
 * string literal (quoted and escaped as cJSON escapes, NUL as \u0000) when
 * quoted is set, or the bare text with NUL and invalid bytes as U+FFFD (for
 * object keys, which cJSON escapes itself). Invalid UTF-8 bytes become
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
        if (quoted && (c < 0x20 || c == '"' || c == '\\')) {
            char esc[8];
            switch (c) {
            case '"': strcpy(esc, "\\\""); break;
            case '\\': strcpy(esc, "\\\\"); break;
            case '\b': strcpy(esc, "\\b"); break;
            case '\f': strcpy(esc, "\\f"); break;
            case '\n': strcpy(esc, "\\n"); break;
            case '\r': strcpy(esc, "\\r"); break;
            case '\t': strcpy(esc, "\\t"); break;
            default: snprintf(esc, sizeof esc, "\\u%04x", c); break;
            }
            luaL_addstring(&b, esc);
        } else {
            luaL_addlstring(&b, str + i, k);
        }
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

static cJSON *build(encoder *e, int idx, int depth);

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

static cJSON *encode_error(encoder *e, const char *msg)
{
    lua_pushstring(e->L, msg);
    return NULL;
}

static cJSON *build_table(encoder *e, int idx, int depth)
{
    lua_State *L = e->L;
    lua_Integer n = 0;
    int as_array = has_mt(L, idx, ARRAY_MT);
    int as_object = has_mt(L, idx, OBJECT_MT);
    if (!as_array && !as_object) {
        if (is_sequence(L, idx, &n)) as_array = 1;
    } else if (as_array && !is_sequence(L, idx, &n)) {
        return encode_error(e, "table marked as a JSON array has non-sequence keys");
    }
    if (as_array) {
        cJSON *arr = cJSON_CreateArray();
        if (!arr) return encode_error(e, "out of memory");
        for (lua_Integer i = 1; i <= n; i++) {
            lua_rawgeti(L, idx, i);
            cJSON *v = build(e, lua_gettop(L), depth + 1);
            if (!v) { lua_remove(L, -2); cJSON_Delete(arr); return NULL; }
            lua_pop(L, 1);
            cJSON_AddItemToArray(arr, v);
        }
        return arr;
    }
    /* an object: collect string keys and sort them */
    size_t nk = 0, cap = 16;
    objkey *keys = malloc(cap * sizeof *keys);
    if (!keys) return encode_error(e, "out of memory");
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING) {
            int numeric = lua_type(L, -1) == LUA_TNUMBER;
            free(keys);
            lua_pop(L, 1);
            return encode_error(e, numeric
                ? "table mixes array and object keys (JSON objects need string keys)"
                : "JSON object keys must be strings");
        }
        if (nk == cap) {
            objkey *k2 = realloc(keys, (cap *= 2) * sizeof *keys);
            if (!k2) { free(keys); lua_pop(L, 1); return encode_error(e, "out of memory"); }
            keys = k2;
        }
        keys[nk].s = lua_tolstring(L, -1, &keys[nk].len);   /* anchored by the table itself */
        nk++;
    }
    qsort(keys, nk, sizeof *keys, cmp_keys);
    cJSON *obj = cJSON_CreateObject();
    if (!obj) { free(keys); return encode_error(e, "out of memory"); }
    for (size_t i = 0; i < nk; i++) {
        lua_pushlstring(L, keys[i].s, keys[i].len);
        lua_rawget(L, idx);
        cJSON *v = build(e, lua_gettop(L), depth + 1);
        if (!v) {                                   /* stack: field value, message */
            lua_pushfstring(L, "%s (in field '%s')", lua_tostring(L, -1), keys[i].s);
            lua_replace(L, -3);
            lua_pop(L, 1);
            cJSON_Delete(obj); free(keys); return NULL;
        }
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
    if (depth > 512) return encode_error(e, "value nested too deep (a cycle?)");
    luaL_checkstack(L, 6, "JSON nesting too deep");
    switch (lua_type(L, idx)) {
    case LUA_TNIL: return cJSON_CreateNull();
    case LUA_TBOOLEAN: return cJSON_CreateBool(lua_toboolean(L, idx));
    case LUA_TLIGHTUSERDATA:
        if (lua_touserdata(L, idx) == JSON_NULL) return cJSON_CreateNull();
        return encode_error(e, "cannot encode a light userdata");
    case LUA_TNUMBER: {
        char buf[32];
        if (lua_isinteger(L, idx)) {
            snprintf(buf, sizeof buf, LUA_INTEGER_FMT, lua_tointeger(L, idx));
        } else {
            double x = lua_tonumber(L, idx);
            if (!isfinite(x)) {
                if (!e->lenient) return encode_error(e, "cannot encode NaN or infinity in JSON");
                snprintf(buf, sizeof buf, "%s", isnan(x) ? "NaN" : x > 0 ? "Infinity" : "-Infinity");
            } else {
                json_format_double(x, buf);
            }
        }
        return cJSON_CreateRaw(buf);
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
    default:
        lua_pushfstring(L, "cannot encode a %s in JSON", luaL_typename(L, idx));
        return NULL;
    }
}

/* encode(value [, {pretty=true, lenient=true}]) -> text, replaced | nil, message
 * Any Lua string encodes: NUL as \u0000, and each byte that is not valid UTF-8
 * as U+FFFD; replaced counts those bytes, so the caller can say so. */
static int l_encode(lua_State *L)
{
    luaL_checkany(L, 1);
    encoder e = {L, opt_flag(L, 2, "lenient"), 0};
    lua_settop(L, 2);
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
