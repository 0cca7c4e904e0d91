/* mock_batch.c — the batch APIs of the mock model server, as the services
 * speak and refuse them:
 *
 *   OpenAI     POST {base}/files (multipart: purpose=batch, file=JSONL of
 *              {custom_id, method POST, url, body}), POST {base}/batches
 *              {input_file_id, endpoint, completion_window "24h"}, GET
 *              {base}/batches/ID (validating, in_progress, completed,
 *              expired, cancelling, cancelled, failed with errors), GET
 *              {base}/files/ID/content (output_file_id, error_file_id),
 *              POST {base}/batches/ID/cancel. Validation failures (a
 *              duplicate custom_id, a line that is not a request, another
 *              url than the endpoint, two models, more than 50,000 requests
 *              or 200 MB) fail the batch, as the service does.
 *   Anthropic  POST {base}/messages/batches {requests: [{custom_id, params}]},
 *              GET .../ID (processing_status in_progress, canceling, ended;
 *              request_counts; results_url), GET .../ID/results (JSONL:
 *              succeeded, errored, canceled, expired), POST .../ID/cancel.
 *              Refused with a 400: a custom_id not of [a-zA-Z0-9_-]{1,64}, a
 *              duplicate one, more than 100,000 requests, a streaming request;
 *              413 above 256 MB.
 *   Gemini     POST {base}/models/M:batchGenerateContent {batch: {display_name,
 *              input_config: {requests: {requests: [{request, metadata: {key}}]}}}}
 *              -> an operation batches/ID; GET {base}/batches/ID (metadata.state
 *              BATCH_STATE_PENDING, _RUNNING, _SUCCEEDED, _CANCELLED, _EXPIRED;
 *              done; response.inlinedResponses.inlinedResponses in order),
 *              POST {base}/batches/ID:cancel. Refused: no display_name, no
 *              requests, more than 20 MB inline.
 *
 * Time: each batch has a clock of mock seconds that advances by the step
 * (default 3600) each time the batch is polled, nothing else; an item takes
 * its rule's batch_seconds (default 60). A batch ends when its clock passes
 * every item's time, or at the window (86400 s; Gemini 172800 s) with the
 * slower items expired. POST /_batch {"step": S} sets the step (0 freezes every
 * batch: a test kills a run while it polls); {"create_delay_ms": N} answers
 * a create N ms after the batch exists (a test kills a run while it creates).
 * GET {base}/batches lists OpenAI's batches (with their metadata) and
 * Gemini's (with their displayName), newest first. Items are answered when
 * the batch ends, by the same rules as a direct request (a status fault is the
 * item's error). */
#include "mock_batch.h"

#include <cJSON.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

typedef struct {
    char *cid, *body, *path;
    int secs, status;            /* status: 0 not answered, -1 expired, -2 cancelled, else HTTP status */
    char *answer;
} item;

typedef struct {
    char id[48], out_id[48], err_id[48];
    provider pv;
    char *endpoint, *model, *failed;   /* failed: the validation error (OpenAI) */
    char *label;                       /* OpenAI metadata (JSON), Gemini display name */
    long age, window;
    int cancelled, ended, polled;
    item *items;
    int n;
} batch;

typedef struct { char id[48]; char *content; } file;

static pthread_mutex_t bmu = PTHREAD_MUTEX_INITIALIZER;
static batch *batches;
static int nbatches;
static file *files;
static int nfiles;
static long creates, polls, step = 3600, serial, create_delay_ms;

