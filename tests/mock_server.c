/* mock_server.c — a model server for tests: listens on loopback and answers in
 * the wire formats of the OpenAI Responses and chat completions, Anthropic
 * Messages and Google Gemini generateContent APIs (plain and streaming), from
 * a script. It refuses, with a 400 in the service's words, what the service
 * refuses for the model named in the request (mock_families.c): thinking modes
 * and sampling parameters a family does not take, and reasoning carried wrongly
 * (a changed signature or encrypted item, a reasoned turn sent back without
 * it). Reasoning comes back signed: Anthropic thinking blocks with a signature
 * (the thinking text empty unless display "summarized" is asked of an
 * adaptive model), Responses reasoning items (summary when asked, encrypted
 * content when included), Gemini thought parts (with includeThoughts) and a
 * thoughtSignature on the answer's part.
 *
 *   mock_server [--port N] [--script FILE] [--delay-ms N]
 * prints "listening on PORT" once ready. The script is JSONL; each line a rule,
 * tried in order, the first that applies answers:
 *   {"match": "text in the last user message", "times": 1,
 *    "reply": "...", "reasoning": "...", "finish": "stop",
 *    "usage": {"input": 10, "cached": 2, "cache_write": 4, "output": 5, "reasoning": 3},
 *    "fault": "429|500|503|400|401|403|404|drop|malformed|sse_cut|bad_bytes|error200|
 *             null_content|number_content|trickle|big", "retry_after": 1,
 *    "delay_ms": 100, "echo_auth": true, "redacted": true}
 * bad_bytes: content with invalid UTF-8 and an escaped NUL; error200: a 200
 * reply holding {"error": ...}; null_content / number_content: content
 * (each provider's) that is not text; trickle: a 200 stream that sends one byte every 100 ms for
 * 10 s and never finishes; big: a 1 MB reply; echo_auth: the error message
 * repeats the request's Authorization header (a server that echoes keys).
 * redacted: an Anthropic reply with reasoning also holds a redacted_thinking block.
 * "tool_calls": [{"name": ..., "arguments": {...}}]: the reply calls these tools
 * (mock_tools.c; "reply" then defaults to no text). A rule's "match" is looked
 * for in the user side of the request after the last assistant turn: user
 * messages and tool results alike.
 * "agent": {"pick": "first"|"random", "seed": N, "until": "act"|"over",
 * "max_refused": 3} (or true): the model behind an agent program (mock_tools.c,
 * mt_agent): it calls the offered tool ending in "observe", then the one ending
 * in "act" with a legal action id read from the result, then answers "done"; a
 * request offering no act tool goes to the next rule.
 * "match" absent: any request; "times" absent: no limit. With no rule left the
 * reply is "ok". Control endpoints: GET /_stats, GET /_log (JSONL of requests),
 * POST /_reset (usage counts and log), POST /_script (replace the rules).
 * The batch APIs of the three services are in mock_batch.c (a rule with
 * "batch_seconds" is a delay, not an answer: the items it matches take that
 * many mock seconds in a batch, "times" of them; POST /_batch {"step"}:
 * the mock seconds a poll advances a batch); /_stats counts batch_creates,
 * batches, batch_polls and every HTTP request (http) beside the model
 * requests answered (requests, batch items included). */

#include <arpa/inet.h>
#include <cJSON.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "mock_batch.h"
#include "mock_families.h"
#include "mock_tools.h"

typedef struct {
    char *match, *reply, *reasoning, *finish, *fault, *tool_calls, *agent;
    int times, used, retry_after, delay_ms, echo_auth;
    int u_input, u_cached, u_output, u_reasoning;   /* -1: computed */
    int u_cache_write, redacted;
    int batch_seconds;             /* -1: the default */
} rule;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static rule *rules;
static int nrules;
static long requests, http_requests;   /* model requests answered (batch items too); every HTTP request */
static int active, max_active;     /* model requests being answered now, and the most at once */
static int global_delay_ms;
static char *req_log;
static size_t log_len, log_cap;

static char *dupstr(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? strdup(v->valuestring) : NULL;
}

static int getint(const cJSON *o, const char *k, int dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? (int)v->valuedouble : dflt;
}

static void free_rules(void)
{
    for (int i = 0; i < nrules; i++) {
        free(rules[i].match); free(rules[i].reply); free(rules[i].reasoning);
        free(rules[i].finish); free(rules[i].fault); free(rules[i].tool_calls); free(rules[i].agent);
    }
    free(rules);
    rules = NULL;
    nrules = 0;
}

/* Load rules from JSONL text; returns -1 on a bad line. */
static int load_rules(const char *text)
{
    free_rules();
    const char *p = text;
    int line = 0;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        line++;
        char *l = strndup(p, n);
        p += n + (eol ? 1 : 0);
        int blank = 1;
        for (char *q = l; *q; q++) if (*q != ' ' && *q != '\r' && *q != '\t') blank = 0;
        if (blank) { free(l); continue; }
        cJSON *o = cJSON_Parse(l);
        free(l);
        if (!o) { fprintf(stderr, "mock_server: script line %d is not JSON\n", line); return -1; }
        rules = realloc(rules, sizeof(rule) * (size_t)(nrules + 1));
        rule *r = &rules[nrules++];
        memset(r, 0, sizeof *r);
        r->match = dupstr(o, "match");
        r->reply = dupstr(o, "reply");
        r->reasoning = dupstr(o, "reasoning");
        r->finish = dupstr(o, "finish");
        r->fault = dupstr(o, "fault");
        const cJSON *tc = cJSON_GetObjectItemCaseSensitive(o, "tool_calls");
        r->tool_calls = tc ? cJSON_PrintUnformatted(tc) : NULL;
        const cJSON *ag = cJSON_GetObjectItemCaseSensitive(o, "agent");
        r->agent = ag && !cJSON_IsFalse(ag) && !cJSON_IsNull(ag) ? cJSON_PrintUnformatted(ag) : NULL;
        r->times = getint(o, "times", -1);
        r->retry_after = getint(o, "retry_after", 1);
        r->delay_ms = getint(o, "delay_ms", 0);
        r->echo_auth = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "echo_auth"));
        const cJSON *u = cJSON_GetObjectItemCaseSensitive(o, "usage");
        r->u_input = getint(u, "input", -1);
        r->u_cached = getint(u, "cached", 0);
        r->u_cache_write = getint(u, "cache_write", 0);
        r->redacted = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "redacted"));
        r->batch_seconds = getint(o, "batch_seconds", -1);
        r->u_output = getint(u, "output", -1);
        r->u_reasoning = getint(u, "reasoning", -1);
        cJSON_Delete(o);
    }
    return 0;
}

