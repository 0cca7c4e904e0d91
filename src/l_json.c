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
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_MT "tabula.json.array"
#define OBJECT_MT "tabula.json.object"

static char null_sentinel;
#define JSON_NULL ((void *)&null_sentinel)

/* ---- decode ---- */

/* The Lua sink of json_read: values go straight onto the Lua stack, no cJSON
 * tree. A container's members wait on the stack until it closes, so its table
 * is created with its exact size and filled in order, as cJSON's tree was (same
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

/* ---- picking fields: decode(text, {keys = ...}) ---- */

/* Which fields of an object to keep: names[i] (lens[i] bytes), each with
 * subs[i] for its own value (NULL: the whole value). On an array, a pick
 * applies to each element; on any other value it is ignored. */
typedef struct json_pick {
    size_t n;
    const char **names;
    size_t *lens;
    const struct json_pick **subs;
} json_pick;

/* Compiles the keys table at index t into a json_pick (a userdata anchored in
 * the table at index anchor, as are its nested picks; the names stay in t). */
static const json_pick *compile_pick(lua_State *L, int t, int anchor, int depth)
{
    t = lua_absindex(L, t);
    if (depth > 32) luaL_error(L, "decode: keys nested too deeply");
    size_t n = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) { n++; lua_pop(L, 1); }
    json_pick *p = lua_newuserdatauv(L, sizeof *p + n * (sizeof(char *) + sizeof(size_t) + sizeof(json_pick *)), 0);
    lua_rawseti(L, anchor, luaL_len(L, anchor) + 1);
    p->names = (const char **)(p + 1);
    p->lens = (size_t *)(p->names + n);
    p->subs = (const json_pick **)(p->lens + n);
    size_t i = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        if (lua_type(L, -2) == LUA_TNUMBER && lua_type(L, -1) == LUA_TSTRING) {
            p->names[i] = lua_tolstring(L, -1, &p->lens[i]);
            p->subs[i] = NULL;
        } else if (lua_type(L, -2) == LUA_TSTRING && lua_type(L, -1) == LUA_TTABLE) {
            p->names[i] = lua_tolstring(L, -2, &p->lens[i]);
            p->subs[i] = compile_pick(L, -1, anchor, depth + 1);
        } else {
            luaL_error(L, "decode: keys hold field names, or name = { keys of that field's value }");
        }
        i++;
        lua_pop(L, 1);
    }
    p->n = i;
    return p;
}

/* The pick of the keys table at index t, compiled once per table (a cache with
 * weak keys: a keys table is read on first use, so it must not change after). */
static const json_pick *get_pick(lua_State *L, int t)
{
    t = lua_absindex(L, t);
    if (lua_getfield(L, LUA_REGISTRYINDEX, "tabula.json.picks") != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_createtable(L, 0, 1);
        lua_pushliteral(L, "k");
        lua_setfield(L, -2, "__mode");
        lua_setmetatable(L, -2);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, "tabula.json.picks");
    }
    lua_pushvalue(L, t);
    if (lua_rawget(L, -2) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);   /* the anchor: [1] is the root pick */
        compile_pick(L, t, lua_absindex(L, -1), 0);
        lua_pushvalue(L, t);
        lua_pushvalue(L, -2);
        lua_rawset(L, -4);
    }
    lua_rawgeti(L, -1, 1);
    const json_pick *p = lua_touserdata(L, -1);
    lua_pop(L, 3);   /* the root stays anchored by the cache, the cache by the registry */
    return p;
}

/* A sink in front of the Lua sink that passes on only the picked fields: the
 * rest is read (and checked) by json_read but never becomes a Lua value. */
typedef struct {
    lua_sink out;
    const json_pick *root;
    int depth;                 /* containers open in the output */
    int skipping;              /* > 0: inside a left-out value (its nesting) */
    int skip_next;             /* the next value is left out */
    const json_pick *next;     /* the pick of the next member's value */
    struct { const json_pick *pick; int is_object; unsigned long long taken; } lvl[JSON_MAX_DEPTH + 1];
} pick_sink;