static const cJSON *get(const cJSON *o, const char *k) { return cJSON_GetObjectItemCaseSensitive(o, k); }
static const char *str(const cJSON *o, const char *k)
{
    const cJSON *v = get(o, k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

void mb_stats(long *c, long *b, long *p)
{
    pthread_mutex_lock(&bmu);
    *c = creates; *b = nbatches; *p = polls;
    pthread_mutex_unlock(&bmu);
}

void mb_reset(void)
{
    pthread_mutex_lock(&bmu);
    for (int i = 0; i < nbatches; i++) {
        batch *b = &batches[i];
        for (int j = 0; j < b->n; j++) { free(b->items[j].cid); free(b->items[j].body); free(b->items[j].path); free(b->items[j].answer); }
        free(b->items); free(b->endpoint); free(b->model); free(b->failed); free(b->label);
    }
    free(batches);
    batches = NULL;
    nbatches = 0;
    for (int i = 0; i < nfiles; i++) free(files[i].content);
    free(files);
    files = NULL;
    nfiles = 0;
    creates = polls = create_delay_ms = 0;
    step = 3600;
    pthread_mutex_unlock(&bmu);
}

static char *json_out(cJSON *o)
{
    char *s = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return s;
}

/* an error body in the provider's shape */
static char *err(provider pv, int status, const char *msg)
{
    cJSON *o = cJSON_CreateObject(), *e = cJSON_CreateObject();
    if (pv == P_ANTHROPIC) {
        cJSON_AddStringToObject(o, "type", "error");
        cJSON_AddStringToObject(e, "type", status == 404 ? "not_found_error" : status == 413 ? "request_too_large" : "invalid_request_error");
    } else if (pv == P_GEMINI) {
        cJSON_AddNumberToObject(e, "code", status);
        cJSON_AddStringToObject(e, "status", status == 404 ? "NOT_FOUND" : "INVALID_ARGUMENT");
    } else {
        cJSON_AddStringToObject(e, "type", "invalid_request_error");
    }
    cJSON_AddStringToObject(e, "message", msg);
    cJSON_AddItemToObject(o, "error", e);
    return json_out(o);
}

static batch *find_batch(const char *id)
{
    for (int i = 0; i < nbatches; i++) if (strcmp(batches[i].id, id) == 0) return &batches[i];
    return NULL;
}

static batch *new_batch(provider pv, const char *prefix)
{
    batches = realloc(batches, sizeof *batches * (size_t)(nbatches + 1));
    batch *b = &batches[nbatches++];
    memset(b, 0, sizeof *b);
    b->pv = pv;
    serial++;
    snprintf(b->id, sizeof b->id, "%s%06ld", prefix, serial);
    b->window = pv == P_GEMINI ? 172800 : 86400;
    return b;
}

static void add_item(batch *b, const char *cid, provider pv, const char *path, const cJSON *body)
{
    b->items = realloc(b->items, sizeof *b->items * (size_t)(b->n + 1));
    item *it = &b->items[b->n++];
    memset(it, 0, sizeof *it);
    it->cid = strdup(cid ? cid : "");
    it->path = strdup(path);
    it->body = cJSON_PrintUnformatted(body);
    it->secs = mock_batch_seconds(pv, it->body);
}

/* advance a batch's clock by one poll and end it when its time has come
 * (answering its items by the rules); called with bmu held */
static void tick(batch *b)
{
    polls++;
    b->polled = 1;
    if (b->ended || b->failed) return;
    if (!b->cancelled) b->age += step;   /* a cancelled batch ends at the next poll: what was not done by now is cancelled */
    long need = 0;
    for (int i = 0; i < b->n; i++) if (b->items[i].secs > need) need = b->items[i].secs;
    int expire = b->age >= b->window && need > b->window;
    if (!b->cancelled && b->age < need && !expire) return;
    for (int i = 0; i < b->n; i++) {
        item *it = &b->items[i];
        if (b->cancelled && it->secs > b->age) it->status = -2;   /* with the clock frozen (step 0) nothing was done */
        else if (it->secs > b->window) it->status = -1;
        else it->answer = mock_answer(strstr(it->path, "/chat/completions") ? P_OPENAI : b->pv, it->path, it->body, &it->status);
    }
    b->ended = 1;
}

static void counts(const batch *b, int *ok, int *errored, int *expired, int *cancelled)
{
    *ok = *errored = *expired = *cancelled = 0;
    for (int i = 0; i < b->n; i++) {
        int s = b->items[i].status;
        if (s == 200) (*ok)++;
        else if (s == -1) (*expired)++;
        else if (s == -2) (*cancelled)++;
        else if (s) (*errored)++;
    }
}

/* ---- OpenAI ---- */

static file *find_file(const char *id)
{
    for (int i = 0; i < nfiles; i++) if (strcmp(files[i].id, id) == 0) return &files[i];
    return NULL;
}

static file *new_file(char *content)
{
    files = realloc(files, sizeof *files * (size_t)(nfiles + 1));
    file *f = &files[nfiles++];
    serial++;
    snprintf(f->id, sizeof f->id, "file-mock%06ld", serial);
    f->content = content;
    return f;
}

/* the part named name of a multipart/form-data body (malloc'd), or NULL */
static char *form_part(const char *headers, const char *body, const char *name)
{
    const char *ct = strcasestr(headers, "Content-Type: multipart/form-data");
    const char *bd = ct ? strstr(ct, "boundary=") : NULL;
    if (!bd) return NULL;
    bd += 9;
    char boundary[128];
    size_t bl = strcspn(bd, "\r\n;");
    if (bl + 3 > sizeof boundary) return NULL;
    snprintf(boundary, sizeof boundary, "--%.*s", (int)bl, bd);
    char want[160];
    snprintf(want, sizeof want, "name=\"%s\"", name);
    for (const char *p = strstr(body, boundary); p; p = strstr(p + 1, boundary)) {
        const char *head_end = strstr(p, "\r\n\r\n");
        if (!head_end) return NULL;
        const char *n = strstr(p, want);
        if (n && n < head_end) {
            const char *start = head_end + 4, *end = strstr(start, boundary);
            if (!end) return NULL;
            if (end - start >= 2 && end[-2] == '\r' && end[-1] == '\n') end -= 2;
            return strndup(start, (size_t)(end - start));
        }
    }
    return NULL;
}

static cJSON *openai_batch(const batch *b, const char *input_file)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "id", b->id);
    cJSON_AddStringToObject(o, "object", "batch");
    cJSON_AddStringToObject(o, "endpoint", b->endpoint ? b->endpoint : "");
    cJSON_AddStringToObject(o, "input_file_id", input_file ? input_file : "");
    cJSON_AddStringToObject(o, "completion_window", "24h");
    cJSON *meta = b->label ? cJSON_Parse(b->label) : NULL;
    cJSON_AddItemToObject(o, "metadata", meta ? meta : cJSON_CreateNull());
    int ok, er, ex, ca;
    counts(b, &ok, &er, &ex, &ca);
    const char *status = b->failed ? "failed" : !b->ended ? (!b->polled ? "validating" : b->cancelled ? "cancelling" : "in_progress")
                         : b->cancelled ? "cancelled" : ex ? "expired" : "completed";
    cJSON_AddStringToObject(o, "status", status);
    if (b->failed) {
        cJSON *errors = cJSON_AddObjectToObject(o, "errors"), *data = cJSON_AddArrayToObject(errors, "data"), *e = cJSON_CreateObject();
        cJSON_AddStringToObject(errors, "object", "list");
        cJSON_AddStringToObject(e, "code", "invalid_request");
        cJSON_AddStringToObject(e, "message", b->failed);
        cJSON_AddItemToArray(data, e);
    }
    if (b->ended && b->out_id[0]) cJSON_AddStringToObject(o, "output_file_id", b->out_id); else cJSON_AddNullToObject(o, "output_file_id");
    if (b->ended && b->err_id[0]) cJSON_AddStringToObject(o, "error_file_id", b->err_id); else cJSON_AddNullToObject(o, "error_file_id");
    cJSON *rc = cJSON_AddObjectToObject(o, "request_counts");
    cJSON_AddNumberToObject(rc, "total", b->n);
    cJSON_AddNumberToObject(rc, "completed", ok);
    cJSON_AddNumberToObject(rc, "failed", er + ex + ca);
    return o;
}