/* ---- connection I/O ---- */

static int send_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0) { if (errno == EINTR) continue; return -1; }
        p += w; n -= (size_t)w;
    }
    return 0;
}

static void sleep_ms(int ms)
{
    if (ms <= 0) return;
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) && errno == EINTR) {}
}

static int respond(int fd, int status, const char *ctype, const char *extra, const char *body)
{
    char head[512];
    const char *reason = status == 200 ? "OK" : status == 429 ? "Too Many Requests" : status == 400 ? "Bad Request" :
                         status == 401 ? "Unauthorized" : status == 403 ? "Forbidden" : status == 404 ? "Not Found" :
                         status == 503 ? "Service Unavailable" :
                         "Internal Server Error";
    int n = snprintf(head, sizeof head, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n%s\r\n",
                     status, reason, ctype, strlen(body), extra ? extra : "");
    return send_all(fd, head, (size_t)n) || send_all(fd, body, strlen(body));
}

/* ---- what the request asked ---- */

/* append the texts of a content (a string, or parts/blocks with "text") */
static void add_texts(char **out, size_t *len, size_t *cap, const cJSON *content)
{
    const cJSON *part;
    if (cJSON_IsString(content)) {
        size_t n = strlen(content->valuestring);
        while (*len + n + 2 > *cap) *out = realloc(*out, *cap *= 2);
        memcpy(*out + *len, content->valuestring, n);
        *len += n;
        (*out)[(*len)++] = '\n';
        (*out)[*len] = 0;
        return;
    }
    cJSON_ArrayForEach(part, content) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(part, "text");
        const cJSON *fr = cJSON_GetObjectItemCaseSensitive(part, "functionResponse");
        const cJSON *inner = cJSON_GetObjectItemCaseSensitive(part, "content");
        if (cJSON_IsString(t)) add_texts(out, len, cap, t);
        else if (fr) add_texts(out, len, cap, cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(fr, "response"), "result"));
        else if (inner) add_texts(out, len, cap, inner);     /* an Anthropic tool_result */
    }
}

/* the text of the user side after the last assistant turn (user messages and
 * tool results), in each provider's shape */
static char *last_user_text(provider pv, const cJSON *req)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(req, pv == P_GEMINI ? "contents" : pv == P_RESPONSES ? "input" : "messages");
    const cJSON *m;
    size_t cap = 256, len = 0;
    char *out = calloc(1, cap);
    cJSON_ArrayForEach(m, list) {
        const cJSON *role = cJSON_GetObjectItemCaseSensitive(m, "role");
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(m, "type");
        const char *r = cJSON_IsString(role) ? role->valuestring : "";
        const char *t = cJSON_IsString(type) ? type->valuestring : "";
        if (!strcmp(r, "assistant") || !strcmp(r, "model") || !strcmp(t, "reasoning") || !strcmp(t, "function_call") ||
            (!strcmp(t, "message") && !strcmp(r, "assistant"))) {
            len = 0;
            out[0] = 0;
        } else if (!strcmp(r, "user") || !strcmp(r, "tool")) {
            add_texts(&out, &len, &cap, cJSON_GetObjectItemCaseSensitive(m, pv == P_GEMINI ? "parts" : "content"));
        } else if (!strcmp(t, "function_call_output")) {
            add_texts(&out, &len, &cap, cJSON_GetObjectItemCaseSensitive(m, "output"));
        }
    }
    return out;
}

static int wants_stream(provider pv, const cJSON *req, const char *path)
{
    if (pv == P_GEMINI) return strstr(path, ":streamGenerateContent") != NULL;
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(req, "stream"));
}

static const char *model_of(provider pv, const cJSON *req, const char *path, char *buf, size_t n)
{
    if (pv == P_GEMINI) {
        const char *m = strstr(path, "/models/");
        if (!m) return "unknown";
        m += 8;
        size_t k = strcspn(m, ":?");
        snprintf(buf, n, "%.*s", (int)k, m);
        return buf;
    }
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(req, "model");
    return cJSON_IsString(v) ? v->valuestring : "unknown";
}

/* ---- bodies ---- */

static char *error_body(provider pv, int status, const char *msg)
{
    cJSON *o = cJSON_CreateObject(), *e = cJSON_CreateObject();
    if (pv == P_ANTHROPIC) {
        cJSON_AddStringToObject(o, "type", "error");
        cJSON_AddStringToObject(e, "type", status == 429 ? "rate_limit_error" : status >= 500 ? "api_error" : "invalid_request_error");
    } else if (pv == P_GEMINI) {
        cJSON_AddNumberToObject(e, "code", status);
        cJSON_AddStringToObject(e, "status", status == 429 ? "RESOURCE_EXHAUSTED" : status >= 500 ? "INTERNAL" : "INVALID_ARGUMENT");
    } else {
        cJSON_AddStringToObject(e, "type", status == 429 ? "rate_limit_exceeded" : status >= 500 ? "server_error" : "invalid_request_error");
    }
    cJSON_AddStringToObject(e, "message", msg);
    cJSON_AddItemToObject(o, "error", e);
    char *s = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return s;
}

typedef struct {
    const char *text, *reasoning, *finish;
    int in, cached, out, rsn, cache_write;
    int show_thinking;            /* Anthropic: the thinking text is returned (else empty, still signed) */
    int summary, encrypted;       /* Responses: reasoning summary asked; encrypted content included */
    int thoughts;                 /* Gemini: includeThoughts */
    int redacted;                 /* Anthropic: a redacted_thinking block before the thinking */
    char sig[24], rs_id[24], enc[24];
    char mid[32];                 /* this reply's id ("mock" and 16 hex digits of the request's hash): message, response
                                   * and chunk ids differ between the requests of a conversation, as the services'
                                   * do (a program may merge what shares an id) */
    mock_calls calls;             /* the tools the reply calls */
} answer;

static void add_openai_usage(cJSON *o, const answer *a)
{
    cJSON *u = cJSON_AddObjectToObject(o, "usage");
    cJSON_AddNumberToObject(u, "prompt_tokens", a->in);
    cJSON_AddNumberToObject(u, "completion_tokens", a->out);
    cJSON_AddNumberToObject(u, "total_tokens", a->in + a->out);
    cJSON_AddNumberToObject(cJSON_AddObjectToObject(u, "prompt_tokens_details"), "cached_tokens", a->cached);
    cJSON_AddNumberToObject(cJSON_AddObjectToObject(u, "completion_tokens_details"), "reasoning_tokens", a->rsn);
}

