/* mock_tools.c — tool calls in the mock model server. A script rule's
 * "tool_calls": [{"name": "move", "arguments": {"move": "b1b9"}}] makes the
 * reply call those tools, in each provider's wire format: Chat Completions
 * message.tool_calls (finish_reason tool_calls), Anthropic tool_use blocks
 * (stop_reason tool_use), Responses function_call items (call_id), Gemini
 * functionCall parts (a named Gemini model, which thinks, signs the first call
 * part with a thoughtSignature). Streamed as the services stream them.
 *
 * Refused, with the services' words, as they refuse it:
 *   Chat Completions  a tool message answering no pending call; an assistant
 *                     message's call left without its tool message.
 *   Anthropic  a tool_result whose tool_use_id is not in the previous assistant
 *              message; a tool_use left without its tool_result in the next one.
 *   Responses  a function_call_output with an unknown call_id; a function_call
 *              without its output; a reasoning model's function_call sent back
 *              without the reasoning item it came with.
 *   Gemini     a thinking model's functionCall turn whose first call part lacks
 *              its thoughtSignature (or carries a changed one); function
 *              responses not as many as the calls of the turn before. */
#include "mock_tools.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t tmu = PTHREAD_MUTEX_INITIALIZER;
static unsigned long counter;

#define get mf_get
#define str mf_str
#define msgf mf_msgf

void mt_call_sign(const char *name, char out[24])
{
    char buf[128];
    snprintf(buf, sizeof buf, "fc:%s", name);
    mf_sign(buf, out);
}

void mt_make(provider pv, const char *json_text, int sign, mock_calls *out)
{
    memset(out, 0, sizeof *out);
    cJSON *list = json_text ? cJSON_Parse(json_text) : NULL;
    const cJSON *c;
    int n = cJSON_GetArraySize(list);
    if (n <= 0) { cJSON_Delete(list); return; }
    out->v = calloc((size_t)n, sizeof *out->v);
    cJSON_ArrayForEach(c, list) {
        mock_call *m = &out->v[out->n++];
        m->name = strdup(str(c, "name") ? str(c, "name") : "unnamed");
        const cJSON *a = get(c, "arguments");
        m->args = cJSON_IsObject(a) ? cJSON_Duplicate(a, 1) : cJSON_CreateObject();
        pthread_mutex_lock(&tmu);
        unsigned long k = ++counter;
        pthread_mutex_unlock(&tmu);
        const char *prefix = pv == P_ANTHROPIC ? "toolu_mock" : pv == P_RESPONSES ? "fc_mock" : "call_mock";
        snprintf(m->id, sizeof m->id, "%s%06lu", prefix, k);
        snprintf(m->call_id, sizeof m->call_id, "call_mock%06lu", k);
        if (sign && out->n == 1) mt_call_sign(m->name, m->sig);
    }
    cJSON_Delete(list);
}

void mt_free(mock_calls *c)
{
    for (int i = 0; i < c->n; i++) { free(c->v[i].name); cJSON_Delete(c->v[i].args); }
    free(c->v);
    memset(c, 0, sizeof *c);
}

static char *args_text(const mock_call *m) { return cJSON_PrintUnformatted(m->args); }

cJSON *mt_chat_calls(const mock_calls *c)
{
    cJSON *list = cJSON_CreateArray();
    for (int i = 0; i < c->n; i++) {
        cJSON *t = cJSON_CreateObject(), *f = cJSON_CreateObject();
        char *a = args_text(&c->v[i]);
        cJSON_AddStringToObject(t, "id", c->v[i].id);
        cJSON_AddStringToObject(t, "type", "function");
        cJSON_AddStringToObject(f, "name", c->v[i].name);
        cJSON_AddStringToObject(f, "arguments", a);
        cJSON_AddItemToObject(t, "function", f);
        cJSON_AddItemToArray(list, t);
        free(a);
    }
    return list;
}