/* the output and error files of an ended OpenAI batch */
static void openai_files(batch *b)
{
    if (!b->ended || b->out_id[0] || b->err_id[0]) return;
    char *out = strdup(""), *errs = strdup("");
    size_t ol = 0, el = 0;
    for (int i = 0; i < b->n; i++) {
        item *it = &b->items[i];
        cJSON *line = cJSON_CreateObject();
        char rid[48];
        snprintf(rid, sizeof rid, "batch_req_%d", i + 1);
        cJSON_AddStringToObject(line, "id", rid);
        cJSON_AddStringToObject(line, "custom_id", it->cid);
        if (it->status > 0) {
            cJSON *r = cJSON_AddObjectToObject(line, "response");
            cJSON_AddNumberToObject(r, "status_code", it->status);
            cJSON_AddStringToObject(r, "request_id", rid);
            cJSON *body = cJSON_Parse(it->answer);
            cJSON_AddItemToObject(r, "body", body ? body : cJSON_CreateObject());
            cJSON_AddNullToObject(line, "error");
        } else {
            cJSON_AddNullToObject(line, "response");
            cJSON *e = cJSON_AddObjectToObject(line, "error");
            cJSON_AddStringToObject(e, "code", it->status == -1 ? "batch_expired" : "batch_cancelled");
            cJSON_AddStringToObject(e, "message", it->status == -1 ? "This request could not be executed before the completion window expired."
                                                                   : "This request was not executed because the batch was cancelled.");
        }
        char *s = json_out(line);
        int to_out = it->status == 200;
        char **dst = to_out ? &out : &errs;
        size_t *len = to_out ? &ol : &el, n = strlen(s);
        *dst = realloc(*dst, *len + n + 2);
        memcpy(*dst + *len, s, n);
        (*dst)[*len + n] = '\n';
        *len += n + 1;
        (*dst)[*len] = 0;
        free(s);
    }
    if (ol) snprintf(b->out_id, sizeof b->out_id, "%s", new_file(out)->id); else free(out);
    if (el) snprintf(b->err_id, sizeof b->err_id, "%s", new_file(errs)->id); else free(errs);
}

