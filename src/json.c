/* json.c — see json.h. A recursive-descent reader over a byte buffer. */
#include "json.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 512

typedef struct {
    const char *s;
    size_t len, pos;
    int mode, depth;
    json_error *err;
} reader;

static cJSON *fail(reader *r, const char *msg)
{
    if (r->err->message[0]) return NULL;           /* keep the innermost message */
    size_t line = 1, col = 1;
    for (size_t i = 0; i < r->pos && i < r->len; i++) {
        if (r->s[i] == '\n') { line++; col = 1; }
        else if (((unsigned char)r->s[i] & 0xC0) != 0x80) col++;   /* count characters */
    }
    r->err->line = line;
    r->err->column = col;
    r->err->offset = r->pos;
    snprintf(r->err->message, sizeof r->err->message, "%s", msg);
    return NULL;
}

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

static cJSON *parse_value(reader *r);

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

/* Reads a string literal at r->pos (which is at '"'); returns malloc'd text
 * and its length in *outlen (the text may hold NUL bytes from \u0000 when
 * allow_nul is set; object keys may not). */
static char *parse_string(reader *r, size_t *outlen, int allow_nul)
{
    size_t start = ++r->pos;
    while (r->pos < r->len && r->s[r->pos] != '"') {   /* find the end: bounds the output size */
        if (r->s[r->pos] == '\\') r->pos++;
        r->pos++;
    }
    if (r->pos >= r->len) { r->pos = start - 1; fail(r, "unterminated string"); return NULL; }
    char *out = malloc((r->pos - start) + 1), *o = out;
    if (!out) { fail(r, "out of memory"); return NULL; }
    r->pos = start;
    while (r->s[r->pos] != '"') {
        unsigned char c = (unsigned char)r->s[r->pos];
        if (c < 0x20) { free(out); fail(r, "control character in string (escape it)"); return NULL; }
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
            if (!hex4(r, &cp)) { free(out); fail(r, "bad \\u escape (need 4 hex digits)"); return NULL; }
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                if (starts(r, "\\u")) {
                    r->pos += 2;
                    if (!hex4(r, &lo) || lo < 0xDC00 || lo > 0xDFFF) {
                        free(out); fail(r, "bad UTF-16 surrogate pair"); return NULL;
                    }
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                } else { free(out); fail(r, "lone UTF-16 high surrogate"); return NULL; }
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                free(out); fail(r, "lone UTF-16 low surrogate"); return NULL;
            }
            if (cp == 0 && !allow_nul) { free(out); fail(r, "\\u0000 is not supported in object keys"); return NULL; }
            o += put_utf8(o, cp);
            break;
        }
        default:
            r->pos -= 2;
            free(out);
            fail(r, "unknown escape in string");
            return NULL;
        }
    }
    r->pos++;
    *o = 0;
    if (outlen) *outlen = (size_t)(o - out);
    return out;
}