static cJSON *tool_use(const mock_call *m, int empty_input)
{
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "type", "tool_use");
    cJSON_AddStringToObject(b, "id", m->id);
    cJSON_AddStringToObject(b, "name", m->name);
    cJSON_AddItemToObject(b, "input", empty_input ? cJSON_CreateObject() : cJSON_Duplicate(m->args, 1));
    return b;
}

void mt_anthropic_blocks(cJSON *content, const mock_calls *c)
{
    for (int i = 0; i < c->n; i++) cJSON_AddItemToArray(content, tool_use(&c->v[i], 0));
}

static cJSON *function_call_item(const mock_call *m, int empty)
{
    cJSON *it = cJSON_CreateObject();
    char *a = args_text(m);
    cJSON_AddStringToObject(it, "type", "function_call");
    cJSON_AddStringToObject(it, "id", m->id);
    cJSON_AddStringToObject(it, "call_id", m->call_id);
    cJSON_AddStringToObject(it, "name", m->name);
    cJSON_AddStringToObject(it, "arguments", empty ? "" : a);
    cJSON_AddStringToObject(it, "status", empty ? "in_progress" : "completed");
    free(a);
    return it;
}

void mt_responses_items(cJSON *output, const mock_calls *c)
{
    for (int i = 0; i < c->n; i++) cJSON_AddItemToArray(output, function_call_item(&c->v[i], 0));
}

void mt_gemini_parts(cJSON *parts, const mock_calls *c)
{
    for (int i = 0; i < c->n; i++) {
        cJSON *p = cJSON_CreateObject(), *fc = cJSON_CreateObject();
        cJSON_AddStringToObject(fc, "name", c->v[i].name);
        cJSON_AddItemToObject(fc, "args", cJSON_Duplicate(c->v[i].args, 1));
        cJSON_AddItemToObject(p, "functionCall", fc);
        if (c->v[i].sig[0]) cJSON_AddStringToObject(p, "thoughtSignature", c->v[i].sig);
        cJSON_AddItemToArray(parts, p);
    }
}

void mt_stream(int fd, provider pv, const char *model, const mock_calls *c, int first_index, mt_send send)
{
    if (c->n == 0) return;
    if (pv == P_GEMINI) {
        cJSON *o = cJSON_CreateObject(), *cands = cJSON_AddArrayToObject(o, "candidates"), *cand = cJSON_CreateObject();
        cJSON *content = cJSON_AddObjectToObject(cand, "content");
        cJSON_AddStringToObject(content, "role", "model");
        mt_gemini_parts(cJSON_AddArrayToObject(content, "parts"), c);
        cJSON_AddItemToArray(cands, cand);
        send(fd, NULL, o);
        return;
    }
    for (int i = 0; i < c->n; i++) {
        const mock_call *m = &c->v[i];
        char *a = args_text(m);
        size_t half = strlen(a) / 2;
        char *pieces[2] = {strndup(a, half), strdup(a + half)};
        int index = first_index + i;
        if (pv == P_OPENAI) {
            for (int k = -1; k < 2; k++) {
                cJSON *o = cJSON_CreateObject(), *ch = cJSON_AddArrayToObject(o, "choices"), *cc = cJSON_CreateObject();
                cJSON_AddStringToObject(o, "object", "chat.completion.chunk");
                cJSON_AddStringToObject(o, "model", model);
                cJSON_AddNumberToObject(cc, "index", 0);
                cJSON *tcs = cJSON_AddArrayToObject(cJSON_AddObjectToObject(cc, "delta"), "tool_calls"), *tc = cJSON_CreateObject();
                cJSON_AddNumberToObject(tc, "index", i);
                cJSON *f = cJSON_AddObjectToObject(tc, "function");
                if (k < 0) {
                    cJSON_AddStringToObject(tc, "id", m->id);
                    cJSON_AddStringToObject(tc, "type", "function");
                    cJSON_AddStringToObject(f, "name", m->name);
                    cJSON_AddStringToObject(f, "arguments", "");
                } else cJSON_AddStringToObject(f, "arguments", pieces[k]);
                cJSON_AddItemToArray(tcs, tc);
                cJSON_AddNullToObject(cc, "finish_reason");
                cJSON_AddItemToArray(ch, cc);
                send(fd, NULL, o);
            }
        } else if (pv == P_ANTHROPIC) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "type", "content_block_start");
            cJSON_AddNumberToObject(o, "index", index);
            cJSON_AddItemToObject(o, "content_block", tool_use(m, 1));
            send(fd, "content_block_start", o);
            for (int k = 0; k < 2; k++) {
                o = cJSON_CreateObject();
                cJSON_AddStringToObject(o, "type", "content_block_delta");
                cJSON_AddNumberToObject(o, "index", index);
                cJSON *d = cJSON_AddObjectToObject(o, "delta");
                cJSON_AddStringToObject(d, "type", "input_json_delta");
                cJSON_AddStringToObject(d, "partial_json", pieces[k]);
                send(fd, "content_block_delta", o);
            }
            o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "type", "content_block_stop");
            cJSON_AddNumberToObject(o, "index", index);
            send(fd, "content_block_stop", o);
        } else if (pv == P_RESPONSES) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "type", "response.output_item.added");
            cJSON_AddNumberToObject(o, "output_index", index);
            cJSON_AddItemToObject(o, "item", function_call_item(m, 1));
            send(fd, "response.output_item.added", o);
            for (int k = 0; k < 2; k++) {
                o = cJSON_CreateObject();
                cJSON_AddStringToObject(o, "type", "response.function_call_arguments.delta");
                cJSON_AddNumberToObject(o, "output_index", index);
                cJSON_AddStringToObject(o, "item_id", m->id);
                cJSON_AddStringToObject(o, "delta", pieces[k]);
                send(fd, "response.function_call_arguments.delta", o);
            }
            o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "type", "response.output_item.done");
            cJSON_AddNumberToObject(o, "output_index", index);
            cJSON_AddItemToObject(o, "item", function_call_item(m, 0));
            send(fd, "response.output_item.done", o);
        }
        free(pieces[0]);
        free(pieces[1]);
        free(a);
    }
}