/* validate the input file of an OpenAI batch: items added, or the reason it fails */
static void openai_items(batch *b, const char *content, const char *prefix)
{
    const char *p = content;
    int line = 0;
    if (strlen(content) > 200u * 1024 * 1024) { b->failed = strdup("The batch input file is larger than the 209715200 maximum for batches."); return; }
    while (*p && !b->failed) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        char *l = strndup(p, n);
        p += n + (eol ? 1 : 0);
        line++;
        if (strspn(l, " \r\t") == strlen(l)) { free(l); continue; }
        cJSON *o = cJSON_Parse(l);
        free(l);
        char why[256] = "";
        const char *cid = str(o, "custom_id"), *url = str(o, "url"), *method = str(o, "method");
        const cJSON *body = get(o, "body");
        const char *model = str(body, "model");
        if (!o) snprintf(why, sizeof why, "Line %d is not valid JSON.", line);
        else if (!cid) snprintf(why, sizeof why, "Line %d: missing required parameter 'custom_id'.", line);
        else if (!method || strcmp(method, "POST")) snprintf(why, sizeof why, "Line %d: 'method' must be POST.", line);
        else if (!url || strcmp(url, b->endpoint)) snprintf(why, sizeof why, "Line %d: the url '%s' does not match the batch's endpoint %s.", line, url ? url : "", b->endpoint);
        else if (!cJSON_IsObject(body) || !model) snprintf(why, sizeof why, "Line %d: 'body.model' is required.", line);
        else if (cJSON_IsTrue(get(body, "stream"))) snprintf(why, sizeof why, "Line %d: streaming is not supported in batches.", line);
        else if (b->model && strcmp(b->model, model)) snprintf(why, sizeof why, "Line %d: all requests in a batch must use the same model (%s, not %s).", line, b->model, model);
        for (int i = 0; !why[0] && i < b->n; i++)
            if (strcmp(b->items[i].cid, cid) == 0) snprintf(why, sizeof why, "Line %d: the custom_id '%s' is a duplicate; each must be unique within a batch.", line, cid);
        if (!why[0] && b->n >= 50000) snprintf(why, sizeof why, "The batch has more than 50000 requests.");
        if (why[0]) b->failed = strdup(why);
        else {
            if (!b->model) b->model = strdup(model);
            char path[256];
            snprintf(path, sizeof path, "%s", url + strlen(prefix));
            add_item(b, cid, strstr(path, "/chat/completions") ? P_OPENAI : P_RESPONSES, path, body);
        }
        cJSON_Delete(o);
    }
    if (!b->failed && b->n == 0) b->failed = strdup("The batch input file is empty.");
}