static cJSON *parse_number(reader *r)
{
    size_t start = r->pos;
    const char *s = r->s;
    int is_int = 1;
    if (r->pos < r->len && s[r->pos] == '-') r->pos++;
    if (r->mode == JSON_LENIENT && starts(r, "Infinity")) {
        r->pos += 8;
        return cJSON_CreateNumber(s[start] == '-' ? -INFINITY : INFINITY);
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
    char buf[64], *text = n < sizeof buf ? buf : malloc(n + 1);
    if (!text) return fail(r, "out of memory");
    memcpy(text, s + start, n);
    text[n] = 0;
    double x = strtod(text, NULL);              /* an integer too long for a double is refused too */
    cJSON *item = NULL;
    if (isfinite(x)) item = is_int ? cJSON_CreateRaw(text) : cJSON_CreateNumber(x);
    if (text != buf) free(text);
    if (!isfinite(x)) { r->pos = start; return fail(r, "number out of range (it cannot be kept exactly)"); }
    return item ? item : fail(r, "out of memory");
}

static cJSON *parse_container(reader *r, int is_object)
{
    char close = is_object ? '}' : ']';
    if (++r->depth > MAX_DEPTH) return fail(r, "nesting too deep");
    r->pos++;
    cJSON *node = is_object ? cJSON_CreateObject() : cJSON_CreateArray();
    if (!node) return fail(r, "out of memory");
    skip_space(r);
    if (r->pos < r->len && r->s[r->pos] == close) { r->pos++; r->depth--; return node; }
    for (;;) {
        char *key = NULL;
        skip_space(r);
        if (is_object) {
            if (r->pos >= r->len || r->s[r->pos] != '"') {
                cJSON_Delete(node);
                return fail(r, r->pos >= r->len ? "unexpected end of input in object" : "expected a string key");
            }
            if (!(key = parse_string(r, NULL, 0))) { cJSON_Delete(node); return NULL; }
            skip_space(r);
            if (r->pos >= r->len || r->s[r->pos] != ':') {
                free(key); cJSON_Delete(node); return fail(r, "expected ':' after key");
            }
            r->pos++;
        }
        cJSON *v = parse_value(r);
        if (!v) { free(key); cJSON_Delete(node); return NULL; }
        if (is_object) {
            cJSON_AddItemToObject(node, key, v);
            free(key);
        } else {
            cJSON_AddItemToArray(node, v);
        }
        skip_space(r);
        if (r->pos < r->len && r->s[r->pos] == ',') { r->pos++; continue; }
        if (r->pos < r->len && r->s[r->pos] == close) { r->pos++; break; }
        cJSON_Delete(node);
        if (r->pos >= r->len) return fail(r, is_object ? "unexpected end of input in object" : "unexpected end of input in array");
        return fail(r, is_object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
    r->depth--;
    return node;
}

static cJSON *parse_value(reader *r)
{
    skip_space(r);
    if (r->pos >= r->len) return fail(r, "unexpected end of input");
    char c = r->s[r->pos];
    switch (c) {
    case '{': return parse_container(r, 1);
    case '[': return parse_container(r, 0);
    case '"': {
        size_t n;
        char *s = parse_string(r, &n, 1);
        if (!s) return NULL;
        cJSON *item = cJSON_CreateString("");
        if (!item) { free(s); return fail(r, "out of memory"); }
        cJSON_free(item->valuestring);           /* keep the text with its length (it may hold NUL) */
        item->valuestring = s;
        item->valueint = n > (size_t)INT_MAX ? -1 : (int)n;
        return item;
    }
    default: break;
    }
    if (starts(r, "true")) { r->pos += 4; return cJSON_CreateTrue(); }
    if (starts(r, "false")) { r->pos += 5; return cJSON_CreateFalse(); }
    if (starts(r, "null")) { r->pos += 4; return cJSON_CreateNull(); }
    if (starts(r, "NaN")) {
        if (r->mode != JSON_LENIENT) return fail(r, "NaN is not JSON (use lenient mode to accept it)");
        r->pos += 3;
        return cJSON_CreateNumber(NAN);
    }
    if (c == '-' || (c >= '0' && c <= '9') || (c == 'I' && r->mode == JSON_LENIENT))
        return parse_number(r);
    if (c == 'I') return fail(r, "Infinity is not JSON (use lenient mode to accept it)");
    return fail(r, "unexpected character");
}

cJSON *json_parse(const char *text, size_t len, int mode, json_error *err)
{
    reader r = {text, len, 0, mode, 0, err};
    err->message[0] = 0;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) r.pos = 3;   /* UTF-8 BOM */
    cJSON *v = parse_value(&r);
    if (!v) return NULL;
    skip_space(&r);
    if (r.pos != len) {
        cJSON_Delete(v);
        return fail(&r, "unexpected text after the JSON value");
    }
    return v;
}

void json_format_double(double x, char *buf)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, 32, "%.*g", prec, x);
        if (strtod(buf, NULL) == x) break;
    }
    if (!strpbrk(buf, ".eEn")) strcat(buf, ".0");   /* keep it a float when read back */
}