static void add_gemini_usage(cJSON *o, const answer *a)
{
    cJSON *u = cJSON_AddObjectToObject(o, "usageMetadata");
    cJSON_AddNumberToObject(u, "promptTokenCount", a->in);
    cJSON_AddNumberToObject(u, "cachedContentTokenCount", a->cached);
    cJSON_AddNumberToObject(u, "candidatesTokenCount", a->out - a->rsn);
    cJSON_AddNumberToObject(u, "thoughtsTokenCount", a->rsn);
    cJSON_AddNumberToObject(u, "totalTokenCount", a->in + a->out);
}

static void add_responses_usage(cJSON *o, const answer *a)
{
    cJSON *u = cJSON_AddObjectToObject(o, "usage");
    cJSON_AddNumberToObject(u, "input_tokens", a->in);
    cJSON_AddNumberToObject(cJSON_AddObjectToObject(u, "input_tokens_details"), "cached_tokens", a->cached);
    cJSON_AddNumberToObject(u, "output_tokens", a->out);
    cJSON_AddNumberToObject(cJSON_AddObjectToObject(u, "output_tokens_details"), "reasoning_tokens", a->rsn);
    cJSON_AddNumberToObject(u, "total_tokens", a->in + a->out);
}

/* a Responses reasoning item: its summary when asked, its encrypted content when included */
static cJSON *reasoning_item(const answer *a)
{
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "type", "reasoning");
    cJSON_AddStringToObject(r, "id", a->rs_id);
    cJSON *sum = cJSON_AddArrayToObject(r, "summary");
    if (a->summary) {
        cJSON *t = cJSON_CreateObject();
        cJSON_AddStringToObject(t, "type", "summary_text");
        cJSON_AddStringToObject(t, "text", a->reasoning);
        cJSON_AddItemToArray(sum, t);
    }
    if (a->encrypted) cJSON_AddStringToObject(r, "encrypted_content", a->enc);
    return r;
}

/* an Anthropic redacted_thinking block: opaque data the client returns unchanged */
static cJSON *redacted_block(const answer *a)
{
    cJSON *b = cJSON_CreateObject();
    char data[40];
    snprintf(data, sizeof data, "red-%s", a->sig);
    cJSON_AddStringToObject(b, "type", "redacted_thinking");
    cJSON_AddStringToObject(b, "data", data);
    return b;
}

static cJSON *message_item(const answer *a, const char *text)
{
    cJSON *m = cJSON_CreateObject();
    char id[48];
    snprintf(id, sizeof id, "msg_%s", a->mid);
    cJSON_AddStringToObject(m, "type", "message");
    cJSON_AddStringToObject(m, "id", id);
    cJSON_AddStringToObject(m, "status", "completed");
    cJSON_AddStringToObject(m, "role", "assistant");
    cJSON *c = cJSON_AddArrayToObject(m, "content"), *t = cJSON_CreateObject();
    cJSON_AddStringToObject(t, "type", "output_text");
    cJSON_AddStringToObject(t, "text", text);
    cJSON_AddArrayToObject(t, "annotations");
    cJSON_AddItemToArray(c, t);
    return m;
}

static char *full_body(provider pv, const char *model, const answer *a)
{
    cJSON *o = cJSON_CreateObject();
    char id[48];
    if (pv == P_OPENAI) {
        snprintf(id, sizeof id, "chatcmpl-%s", a->mid);
        cJSON_AddStringToObject(o, "id", id);
        cJSON_AddStringToObject(o, "object", "chat.completion");
        cJSON_AddNumberToObject(o, "created", 0);
        cJSON_AddStringToObject(o, "model", model);
        cJSON *choices = cJSON_AddArrayToObject(o, "choices"), *c = cJSON_CreateObject(), *m = cJSON_CreateObject();
        cJSON_AddNumberToObject(c, "index", 0);
        cJSON_AddStringToObject(m, "role", "assistant");
        if (a->calls.n && !*a->text) cJSON_AddNullToObject(m, "content");
        else cJSON_AddStringToObject(m, "content", a->text);
        if (a->reasoning) cJSON_AddStringToObject(m, "reasoning_content", a->reasoning);
        if (a->calls.n) cJSON_AddItemToObject(m, "tool_calls", mt_chat_calls(&a->calls));
        cJSON_AddItemToObject(c, "message", m);
        cJSON_AddStringToObject(c, "finish_reason", a->calls.n ? "tool_calls" : a->finish);
        cJSON_AddItemToArray(choices, c);
        add_openai_usage(o, a);
    } else if (pv == P_ANTHROPIC) {
        snprintf(id, sizeof id, "msg_%s", a->mid);
        cJSON_AddStringToObject(o, "id", id);
        cJSON_AddStringToObject(o, "type", "message");
        cJSON_AddStringToObject(o, "role", "assistant");
        cJSON_AddStringToObject(o, "model", model);
        cJSON *content = cJSON_AddArrayToObject(o, "content");
        if (a->reasoning && a->redacted) cJSON_AddItemToArray(content, redacted_block(a));
        if (a->reasoning) {
            cJSON *t = cJSON_CreateObject();
            cJSON_AddStringToObject(t, "type", "thinking");
            cJSON_AddStringToObject(t, "thinking", a->show_thinking ? a->reasoning : "");
            cJSON_AddStringToObject(t, "signature", a->sig);
            cJSON_AddItemToArray(content, t);
        }
        if (*a->text || !a->calls.n) {
            cJSON *t = cJSON_CreateObject();
            cJSON_AddStringToObject(t, "type", "text");
            cJSON_AddStringToObject(t, "text", a->text);
            cJSON_AddItemToArray(content, t);
        }
        mt_anthropic_blocks(content, &a->calls);
        cJSON_AddStringToObject(o, "stop_reason", a->calls.n ? "tool_use" : strcmp(a->finish, "length") == 0 ? "max_tokens" : "end_turn");
        cJSON *u = cJSON_AddObjectToObject(o, "usage");
        cJSON_AddNumberToObject(u, "input_tokens", a->in - a->cached - a->cache_write);
        cJSON_AddNumberToObject(u, "cache_read_input_tokens", a->cached);
        cJSON_AddNumberToObject(u, "cache_creation_input_tokens", a->cache_write);
        cJSON_AddNumberToObject(u, "output_tokens", a->out);
    } else if (pv == P_RESPONSES) {
        snprintf(id, sizeof id, "resp_%s", a->mid);
        cJSON_AddStringToObject(o, "id", id);
        cJSON_AddStringToObject(o, "object", "response");
        cJSON_AddStringToObject(o, "model", model);
        cJSON_AddStringToObject(o, "status", strcmp(a->finish, "length") == 0 ? "incomplete" : "completed");
        if (strcmp(a->finish, "length") == 0)
            cJSON_AddStringToObject(cJSON_AddObjectToObject(o, "incomplete_details"), "reason", "max_output_tokens");
        cJSON *output = cJSON_AddArrayToObject(o, "output");
        if (a->reasoning) cJSON_AddItemToArray(output, reasoning_item(a));
        mt_responses_items(output, &a->calls);
        if (*a->text || !a->calls.n) cJSON_AddItemToArray(output, message_item(a, a->text));
        add_responses_usage(o, a);
    } else {
        cJSON *cands = cJSON_AddArrayToObject(o, "candidates"), *c = cJSON_CreateObject();
        cJSON *content = cJSON_AddObjectToObject(c, "content");
        cJSON_AddStringToObject(content, "role", "model");
        cJSON *parts = cJSON_AddArrayToObject(content, "parts");
        if (a->reasoning && a->thoughts) {
            cJSON *p = cJSON_CreateObject();
            cJSON_AddStringToObject(p, "text", a->reasoning);
            cJSON_AddTrueToObject(p, "thought");
            cJSON_AddItemToArray(parts, p);
        }
        if (*a->text || !a->calls.n) {
            cJSON *p = cJSON_CreateObject();
            cJSON_AddStringToObject(p, "text", a->text);
            if (a->reasoning) cJSON_AddStringToObject(p, "thoughtSignature", a->sig);
            cJSON_AddItemToArray(parts, p);
        }
        mt_gemini_parts(parts, &a->calls);
        cJSON_AddStringToObject(c, "finishReason", strcmp(a->finish, "length") == 0 ? "MAX_TOKENS" : "STOP");
        cJSON_AddItemToArray(cands, c);
        add_gemini_usage(o, a);
    }
    char *s = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return s;
}

