/* curl_api.c — see curl_api.h. */
#include "curl_api.h"

#include "dynlib.h"

curl_api curl;

static const char *const sonames[] = {"libcurl.so.4", "libcurl.so", NULL};
static const dynlib_sym syms[] = {
#define CURL_API_SYM(f) {"curl_" #f, (void **)&curl.f},
    CURL_API_FUNCS(CURL_API_SYM)
#undef CURL_API_SYM
    {NULL, NULL},
};
static dynlib lib = {sonames, "HTTP requests", syms, 0, ""};

int curl_api_load(char *err, size_t errlen) { return dynlib_load(&lib, err, errlen); }
int curl_api_loaded(void) { return lib.state > 0; }
