/* mock_families.h — what the mock model server refuses, per provider and
 * model family, as the real services do (see mock_families.c). */
#ifndef MOCK_FAMILIES_H
#define MOCK_FAMILIES_H

#include <cJSON.h>

typedef enum { P_OPENAI, P_ANTHROPIC, P_GEMINI, P_RESPONSES, P_OTHER } provider;

/* NULL when the request is one the service takes, else the 400 message (malloc'd) */
char *mf_refuse(provider pv, const char *model, const cJSON *req);

/* the mock's signature of a text: "sig-" and 16 hex digits (out holds 24 bytes) */
void mf_sign(const char *text, char out[24]);

/* remember that a reply with this text was answered with reasoning carrying
 * token (a signature, a reasoning item's id): a later request that sends the
 * text back without the token is refused */
void mf_issue(provider pv, const char *text, const char *token);

/* the token issued with this text (malloc'd), or NULL */
char *mf_issued(provider pv, const char *text);

/* forget every issued reply (POST /_reset, /_script) */
void mf_reset(void);

/* the request helpers the mock's refusals share: a member, a string member, a
 * message (malloc'd) */
const cJSON *mf_get(const cJSON *o, const char *k);
const char *mf_str(const cJSON *o, const char *k);
char *mf_msgf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* does the model reason (so that its replies carry signed reasoning)? */
int mf_reasoning_model(provider pv, const char *model);

#endif
