/* mock_tools.h — tool calls in the mock model server: the calls a script
 * rule asks for, put on each provider's wire (plain and streamed), and what
 * the services refuse about tool traffic (see mock_tools.c). */
#ifndef MOCK_TOOLS_H
#define MOCK_TOOLS_H

#include <cJSON.h>

#include "mock_families.h"

typedef struct {
    char *name;
    char *ns;             /* Responses: the namespace of the tool called (NULL: none) */
    cJSON *args;          /* the arguments object */
    char id[40];          /* toolu_ / call_ / fc_ id (Gemini: none on the wire) */
    char call_id[40];     /* Responses: the call_id */
    char sig[24];         /* Gemini: the first call's thoughtSignature ("" if none) */
} mock_call;

typedef struct { mock_call *v; int n; } mock_calls;

/* the calls of a rule's "tool_calls" JSON text ([{"name", "arguments"}]), with
 * fresh ids; sign: give the first call a Gemini thought signature. NULL text: none */
void mt_make(provider pv, const char *json_text, int sign, mock_calls *out);
void mt_free(mock_calls *c);

/* the calls on each wire: Chat Completions message.tool_calls; Anthropic
 * tool_use blocks, Responses function_call items and Gemini functionCall
 * parts appended to the list given */
cJSON *mt_chat_calls(const mock_calls *c);
void mt_anthropic_blocks(cJSON *content, const mock_calls *c);
void mt_responses_items(cJSON *output, const mock_calls *c);
void mt_gemini_parts(cJSON *parts, const mock_calls *c);

/* the streamed calls, after the text: send(fd, event, data) sends one event
 * (data is consumed); first_index: the first content block / output index */
typedef int (*mt_send)(int fd, const char *event, cJSON *data);
void mt_stream(int fd, provider pv, const char *model, const mock_calls *c, int first_index, mt_send send);

/* the Gemini signature of a call part (out holds 24 bytes) */
void mt_call_sign(const char *name, char out[24]);

/* NULL when the request's tool traffic is one the service takes, else the 400 message (malloc'd) */
char *mt_refuse(provider pv, const char *model, const cJSON *req);

/* agent mode (a rule's "agent": {"pick", "seed", "until", "max_refused"}, its
 * JSON text opts_json): the model behind an agent program playing a seat
 * through tools named ...observe and ...act. Returns 0 when the request offers
 * no act tool (the rule does not apply), else 1 with either the calls to make
 * (*calls_json, as a rule's "tool_calls") or the text to answer (*text),
 * both malloc'd */
int mt_agent(provider pv, const cJSON *req, const char *opts_json, char **calls_json, char **text);

#endif
