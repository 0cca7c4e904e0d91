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

/* Format a finite double so that it reads back as the same double, always
 * with a '.' or an exponent ("15.0", "0.1", "1e+300"). buf needs 32 bytes. */
void json_format_double(double x, char *buf);

#endif
