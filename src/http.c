/* http.c — see http.h. */
#include "http.h"

#include "curl_api.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { char *data; size_t len, cap; } buf_t;

struct http_req {
    CURL *easy;
    struct curl_slist *headers; /* as sent, with "Expect:"; kept for a next request with the same headers */
    buf_t body;                 /* request body copy */
    buf_t resp_headers, resp_body, chunk;
    uint64_t done_token, stream_token;
    int stream, finished, curl_code;
    int in_multi;               /* added to the multi handle and not yet done */
    long status;
    double total;
    char errbuf[CURL_ERROR_SIZE];
    loop_t *lp;
    int chunk_signalled;
    size_t max_bytes, received;
    int too_large;
};

static CURLM *multi;
static loop_t *multi_loop;
/* finished requests, kept whole for the next one: the easy handle with its
 * fixed options, DNS cache and buffers, the header list and the reply
 * buffers; connections stay in the multi's pool */
#define SPARE_MAX 256
static http_req *spare[SPARE_MAX];
static int nspare;
/* a buffer that grew past this is freed rather than kept in a spare */
#define KEEP_BYTES (64 * 1024)
static uint64_t curl_timer;
static int in_flight;

static int buf_add(buf_t *b, const char *p, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1) cap *= 2;
        char *d = realloc(b->data, cap);
        if (!d) return -1;
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = 0;
    return 0;
}

static void check_done(void)
{
    CURLMsg *msg;
    int left;
    while ((msg = curl.multi_info_read(multi, &left))) {
        if (msg->msg != CURLMSG_DONE) continue;
        http_req *r = NULL;
        curl.easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&r);
        r->curl_code = (int)msg->data.result;
        curl.easy_getinfo(msg->easy_handle, CURLINFO_RESPONSE_CODE, &r->status);
        curl.easy_getinfo(msg->easy_handle, CURLINFO_TOTAL_TIME, &r->total);
        if (r->curl_code != CURLE_OK && !r->errbuf[0])
            snprintf(r->errbuf, sizeof r->errbuf, "%s", curl.easy_strerror(msg->data.result));
        curl.multi_remove_handle(multi, msg->easy_handle);
        r->in_multi = 0;
        r->finished = 1;
        in_flight--;
        loop_signal(r->lp, r->done_token);
        if (r->stream) loop_signal(r->lp, r->stream_token);
    }
}

static void on_socket_ready(void *ud, int fd, int events)
{
    (void)ud;
    int flags = ((events & LOOP_READ) ? CURL_CSELECT_IN : 0) | ((events & LOOP_WRITE) ? CURL_CSELECT_OUT : 0) |
                ((events & LOOP_ERROR) ? CURL_CSELECT_ERR : 0);
    int running;
    curl.multi_socket_action(multi, fd, flags, &running);
    check_done();
}

/* CURLMOPT_SOCKETFUNCTION: curl says which events it wants on a socket */
static int socket_cb(CURL *e, curl_socket_t s, int what, void *userp, void *socketp)
{
    (void)e; (void)userp; (void)socketp;
    int ev = what == CURL_POLL_IN ? LOOP_READ : what == CURL_POLL_OUT ? LOOP_WRITE :
             what == CURL_POLL_INOUT ? LOOP_READ | LOOP_WRITE : 0;
    loop_watch(multi_loop, s, what == CURL_POLL_REMOVE ? 0 : ev, on_socket_ready, NULL);
    return 0;
}

static void on_timer(void *ud, uint64_t id)
{
    (void)ud; (void)id;
    curl_timer = 0;
    int running;
    curl.multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &running);
    check_done();
}

/* CURLMOPT_TIMERFUNCTION: curl asks for one timer */
static int timer_cb(CURLM *m, long timeout_ms, void *userp)
{
    (void)m; (void)userp;
    if (curl_timer) { loop_timer_cancel(multi_loop, curl_timer); curl_timer = 0; }
    if (timeout_ms >= 0) curl_timer = loop_timer(multi_loop, loop_now() + (double)timeout_ms, on_timer, NULL);
    return 0;
}

