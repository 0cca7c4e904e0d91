/* dynlib.c — see dynlib.h. */
#include "dynlib.h"

#include <dlfcn.h>
#include <stdio.h>

int dynlib_load(dynlib *d, char *err, size_t errlen)
{
    if (d->state == 0) {
        void *h = NULL;
        for (const char *const *so = d->sonames; *so && !h; so++) {
            h = dlopen(*so, RTLD_NOW | RTLD_LOCAL);
            if (!h && so == d->sonames) {                  /* keep the first name's reason */
                const char *why = dlerror();
                snprintf(d->error, sizeof d->error, "cannot load %s (needed for %s): %s",
                         d->sonames[0], d->purpose, why ? why : "not found");
            }
        }
        if (h) {
            d->error[0] = 0;
            for (const dynlib_sym *s = d->syms; s->name; s++) {
                *s->slot = dlsym(h, s->name);
                if (!*s->slot) {
                    snprintf(d->error, sizeof d->error, "cannot load %s (needed for %s): it has no %s",
                             d->sonames[0], d->purpose, s->name);
                    break;
                }
            }
        }
        d->state = d->error[0] ? -1 : 1;
    }
    if (d->state < 0) {
        snprintf(err, errlen, "%s", d->error);
        return -1;
    }
    return 0;
}
