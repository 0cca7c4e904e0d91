/* curl_api.h — the libcurl functions tabula calls, reached through pointers
 * filled when the first request starts (dynlib.h): `tabula version` or a run
 * with built-in players never loads libcurl, its TLS libraries or their
 * initialisers. Pure C; no Lua. */
#ifndef TABULA_CURL_API_H
#define TABULA_CURL_API_H

#include <curl/curl.h>
#include <stddef.h>

#define CURL_API_FUNCS(X) \
    X(global_init) X(version_info) X(easy_strerror) X(multi_strerror) \
    X(easy_init) X(easy_setopt) X(easy_getinfo) X(easy_cleanup) \
    X(multi_init) X(multi_setopt) X(multi_add_handle) X(multi_remove_handle) \
    X(multi_socket_action) X(multi_info_read) X(slist_append) X(slist_free_all)

typedef struct {
#define CURL_API_FIELD(f) __typeof__(curl_##f) *f;
    CURL_API_FUNCS(CURL_API_FIELD)
#undef CURL_API_FIELD
} curl_api;

/* curl.easy_setopt(...) and so on, valid after curl_api_load succeeded */
extern curl_api curl;

/* Loads libcurl once. 0, or -1 with one line naming the library in err. */
int curl_api_load(char *err, size_t errlen);
/* 1 once libcurl is loaded */
int curl_api_loaded(void);

#endif