/* libcurl is loaded and initialised on the first request, never at start */
static int ensure_multi(loop_t *lp, char *err, size_t errlen)
{
    if (multi) return 0;
    if (curl_api_load(err, errlen)) return -1;
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK || !(multi = curl.multi_init())) {
        snprintf(err, errlen, "cannot initialise libcurl");
        return -1;
    }
    multi_loop = lp;
    curl.multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, socket_cb);
    curl.multi_setopt(multi, CURLMOPT_TIMERFUNCTION, timer_cb);
    curl.multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, 0L);
    return 0;
}

static size_t on_body(char *p, size_t size, size_t n, void *ud)
{
    http_req *r = ud;
    size_t len = size * n;
    r->received += len;
    if (r->max_bytes && r->received > r->max_bytes) {
        r->too_large = 1;
        snprintf(r->errbuf, sizeof r->errbuf, "the reply is larger than %zu bytes", r->max_bytes);
        return 0;                                  /* aborts the transfer */
    }
    if (r->stream) {
        if (buf_add(&r->chunk, p, len)) return 0;
        if (!r->chunk_signalled) { r->chunk_signalled = 1; loop_signal(r->lp, r->stream_token); }
    } else if (buf_add(&r->resp_body, p, len)) {
        return 0;
    }
    return len;
}

static size_t on_header(char *p, size_t size, size_t n, void *ud)
{
    http_req *r = ud;
    size_t len = size * n;
    /* a new status line (redirect or 100-continue) starts the headers again */
    if (len >= 5 && memcmp(p, "HTTP/", 5) == 0) r->resp_headers.len = 0;
    return buf_add(&r->resp_headers, p, len) ? 0 : len;
}

/* a new request with its easy handle and the options every request shares */
static http_req *new_req(void)
{
    http_req *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    CURL *e = r->easy = curl.easy_init();
    if (!e) { free(r); return NULL; }
    curl.easy_setopt(e, CURLOPT_PRIVATE, r);
    curl.easy_setopt(e, CURLOPT_ERRORBUFFER, r->errbuf);
    curl.easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
    curl.easy_setopt(e, CURLOPT_WRITEDATA, r);
    curl.easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
    curl.easy_setopt(e, CURLOPT_HEADERDATA, r);
    curl.easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
    curl.easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
    return r;
}

/* 1 when the kept header list is exactly headers followed by "Expect:" */
static int same_headers(const struct curl_slist *l, const char *const *headers)
{
    for (const char *const *h = headers; h && *h; h++, l = l->next)
        if (!l || strcmp(l->data, *h) != 0) return 0;
    return l && !l->next && strcmp(l->data, "Expect:") == 0;
}

static void free_headers(http_req *r)
{
    curl.slist_free_all(r->headers);
    r->headers = NULL;
}

/* every option that differs between requests is set, so nothing of the last one stays */
static int set_request(http_req *r, const http_options *o)
{
    CURL *e = r->easy;
    curl.easy_setopt(e, CURLOPT_URL, o->url);
    curl.easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, o->connect_timeout_ms > 0 ? o->connect_timeout_ms : 0L);
    curl.easy_setopt(e, CURLOPT_TIMEOUT_MS, o->timeout_ms > 0 ? o->timeout_ms : 0L);
    curl.easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, o->idle_timeout_ms > 0 ? 1L : 0L);
    curl.easy_setopt(e, CURLOPT_LOW_SPEED_TIME, o->idle_timeout_ms > 0 ? (o->idle_timeout_ms + 999) / 1000 : 0L);
    const char *method = o->method ? o->method : "GET";
    if (o->body) {
        r->body.len = 0;
        if (buf_add(&r->body, o->body, o->body_len)) return -1;
        curl.easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)o->body_len);
        curl.easy_setopt(e, CURLOPT_POSTFIELDS, r->body.data);
    } else {               /* POSTFIELDS switches to POST: back to GET after it */
        curl.easy_setopt(e, CURLOPT_POSTFIELDS, NULL);
        curl.easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)-1);
        curl.easy_setopt(e, CURLOPT_HTTPGET, 1L);
    }
    curl.easy_setopt(e, CURLOPT_CUSTOMREQUEST, strcmp(method, "GET") != 0 ? method : NULL);
    if (!r->headers || !same_headers(r->headers, o->headers)) {
        free_headers(r);
        struct curl_slist *l = NULL, *t;
        for (const char *const *h = o->headers; h && *h; h++) {
            if (!(t = curl.slist_append(l, *h))) { curl.slist_free_all(l); return -1; }
            l = t;
        }
        if (!(t = curl.slist_append(l, "Expect:"))) { curl.slist_free_all(l); return -1; }  /* no 100-continue round trip */
        r->headers = t;
    }
    curl.easy_setopt(e, CURLOPT_HTTPHEADER, r->headers);
    return 0;
}