static int openai(const char *method, const char *rest, const char *prefix, const char *headers, const char *body,
                  int *status, char **out)
{
    provider pv = P_RESPONSES;
    *status = 200;
    if (!strcmp(method, "POST") && !strcmp(rest, "/files")) {
        char *purpose = form_part(headers, body, "purpose"), *content = form_part(headers, body, "file");
        if (!purpose || strcmp(purpose, "batch") || !content) {
            *status = 400;
            *out = err(pv, 400, !content ? "'file' is a required property (multipart/form-data)" : "'purpose' must be 'batch' for a batch input file");
            free(purpose); free(content);
            return 1;
        }
        free(purpose);
        file *f = new_file(content);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", f->id);
        cJSON_AddStringToObject(o, "object", "file");
        cJSON_AddNumberToObject(o, "bytes", (double)strlen(content));
        cJSON_AddStringToObject(o, "purpose", "batch");
        *out = json_out(o);
        return 1;
    }
    char id[64] = "";
    if (!strcmp(method, "GET") && sscanf(rest, "/files/%63[^/]/content", id) == 1) {
        file *f = find_file(id);
        if (!f) { *status = 404; *out = err(pv, 404, "No such File object"); return 1; }
        *out = strdup(f->content);
        return 1;
    }
    if (!strcmp(method, "POST") && !strcmp(rest, "/batches")) {
        creates++;
        cJSON *req = cJSON_Parse(body);
        const char *fid = str(req, "input_file_id"), *endpoint = str(req, "endpoint"), *window = str(req, "completion_window");
        file *f = fid ? find_file(fid) : NULL;
        char want_r[128], want_c[128];
        snprintf(want_r, sizeof want_r, "%s/responses", prefix);
        snprintf(want_c, sizeof want_c, "%s/chat/completions", prefix);
        const char *why = !req ? "the request body is not JSON" : !f ? "No such File object: input_file_id" :
                          !endpoint || (strcmp(endpoint, want_r) && strcmp(endpoint, want_c)) ? "endpoint: must be /v1/responses or /v1/chat/completions (or another batch endpoint)" :
                          !window || strcmp(window, "24h") ? "completion_window: only '24h' is supported" : NULL;
        if (why) { *status = 400; *out = err(pv, 400, why); cJSON_Delete(req); return 1; }
        batch *b = new_batch(pv, "batch_mock");
        b->endpoint = strdup(endpoint);
        if (cJSON_IsObject(get(req, "metadata"))) b->label = cJSON_PrintUnformatted(get(req, "metadata"));
        openai_items(b, f->content, prefix);
        *out = json_out(openai_batch(b, fid));
        cJSON_Delete(req);
        return 1;
    }
    if (!strcmp(method, "GET") && (!strcmp(rest, "/batches") || !strncmp(rest, "/batches?", 9))) {   /* newest first */
        cJSON *o = cJSON_CreateObject(), *data = cJSON_AddArrayToObject(o, "data");
        cJSON_AddStringToObject(o, "object", "list");
        for (int i = nbatches - 1; i >= 0; i--)
            if (batches[i].pv == P_RESPONSES) cJSON_AddItemToArray(data, openai_batch(&batches[i], NULL));
        cJSON_AddFalseToObject(o, "has_more");
        *out = json_out(o);
        return 1;
    }
    if (sscanf(rest, "/batches/%63[^/]", id) == 1) {
        batch *b = find_batch(id);
        if (!b || b->pv != P_RESPONSES) { *status = 404; *out = err(pv, 404, "No batch found with that id"); return 1; }
        if (!strcmp(method, "POST") && strstr(rest, "/cancel")) {
            if (!b->ended && !b->failed) b->cancelled = 1;
        } else if (!strcmp(method, "GET")) {
            tick(b);
            openai_files(b);
        } else return 0;
        *out = json_out(openai_batch(b, NULL));
        return 1;
    }
    return 0;
}

/* ---- Anthropic ---- */

static int custom_id_ok(const char *c)
{
    size_t n = c ? strlen(c) : 0;
    if (n < 1 || n > 64) return 0;
    for (size_t i = 0; i < n; i++)
        if (!((c[i] >= 'a' && c[i] <= 'z') || (c[i] >= 'A' && c[i] <= 'Z') || (c[i] >= '0' && c[i] <= '9') || c[i] == '_' || c[i] == '-')) return 0;
    return 1;
}