/* ---- refusals ---- */

/* a small set of strings (ids), answered or not */
typedef struct { const char *id[64]; int done[64]; int n; } idset;

static void ids_add(idset *s, const char *id) { if (id && s->n < 64) { s->id[s->n] = id; s->done[s->n++] = 0; } }

static int ids_mark(idset *s, const char *id)
{
    for (int i = 0; i < s->n; i++) if (id && strcmp(s->id[i], id) == 0) { s->done[i] = 1; return 1; }
    return 0;
}

static const char *ids_open(const idset *s)
{
    for (int i = 0; i < s->n; i++) if (!s->done[i]) return s->id[i];
    return NULL;
}

static char *refuse_chat(const cJSON *req)
{
    idset pending = {0};
    const cJSON *m;
    cJSON_ArrayForEach(m, get(req, "messages")) {
        const char *role = str(m, "role");
        if (role && strcmp(role, "tool") == 0) {
            if (!ids_mark(&pending, str(m, "tool_call_id")))
                return msgf("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.");
            continue;
        }
        if (ids_open(&pending))
            return msgf("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. "
                        "The following tool_call_ids did not have response messages: %s", ids_open(&pending));
        pending.n = 0;
        const cJSON *tc;
        if (role && strcmp(role, "assistant") == 0) cJSON_ArrayForEach(tc, get(m, "tool_calls")) ids_add(&pending, str(tc, "id"));
    }
    if (ids_open(&pending))
        return msgf("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. "
                    "The following tool_call_ids did not have response messages: %s", ids_open(&pending));
    return NULL;
}

