/* http.h — HTTP requests through libcurl's multi interface, driven by the
 * tabula event loop (loop.h): curl's sockets are loop watches and its timeout
 * is a loop timer, so hundreds of transfers run at once without threads.
 * A finished transfer posts its token with loop_signal(); a streaming transfer
 * also posts its stream token whenever a chunk arrives. */
#ifndef TABULA_HTTP_H
#define TABULA_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include "loop.h"

typedef struct http_req http_req;

typedef struct {
    const char *method;          /* "GET", "POST", ... */
    const char *url;
    const char *const *headers;  /* "Name: value" strings, NULL-terminated (may be NULL) */
    const char *body;
    size_t body_len;
    long connect_timeout_ms;     /* 0: libcurl's default */
    long timeout_ms;             /* whole transfer; 0: none */
    long idle_timeout_ms;        /* abort when no byte arrives for this long; 0: none */
    int stream;                  /* deliver the body in chunks as it arrives */
    size_t max_bytes;            /* abort a body larger than this; 0: no limit */
} http_options;

/* Start a request. Returns NULL (with a message in err) when it cannot start. */
http_req *http_start(loop_t *lp, const http_options *o, char *err, size_t errlen);
uint64_t  http_done_token(const http_req *r);
uint64_t  http_stream_token(const http_req *r);
int       http_finished(const http_req *r);

/* After completion: status (0 on a transport error), headers and body. */
long        http_status(const http_req *r);
const char *http_headers(const http_req *r, size_t *len);
const char *http_body(const http_req *r, size_t *len);
/* Transport error: curl's code (0 if none) and message. */
int         http_error(const http_req *r, const char **message);
/* 1 when the transfer was aborted because the body passed max_bytes */
int         http_too_large(const http_req *r);
double      http_total_seconds(const http_req *r);

/* Streaming: take what arrived since the last call (the buffer is reset). */
const char *http_take_chunk(http_req *r, size_t *len);
void        http_chunk_consumed(http_req *r);

/* Abort (if running) and free. */
void http_free(http_req *r);
/* Number of transfers in flight. */
int  http_in_flight(void);
/* the loaded libcurl's version; NULL before the first request loads it */
const char *http_curl_version(void);

#endif
