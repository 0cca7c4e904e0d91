/* check.h — the smallest test harness for the pure C cores. */
#ifndef TABULA_CHECK_H
#define TABULA_CHECK_H
#include <stdio.h>

static int check_failed, check_passed;

#define CHECK(cond, ...) do { \
    if (cond) check_passed++; \
    else { check_failed++; fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
           fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } \
} while (0)

static int check_report(const char *name)
{
    printf("%s: %d checks passed, %d failed\n", name, check_passed, check_failed);
    return check_failed ? 1 : 0;
}
#endif