static char *refuse_anthropic(const cJSON *req)
{
    idset pending = {0};
    int i = 0, asked_at = -1;
    const cJSON *m;
    cJSON_ArrayForEach(m, get(req, "messages")) {
        const char *role = str(m, "role");
        const cJSON *b;
        int j = 0;
        if (role && strcmp(role, "user") == 0) {
            cJSON_ArrayForEach(b, get(m, "content")) {
                const char *bt = str(b, "type");
                if (bt && strcmp(bt, "tool_result") == 0 && !ids_mark(&pending, str(b, "tool_use_id")))
                    return msgf("messages.%d.content.%d: unexpected `tool_use_id` found in `tool_result` blocks: %s. "
                                "Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
                                i, j, str(b, "tool_use_id") ? str(b, "tool_use_id") : "");
                j++;
            }
        }
        if (asked_at >= 0 && asked_at < i && ids_open(&pending))
            return msgf("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. "
                        "Each `tool_use` block must have a corresponding `tool_result` block in the next message.", asked_at, ids_open(&pending));
        pending.n = 0;
        asked_at = -1;
        if (role && strcmp(role, "assistant") == 0) {
            cJSON_ArrayForEach(b, get(m, "content")) {
                const char *bt = str(b, "type");
                if (bt && strcmp(bt, "tool_use") == 0) { ids_add(&pending, str(b, "id")); asked_at = i; }
            }
        }
        i++;
    }
    return NULL;
}

static char *refuse_responses(const cJSON *req)
{
    idset calls = {0};
    const char *reasoning[64];
    int nr = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, get(req, "input")) {
        const char *type = str(it, "type");
        if (!type) continue;
        if (strcmp(type, "reasoning") == 0 && nr < 64 && str(it, "id")) reasoning[nr++] = str(it, "id");
        if (strcmp(type, "function_call") == 0) {
            const char *cid = str(it, "call_id");
            ids_add(&calls, cid);
            char key[64];
            snprintf(key, sizeof key, "fc:%s", cid ? cid : "");
            char *tok = mf_issued(P_RESPONSES, key);
            int found = 0;
            for (int k = 0; k < nr && tok; k++) if (strcmp(reasoning[k], tok) == 0) found = 1;
            if (tok && !found) {
                char *e = msgf("Item '%s' of type 'function_call' was provided without its required 'reasoning' item: '%s'.",
                               str(it, "id") ? str(it, "id") : "", tok);
                free(tok);
                return e;
            }
            free(tok);
        } else if (strcmp(type, "function_call_output") == 0) {
            const char *cid = str(it, "call_id");
            if (!ids_mark(&calls, cid))
                return msgf("No tool call found for function call output with call_id %s.", cid ? cid : "");
        }
    }
    if (ids_open(&calls)) return msgf("No tool output found for function call %s.", ids_open(&calls));
    return NULL;
}

static char *refuse_gemini(const char *model, const cJSON *req)
{
    int thinking = mf_reasoning_model(P_GEMINI, model);
    int asked = -1, i = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, get(req, "contents")) {
        const char *role = str(c, "role");
        const cJSON *p;
        int calls = 0, responses = 0, j = 0;
        cJSON_ArrayForEach(p, get(c, "parts")) {
            const cJSON *fc = get(p, "functionCall");
            if (fc && role && strcmp(role, "model") == 0) {
                const char *sig = str(p, "thoughtSignature");
                char want[24];
                mt_call_sign(str(fc, "name") ? str(fc, "name") : "", want);
                if (calls == 0 && thinking && !sig)
                    return msgf("Function call is missing a thought_signature in functionCall parts. This is required for tools to work "
                                "correctly, and missing thought_signature may lead to degraded model performance. Additional data, "
                                "function call `default_api:%s` , position %d.", str(fc, "name") ? str(fc, "name") : "", j + 1);
                if (sig && strcmp(sig, want) != 0) return msgf("Unable to submit request because Thought signature is not valid.");
                calls++;
            }
            if (get(p, "functionResponse")) responses++;
            j++;
        }
        if (asked >= 0 && responses != asked)
            return msgf("Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.");
        asked = calls > 0 ? calls : -1;
        i++;
    }
    (void)i;
    return NULL;
}

char *mt_refuse(provider pv, const char *model, const cJSON *req)
{
    if (pv == P_OPENAI) return refuse_chat(req);
    if (pv == P_ANTHROPIC) return refuse_anthropic(req);
    if (pv == P_RESPONSES) return refuse_responses(req);
    if (pv == P_GEMINI) return refuse_gemini(model, req);
    return NULL;
}
