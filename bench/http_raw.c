/* bench/http_raw.c — the peer for bench/http_calls.sh: N chat-completion POSTs
 * through a bare libcurl multi loop (curl_multi_poll, easy handles reused), C at
 * a time, with no JSON, no event loop and no Lua: the ceiling for our HTTP path.
 *   cc -O2 -o http_raw bench/http_raw.c -lcurl && ./http_raw URL N C */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static size_t sink(char *p, size_t s, size_t n, void *ud) { (void)p; (void)ud; return s * n; }

static const char *BODY =
    "{\"model\":\"bench\",\"messages\":[{\"role\":\"user\",\"content\":\"Your move? The board is the start position.\"}]}";

int main(int argc, char **argv)
{
    if (argc < 4) { fprintf(stderr, "usage: http_raw URL N C\n"); return 2; }
    char url[512];
    snprintf(url, sizeof url, "%s/v1/chat/completions", argv[1]);
    int n = atoi(argv[2]), c = atoi(argv[3]);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURLM *m = curl_multi_init();
    struct curl_slist *h = curl_slist_append(NULL, "Content-Type: application/json");
    h = curl_slist_append(h, "Expect:");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int started = 0, done = 0, ok = 0, running = 0;
    CURL **free_h = calloc((size_t)c, sizeof *free_h);
    int nfree = 0;
    while (done < n) {
        while (started < n && running < c) {
            CURL *e = nfree ? free_h[--nfree] : curl_easy_init();
            curl_easy_setopt(e, CURLOPT_URL, url);
            curl_easy_setopt(e, CURLOPT_HTTPHEADER, h);
            curl_easy_setopt(e, CURLOPT_POSTFIELDS, BODY);
            curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, sink);
            curl_multi_add_handle(m, e);
            started++, running++;
        }
        int still;
        curl_multi_perform(m, &still);
        CURLMsg *msg;
        int left;
        while ((msg = curl_multi_info_read(m, &left))) {
            if (msg->msg != CURLMSG_DONE) continue;
            long code = 0;
            curl_easy_getinfo(msg->easy_handle, CURLINFO_RESPONSE_CODE, &code);
            if (msg->data.result == CURLE_OK && code == 200) ok++;
            curl_multi_remove_handle(m, msg->easy_handle);
            free_h[nfree++] = msg->easy_handle;
            done++, running--;
        }
        if (done < n) curl_multi_poll(m, NULL, 0, 100, NULL);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("raw libcurl: %d/%d calls ok in %.2fs, %.0f calls/s\n", ok, n, secs, n / secs);
    return 0;
}
