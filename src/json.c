/* json.c — see json.h. A recursive-descent reader over a byte buffer. */
#include "json.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH JSON_MAX_DEPTH

typedef struct {
    const char *s;
    size_t len, pos;
    int mode, depth;
    json_error *err;
    const json_sink *sink;
    void *ud;
    char *scratch;      /* at least len + 1 bytes: decoded strings and number text */
} reader;

static int fail(reader *r, const char *msg)
{
    if (r->err->message[0]) return -1;             /* keep the innermost message */
    size_t line = 1, col = 1;
    for (size_t i = 0; i < r->pos && i < r->len; i++) {
        if (r->s[i] == '\n') { line++; col = 1; }
        else if (((unsigned char)r->s[i] & 0xC0) != 0x80) col++;   /* count characters */
    }
    r->err->line = line;
    r->err->column = col;
    r->err->offset = r->pos;
    snprintf(r->err->message, sizeof r->err->message, "%s", msg);
    return -1;
}

/* a sink's answer: 0, or -1 (out of memory) */
static int sunk(reader *r, int rc) { return rc ? fail(r, "out of memory") : 0; }

static void skip_space(reader *r)
{
    while (r->pos < r->len) {
        char c = r->s[r->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
        r->pos++;
    }
}

static int starts(reader *r, const char *word)
{
    size_t n = strlen(word);
    return r->len - r->pos >= n && memcmp(r->s + r->pos, word, n) == 0;
}

static int parse_value(reader *r);

static int hex4(reader *r, unsigned *out)
{
    if (r->len - r->pos < 4) return 0;
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = r->s[r->pos + i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return 0;
    }
    r->pos += 4;
    *out = v;
    return 1;
}

static size_t put_utf8(char *o, unsigned cp)
{
    if (cp < 0x80) { o[0] = (char)cp; return 1; }
    if (cp < 0x800) { o[0] = (char)(0xC0 | (cp >> 6)); o[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12)); o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F)); return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18)); o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Reads a string literal at r->pos (which is at '"'): its text in *out (in
 * the input itself when it has no escapes, else decoded into r->scratch; not
 * NUL-terminated) and its length in *outlen (the text may hold NUL bytes from
 * \u0000 when allow_nul is set; object keys may not). 0, or -1. */
static int parse_string(reader *r, const char **out, size_t *outlen, int allow_nul)
{
    size_t start = ++r->pos, control = SIZE_MAX;
    int escaped = 0;
    while (r->pos < r->len && r->s[r->pos] != '"') {   /* find the end first: a clear error */
        unsigned char c = (unsigned char)r->s[r->pos];
        if (c == '\\') { escaped = 1; r->pos++; }
        else if (c < 0x20 && control == SIZE_MAX) control = r->pos;
        r->pos++;
    }
    if (r->pos >= r->len) { r->pos = start - 1; return fail(r, "unterminated string"); }
    if (!escaped) {                            /* the text as it stands in the input */
        if (control != SIZE_MAX) { r->pos = control; return fail(r, "control character in string (escape it)"); }
        *out = r->s + start;
        *outlen = r->pos - start;
        r->pos++;
        return 0;
    }
    char *o = r->scratch;                      /* the text never grows when decoded */
    r->pos = start;
    while (r->s[r->pos] != '"') {
        unsigned char c = (unsigned char)r->s[r->pos];
        if (c < 0x20) return fail(r, "control character in string (escape it)");
        if (c != '\\') { *o++ = (char)c; r->pos++; continue; }
        r->pos++;
        char e = r->s[r->pos++];
        switch (e) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '/': *o++ = '/'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            unsigned cp, lo;
            if (!hex4(r, &cp)) return fail(r, "bad \\u escape (need 4 hex digits)");
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                if (starts(r, "\\u")) {
                    r->pos += 2;
                    if (!hex4(r, &lo) || lo < 0xDC00 || lo > 0xDFFF) return fail(r, "bad UTF-16 surrogate pair");
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                } else return fail(r, "lone UTF-16 high surrogate");
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                return fail(r, "lone UTF-16 low surrogate");
            }
            if (cp == 0 && !allow_nul) return fail(r, "\\u0000 is not supported in object keys");
            o += put_utf8(o, cp);
            break;
        }
        default:
            r->pos -= 2;
            return fail(r, "unknown escape in string");
        }
    }
    r->pos++;
    *out = r->scratch;
    *outlen = (size_t)(o - r->scratch);
    return 0;
}