static cJSON *anthropic_batch(const batch *b, const char *host, const char *prefix)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "id", b->id);
    cJSON_AddStringToObject(o, "type", "message_batch");
    cJSON_AddStringToObject(o, "processing_status", b->ended ? "ended" : b->cancelled ? "canceling" : "in_progress");
    int ok, er, ex, ca;
    counts(b, &ok, &er, &ex, &ca);
    cJSON *rc = cJSON_AddObjectToObject(o, "request_counts");
    cJSON_AddNumberToObject(rc, "processing", b->ended ? 0 : b->n);
    cJSON_AddNumberToObject(rc, "succeeded", ok);
    cJSON_AddNumberToObject(rc, "errored", er);
    cJSON_AddNumberToObject(rc, "canceled", ca);
    cJSON_AddNumberToObject(rc, "expired", ex);
    if (b->ended) {
        char url[512];
        snprintf(url, sizeof url, "http://%s%s/messages/batches/%s/results", host, prefix, b->id);
        cJSON_AddStringToObject(o, "results_url", url);
    } else cJSON_AddNullToObject(o, "results_url");
    return o;
}

static char *anthropic_results(const batch *b)
{
    size_t cap = 1024, len = 0;
    char *out = calloc(1, cap);
    for (int i = 0; i < b->n; i++) {
        const item *it = &b->items[i];
        cJSON *line = cJSON_CreateObject(), *r = cJSON_CreateObject();
        cJSON_AddStringToObject(line, "custom_id", it->cid);
        if (it->status == 200) {
            cJSON_AddStringToObject(r, "type", "succeeded");
            cJSON *m = cJSON_Parse(it->answer);
            cJSON_AddItemToObject(r, "message", m ? m : cJSON_CreateObject());
        } else if (it->status > 0) {
            cJSON_AddStringToObject(r, "type", "errored");
            cJSON *e = cJSON_Parse(it->answer);
            cJSON_AddItemToObject(r, "error", e ? e : cJSON_CreateObject());
        } else cJSON_AddStringToObject(r, "type", it->status == -1 ? "expired" : "canceled");
        cJSON_AddItemToObject(line, "result", r);
        char *s = json_out(line);
        size_t n = strlen(s);
        while (len + n + 2 > cap) out = realloc(out, cap *= 2);
        memcpy(out + len, s, n);
        len += n;
        out[len++] = '\n';
        out[len] = 0;
        free(s);
    }
    return out;
}

static int anthropic(const char *method, const char *rest, const char *prefix, const char *host, const char *body,
                     int *status, const char **ctype, char **out)
{
    provider pv = P_ANTHROPIC;
    *status = 200;
    char id[64] = "";
    if (!strcmp(method, "POST") && !strcmp(rest, "/messages/batches")) {
        creates++;
        if (strlen(body) > 256u * 1024 * 1024) { *status = 413; *out = err(pv, 413, "Request exceeds the maximum allowed number of bytes."); return 1; }
        cJSON *req = cJSON_Parse(body);
        const cJSON *list = get(req, "requests"), *r;
        char why[256] = "";
        int n = cJSON_GetArraySize(list), i = 0;
        if (!cJSON_IsArray(list) || n == 0) snprintf(why, sizeof why, "requests: Field required (a non-empty list)");
        else if (n > 100000) snprintf(why, sizeof why, "requests: at most 100000 requests may be sent in one batch");
        cJSON_ArrayForEach(r, list) {
            if (why[0]) break;
            const char *cid = str(r, "custom_id");
            const cJSON *params = get(r, "params");
            if (!custom_id_ok(cid)) snprintf(why, sizeof why, "requests.%d.custom_id: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'", i);
            else if (!cJSON_IsObject(params)) snprintf(why, sizeof why, "requests.%d.params: Field required", i);
            else if (cJSON_IsTrue(get(params, "stream"))) snprintf(why, sizeof why, "requests.%d.params.stream: streaming is not supported in batches", i);
            int j = 0;
            const cJSON *q;
            cJSON_ArrayForEach(q, list) {
                if (why[0] || j >= i) break;
                const char *other = str(q, "custom_id");
                if (other && cid && !strcmp(other, cid)) snprintf(why, sizeof why, "Duplicate custom_id %s: each custom_id in a batch must be unique", cid);
                j++;
            }
            i++;
        }
        if (why[0]) { *status = 400; *out = err(pv, 400, why); cJSON_Delete(req); return 1; }
        batch *b = new_batch(pv, "msgbatch_mock");
        cJSON_ArrayForEach(r, list) add_item(b, str(r, "custom_id"), pv, "/messages", get(r, "params"));
        *out = json_out(anthropic_batch(b, host, prefix));
        cJSON_Delete(req);
        return 1;
    }
    if (sscanf(rest, "/messages/batches/%63[^/]", id) == 1) {
        batch *b = find_batch(id);
        if (!b || b->pv != P_ANTHROPIC) { *status = 404; *out = err(pv, 404, "Message batch not found"); return 1; }
        if (!strcmp(method, "GET") && strstr(rest, "/results")) {
            if (!b->ended) { *status = 400; *out = err(pv, 400, "The message batch is still in progress; its results are not available yet"); return 1; }
            *ctype = "application/x-jsonl";
            *out = anthropic_results(b);
            return 1;
        }
        if (!strcmp(method, "POST") && strstr(rest, "/cancel")) { if (!b->ended) b->cancelled = 1; }
        else if (!strcmp(method, "GET")) tick(b);
        else return 0;
        *out = json_out(anthropic_batch(b, host, prefix));
        return 1;
    }
    return 0;
}

