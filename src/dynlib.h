/* dynlib.h — a shared library opened on first use (dlopen) instead of at
 * start, so commands that never draw or make a request do not pay for
 * loading libcurl or cairo and everything they pull in. Pure C; no Lua. */
#ifndef TABULA_DYNLIB_H
#define TABULA_DYNLIB_H

#include <stddef.h>

typedef struct {
    const char *name;    /* the symbol, e.g. "curl_easy_init" */
    void **slot;         /* where its address goes */
} dynlib_sym;

typedef struct {
    const char *const *sonames;   /* tried in order; NULL-terminated */
    const char *purpose;          /* for the message: "HTTP requests" */
    const dynlib_sym *syms;       /* NULL-terminated by name */
    int state;                    /* 0 not tried, 1 loaded, -1 failed */
    char error[256];              /* the one-line message when it failed */
} dynlib;

/* Loads the library and fills every slot, once. 0, or -1 with a one-line
 * message naming the library in err (the same message on every later call). */
int dynlib_load(dynlib *d, char *err, size_t errlen);

#endif
