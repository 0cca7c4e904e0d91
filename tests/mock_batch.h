/* mock_batch.h — the three batch APIs of the mock model server (see mock_batch.c). */
#ifndef MOCK_BATCH_H
#define MOCK_BATCH_H

#include "mock_families.h"

/* the answer the server gives a model request (the rules, the family's
 * refusals, status faults as error bodies): malloc'd body, *status set */
char *mock_answer(provider pv, const char *path, const char *body, int *status);

/* how many mock seconds the rule that answers this request takes in a batch
 * ("batch_seconds", default 60) */
int mock_batch_seconds(provider pv, const char *body);

/* a batch endpoint, a file endpoint or POST /_batch: 1 with *status, *ctype
 * and *out (malloc'd) set, or 0 when the path is none of them */
int mb_handle(const char *method, const char *path, const char *headers, const char *body,
              int *status, const char **ctype, char **out);

/* the counts /_stats adds: creates (every create request, taken or not) and
 * batches taken */
void mb_stats(long *creates, long *batches, long *polls);

/* forget every batch and file (POST /_reset, /_script) */
void mb_reset(void);

#endif
