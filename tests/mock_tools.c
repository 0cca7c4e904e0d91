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
#include <time.h>
#include <unistd.h>

static pthread_mutex_t tmu = PTHREAD_MUTEX_INITIALIZER;
static unsigned int counter;
static unsigned int run_tag;     /* differs between mock processes: a conversation resumed against a new mock
                                  * (an agent program's native session) never meets an id twice */

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
        m->ns = str(c, "namespace") ? strdup(str(c, "namespace")) : NULL;
        const cJSON *a = get(c, "arguments");
        m->args = cJSON_IsObject(a) ? cJSON_Duplicate(a, 1) : cJSON_CreateObject();
        pthread_mutex_lock(&tmu);
        if (!run_tag) run_tag = 1 + (unsigned int)(((unsigned long)getpid() * 7919UL + (unsigned long)time(NULL)) % 999999UL);
        unsigned int k = ++counter, tag = run_tag;
        pthread_mutex_unlock(&tmu);
        const char *prefix = pv == P_ANTHROPIC ? "toolu_mock" : pv == P_RESPONSES ? "fc_mock" : "call_mock";
        snprintf(m->id, sizeof m->id, "%s%06u%06u", prefix, tag, k);
        snprintf(m->call_id, sizeof m->call_id, "call_mock%06u%06u", tag, k);
        if (sign && out->n == 1) mt_call_sign(m->name, m->sig);
    }
    cJSON_Delete(list);
}