/* one server-sent event */
static int sse(int fd, const char *event, cJSON *data)
{
    char *d = cJSON_PrintUnformatted(data);
    cJSON_Delete(data);
    char head[128] = "";
    if (event) snprintf(head, sizeof head, "event: %s\n", event);
    int r = send_all(fd, head, strlen(head)) || send_all(fd, "data: ", 6) || send_all(fd, d, strlen(d)) ||
            send_all(fd, "\n\n", 2);
    free(d);
    return r;
}

/* text split in pieces of about 8 bytes (not inside a UTF-8 sequence) */
static size_t piece_len(const char *s)
{
    size_t n = strlen(s), k = n < 8 ? n : 8;
    while (k < n && ((unsigned char)s[k] & 0xC0) == 0x80) k++;
    return k;
}

/* a Responses event: {"type": type, extra...} */
static int rsse(int fd, const char *type, cJSON *o)
{
    cJSON_AddStringToObject(o, "type", type);
    return sse(fd, type, o);
}

/* the Responses API's events: output items added and done, text and summary
 * deltas, and the whole response in response.completed (or .incomplete) */
static void stream_responses(int fd, const char *model, const answer *a, int cut)
{
    int events = 0, index = 0;
    cJSON *o = cJSON_CreateObject(), *r = cJSON_AddObjectToObject(o, "response");
    char rid[48];
    snprintf(rid, sizeof rid, "resp_%s", a->mid);
    cJSON_AddStringToObject(r, "id", rid);
    cJSON_AddStringToObject(r, "status", "in_progress");
    rsse(fd, "response.created", o);
    for (int k = 0; k < 2; k++) {
        const char *s = k == 0 ? (a->reasoning && a->summary ? a->reasoning : NULL) : a->text;
        if (k == 0 && !a->reasoning) continue;
        if (k == 1 && a->calls.n) {           /* the function calls come before the message */
            mt_stream(fd, P_RESPONSES, model, &a->calls, index, sse);
            index += a->calls.n;
            if (!*a->text) continue;
        }
        o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "output_index", index);
        cJSON_AddItemToObject(o, "item", k == 0 ? reasoning_item(a) : message_item(a, ""));
        rsse(fd, "response.output_item.added", o);
        while (s && *s) {
            size_t n = piece_len(s);
            char piece[64];
            snprintf(piece, sizeof piece, "%.*s", (int)n, s);
            s += n;
            o = cJSON_CreateObject();
            cJSON_AddNumberToObject(o, "output_index", index);
            cJSON_AddStringToObject(o, "delta", piece);
            rsse(fd, k == 0 ? "response.reasoning_summary_text.delta" : "response.output_text.delta", o);
            if (cut && ++events >= 3) return;      /* the stream stops here, unfinished */
        }
        o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "output_index", index);
        cJSON_AddItemToObject(o, "item", k == 0 ? reasoning_item(a) : message_item(a, a->text));
        rsse(fd, "response.output_item.done", o);
        index++;
    }
    if (cut) return;
    char *full = full_body(P_RESPONSES, model, a);
    o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "response", cJSON_Parse(full));
    free(full);
    rsse(fd, strcmp(a->finish, "length") == 0 ? "response.incomplete" : "response.completed", o);
}