static int parse_number(reader *r)
{
    size_t start = r->pos;
    const char *s = r->s;
    int is_int = 1;
    if (r->pos < r->len && s[r->pos] == '-') r->pos++;
    if (r->mode == JSON_LENIENT && starts(r, "Infinity")) {
        r->pos += 8;
        return sunk(r, r->sink->value(r->ud, JSON_NUMBER, NULL, 0, s[start] == '-' ? -INFINITY : INFINITY));
    }
    if (r->pos >= r->len || s[r->pos] < '0' || s[r->pos] > '9') return fail(r, "invalid number");
    if (s[r->pos] == '0' && r->pos + 1 < r->len && s[r->pos + 1] >= '0' && s[r->pos + 1] <= '9')
        return fail(r, "leading zeros are not allowed in numbers");
    while (r->pos < r->len && s[r->pos] >= '0' && s[r->pos] <= '9') r->pos++;
    if (r->pos < r->len && s[r->pos] == '.') {
        is_int = 0;
        r->pos++;
        if (r->pos >= r->len || s[r->pos] < '0' || s[r->pos] > '9') return fail(r, "digit expected after '.'");
        while (r->pos < r->len && s[r->pos] >= '0' && s[r->pos] <= '9') r->pos++;
    }
    if (r->pos < r->len && (s[r->pos] == 'e' || s[r->pos] == 'E')) {
        is_int = 0;
        r->pos++;
        if (r->pos < r->len && (s[r->pos] == '+' || s[r->pos] == '-')) r->pos++;
        if (r->pos >= r->len || s[r->pos] < '0' || s[r->pos] > '9') return fail(r, "digit expected in exponent");
        while (r->pos < r->len && s[r->pos] >= '0' && s[r->pos] <= '9') r->pos++;
    }
    size_t n = r->pos - start;
    char *text = r->scratch;
    memcpy(text, s + start, n);
    text[n] = 0;
    double x = strtod(text, NULL);              /* an integer too long for a double is refused too */
    if (!isfinite(x)) { r->pos = start; return fail(r, "number out of range (it cannot be kept exactly)"); }
    return sunk(r, r->sink->value(r->ud, is_int ? JSON_INTEGER : JSON_NUMBER, text, n, x));
}