void mt_free(mock_calls *c)
{
    for (int i = 0; i < c->n; i++) { free(c->v[i].name); free(c->v[i].ns); cJSON_Delete(c->v[i].args); }
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
    if (m->ns) cJSON_AddStringToObject(it, "namespace", m->ns);
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
                /* the service takes the documented dummy signature (gemini-cli sends it on calls it did not get signed) */
                if (sig && strcmp(sig, want) != 0 && strcmp(sig, "skip_thought_signature_validator") != 0)
                    return msgf("Unable to submit request because Thought signature is not valid.");
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

/* ---- agent mode: the model behind an agent program ----
 * A rule {"agent": {...}} answers as a model that plays a seat through tools
 * whose names end in "observe" and "act" (an MCP server's, under whatever
 * prefix the program gives them: mcp__tabula__act, tabula_act, act). After the
 * last user message: no observe called yet -> call observe; the last message a
 * result that lists legal action ids (observe's, or an act's when "until" is
 * "over") -> call act with one of them ("pick": "first", or "random" from
 * "seed" and the list); an act refused -> act with the next id (at most
 * "max_refused" times, then give up with text); an act accepted -> the text
 * "done" and no call. A request that offers no act tool is not the rule's. */

enum { EV_USER, EV_CALL, EV_RESULT, EV_TEXT };

typedef struct {
    int kind, error;
    char *name, *id, *text;     /* name: the call's (a result's: found by id) */
} agent_ev;

typedef struct { agent_ev *v; int n, cap; } agent_evs;

/* every string value under o, joined by newlines (a tool result in any shape) */
static void gather(const cJSON *o, char **out, size_t *len, size_t *cap)
{
    if (!o) return;
    if (cJSON_IsString(o)) {
        size_t n = strlen(o->valuestring);
        while (*len + n + 2 > *cap) *out = realloc(*out, *cap *= 2);
        memcpy(*out + *len, o->valuestring, n);
        *len += n;
        (*out)[(*len)++] = '\n';
        (*out)[*len] = 0;
        return;
    }
    const cJSON *c;
    cJSON_ArrayForEach(c, o) gather(c, out, len, cap);
}

static char *gather_text(const cJSON *o)
{
    size_t cap = 256, len = 0;
    char *out = calloc(1, cap);
    gather(o, &out, &len, &cap);
    return out;
}

static void ev_add(agent_evs *e, int kind, const char *name, const char *id, char *text, int error)
{
    if (e->n == e->cap) e->v = realloc(e->v, sizeof *e->v * (size_t)(e->cap = e->cap ? e->cap * 2 : 16));
    agent_ev *v = &e->v[e->n++];
    v->kind = kind;
    v->error = error;
    v->name = name ? strdup(name) : NULL;
    v->id = id ? strdup(id) : NULL;
    v->text = text;
}

static void evs_free(agent_evs *e)
{
    for (int i = 0; i < e->n; i++) { free(e->v[i].name); free(e->v[i].id); free(e->v[i].text); }
    free(e->v);
}

/* a user message's content holds text of its own (not only tool results)? */
static int has_user_text(const cJSON *content)
{
    if (cJSON_IsString(content)) return content->valuestring[0] != 0;
    const cJSON *b;
    int text = 0;
    cJSON_ArrayForEach(b, content) {
        const char *t = str(b, "type");
        if (t && (!strcmp(t, "tool_result") || !strcmp(t, "function_call_output"))) return 0;
        if (get(b, "functionResponse")) return 0;
        if (str(b, "text")) text = 1;
    }
    return text;
}

/* the conversation of a request, as events in order */
static void agent_events(provider pv, const cJSON *req, agent_evs *e)
{
    const cJSON *m, *b;
    if (pv == P_OPENAI) {
        cJSON_ArrayForEach(m, get(req, "messages")) {
            const char *role = str(m, "role");
            if (!role) continue;
            if (!strcmp(role, "user")) ev_add(e, EV_USER, NULL, NULL, gather_text(get(m, "content")), 0);
            else if (!strcmp(role, "tool")) ev_add(e, EV_RESULT, NULL, str(m, "tool_call_id"), gather_text(get(m, "content")), 0);
            else if (!strcmp(role, "assistant")) {
                const cJSON *c = get(m, "content");
                if ((cJSON_IsString(c) && c->valuestring[0]) || cJSON_IsArray(c)) ev_add(e, EV_TEXT, NULL, NULL, gather_text(c), 0);
                cJSON_ArrayForEach(b, get(m, "tool_calls"))
                    ev_add(e, EV_CALL, str(get(b, "function"), "name"), str(b, "id"), NULL, 0);
            }
        }
    } else if (pv == P_ANTHROPIC) {
        cJSON_ArrayForEach(m, get(req, "messages")) {
            const char *role = str(m, "role");
            const cJSON *c = get(m, "content");
            if (!role) continue;
            if (!strcmp(role, "user")) {
                if (has_user_text(c)) { ev_add(e, EV_USER, NULL, NULL, gather_text(c), 0); continue; }
                /* tool results, and maybe the user's next words after them in the same message
                 * (a resumed Claude Code session sends them so); a system reminder is not the user */
                int said = 0;
                cJSON_ArrayForEach(b, c) {
                    const char *t = str(b, "type");
                    if (t && !strcmp(t, "tool_result"))
                        ev_add(e, EV_RESULT, NULL, str(b, "tool_use_id"), gather_text(get(b, "content")),
                               cJSON_IsTrue(get(b, "is_error")));
                    else if (t && !strcmp(t, "text") && str(b, "text") && str(b, "text")[0] &&
                             strncmp(str(b, "text"), "<system-reminder>", 17) != 0) said = 1;
                }
                if (said) {
                    size_t cap = 256, len = 0;
                    char *words = calloc(1, cap);
                    cJSON_ArrayForEach(b, c) {
                        const char *t = str(b, "type");
                        if (t && !strcmp(t, "text")) gather(get(b, "text"), &words, &len, &cap);
                    }
                    ev_add(e, EV_USER, NULL, NULL, words, 0);
                }
            } else if (!strcmp(role, "assistant")) {
                if (cJSON_IsString(c)) { ev_add(e, EV_TEXT, NULL, NULL, gather_text(c), 0); continue; }
                cJSON_ArrayForEach(b, c) {
                    const char *t = str(b, "type");
                    if (t && !strcmp(t, "tool_use")) ev_add(e, EV_CALL, str(b, "name"), str(b, "id"), NULL, 0);
                    else if (t && !strcmp(t, "text")) ev_add(e, EV_TEXT, NULL, NULL, gather_text(get(b, "text")), 0);
                }
            }
        }
    } else if (pv == P_RESPONSES) {
        const cJSON *in = get(req, "input");
        if (cJSON_IsString(in)) { ev_add(e, EV_USER, NULL, NULL, strdup(in->valuestring), 0); return; }
        cJSON_ArrayForEach(m, in) {
            const char *type = str(m, "type"), *role = str(m, "role");
            if (type && !strcmp(type, "function_call")) ev_add(e, EV_CALL, str(m, "name"), str(m, "call_id"), NULL, 0);
            else if (type && !strcmp(type, "function_call_output"))
                ev_add(e, EV_RESULT, NULL, str(m, "call_id"), gather_text(get(m, "output")), 0);
            else if (role && !strcmp(role, "user")) ev_add(e, EV_USER, NULL, NULL, gather_text(get(m, "content")), 0);
            else if (role && !strcmp(role, "assistant")) ev_add(e, EV_TEXT, NULL, NULL, gather_text(get(m, "content")), 0);
        }
    } else if (pv == P_GEMINI) {
        cJSON_ArrayForEach(m, get(req, "contents")) {
            const char *role = str(m, "role");
            const cJSON *parts = get(m, "parts");
            if (role && !strcmp(role, "model")) {
                cJSON_ArrayForEach(b, parts) {
                    if (get(b, "functionCall")) ev_add(e, EV_CALL, str(get(b, "functionCall"), "name"), NULL, NULL, 0);
                    else if (str(b, "text") && !cJSON_IsTrue(get(b, "thought"))) ev_add(e, EV_TEXT, NULL, NULL, strdup(str(b, "text")), 0);
                }
            } else {
                if (has_user_text(parts)) { ev_add(e, EV_USER, NULL, NULL, gather_text(parts), 0); continue; }
                cJSON_ArrayForEach(b, parts) {
                    const cJSON *fr = get(b, "functionResponse");
                    if (fr) ev_add(e, EV_RESULT, str(fr, "name"), NULL, gather_text(get(fr, "response")),
                                   get(get(fr, "response"), "error") != NULL);
                }
            }
        }
    }
    /* a result's tool: its call's name (Gemini names it itself) */
    for (int i = 0; i < e->n; i++) {
        if (e->v[i].kind != EV_RESULT || e->v[i].name) continue;
        for (int j = i - 1; j >= 0; j--)
            if (e->v[j].kind == EV_CALL && e->v[j].id && e->v[i].id && !strcmp(e->v[j].id, e->v[i].id)) {
                e->v[i].name = strdup(e->v[j].name ? e->v[j].name : "");
                break;
            }
    }
}

/* does a tool's name end in word (after a non-alphanumeric character, or whole)? */
static int named(const char *name, const char *word)
{
    size_t n = name ? strlen(name) : 0, k = strlen(word);
    if (n < k || strcmp(name + n - k, word) != 0) return 0;
    if (n == k) return 1;
    char c = name[n - k - 1];
    return !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'));
}

/* the tools a request offers: every "name" string under its tools; a tool
 * inside a Responses namespace ({"type": "namespace", "name": "mcp__tabula",
 * "tools": [...]}, as codex gives MCP tools) is called with that namespace */
typedef struct { const char *name, *ns; } offer;

static void offered(const cJSON *o, const char *ns, offer *observe, offer *act)
{
    const cJSON *c;
    const char *type = cJSON_IsObject(o) ? str(o, "type") : NULL;
    const char *inner = type && !strcmp(type, "namespace") ? str(o, "name") : ns;
    cJSON_ArrayForEach(c, o) {
        if (c->string && !strcmp(c->string, "name") && cJSON_IsString(c)) {
            if (!observe->name && named(c->valuestring, "observe")) { observe->name = c->valuestring; observe->ns = ns; }
            if (!act->name && named(c->valuestring, "act")) { act->name = c->valuestring; act->ns = ns; }
        } else if (cJSON_IsObject(c) || cJSON_IsArray(c)) offered(c, inner, observe, act);
    }
}

#define LEGAL_HEAD "Your legal actions (id: description):"

/* the legal action ids listed in a text (the DECE block "Your legal actions
 * (id: description):" then "id: description" lines); a text a program
 * passed on JSON-escaped is read too. Returns the count (ids malloc'd) */
static int legal_ids(const char *text, char ***ids)
{
    *ids = NULL;
    const char *h = text ? strstr(text, LEGAL_HEAD) : NULL;
    if (!h) return 0;
    const char *p = h + strlen(LEGAL_HEAD);
    int escaped = strncmp(p, "\\n", 2) == 0;
    const char *nl = escaped ? "\\n" : "\n";
    size_t nll = strlen(nl);
    int n = 0;
    while (strncmp(p, nl, nll) == 0) {
        p += nll;
        const char *end = strstr(p, nl);
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *colon = memmem(p, len, ": ", 2);    /* an id may hold colons (f1:yellow:1) but no space */
        if (!len || !colon || colon == p || memchr(p, ' ', (size_t)(colon - p))) break;
        *ids = realloc(*ids, sizeof **ids * (size_t)(n + 1));
        (*ids)[n++] = strndup(p, (size_t)(colon - p));
        p += len;
    }
    return n;
}

static void ids_free(char **ids, int n)
{
    for (int i = 0; i < n; i++) free(ids[i]);
    free(ids);
}

/* was this act result a refusal? An error flag, or the arena's words at its
 * start ("That answer cannot be played: ..."), where a program that wraps the
 * error (qwen-code: "MCP tool 'act' reported tool error ...") keeps them; the
 * rest of the text (the rules, the policy) may use the same words */
static int refused_text(const agent_ev *r)
{
    if (r->error) return 1;
    if (!r->text) return 0;
    char head[601];
    snprintf(head, sizeof head, "%s", r->text);
    return strstr(head, "cannot be played") != NULL || strncmp(head, "Error", 5) == 0;
}

static unsigned long fnv(const char *s, unsigned long h)
{
    for (; s && *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211UL;
    return h;
}

int mt_agent(provider pv, const cJSON *req, const char *opts_json, char **calls_json, char **text)
{
    *calls_json = NULL;
    *text = NULL;
    offer ob = {0}, ac = {0};
    offered(get(req, "tools"), NULL, &ob, &ac);
    const char *observe = ob.name, *act = ac.name;
    if (!act) return 0;
    cJSON *opts = opts_json ? cJSON_Parse(opts_json) : NULL;
    const char *pick = str(opts, "pick") ? str(opts, "pick") : "first";
    const char *until = str(opts, "until") ? str(opts, "until") : "act";
    const cJSON *sv = get(opts, "seed"), *mv = get(opts, "max_refused");
    unsigned long seed = cJSON_IsNumber(sv) ? (unsigned long)sv->valuedouble : 1;
    int max_refused = cJSON_IsNumber(mv) ? (int)mv->valuedouble : 3;
    agent_evs e = {0};
    agent_events(pv, req, &e);
    int u = -1;
    for (int i = 0; i < e.n; i++) if (e.v[i].kind == EV_USER) u = i;
    /* what happened since the last user message */
    int observed = 0, refused = 0;
    const agent_ev *source = u >= 0 ? &e.v[u] : NULL;     /* the latest text listing legal ids */
    for (int i = u + 1; i < e.n; i++) {
        const agent_ev *v = &e.v[i];
        if (v->kind == EV_CALL && named(v->name, "observe")) observed = 1;
        if (v->kind != EV_RESULT) continue;
        int is_act = named(v->name, "act");
        if (is_act && refused_text(v)) refused++;
        else if (strstr(v->text ? v->text : "", LEGAL_HEAD)) { source = v; refused = 0; }
    }
    const agent_ev *last = e.n ? &e.v[e.n - 1] : NULL;
    const char *call = NULL, *ns = NULL;
    char *id = NULL;
    if (last && last->kind == EV_RESULT && named(last->name, "act") && !refused_text(last) &&
        !(strcmp(until, "over") == 0 && strstr(last->text ? last->text : "", LEGAL_HEAD))) {
        *text = strdup("done");                               /* the act was taken: the decision is over */
    } else if (last && last->kind == EV_RESULT && named(last->name, "act") && refused >= max_refused) {
        *text = strdup("giving up: every action I tried was refused");
    } else if (!observed && observe && (!last || last->kind == EV_USER)) {
        call = observe;                                       /* first look at the game */
    } else if (last && (last->kind == EV_RESULT || last->kind == EV_USER) && source) {
        char **ids;
        int n = legal_ids(source->text, &ids);
        if (n > 0) {
            int k = refused;
            if (strcmp(pick, "random") == 0) k += (int)(fnv(source->text, 14695981039346656037UL ^ seed) % (unsigned long)n);
            id = strdup(ids[k % n]);
            call = act;
        } else if (observe && !observed) call = observe;
        else *text = strdup("done: no legal action listed");
        ids_free(ids, n);
    } else if (observe && last && last->kind == EV_RESULT && !named(last->name, "observe")) {
        call = observe;
    } else {
        *text = strdup("done");
    }
    if (call) {
        cJSON *list = cJSON_CreateArray(), *c = cJSON_CreateObject(), *args = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "name", call);
        ns = call == act ? ac.ns : ob.ns;
        if (ns) cJSON_AddStringToObject(c, "namespace", ns);
        if (id) cJSON_AddStringToObject(args, "id", id);
        cJSON_AddItemToObject(c, "arguments", args);
        cJSON_AddItemToArray(list, c);
        *calls_json = cJSON_PrintUnformatted(list);
        cJSON_Delete(list);
    }
    free(id);
    evs_free(&e);
    cJSON_Delete(opts);
    return 1;
}