http_req *http_start(loop_t *lp, const http_options *o, char *err, size_t errlen)
{
    if (ensure_multi(lp, err, errlen)) return NULL;
    http_req *r = nspare > 0 ? spare[--nspare] : new_req();
    if (!r) { snprintf(err, errlen, "cannot create a curl handle (out of memory)"); return NULL; }
    r->lp = lp;
    r->stream = o->stream;
    r->max_bytes = o->max_bytes;
    r->done_token = loop_token(lp);
    r->stream_token = loop_token(lp);
    if (set_request(r, o)) { http_free(r); snprintf(err, errlen, "out of memory"); return NULL; }
    CURLMcode mc = curl.multi_add_handle(multi, r->easy);
    if (mc != CURLM_OK) {
        snprintf(err, errlen, "cannot start the transfer: %s", curl.multi_strerror(mc));
        http_free(r);
        return NULL;
    }
    r->in_multi = 1;
    in_flight++;
    return r;
}

uint64_t http_done_token(const http_req *r) { return r->done_token; }
uint64_t http_stream_token(const http_req *r) { return r->stream_token; }
int http_finished(const http_req *r) { return r->finished; }
long http_status(const http_req *r) { return r->status; }
double http_total_seconds(const http_req *r) { return r->total; }

const char *http_headers(const http_req *r, size_t *len)
{
    *len = r->resp_headers.len;
    return r->resp_headers.data ? r->resp_headers.data : "";
}

const char *http_body(const http_req *r, size_t *len)
{
    *len = r->resp_body.len;
    return r->resp_body.data ? r->resp_body.data : "";
}

int http_error(const http_req *r, const char **message)
{
    *message = r->errbuf;
    return r->curl_code;
}

int http_too_large(const http_req *r) { return r->too_large; }

const char *http_take_chunk(http_req *r, size_t *len)
{
    *len = r->chunk.len;
    return r->chunk.data ? r->chunk.data : "";
}

void http_chunk_consumed(http_req *r)
{
    r->chunk.len = 0;
    r->chunk_signalled = 0;
}

static void buf_keep(buf_t *b)
{
    if (b->cap > KEEP_BYTES) { free(b->data); b->data = NULL; b->cap = 0; }
    b->len = 0;
}

void http_free(http_req *r)
{
    if (!r) return;
    if (r->in_multi) {
        curl.multi_remove_handle(multi, r->easy);
        in_flight--;
    }
    if (nspare < SPARE_MAX) {      /* kept whole: only what belongs to one request is cleared */
        buf_keep(&r->body);
        buf_keep(&r->resp_headers);
        buf_keep(&r->resp_body);
        buf_keep(&r->chunk);
        CURL *e = r->easy;
        struct curl_slist *headers = r->headers;
        buf_t body = r->body, h = r->resp_headers, b = r->resp_body, c = r->chunk;
        memset(r, 0, sizeof *r);
        r->easy = e;
        r->headers = headers;
        r->body = body, r->resp_headers = h, r->resp_body = b, r->chunk = c;
        spare[nspare++] = r;
        return;
    }
    curl.easy_cleanup(r->easy);
    free_headers(r);
    free(r->body.data);
    free(r->resp_headers.data);
    free(r->resp_body.data);
    free(r->chunk.data);
    free(r);
}

int http_in_flight(void) { return in_flight; }

const char *http_curl_version(void)
{
    return curl_api_loaded() ? curl.version_info(CURLVERSION_NOW)->version : NULL;
}