static void stream_body(int fd, provider pv, const char *model, const answer *a, int cut)
{
    const char *head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n";
    send_all(fd, head, strlen(head));
    if (pv == P_RESPONSES) { stream_responses(fd, model, a, cut); return; }
    const char *shown = a->reasoning;
    if (pv == P_ANTHROPIC && a->reasoning && !a->show_thinking) shown = "";
    if (pv == P_GEMINI && !a->thoughts) shown = NULL;
    const char *parts[2] = {shown, a->calls.n && !*a->text ? NULL : a->text};
    int events = 0, off = pv == P_ANTHROPIC && a->redacted ? 1 : 0;   /* a redacted block comes first */
    int blk = off;                 /* Anthropic: the index of the next content block (0, 1, ... as the service counts) */
    if (pv == P_ANTHROPIC) {
        cJSON *o = cJSON_CreateObject(), *m = cJSON_AddObjectToObject(o, "message");
        char mid[48];
        snprintf(mid, sizeof mid, "msg_%s", a->mid);
        cJSON_AddStringToObject(o, "type", "message_start");
        cJSON_AddStringToObject(m, "id", mid);
        cJSON_AddStringToObject(m, "type", "message");     /* the whole message, empty, as the service starts it */
        cJSON_AddStringToObject(m, "role", "assistant");
        cJSON_AddArrayToObject(m, "content");
        cJSON_AddNullToObject(m, "stop_reason");
        cJSON_AddNullToObject(m, "stop_sequence");
        cJSON_AddStringToObject(m, "model", model);
        cJSON *u = cJSON_AddObjectToObject(m, "usage");
        cJSON_AddNumberToObject(u, "input_tokens", a->in - a->cached - a->cache_write);
        cJSON_AddNumberToObject(u, "cache_read_input_tokens", a->cached);
        cJSON_AddNumberToObject(u, "cache_creation_input_tokens", a->cache_write);
        cJSON_AddNumberToObject(u, "output_tokens", 1);
        sse(fd, "message_start", o);
        if (off) {
            o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "type", "content_block_start");
            cJSON_AddNumberToObject(o, "index", 0);
            cJSON_AddItemToObject(o, "content_block", redacted_block(a));
            sse(fd, "content_block_start", o);
            o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "type", "content_block_stop");
            cJSON_AddNumberToObject(o, "index", 0);
            sse(fd, "content_block_stop", o);
        }
    }
    for (int k = 0; k < 2; k++) {
        const char *s = parts[k];
        if (!s) continue;
        if (pv == P_ANTHROPIC) {
            cJSON *o = cJSON_CreateObject(), *b = cJSON_AddObjectToObject(o, "content_block");
            cJSON_AddStringToObject(o, "type", "content_block_start");
            cJSON_AddNumberToObject(o, "index", blk);
            cJSON_AddStringToObject(b, "type", k == 0 ? "thinking" : "text");
            cJSON_AddStringToObject(b, k == 0 ? "thinking" : "text", "");
            sse(fd, "content_block_start", o);
        }
        while (*s) {
            size_t n = piece_len(s);
            char piece[64];
            snprintf(piece, sizeof piece, "%.*s", (int)n, s);
            s += n;
            cJSON *o = cJSON_CreateObject();
            if (pv == P_OPENAI) {
                char cid[48];
                snprintf(cid, sizeof cid, "chatcmpl-%s", a->mid);
                cJSON_AddStringToObject(o, "id", cid);
                cJSON_AddStringToObject(o, "object", "chat.completion.chunk");
                cJSON_AddStringToObject(o, "model", model);
                cJSON *ch = cJSON_AddArrayToObject(o, "choices"), *c = cJSON_CreateObject();
                cJSON_AddNumberToObject(c, "index", 0);
                cJSON_AddStringToObject(cJSON_AddObjectToObject(c, "delta"), k == 0 ? "reasoning_content" : "content", piece);
                cJSON_AddNullToObject(c, "finish_reason");
                cJSON_AddItemToArray(ch, c);
                sse(fd, NULL, o);
            } else if (pv == P_ANTHROPIC) {
                cJSON_AddStringToObject(o, "type", "content_block_delta");
                cJSON_AddNumberToObject(o, "index", blk);
                cJSON *d = cJSON_AddObjectToObject(o, "delta");
                cJSON_AddStringToObject(d, "type", k == 0 ? "thinking_delta" : "text_delta");
                cJSON_AddStringToObject(d, k == 0 ? "thinking" : "text", piece);
                sse(fd, "content_block_delta", o);
            } else {
                cJSON *cands = cJSON_AddArrayToObject(o, "candidates"), *c = cJSON_CreateObject();
                cJSON *p = cJSON_CreateObject();
                cJSON_AddStringToObject(p, "text", piece);
                if (k == 0) cJSON_AddTrueToObject(p, "thought");
                if (k == 1 && !*s && a->reasoning) cJSON_AddStringToObject(p, "thoughtSignature", a->sig);
                cJSON *parr = cJSON_CreateArray();
                cJSON_AddItemToArray(parr, p);
                cJSON *content = cJSON_AddObjectToObject(c, "content");
                cJSON_AddStringToObject(content, "role", "model");
                cJSON_AddItemToObject(content, "parts", parr);
                cJSON_AddItemToArray(cands, c);
                sse(fd, NULL, o);
            }
            if (cut && ++events >= 3) return;      /* the stream stops here, unfinished */
        }
        if (pv == P_ANTHROPIC && k == 0) {
            cJSON *o = cJSON_CreateObject(), *d;
            cJSON_AddStringToObject(o, "type", "content_block_delta");
            cJSON_AddNumberToObject(o, "index", blk);
            d = cJSON_AddObjectToObject(o, "delta");
            cJSON_AddStringToObject(d, "type", "signature_delta");
            cJSON_AddStringToObject(d, "signature", a->sig);
            sse(fd, "content_block_delta", o);
        }
        if (pv == P_ANTHROPIC) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "type", "content_block_stop");
            cJSON_AddNumberToObject(o, "index", blk);
            sse(fd, "content_block_stop", o);
            blk++;
        }
    }
    if (cut) return;
    mt_stream(fd, pv, model, &a->calls, blk, sse);
    cJSON *o = cJSON_CreateObject();
    if (pv == P_OPENAI) {
        cJSON_AddStringToObject(o, "object", "chat.completion.chunk");
        cJSON *ch = cJSON_AddArrayToObject(o, "choices"), *c = cJSON_CreateObject();
        cJSON_AddNumberToObject(c, "index", 0);
        cJSON_AddObjectToObject(c, "delta");
        cJSON_AddStringToObject(c, "finish_reason", a->calls.n ? "tool_calls" : a->finish);
        cJSON_AddItemToArray(ch, c);
        add_openai_usage(o, a);
        sse(fd, NULL, o);
        send_all(fd, "data: [DONE]\n\n", 14);
    } else if (pv == P_ANTHROPIC) {
        cJSON_AddStringToObject(o, "type", "message_delta");
        cJSON_AddStringToObject(cJSON_AddObjectToObject(o, "delta"), "stop_reason",
                                a->calls.n ? "tool_use" : strcmp(a->finish, "length") == 0 ? "max_tokens" : "end_turn");
        cJSON_AddNumberToObject(cJSON_AddObjectToObject(o, "usage"), "output_tokens", a->out);
        sse(fd, "message_delta", o);
        cJSON *s = cJSON_CreateObject();
        cJSON_AddStringToObject(s, "type", "message_stop");
        sse(fd, "message_stop", s);
    } else {
        cJSON *cands = cJSON_AddArrayToObject(o, "candidates"), *c = cJSON_CreateObject();
        cJSON *content = cJSON_AddObjectToObject(c, "content");
        cJSON_AddStringToObject(content, "role", "model");
        cJSON_AddArrayToObject(content, "parts");
        cJSON_AddStringToObject(c, "finishReason", strcmp(a->finish, "length") == 0 ? "MAX_TOKENS" : "STOP");
        cJSON_AddItemToArray(cands, c);
        add_gemini_usage(o, a);
        sse(fd, NULL, o);
    }
}

/* ---- one request ---- */