/* ---- Gemini ---- */

static cJSON *gemini_op(const batch *b)
{
    cJSON *o = cJSON_CreateObject(), *m = cJSON_AddObjectToObject(o, "metadata");
    char name[64];
    snprintf(name, sizeof name, "batches/%s", b->id);
    cJSON_AddStringToObject(o, "name", name);
    cJSON_AddStringToObject(m, "@type", "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch");
    cJSON_AddStringToObject(m, "name", name);
    cJSON_AddStringToObject(m, "model", b->model ? b->model : "");
    cJSON_AddStringToObject(m, "displayName", b->label ? b->label : "");
    int ok, er, ex, ca;
    counts(b, &ok, &er, &ex, &ca);
    const char *state = !b->ended ? (!b->polled ? "BATCH_STATE_PENDING" : "BATCH_STATE_RUNNING")
                        : b->cancelled ? "BATCH_STATE_CANCELLED" : ex ? "BATCH_STATE_EXPIRED" : "BATCH_STATE_SUCCEEDED";
    cJSON_AddStringToObject(m, "state", state);
    cJSON *st = cJSON_AddObjectToObject(m, "batchStats");
    cJSON_AddNumberToObject(st, "requestCount", b->n);
    cJSON_AddNumberToObject(st, "successfulRequestCount", ok);
    cJSON_AddNumberToObject(st, "failedRequestCount", er);
    cJSON_AddNumberToObject(st, "pendingRequestCount", b->ended ? 0 : b->n);
    if (b->ended) cJSON_AddTrueToObject(o, "done"); else cJSON_AddFalseToObject(o, "done");
    if (b->ended && !b->cancelled && !ex) {   /* an expired or cancelled job returns no responses (mock: the conservative reading) */
        cJSON *r = cJSON_AddObjectToObject(o, "response"), *ir = cJSON_AddObjectToObject(r, "inlinedResponses");
        cJSON_AddStringToObject(r, "@type", "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatchOutput");
        cJSON *list = cJSON_AddArrayToObject(ir, "inlinedResponses");
        for (int i = 0; i < b->n; i++) {
            const item *it = &b->items[i];
            cJSON *e = cJSON_CreateObject(), *a = cJSON_Parse(it->answer);
            if (it->status == 200) cJSON_AddItemToObject(e, "response", a ? a : cJSON_CreateObject());
            else {
                cJSON *inner = a ? cJSON_DetachItemFromObject(a, "error") : NULL;
                cJSON_Delete(a);
                cJSON_AddItemToObject(e, "error", inner ? inner : cJSON_CreateObject());
            }
            if (it->cid[0]) cJSON_AddStringToObject(cJSON_AddObjectToObject(e, "metadata"), "key", it->cid);
            cJSON_AddItemToArray(list, e);
        }
    }
    return o;
}