static int pick_value(void *ud, int kind, const char *str, size_t len, double x)
{
    pick_sink *p = ud;
    if (p->skipping) return 0;
    if (p->skip_next) { p->skip_next = 0; return 0; }
    return sink_value(&p->out, kind, str, len, x);
}

static int pick_begin(void *ud, int is_object)
{
    pick_sink *p = ud;
    if (p->skipping) { p->skipping++; return 0; }
    if (p->skip_next) { p->skip_next = 0; p->skipping = 1; return 0; }
    const json_pick *pick;
    if (p->depth == 0) pick = is_object ? p->root : NULL;   /* a top-level array is kept whole */
    else if (p->lvl[p->depth - 1].is_object) pick = p->next;
    else pick = p->lvl[p->depth - 1].pick;                  /* each element of a picked array */
    p->lvl[p->depth].pick = pick;
    p->lvl[p->depth].is_object = is_object;
    p->lvl[p->depth].taken = 0;
    p->depth++;
    return sink_begin(&p->out, is_object);
}

static int pick_key(void *ud, const char *str, size_t len)
{
    pick_sink *p = ud;
    if (p->skipping) return 0;
    const json_pick *pick = p->lvl[p->depth - 1].pick;
    p->next = NULL;
    if (pick) {
        size_t f = 0;
        while (f < pick->n && !(pick->lens[f] == len && memcmp(pick->names[f], str, len) == 0)) f++;
        unsigned long long bit = f < 64 ? 1ULL << f : 0;
        if (f == pick->n || (p->lvl[p->depth - 1].taken & bit)) { p->skip_next = 1; return 0; }   /* a repeat: the first stays */
        p->lvl[p->depth - 1].taken |= bit;
        p->next = pick->subs[f];
    }
    return sink_key(&p->out, str, len);
}

static int pick_end(void *ud, int is_object)
{
    pick_sink *p = ud;
    if (p->skipping) { p->skipping--; return 0; }
    p->depth--;
    return sink_end(&p->out, is_object);
}

/* Decodes text[0..len) with the options table at index opts (lenient, keys)
 * and scratch (len + 1 bytes, or NULL: found here): pushes the value and
 * returns 1, or pushes fail, message, line, column, offset and returns 5. */
static int decode_text(lua_State *L, const char *text, size_t len, int opts, char *scratch)
{
    static const json_sink whole = {sink_value, sink_begin, sink_key, sink_end};
    static const json_sink picked = {pick_value, pick_begin, pick_key, pick_end};
    opts = lua_absindex(L, opts);
    const json_pick *pick = NULL;
    if (lua_type(L, opts) == LUA_TTABLE) {
        if (lua_getfield(L, opts, "keys") == LUA_TTABLE) pick = get_pick(L, -1);
        lua_pop(L, 1);
    }
    int mode = opt_flag(L, opts, "lenient") ? JSON_LENIENT : JSON_STRICT;
    char small[2048];   /* on the C stack, or a userdata: nothing leaks when Lua raises */
    int top = lua_gettop(L);
    if (!scratch) scratch = len < sizeof small ? small : lua_newuserdatauv(L, len + 1, 0);
    int scratch_ud = lua_gettop(L) > top;
    json_error err;
    pick_sink p;
    p.out.L = L;
    p.out.depth = 0;
    p.root = pick;
    p.depth = p.skipping = p.skip_next = 0;
    p.next = NULL;
    int rc = pick ? json_read(text, len, mode, &picked, &p, scratch, &err)
                  : json_read(text, len, mode, &whole, &p.out, scratch, &err);
    if (rc) {
        lua_settop(L, top);
        return push_error(L, &err);
    }
    if (scratch_ud) lua_replace(L, top + 1);   /* the value in place of the scratch userdata */
    if (pick && lua_type(L, -1) == LUA_TTABLE && lua_getmetatable(L, -1)) {   /* the picked top level: a plain table */
        luaL_getmetatable(L, OBJECT_MT);
        int is_object = lua_rawequal(L, -1, -2);
        lua_pop(L, 2);
        if (is_object) { lua_pushnil(L); lua_setmetatable(L, -2); }
    }
    return 1;
}

