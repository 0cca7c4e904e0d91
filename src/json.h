/* json.h — a JSON reader that builds a cJSON tree, and number formatting for
 * the writer. cJSON's own parser keeps numbers only as doubles and reports no
 * line numbers; this one keeps every integer literal exactly (as a cJSON_Raw
 * node holding its digits), reports line, column and byte offset, and in
 * lenient mode accepts the bare NaN / Infinity / -Infinity found in real
 * datasets. A string node's valueint holds its length in bytes (the text may
 * hold NUL bytes, from \u0000); -1 when it is too long for an int. Numbers
 * too large for a double (1e999) are refused. */
#ifndef TABULA_JSON_H
#define TABULA_JSON_H

#include <cJSON.h>
#include <stddef.h>

typedef struct {
    size_t line, column, offset;   /* 1-based line/column, 0-based byte offset */
    char message[160];
} json_error;

enum { JSON_STRICT = 0, JSON_LENIENT = 1 };

/* Parse text[0..len). Returns a tree the caller frees with cJSON_Delete, or
 * NULL with *err filled. Trailing non-space text is an error. */
cJSON *json_parse(const char *text, size_t len, int mode, json_error *err);

/* The same reader handing each value to a sink instead of building a tree
 * (the Lua binding builds Lua tables directly). A value is either value(), or
 * begin() ... end() around the members of a container; in an object, key()
 * comes before each member's value. A string's or key's text is s[0..len)
 * (not NUL-terminated; in the input or in scratch); a JSON_INTEGER's digits
 * are NUL-terminated in scratch. Valid until the next call. Every function
 * returns 0, or -1 when out of memory. */
enum { JSON_STRING, JSON_INTEGER /* s: the digits */, JSON_NUMBER /* x */, JSON_TRUE, JSON_FALSE, JSON_NULL };
typedef struct {
    int (*value)(void *ud, int kind, const char *s, size_t len, double x);
    int (*begin)(void *ud, int is_object);
    int (*key)(void *ud, const char *s, size_t len);
    int (*end)(void *ud, int is_object);
} json_sink;
#define JSON_MAX_DEPTH 512
/* 0, or -1 with *err filled. scratch holds at least len + 1 bytes. */
int json_read(const char *text, size_t len, int mode, const json_sink *sink, void *ud, char *scratch,
              json_error *err);

/* Format a finite double so that it reads back as the same double, always
 * with a '.' or an exponent ("15.0", "0.1", "1e+300"). buf needs 32 bytes. */
void json_format_double(double x, char *buf);

#endif