static int gemini(const char *method, const char *rest, const char *body, int *status, char **out)
{
    provider pv = P_GEMINI;
    *status = 200;
    char model[128] = "", id[64] = "";
    if (!strcmp(method, "POST") && sscanf(rest, "/models/%127[^:]:batchGenerateContent", model) == 1) {
        creates++;
        cJSON *req = cJSON_Parse(body);
        const cJSON *bt = get(req, "batch"), *ic = get(bt, "input_config") ? get(bt, "input_config") : get(bt, "inputConfig");
        const cJSON *list = get(get(ic, "requests"), "requests"), *r;
        const char *why = strlen(body) > 20u * 1024 * 1024 ? "The inline batch request is larger than 20 MB; use a file" :
                          !cJSON_IsObject(bt) ? "batch: required" :
                          !str(bt, "display_name") && !str(bt, "displayName") ? "batch.display_name: required" :
                          !cJSON_IsArray(list) || cJSON_GetArraySize(list) == 0 ? "batch.input_config.requests: required" : NULL;
        if (why) { *status = 400; *out = err(pv, 400, why); cJSON_Delete(req); return 1; }
        batch *b = new_batch(pv, "mock");
        b->model = strdup(model);
        b->label = strdup(str(bt, "display_name") ? str(bt, "display_name") : str(bt, "displayName"));
        char path[256];
        snprintf(path, sizeof path, "/models/%s:generateContent", model);
        cJSON_ArrayForEach(r, list) add_item(b, str(get(r, "metadata"), "key"), pv, path, get(r, "request"));
        *out = json_out(gemini_op(b));
        cJSON_Delete(req);
        return 1;
    }
    if (!strcmp(method, "GET") && (!strcmp(rest, "/batches") || !strncmp(rest, "/batches?", 9))) {
        cJSON *o = cJSON_CreateObject(), *ops = cJSON_AddArrayToObject(o, "operations");
        for (int i = nbatches - 1; i >= 0; i--)
            if (batches[i].pv == P_GEMINI) cJSON_AddItemToArray(ops, gemini_op(&batches[i]));
        *out = json_out(o);
        return 1;
    }
    if (sscanf(rest, "/batches/%63[^:/]", id) == 1) {
        batch *b = find_batch(id);
        if (!b || b->pv != P_GEMINI) { *status = 404; *out = err(pv, 404, "Requested entity was not found."); return 1; }
        if (!strcmp(method, "POST") && strstr(rest, ":cancel")) {
            if (!b->ended) b->cancelled = 1;
            *out = strdup("{}");
            return 1;
        }
        if (strcmp(method, "GET")) return 0;
        tick(b);
        *out = json_out(gemini_op(b));
        return 1;
    }
    return 0;
}

int mb_handle(const char *method, const char *path, const char *headers, const char *body,
              int *status, const char **ctype, char **out)
{
    *ctype = "application/json";
    if (!strcmp(path, "/_batch")) {
        cJSON *o = cJSON_Parse(body);
        const cJSON *s = get(o, "step"), *d = get(o, "create_delay_ms");
        pthread_mutex_lock(&bmu);
        if (cJSON_IsNumber(s)) step = (long)s->valuedouble;
        if (cJSON_IsNumber(d)) create_delay_ms = (long)d->valuedouble;
        pthread_mutex_unlock(&bmu);
        cJSON_Delete(o);
        *status = 200;
        *out = strdup("{}");
        return 1;
    }
    /* the base path: /v1 (OpenAI, Anthropic) or /v1beta (Gemini) */
    const char *rest = strstr(path, "/v1beta/") == path ? path + 7 : strstr(path, "/v1/") == path ? path + 3 : NULL;
    if (!rest) return 0;
    char prefix[16];
    snprintf(prefix, sizeof prefix, "%.*s", (int)(rest - path), path);
    char host[256] = "127.0.0.1";
    const char *h = strcasestr(headers, "Host: ");
    if (h) snprintf(host, sizeof host, "%.*s", (int)strcspn(h + 6, "\r\n"), h + 6);
    int done = 0;
    pthread_mutex_lock(&bmu);
    long before = creates, delay = create_delay_ms;
    if (!strncmp(rest, "/messages/batches", 17)) done = anthropic(method, rest, prefix, host, body, status, ctype, out);
    else if (!strncmp(rest, "/files", 6) || !strncmp(rest, "/batches", 8)) {
        done = strcmp(prefix, "/v1beta") ? openai(method, rest, prefix, headers, body, status, out) : gemini(method, rest, body, status, out);
    } else if (strstr(rest, ":batchGenerateContent")) done = gemini(method, rest, body, status, out);
    int made = creates != before;
    pthread_mutex_unlock(&bmu);
    if (made && delay > 0) {   /* the batch exists; its answer is late (a client may be killed meanwhile) */
        struct timespec ts = {delay / 1000, (delay % 1000) * 1000000L};
        nanosleep(&ts, NULL);
    }
    return done;
}
