/* cairo_api.c — see cairo_api.h. */
#include "cairo_api.h"

#include "dynlib.h"

cairo_api cairo;

static const char *const sonames[] = {"libcairo.so.2", "libcairo.so", NULL};
static const dynlib_sym syms[] = {
#define CAIRO_API_SYM(f) {"cairo_" #f, (void **)&cairo.f},
    CAIRO_API_FUNCS(CAIRO_API_SYM)
#undef CAIRO_API_SYM
    {NULL, NULL},
};
static dynlib lib = {sonames, "drawing pictures", syms, 0, ""};

int cairo_api_load(char *err, size_t errlen) { return dynlib_load(&lib, err, errlen); }