static void log_request(const char *method, const char *path, const char *headers, const char *body)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "method", method);
    cJSON_AddStringToObject(o, "path", path);
    cJSON_AddStringToObject(o, "headers", headers);
    cJSON_AddStringToObject(o, "body", body);
    char *s = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    size_t n = strlen(s);
    while (log_len + n + 2 > log_cap) { log_cap = log_cap ? log_cap * 2 : 65536; req_log = realloc(req_log, log_cap); }
    memcpy(req_log + log_len, s, n);
    log_len += n;
    req_log[log_len++] = '\n';
    req_log[log_len] = 0;
    free(s);
}

/* what one model request is answered with: the rule that applies, the answer
 * it makes, and the refusal of the model's family (NULL when taken) */
typedef struct {
    rule chosen;
    int found;
    answer a;
    char *refused, *user, mbuf[128];
    const char *model;
    cJSON *req;
} prepared;

/* prepare(p, ...) -> 0, or -1 when the body is not JSON; counts and logs the request */
static int prepare(prepared *p, provider pv, const char *method, const char *path, const char *headers, const char *body)
{
    memset(p, 0, sizeof *p);
    cJSON *req = p->req = cJSON_Parse(body);
    if (!req) return -1;
    rule chosen;
    answer a;
    int found = 0;
    char *user = p->user = last_user_text(pv, req);
    /* pick the rule */
    memset(&chosen, 0, sizeof chosen);
    pthread_mutex_lock(&mu);
    requests++;
    log_request(method, path, headers, body);
    for (int i = 0; i < nrules && !found; i++) {
        rule *r = &rules[i];
        if (r->times >= 0 && r->used >= r->times) continue;
        if (r->batch_seconds >= 0) continue;            /* a delay rule of the batch APIs: not an answer */
        if (r->match && !strstr(user, r->match)) continue;
        char *agent_calls = NULL, *agent_text = NULL;
        if (r->agent && !mt_agent(pv, req, r->agent, &agent_calls, &agent_text)) continue;   /* offers no act tool */
        r->used++;
        chosen = *r;
        chosen.match = NULL;
        chosen.agent = NULL;
        chosen.reply = r->agent ? agent_text : r->reply ? strdup(r->reply) : NULL;
        chosen.reasoning = r->reasoning ? strdup(r->reasoning) : NULL;
        chosen.finish = r->finish ? strdup(r->finish) : NULL;
        chosen.fault = r->fault ? strdup(r->fault) : NULL;
        chosen.tool_calls = r->agent ? agent_calls : r->tool_calls ? strdup(r->tool_calls) : NULL;
        found = 1;
    }
    pthread_mutex_unlock(&mu);
    const char *model = p->model = model_of(pv, req, path, p->mbuf, sizeof p->mbuf);
    memset(&a, 0, sizeof a);
    {   /* the reply's id: from the request's bytes, so the same request gets the same reply */
        char h[24];
        mf_sign(body, h);
        snprintf(a.mid, sizeof a.mid, "mock%s", h + 4);
    }
    /* a named Gemini model thinks: its first call part is signed */
    mt_make(pv, found ? chosen.tool_calls : NULL, pv == P_GEMINI && mf_reasoning_model(pv, model), &a.calls);
    a.text = found && chosen.reply ? chosen.reply : a.calls.n ? "" : "ok";
    a.reasoning = found ? chosen.reasoning : NULL;
    a.finish = found && chosen.finish ? chosen.finish : "stop";
    a.cache_write = found ? chosen.u_cache_write : 0;
    a.redacted = found && chosen.redacted;
    int named = mf_reasoning_model(pv, model);    /* a named family: reasoning only as the service gives it */
    char *refused = mf_refuse(pv, model, req);
    if (!refused) refused = mt_refuse(pv, model, req);
    if (a.reasoning) {
        const cJSON *th = cJSON_GetObjectItemCaseSensitive(req, "thinking");
        const cJSON *tt = cJSON_GetObjectItemCaseSensitive(th, "type"), *disp = cJSON_GetObjectItemCaseSensitive(th, "display");
        const cJSON *rs = cJSON_GetObjectItemCaseSensitive(req, "reasoning");
        const cJSON *tc = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(req, "generationConfig"), "thinkingConfig");
        int thinking = cJSON_IsString(tt) && strcmp(tt->valuestring, "disabled") != 0;
        if (pv == P_ANTHROPIC && named && !thinking) a.reasoning = NULL;   /* no thinking asked: none given */
        a.show_thinking = !(cJSON_IsString(tt) && strcmp(tt->valuestring, "adaptive") == 0) ||
                          (cJSON_IsString(disp) && strcmp(disp->valuestring, "summarized") == 0);
        a.summary = !named || cJSON_GetObjectItemCaseSensitive(rs, "summary") != NULL;
        a.thoughts = !named || cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(tc, "includeThoughts"));
        const cJSON *inc, *incl = cJSON_GetObjectItemCaseSensitive(req, "include");
        cJSON_ArrayForEach(inc, incl)
            if (cJSON_IsString(inc) && strcmp(inc->valuestring, "reasoning.encrypted_content") == 0) a.encrypted = 1;
    }
    if (a.reasoning) {
        mf_sign(pv == P_GEMINI ? a.text : a.reasoning, a.sig);
        size_t n = strlen(a.text) + strlen(a.reasoning) + 2;
        char *both = malloc(n);
        snprintf(both, n, "%s\n%s", a.text, a.reasoning);
        char h[24];
        mf_sign(both, h);
        free(both);
        snprintf(a.rs_id, sizeof a.rs_id, "rs_%s", h + 4);
        mf_sign(a.rs_id, a.enc);
        if (named && !refused && (pv != P_RESPONSES || a.encrypted)) {
            /* a turn that calls tools is known by its first call (Anthropic) or by each call (Responses) */
            if (pv == P_ANTHROPIC && a.calls.n) mf_issue(pv, a.calls.v[0].id, a.sig);
            else if (*a.text || !a.calls.n) mf_issue(pv, a.text, pv == P_RESPONSES ? a.rs_id : a.sig);
            for (int k = 0; pv == P_RESPONSES && k < a.calls.n; k++) {
                char key[64];
                snprintf(key, sizeof key, "fc:%s", a.calls.v[k].call_id);
                mf_issue(pv, key, a.rs_id);
            }
        }
    }
    a.in = found && chosen.u_input >= 0 ? chosen.u_input : (int)(strlen(body) / 4) + 1;
    a.cached = found ? chosen.u_cached : 0;
    a.rsn = found && chosen.u_reasoning >= 0 ? chosen.u_reasoning : (a.reasoning ? (int)strlen(a.reasoning) / 4 + 1 : 0);
    a.out = found && chosen.u_output >= 0 ? chosen.u_output : (int)strlen(a.text) / 4 + 1 + a.rsn;
    p->chosen = chosen;
    p->found = found;
    p->a = a;
    p->refused = refused;
    return 0;
}

