/* mock_families.c — what the mock model server refuses, as the services do:
 * per model family (the model named in the request), the thinking modes and
 * sampling parameters it does not take, and reasoning carried wrongly across
 * turns (a changed signature or encrypted item; a reasoned turn sent back
 * without its reasoning). The messages are the services' own wording where
 * they have one; where the service has none (it ignores a dropped reasoning
 * item on a plain-text turn) the mock is stricter and says so ("mock:").
 *
 * Families, by model name:
 *   Anthropic  claude-opus-4-7 and later, claude-*-5 and later: adaptive thinking
 *              only, no temperature/top_p/top_k, at most 128000 output tokens;
 *              claude-*-4-6: adaptive or budgeted; older claude-*: budgeted only,
 *              with thinking on temperature 1, top_p >= 0.95, no top_k, at most
 *              64000 output tokens and max_tokens > budget_tokens >= 1024.
 *   OpenAI Responses  gpt-5*, o<digit>*: reasoning; temperature/top_p only at 1.
 *              others (gpt-4.1, ...): no reasoning parameters.
 *   Gemini     gemini-3*: thinkingLevel (thinkingBudget 0 refused);
 *              gemini-2.5*: thinkingBudget (no thinkingLevel; Pro refuses 0);
 *              both set: refused. */
#include "mock_families.h"

#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { provider pv; char *text, *token; } issued;

static pthread_mutex_t fmu = PTHREAD_MUTEX_INITIALIZER;
static issued *iss;
static int niss;

void mf_sign(const char *text, char out[24])
{
    unsigned long long h = 1469598103934665603ULL;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) { h ^= *p; h *= 1099511628211ULL; }
    snprintf(out, 24, "sig-%016llx", h);
}

void mf_issue(provider pv, const char *text, const char *token)
{
    pthread_mutex_lock(&fmu);
    iss = realloc(iss, sizeof *iss * (size_t)(niss + 1));
    iss[niss].pv = pv;
    iss[niss].text = strdup(text);
    iss[niss].token = strdup(token);
    niss++;
    pthread_mutex_unlock(&fmu);
}

void mf_reset(void)
{
    pthread_mutex_lock(&fmu);
    for (int i = 0; i < niss; i++) { free(iss[i].text); free(iss[i].token); }
    free(iss);
    iss = NULL;
    niss = 0;
    pthread_mutex_unlock(&fmu);
}

/* the token issued with a reply of this text (malloc'd), or NULL */
static char *issued_token(provider pv, const char *text)
{
    char *t = NULL;
    pthread_mutex_lock(&fmu);
    for (int i = niss - 1; i >= 0 && !t; i--)
        if (iss[i].pv == pv && strcmp(iss[i].text, text) == 0) t = strdup(iss[i].token);
    pthread_mutex_unlock(&fmu);
    return t;
}

char *mf_issued(provider pv, const char *text) { return issued_token(pv, text); }

/* was this token issued (a signature over thinking text the reply did not show)? */
static int token_issued(provider pv, const char *token)
{
    int yes = 0;
    pthread_mutex_lock(&fmu);
    for (int i = 0; i < niss && !yes; i++) yes = iss[i].pv == pv && strcmp(iss[i].token, token) == 0;
    pthread_mutex_unlock(&fmu);
    return yes;
}

/* ---- families ---- */

/* claude-<word>-<major>[-.]<minor>... -> 1 with major, minor */
static int claude_version(const char *m, int *major, int *minor)
{
    if (strncmp(m, "claude-", 7) != 0) return 0;
    const char *p = m + 7;
    while (*p && !isdigit((unsigned char)*p)) p++;
    if (!*p) return 0;
    *major = atoi(p);
    while (isdigit((unsigned char)*p)) p++;
    *minor = (*p == '-' || *p == '.') && isdigit((unsigned char)p[1]) && strlen(p + 1) < 8 ? atoi(p + 1) : 0;
    if (*minor > 99) *minor = 0;    /* a date, not a minor version */
    return 1;
}

static int adaptive_only(const char *m)
{
    int a, b;
    return claude_version(m, &a, &b) && (a >= 5 || (a == 4 && b >= 7));
}

static int adaptive_ok(const char *m)
{
    int a, b;
    return adaptive_only(m) || (claude_version(m, &a, &b) && a == 4 && b == 6);
}