/* decode(text [, {lenient=true, keys={...}}]) -> value | nil, message, line, column, offset
 * With keys, an object decodes to a table of only those top-level fields;
 * keys = { "a", b = { "c" } } keeps a whole and, of b's object (or of each
 * object in b's array), only c. What is left out is checked, not built. */
static int l_decode(lua_State *L)
{
    size_t len;
    const char *text = luaL_checklstring(L, 1, &len);
    return decode_text(L, text, len, 2, NULL);
}

/* ---- JSON Lines ---- */

#define LINES_MT "tabula.json.lines"

typedef struct {
    FILE *f;
    char *buf, *scratch;
    size_t cap, start, len;   /* the bytes read and not yet returned: buf[start, len) */
    int eof;
    lua_Integer lineno;
    lua_Integer pos;          /* the file offset of buf[start] */
    size_t last, last_len;    /* the line next() returned last: buf[last, last + last_len), newline included */
    int has_last;
} lines_reader;

/* checksum(bytes) -> 16 hex digits: the checksum a record index keeps of each
 * line (without its newline). FNV-1a's 64-bit offset basis and prime, applied
 * to each 8-byte little-endian word (eight times fewer steps than byte by byte),
 * then to each remaining byte, then h ^ (h >> 29). Each step is a bijection of
 * h, so any one changed word always changes the checksum. */
static void line_checksum(const char *s, size_t n, char hex[17])
{
    const uint64_t prime = 0x100000001b3u;
    const unsigned char *p = (const unsigned char *)s;
    uint64_t h = 0xcbf29ce484222325u;
    for (; n >= 8; n -= 8, p += 8) {
        uint64_t w = (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
                     (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
        h = (h ^ w) * prime;
    }
    for (; n > 0; n--, p++) h = (h ^ *p) * prime;
    h ^= h >> 29;
    for (int i = 15; i >= 0; i--, h >>= 4) hex[i] = "0123456789abcdef"[h & 15];
    hex[16] = 0;
}

static int l_checksum(lua_State *L)
{
    size_t n;
    const char *s = luaL_checklstring(L, 1, &n);
    char hex[17];
    line_checksum(s, n, hex);
    lua_pushstring(L, hex);
    return 1;
}

/* lines(path [, from]) -> reader | nil, message: the lines of a JSON Lines
 * file from byte offset `from`, read a block at a time (see next) */
static int l_lines(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    lua_Integer from = luaL_optinteger(L, 2, 0);
    lines_reader *r = lua_newuserdatauv(L, sizeof *r, 0);
    memset(r, 0, sizeof *r);
    luaL_setmetatable(L, LINES_MT);
    r->f = fopen(path, "rb");
    if (!r->f || (from > 0 && fseeko(r->f, (off_t)from, SEEK_SET) != 0)) {
        luaL_pushfail(L);
        lua_pushfstring(L, "%s: %s", path, strerror(errno));
        return 2;
    }
    r->pos = from;
    return 1;
}

static int is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\v' && c != '\f' && c != '\r') return 0;
    }
    return 1;
}

/* reader:next([opts]) -> kind, value, lineno, offset, length [, checksum] | "torn",
 * bytes | nil at the end. kind is "record" (value: the line decoded as
 * decode(line, opts) would decode it, straight from the buffer), "bad" (value:
 * the message) or, with opts.decode == false, "line" (not decoded, value nil).
 * offset and length say where the line lies in the file (length without its
 * newline); with opts.checksum, its checksum (see checksum). Blank lines are
 * skipped (but counted); a last line without its newline is "torn" (a cut write). */