static void release(prepared *p)
{
    free(p->refused);
    free(p->chosen.reply); free(p->chosen.reasoning); free(p->chosen.finish); free(p->chosen.fault); free(p->chosen.tool_calls);
    mt_free(&p->a.calls);
    free(p->user);
    cJSON_Delete(p->req);
}

/* the status fault of a rule ("429", "500", ...), or 0 */
static int status_fault(const char *fault)
{
    const char *codes[] = {"429", "500", "503", "400", "401", "403", "404"};
    for (int i = 0; fault && i < 7; i++) if (!strcmp(fault, codes[i])) return atoi(fault);
    return 0;
}

char *mock_answer(provider pv, const char *path, const char *body, int *status)
{
    prepared p;
    if (prepare(&p, pv, "POST", path, "", body) != 0) {
        release(&p);
        *status = 400;
        return error_body(pv, 400, "the request body is not JSON");
    }
    char *out;
    int fault = status_fault(p.found ? p.chosen.fault : NULL);
    if (p.refused) { *status = 400; out = error_body(pv, 400, p.refused); }
    else if (fault) {
        char msg[64];
        snprintf(msg, sizeof msg, "mock fault %d", fault);
        *status = fault;
        out = error_body(pv, fault, msg);
    } else { *status = 200; out = full_body(pv, p.model, &p.a); }
    release(&p);
    return out;
}

int mock_batch_seconds(provider pv, const char *body)
{
    cJSON *req = cJSON_Parse(body);
    char *user = req ? last_user_text(pv, req) : strdup("");
    int secs = 60;
    pthread_mutex_lock(&mu);
    for (int i = 0; i < nrules; i++) {
        rule *r = &rules[i];
        if (r->times >= 0 && r->used >= r->times) continue;
        if (r->match && !strstr(user, r->match)) continue;
        if (r->batch_seconds >= 0) {   /* a delay rule is used up by the item it delays; its answer comes from the next rule */
            secs = r->batch_seconds;
            r->used++;
            continue;
        }
        break;
    }
    pthread_mutex_unlock(&mu);
    free(user);
    cJSON_Delete(req);
    return secs;
}

/* returns 1 to keep the connection open */
static int handle(int fd, const char *method, const char *path, const char *headers, const char *body)
{
    if (path[0] != '/' || path[1] != '_') {
        pthread_mutex_lock(&mu);
        http_requests++;
        pthread_mutex_unlock(&mu);
    }
    if (strcmp(path, "/_stats") == 0) {
        char b[256];
        long creates, nb, polls;
        mb_stats(&creates, &nb, &polls);
        pthread_mutex_lock(&mu);
        snprintf(b, sizeof b, "{\"batch_creates\":%ld,\"batch_polls\":%ld,\"batches\":%ld,\"http\":%ld,\"max_active\":%d,\"requests\":%ld}",
                 creates, polls, nb, http_requests, max_active, requests);
        pthread_mutex_unlock(&mu);
        return respond(fd, 200, "application/json", NULL, b) == 0;
    }
    if (strcmp(path, "/_log") == 0) {
        pthread_mutex_lock(&mu);
        char *copy = strdup(req_log ? req_log : "");
        pthread_mutex_unlock(&mu);
        int ok = respond(fd, 200, "application/jsonl", NULL, copy) == 0;
        free(copy);
        return ok;
    }
    if (strcmp(path, "/_reset") == 0 || strcmp(path, "/_script") == 0) {
        pthread_mutex_lock(&mu);
        requests = 0;
        max_active = 0;
        log_len = 0;
        if (req_log) req_log[0] = 0;
        for (int i = 0; i < nrules; i++) rules[i].used = 0;
        mf_reset();
        http_requests = 0;
        pthread_mutex_unlock(&mu);
        mb_reset();
        pthread_mutex_lock(&mu);
        int bad = strcmp(path, "/_script") == 0 && load_rules(body) != 0;
        pthread_mutex_unlock(&mu);
        return respond(fd, bad ? 400 : 200, "application/json", NULL, bad ? "{\"error\":\"bad script\"}" : "{}") == 0;
    }
    {
        int status;
        const char *ctype;
        char *out = NULL;
        if (mb_handle(method, path, headers, body, &status, &ctype, &out)) {
            int ok = respond(fd, status, ctype, NULL, out) == 0;
            free(out);
            return ok;
        }
    }
    provider pv = strstr(path, "/chat/completions") ? P_OPENAI : strstr(path, "/messages") ? P_ANTHROPIC :
                  strstr(path, "/responses") ? P_RESPONSES :
                  strstr(path, ":generateContent") || strstr(path, ":streamGenerateContent") ? P_GEMINI : P_OTHER;
    if (pv == P_OTHER) return respond(fd, 404, "application/json", NULL, "{\"error\":\"no such endpoint\"}") == 0;
    prepared pr;
    if (prepare(&pr, pv, method, path, headers, body) != 0) {
        release(&pr);
        char *e = error_body(pv, 400, "the request body is not JSON");
        int ok = respond(fd, 400, "application/json", NULL, e) == 0;
        free(e);
        return ok;
    }
    pthread_mutex_lock(&mu);
    if (++active > max_active) max_active = active;
    pthread_mutex_unlock(&mu);
    rule chosen = pr.chosen;
    answer a = pr.a;
    const char *model = pr.model, *refused = pr.refused;
    sleep_ms(global_delay_ms + (pr.found ? chosen.delay_ms : 0));
    int keep = 1;
    const char *fault = pr.found ? chosen.fault : NULL;
    int stream = wants_stream(pv, pr.req, path);
    if (refused) {
        char *e = error_body(pv, 400, refused);
        keep = respond(fd, 400, "application/json", NULL, e) == 0;
        free(e);
    } else if (fault && (!strcmp(fault, "429") || !strcmp(fault, "500") || !strcmp(fault, "503") || !strcmp(fault, "400") ||
                  !strcmp(fault, "401") || !strcmp(fault, "403") || !strcmp(fault, "404"))) {
        int status = atoi(fault);
        char extra[64] = "";
        if (status == 429) snprintf(extra, sizeof extra, "Retry-After: %d\r\n", chosen.retry_after);
        char msg[512];
        const char *auth = chosen.echo_auth ? strcasestr(headers, "Authorization: ") : NULL;
        if (auth) snprintf(msg, sizeof msg, "mock fault %d: bad key in %.*s", status, (int)strcspn(auth, "\r\n"), auth);
        else snprintf(msg, sizeof msg, "mock fault %d", status);
        char *e = error_body(pv, status, msg);
        keep = respond(fd, status, "application/json", extra, e) == 0;
        free(e);
    } else if (fault && !strcmp(fault, "bad_bytes")) {
        keep = respond(fd, 200, "application/json", NULL,
                       "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"win \xff\xfe and \\u0000 nul\"},"
                       "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1}}") == 0;
    } else if (fault && !strcmp(fault, "error200")) {
        keep = respond(fd, 200, "application/json", NULL, "{\"error\":{\"message\":\"the model is overloaded, mock says\"}}") == 0;
    } else if (fault && (!strcmp(fault, "null_content") || !strcmp(fault, "number_content"))) {
        char b[256];
        const char *v = !strcmp(fault, "null_content") ? "null" : "42";
        if (pv == P_ANTHROPIC)
            snprintf(b, sizeof b, "{\"content\":[{\"type\":\"text\",\"text\":%s}],\"stop_reason\":\"end_turn\"}", v);
        else if (pv == P_GEMINI)
            snprintf(b, sizeof b, "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":%s}]},\"finishReason\":\"STOP\"}]}", v);
        else if (pv == P_RESPONSES)
            snprintf(b, sizeof b, "{\"status\":\"completed\",\"output\":[{\"type\":\"message\",\"role\":\"assistant\","
                     "\"content\":[{\"type\":\"output_text\",\"text\":%s}]}]}", v);
        else
            snprintf(b, sizeof b, "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":%s},\"finish_reason\":\"stop\"}]}", v);
        keep = respond(fd, 200, "application/json", NULL, b) == 0;
    } else if (fault && !strcmp(fault, "trickle")) {
        const char *head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n";
        send_all(fd, head, strlen(head));
        for (int i = 0; i < 100 && send_all(fd, ":", 1) == 0; i++) sleep_ms(100);
        keep = 0;
    } else if (fault && !strcmp(fault, "big")) {
        answer big = a;
        char *text = malloc(1 << 20);
        memset(text, 'x', (1 << 20) - 1);
        text[(1 << 20) - 1] = 0;
        big.text = text;
        char *b = full_body(pv, model, &big);
        keep = respond(fd, 200, "application/json", NULL, b) == 0;
        free(b);
        free(text);
    } else if (fault && !strcmp(fault, "malformed")) {
        keep = respond(fd, 200, "application/json", NULL, "{\"choices\": [{\"message\": ") == 0;
    } else if (fault && !strcmp(fault, "drop")) {
        char *b = full_body(pv, model, &a);
        char head[160];
        int n = snprintf(head, sizeof head, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n\r\n", strlen(b));
        send_all(fd, head, (size_t)n);
        send_all(fd, b, strlen(b) / 2);
        free(b);
        keep = 0;
    } else if (stream) {
        stream_body(fd, pv, model, &a, fault && !strcmp(fault, "sse_cut"));
        keep = 0;
    } else {
        char *b = full_body(pv, model, &a);
        keep = respond(fd, 200, "application/json", NULL, b) == 0;
        free(b);
    }
    release(&pr);
    pthread_mutex_lock(&mu);
    active--;
    pthread_mutex_unlock(&mu);
    return keep;
}