static int parse_container(reader *r, int is_object)
{
    char close = is_object ? '}' : ']';
    if (++r->depth > MAX_DEPTH) return fail(r, "nesting too deep");
    r->pos++;
    if (sunk(r, r->sink->begin(r->ud, is_object))) return -1;
    skip_space(r);
    if (r->pos < r->len && r->s[r->pos] == close) {
        r->pos++;
        r->depth--;
        return sunk(r, r->sink->end(r->ud, is_object));
    }
    for (;;) {
        skip_space(r);
        if (is_object) {
            if (r->pos >= r->len || r->s[r->pos] != '"')
                return fail(r, r->pos >= r->len ? "unexpected end of input in object" : "expected a string key");
            const char *key;
            size_t n;
            if (parse_string(r, &key, &n, 0) || sunk(r, r->sink->key(r->ud, key, n))) return -1;
            skip_space(r);
            if (r->pos >= r->len || r->s[r->pos] != ':') return fail(r, "expected ':' after key");
            r->pos++;
        }
        if (parse_value(r)) return -1;
        skip_space(r);
        if (r->pos < r->len && r->s[r->pos] == ',') { r->pos++; continue; }
        if (r->pos < r->len && r->s[r->pos] == close) { r->pos++; break; }
        if (r->pos >= r->len) return fail(r, is_object ? "unexpected end of input in object" : "unexpected end of input in array");
        return fail(r, is_object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
    r->depth--;
    return sunk(r, r->sink->end(r->ud, is_object));
}

static int parse_value(reader *r)
{
    skip_space(r);
    if (r->pos >= r->len) return fail(r, "unexpected end of input");
    char c = r->s[r->pos];
    switch (c) {
    case '{': return parse_container(r, 1);
    case '[': return parse_container(r, 0);
    case '"': {
        const char *text;
        size_t n;
        if (parse_string(r, &text, &n, 1)) return -1;
        return sunk(r, r->sink->value(r->ud, JSON_STRING, text, n, 0));
    }
    default: break;
    }
    if (starts(r, "true")) { r->pos += 4; return sunk(r, r->sink->value(r->ud, JSON_TRUE, NULL, 0, 0)); }
    if (starts(r, "false")) { r->pos += 5; return sunk(r, r->sink->value(r->ud, JSON_FALSE, NULL, 0, 0)); }
    if (starts(r, "null")) { r->pos += 4; return sunk(r, r->sink->value(r->ud, JSON_NULL, NULL, 0, 0)); }
    if (starts(r, "NaN")) {
        if (r->mode != JSON_LENIENT) return fail(r, "NaN is not JSON (use lenient mode to accept it)");
        r->pos += 3;
        return sunk(r, r->sink->value(r->ud, JSON_NUMBER, NULL, 0, NAN));
    }
    if (c == '-' || (c >= '0' && c <= '9') || (c == 'I' && r->mode == JSON_LENIENT))
        return parse_number(r);
    if (c == 'I') return fail(r, "Infinity is not JSON (use lenient mode to accept it)");
    return fail(r, "unexpected character");
}

int json_read(const char *text, size_t len, int mode, const json_sink *sink, void *ud, char *scratch,
              json_error *err)
{
    reader r = {text, len, 0, mode, 0, err, sink, ud, scratch};
    err->message[0] = 0;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) r.pos = 3;   /* UTF-8 BOM */
    if (parse_value(&r)) return -1;
    skip_space(&r);
    if (r.pos != len) return fail(&r, "unexpected text after the JSON value");
    return 0;
}

/* ---- the cJSON tree sink ---- */

typedef struct {
    cJSON *root;
    cJSON *open[MAX_DEPTH + 1];   /* the containers being filled */
    int depth;
    char *key;                    /* the member name waiting for its value */
} tree_sink;

/* attaches a finished or new value to the innermost open container */
static int tree_put(tree_sink *t, cJSON *v)
{
    if (!v) return -1;
    if (t->depth == 0) { t->root = v; return 0; }
    cJSON *parent = t->open[t->depth - 1];
    if (cJSON_IsObject(parent)) {
        cJSON_AddItemToObject(parent, t->key, v);
        free(t->key);
        t->key = NULL;
    } else {
        cJSON_AddItemToArray(parent, v);
    }
    return 0;
}

static int tree_value(void *ud, int kind, const char *s, size_t len, double x)
{
    tree_sink *t = ud;
    switch (kind) {
    case JSON_STRING: {
        char *copy = malloc(len + 1);
        cJSON *item = copy ? cJSON_CreateString("") : NULL;
        if (!item) { free(copy); return -1; }
        memcpy(copy, s, len);
        copy[len] = 0;
        cJSON_free(item->valuestring);           /* keep the text with its length (it may hold NUL) */
        item->valuestring = copy;
        item->valueint = len > (size_t)INT_MAX ? -1 : (int)len;
        return tree_put(t, item);
    }
    case JSON_INTEGER: return tree_put(t, cJSON_CreateRaw(s));
    case JSON_NUMBER: return tree_put(t, cJSON_CreateNumber(x));
    case JSON_TRUE: return tree_put(t, cJSON_CreateTrue());
    case JSON_FALSE: return tree_put(t, cJSON_CreateFalse());
    default: return tree_put(t, cJSON_CreateNull());
    }
}

static int tree_begin(void *ud, int is_object)
{
    tree_sink *t = ud;
    cJSON *c = is_object ? cJSON_CreateObject() : cJSON_CreateArray();
    if (tree_put(t, c)) return -1;
    t->open[t->depth++] = c;
    return 0;
}

static int tree_key(void *ud, const char *s, size_t len)
{
    tree_sink *t = ud;
    free(t->key);
    t->key = malloc(len + 1);
    if (!t->key) return -1;
    memcpy(t->key, s, len);
    t->key[len] = 0;
    return 0;
}

static int tree_end(void *ud, int is_object)
{
    (void)is_object;
    ((tree_sink *)ud)->depth--;
    return 0;
}

cJSON *json_parse(const char *text, size_t len, int mode, json_error *err)
{
    static const json_sink sink = {tree_value, tree_begin, tree_key, tree_end};
    tree_sink *t = calloc(1, sizeof *t);
    char *scratch = malloc(len + 1);
    cJSON *root = NULL;
    if (!t || !scratch) {
        err->line = err->column = 1;
        err->offset = 0;
        snprintf(err->message, sizeof err->message, "out of memory");
    } else if (json_read(text, len, mode, &sink, t, scratch, err) == 0) {
        root = t->root;
    } else {
        cJSON_Delete(t->root);
    }
    if (t) free(t->key);
    free(t);
    free(scratch);
    return root;
}

void json_format_double(double x, char *buf)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, 32, "%.*g", prec, x);
        if (strtod(buf, NULL) == x) break;
    }
    if (!strpbrk(buf, ".eEn")) strcat(buf, ".0");   /* keep it a float when read back */
}