static int openai_reasoning(const char *m)
{
    return strncmp(m, "gpt-5", 5) == 0 || (m[0] == 'o' && isdigit((unsigned char)m[1]));
}

int mf_reasoning_model(provider pv, const char *m)
{
    if (pv == P_RESPONSES) return openai_reasoning(m);
    if (pv == P_ANTHROPIC) return strncmp(m, "claude-", 7) == 0;
    if (pv == P_GEMINI) return strncmp(m, "gemini-", 7) == 0;
    return 0;
}

/* ---- helpers ---- */

const cJSON *mf_get(const cJSON *o, const char *k) { return cJSON_GetObjectItemCaseSensitive(o, k); }

const char *mf_str(const cJSON *o, const char *k)
{
    const cJSON *v = mf_get(o, k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

#define get mf_get    /* the short names this file uses */
#define str mf_str

char *mf_msgf(const char *fmt, ...)
{
    char *s = malloc(1024);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s, 1024, fmt, ap);
    va_end(ap);
    return s;
}
#define msgf mf_msgf

/* the texts of a list of blocks/parts (key "text"), joined; with skip_thought, parts marked thought are left out */
static char *texts(const cJSON *list, const char *type_needed, int skip_thought)
{
    size_t cap = 256, len = 0;
    char *out = calloc(1, cap);
    const cJSON *b;
    cJSON_ArrayForEach(b, list) {
        const char *t = str(b, "text");
        if (!t) continue;
        if (type_needed && !(str(b, "type") && strcmp(str(b, "type"), type_needed) == 0)) continue;
        if (skip_thought && cJSON_IsTrue(get(b, "thought"))) continue;
        size_t n = strlen(t);
        while (len + n + 1 > cap) out = realloc(out, cap *= 2);
        memcpy(out + len, t, n + 1);
        len += n;
    }
    return out;
}

/* ---- per provider ---- */

static char *refuse_anthropic(const char *model, const cJSON *req)
{
    const cJSON *th = get(req, "thinking"), *mt = get(req, "max_tokens");
    const char *type = str(th, "type");
    int max_tokens = cJSON_IsNumber(mt) ? (int)mt->valuedouble : 0;
    int claude = strncmp(model, "claude-", 7) == 0;
    if (claude && adaptive_only(model)) {
        if (type && strcmp(type, "adaptive") != 0)
            return msgf("\"thinking.type.%s\" is not supported for this model. Use \"thinking.type.adaptive\" and \"output_config.effort\" to control thinking behavior.", type);
        const char *sampling[] = {"temperature", "top_p", "top_k"};
        for (int i = 0; i < 3; i++)
            if (get(req, sampling[i])) return msgf("%s: Extra inputs are not permitted", sampling[i]);
        if (max_tokens > 128000)
            return msgf("max_tokens: %d > 128000, which is the maximum allowed number of output tokens for %s", max_tokens, model);
        const char *effort = str(get(req, "output_config"), "effort");
        if (effort && strcmp(effort, "low") && strcmp(effort, "medium") && strcmp(effort, "high") && strcmp(effort, "xhigh") && strcmp(effort, "max"))
            return msgf("output_config.effort: Input should be 'low', 'medium', 'high', 'xhigh' or 'max'");
    } else if (claude) {
        if (type && strcmp(type, "adaptive") == 0 && !adaptive_ok(model))
            return msgf("thinking: Input tag 'adaptive' found using 'type' does not match any of the expected tags: 'disabled', 'enabled'");
        if (get(req, "output_config") && !adaptive_ok(model)) return msgf("output_config: Extra inputs are not permitted");
        int thinking = type && strcmp(type, "disabled") != 0;
        if (type && strcmp(type, "enabled") == 0) {
            const cJSON *b = get(th, "budget_tokens");
            int budget = cJSON_IsNumber(b) ? (int)b->valuedouble : 0;
            if (budget < 1024) return msgf("thinking.enabled.budget_tokens: Input should be greater than or equal to 1024");
            if (max_tokens <= budget) return msgf("`max_tokens` must be greater than `thinking.budget_tokens`");
        }
        const cJSON *t = get(req, "temperature"), *p = get(req, "top_p");
        if (thinking && t && !(cJSON_IsNumber(t) && t->valuedouble == 1))
            return msgf("`temperature` may only be set to 1 when thinking is enabled or in extended thinking mode");
        if (thinking && get(req, "top_k")) return msgf("`top_k` must be unset when thinking is enabled");
        if (thinking && p && !(cJSON_IsNumber(p) && p->valuedouble >= 0.95))
            return msgf("`top_p` must be greater than or equal to 0.95 or unset when thinking is enabled");
        if (max_tokens > 64000)
            return msgf("max_tokens: %d > 64000, which is the maximum allowed number of output tokens for %s", max_tokens, model);
    }
    /* thinking blocks sent back: signed, unchanged; a reasoned turn keeps them */
    int i = 0;
    const cJSON *m;
    cJSON_ArrayForEach(m, get(req, "messages")) {
        const char *role = str(m, "role");
        const cJSON *content = get(m, "content");
        if (role && strcmp(role, "assistant") == 0) {
            int j = 0, signed_ok = 0;
            const cJSON *b;
            char *tok = NULL;
            char *text = cJSON_IsString(content) ? strdup(content->valuestring) : texts(content, "text", 0);
            /* a turn that called tools is known by its first tool_use id (mock_tools.c), others by their text */
            cJSON_ArrayForEach(b, content) {
                const char *bt = str(b, "type");
                if (bt && strcmp(bt, "tool_use") == 0 && str(b, "id")) { free(text); text = strdup(str(b, "id")); break; }
            }
            tok = issued_token(P_ANTHROPIC, text);
            free(text);
            if (cJSON_IsArray(content)) cJSON_ArrayForEach(b, content) {
                const char *bt = str(b, "type");
                if (bt && strcmp(bt, "thinking") == 0) {
                    const char *sig = str(b, "signature"), *thinking = str(b, "thinking");
                    char want[24];
                    mf_sign(thinking ? thinking : "", want);
                    if (!sig) { free(tok); return msgf("messages.%d.content.%d.thinking.signature: Field required", i, j); }
                    /* the signature covers the thinking; an omitted (empty) thinking keeps the signature it came with */
                    int valid = (thinking && *thinking) ? strcmp(sig, want) == 0 : token_issued(P_ANTHROPIC, sig);
                    if (!valid) { free(tok); return msgf("messages.%d.content.%d: Invalid `signature` in `thinking` block", i, j); }
                    if (tok && strcmp(sig, tok) == 0) signed_ok = 1;
                } else if (bt && strcmp(bt, "redacted_thinking") == 0) {
                    const char *data = str(b, "data");
                    if (!data || strncmp(data, "red-", 4) != 0 || !token_issued(P_ANTHROPIC, data + 4)) {
                        free(tok);
                        return msgf("messages.%d.content.%d: Invalid `data` in `redacted_thinking` block", i, j);
                    }
                }
                j++;
            }
            if (tok && !signed_ok) {
                free(tok);
                return msgf("messages.%d.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`. When `thinking` is enabled, "
                            "a final `assistant` message must start with a thinking block (mock: every turn answered with thinking must keep its blocks)", i);
            }
            free(tok);
        }
        i++;
    }
    return NULL;
}

static char *refuse_responses(const char *model, const cJSON *req)
{
    if (get(req, "messages")) return msgf("Unsupported parameter: 'messages'. In the Responses API, this parameter has moved to 'input'.");
    if (get(req, "max_tokens")) return msgf("Unsupported parameter: 'max_tokens'. In the Responses API, this parameter has moved to 'max_output_tokens'.");
    if (openai_reasoning(model)) {
        const char *sampling[] = {"temperature", "top_p"};
        for (int i = 0; i < 2; i++) {
            const cJSON *v = get(req, sampling[i]);
            if (v && !(cJSON_IsNumber(v) && v->valuedouble == 1))
                return msgf("Unsupported parameter: '%s' is not supported with this model.", sampling[i]);
        }
        const char *effort = str(get(req, "reasoning"), "effort");
        if (effort && strncmp(model, "o", 1) == 0 && strcmp(effort, "low") && strcmp(effort, "medium") && strcmp(effort, "high"))
            return msgf("Unsupported value: 'reasoning.effort' does not support '%s' with this model. Supported values are: 'low', 'medium', and 'high'.", effort);
    } else if (strncmp(model, "gpt-", 4) == 0) {
        if (str(get(req, "reasoning"), "effort"))
            return msgf("Unsupported parameter: 'reasoning.effort' is not supported with this model.");
        if (get(req, "include")) return msgf("Encrypted content is not supported with this model.");
    }
    /* reasoning items sent back: with their encrypted content, unchanged, before the message they led to */
    const cJSON *it;
    int i = 0;
    const char *last_reasoning[64];
    int nr = 0;
    cJSON_ArrayForEach(it, get(req, "input")) {
        const char *type = str(it, "type"), *role = str(it, "role");
        if (type && strcmp(type, "reasoning") == 0) {
            const char *id = str(it, "id"), *enc = str(it, "encrypted_content");
            char want[24];
            mf_sign(id ? id : "", want);
            if (!enc) return msgf("Item with id '%s' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.", id ? id : "");
            if (strcmp(enc, want) != 0) return msgf("The encrypted content for item %s could not be verified.", id ? id : "");
            if (nr < 64) last_reasoning[nr++] = id;
        } else if (role && strcmp(role, "assistant") == 0) {
            const cJSON *c = get(it, "content");
            char *text = cJSON_IsString(c) ? strdup(c->valuestring) : texts(c, NULL, 0);
            char *tok = issued_token(P_RESPONSES, text);
            free(text);
            int found = 0;
            for (int k = 0; k < nr && tok; k++) if (last_reasoning[k] && strcmp(last_reasoning[k], tok) == 0) found = 1;
            if (tok && !found) {
                char *e = msgf("input[%d]: this assistant message was answered after reasoning item %s, which is missing from the input "
                               "(mock: reasoning items must be sent back in order)", i, tok);
                free(tok);
                return e;
            }
            free(tok);
            nr = 0;
        }
        i++;
    }
    return NULL;
}

static char *refuse_gemini(const char *model, const cJSON *req)
{
    const cJSON *tc = get(get(req, "generationConfig"), "thinkingConfig");
    const cJSON *budget = get(tc, "thinkingBudget"), *level = get(tc, "thinkingLevel");
    int g3 = strncmp(model, "gemini-3", 8) == 0;
    if (budget && level) return msgf("You can only set one of thinking budget and thinking level.");
    if (level && strncmp(model, "gemini-", 7) == 0 && !g3) return msgf("Thinking level is not supported for this model.");
    if (budget && cJSON_IsNumber(budget) && budget->valuedouble == 0) {
        if (g3) return msgf("Thinking can't be disabled for this model.");
        if (strncmp(model, "gemini-2.5-pro", 14) == 0) return msgf("Budget 0 is invalid. This model only works in thinking mode.");
    }
    if (level && g3) {
        const char *l = cJSON_IsString(level) ? level->valuestring : "";
        if (strcmp(l, "low") && strcmp(l, "medium") && strcmp(l, "high") && strcmp(l, "minimal"))
            return msgf("Invalid value at 'generation_config.thinking_config.thinking_level' (%s)", l);
    }
    const cJSON *c;
    int i = 0;
    cJSON_ArrayForEach(c, get(req, "contents")) {
        const char *role = str(c, "role");
        if (role && strcmp(role, "model") == 0) {
            const cJSON *parts = get(c, "parts"), *p;
            char *text = texts(parts, NULL, 1);
            char *tok = issued_token(P_GEMINI, text);
            free(text);
            int found = 0;
            cJSON_ArrayForEach(p, parts) {
                const char *sig = str(p, "thoughtSignature");
                if (!sig || get(p, "functionCall")) continue;   /* a call's signature: mock_tools.c */
                char want[24];
                mf_sign(str(p, "text") ? str(p, "text") : "", want);
                if (strcmp(sig, want) != 0) { free(tok); return msgf("Unable to submit request because Thought signature is not valid."); }
                if (tok && strcmp(sig, tok) == 0) found = 1;
            }
            if (tok && !found) {
                free(tok);
                return msgf("contents[%d]: the model turn is missing its thought_signature (mock: every turn answered with one must return it)", i);
            }
            free(tok);
        }
        i++;
    }
    return NULL;
}

char *mf_refuse(provider pv, const char *model, const cJSON *req)
{
    if (pv == P_ANTHROPIC) return refuse_anthropic(model, req);
    if (pv == P_RESPONSES) return refuse_responses(model, req);
    if (pv == P_GEMINI) return refuse_gemini(model, req);
    return NULL;
}