static void *serve(void *arg)
{
    int fd = (int)(intptr_t)arg;
    size_t cap = 65536, len = 0;
    char *buf = malloc(cap);
    for (;;) {
        /* read the head */
        char *end;
        while (!(end = memmem(buf, len, "\r\n\r\n", 4))) {
            if (len + 4096 > cap) buf = realloc(buf, cap *= 2);
            ssize_t r = recv(fd, buf + len, cap - len - 1, 0);
            if (r <= 0) goto done;
            len += (size_t)r;
        }
        size_t head_len = (size_t)(end - buf) + 4;
        char *head = strndup(buf, head_len);
        char method[16] = "", path[1024] = "";
        sscanf(head, "%15s %1023s", method, path);
        size_t body_len = 0;
        for (char *h = strchr(head, '\n'); h && *h; h = strchr(h + 1, '\n'))
            if (strncasecmp(h + 1, "Content-Length:", 15) == 0) body_len = strtoul(h + 16, NULL, 10);
        int close_after = strcasestr(head, "\nConnection: close") != NULL;
        while (len < head_len + body_len) {
            if (head_len + body_len + 1 > cap) buf = realloc(buf, cap = head_len + body_len + 1);
            ssize_t r = recv(fd, buf + len, cap - len - 1, 0);
            if (r <= 0) { free(head); goto done; }
            len += (size_t)r;
        }
        char *body = strndup(buf + head_len, body_len);
        char *eol = strstr(head, "\r\n");
        int keep = handle(fd, method, path, eol ? eol + 2 : "", body);
        free(body);
        free(head);
        memmove(buf, buf + head_len + body_len, len - head_len - body_len);
        len -= head_len + body_len;
        if (!keep || close_after) break;
    }
done:
    free(buf);
    close(fd);
    return NULL;
}

int main(int argc, char **argv)
{
    int port = 0;
    const char *script = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--port") && i + 1 < argc) port = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--script") && i + 1 < argc) script = argv[++i];
        else if (!strcmp(argv[i], "--delay-ms") && i + 1 < argc) global_delay_ms = atoi(argv[++i]);
        else { fprintf(stderr, "usage: mock_server [--port N] [--script FILE] [--delay-ms N]\n"); return 2; }
    }
    signal(SIGPIPE, SIG_IGN);
    if (script) {
        FILE *f = fopen(script, "rb");
        if (!f) { fprintf(stderr, "mock_server: cannot open %s\n", script); return 2; }
        fseek(f, 0, SEEK_END);
        long n = ftell(f);
        fseek(f, 0, SEEK_SET);
        char *t = calloc(1, (size_t)n + 1);
        if (fread(t, 1, (size_t)n, f) != (size_t)n) { fclose(f); return 2; }
        fclose(f);
        if (load_rules(t)) return 2;
        free(t);
    }
    int s = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons((uint16_t)port);
    if (bind(s, (struct sockaddr *)&a, sizeof a) || listen(s, 1024)) { perror("mock_server"); return 1; }
    socklen_t al = sizeof a;
    getsockname(s, (struct sockaddr *)&a, &al);
    printf("listening on %d\n", ntohs(a.sin_port));
    fflush(stdout);
    for (;;) {
        int c = accept(s, NULL, NULL);
        if (c < 0) { if (errno == EINTR) continue; break; }
        setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        pthread_t t;
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        pthread_attr_setstacksize(&at, 256 * 1024);
        if (pthread_create(&t, &at, serve, (void *)(intptr_t)c)) close(c);
        pthread_attr_destroy(&at);
    }
    return 0;
}