static int l_lines_next(lua_State *L)
{
    lines_reader *r = luaL_checkudata(L, 1, LINES_MT);
    if (!r->f) return 0;
    r->has_last = 0;
    int decode = 1, checksum = 0;
    if (lua_type(L, 2) == LUA_TTABLE) {
        if (lua_getfield(L, 2, "decode") == LUA_TBOOLEAN && !lua_toboolean(L, -1)) decode = 0;
        checksum = lua_getfield(L, 2, "checksum") != LUA_TNIL && lua_toboolean(L, -1);
        lua_pop(L, 2);
    }
    for (;;) {
        char *nl = r->len > r->start ? memchr(r->buf + r->start, '\n', r->len - r->start) : NULL;
        if (!nl) {
            if (r->eof) {
                size_t rest = r->len - r->start;
                r->start = r->len;
                r->pos += (lua_Integer)rest;
                if (rest == 0) return 0;
                lua_pushliteral(L, "torn");
                lua_pushinteger(L, (lua_Integer)rest);
                return 2;
            }
            if (r->start > 0) {   /* keep the start of a line that runs past the buffer */
                memmove(r->buf, r->buf + r->start, r->len - r->start);
                r->len -= r->start;
                r->start = 0;
            }
            if (r->len == r->cap) {   /* a line longer than the buffer */
                size_t cap = r->cap ? 2 * r->cap : (size_t)1 << 20;
                char *b = realloc(r->buf, cap), *s = b ? realloc(r->scratch, cap + 1) : NULL;
                if (b) r->buf = b;
                if (s) r->scratch = s;
                if (!b || !s) return luaL_error(L, "out of memory");
                r->cap = cap;
            }
            size_t got = fread(r->buf + r->len, 1, r->cap - r->len, r->f);
            if (got == 0) {
                if (ferror(r->f)) return luaL_error(L, "read error: %s", strerror(errno));
                r->eof = 1;
            }
            r->len += got;
            continue;
        }
        const char *line = r->buf + r->start;
        size_t n = (size_t)(nl - line) + 1;
        lua_Integer offset = r->pos;
        r->last = r->start;
        r->last_len = n;
        r->start += n;
        r->pos += (lua_Integer)n;
        r->lineno++;
        if (is_blank(line, n)) continue;
        r->has_last = 1;
        if (!decode) {
            lua_pushliteral(L, "line");
            lua_pushnil(L);
        } else if (decode_text(L, line, n, 2, r->scratch) == 1) {
            lua_pushliteral(L, "record");
            lua_insert(L, -2);
        } else {   /* fail, message, line, column, offset */
            lua_pop(L, 3);
            lua_remove(L, -2);
            lua_pushliteral(L, "bad");
            lua_insert(L, -2);
        }
        lua_pushinteger(L, r->lineno);
        lua_pushinteger(L, offset);
        lua_pushinteger(L, (lua_Integer)n - 1);
        if (!checksum) return 5;
        char hex[17];
        line_checksum(line, n - 1, hex);
        lua_pushstring(L, hex);
        return 6;
    }
}

static lines_reader *check_last(lua_State *L)
{
    lines_reader *r = luaL_checkudata(L, 1, LINES_MT);
    if (!r->f || !r->has_last) luaL_error(L, "no line read (call next first)");
    return r;
}

/* reader:text() -> the text of the line next() returned last, without its newline */
static int l_lines_text(lua_State *L)
{
    lines_reader *r = check_last(L);
    lua_pushlstring(L, r->buf + r->last, r->last_len - 1);
    return 1;
}

/* reader:decode([opts]) -> value | nil, message: the line next() returned
 * last, decoded as decode(line, opts) would */
static int l_lines_decode(lua_State *L)
{
    lines_reader *r = check_last(L);
    if (decode_text(L, r->buf + r->last, r->last_len, 2, r->scratch) == 1) return 1;
    lua_pop(L, 3);   /* fail, message, line, column, offset -> fail, message */
    return 2;
}

static int l_lines_close(lua_State *L)
{
    lines_reader *r = luaL_checkudata(L, 1, LINES_MT);
    if (r->f) fclose(r->f);
    r->f = NULL;
    free(r->buf);
    free(r->scratch);
    r->buf = r->scratch = NULL;
    r->cap = r->len = r->start = 0;
    return 0;
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
        {"object", l_object}, {"cjson_version", l_version}, {"lines", l_lines}, {"checksum", l_checksum},
        {NULL, NULL},
    };
    static const luaL_Reg lines_methods[] = {
        {"next", l_lines_next}, {"text", l_lines_text}, {"decode", l_lines_decode}, {"close", l_lines_close}, {NULL, NULL},
    };
    luaL_newmetatable(L, LINES_MT);
    luaL_newlib(L, lines_methods);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, l_lines_close);
    lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, l_lines_close);
    lua_setfield(L, -2, "__close");
    lua_pop(L, 1);
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
