/* Unit tests of src/dynlib.c: a library and its symbols are found once; a
 * missing library or symbol gives one line naming it, every time it is asked. */
#include "check.h"
#include "dynlib.h"

#include <math.h>
#include <string.h>

static double (*my_cos)(double);

int main(void)
{
    char err[300] = "";
    /* a present library: the first soname missing, the second one found */
    static const char *const libm_names[] = {"libtabula-no-such-lib.so.0", "libm.so.6", NULL};
    static const dynlib_sym libm_syms[] = {{"cos", (void **)&my_cos}, {NULL, NULL}};
    dynlib m = {libm_names, "a test", libm_syms, 0, ""};
    CHECK(dynlib_load(&m, err, sizeof err) == 0, "%s", err);
    CHECK(my_cos && my_cos(0.0) == 1.0, "cos was not resolved");
    CHECK(dynlib_load(&m, err, sizeof err) == 0, "a second load fails");

    /* a missing library: one line, naming it and what it is for */
    static const char *const none[] = {"libtabula-no-such-lib.so.0", NULL};
    dynlib n = {none, "HTTP requests", libm_syms, 0, ""};
    CHECK(dynlib_load(&n, err, sizeof err) == -1, "a missing library loaded");
    CHECK(strstr(err, "cannot load libtabula-no-such-lib.so.0 (needed for HTTP requests)") == err, "%s", err);
    CHECK(!strchr(err, '\n'), "the message has more than one line: %s", err);
    err[0] = 0;
    CHECK(dynlib_load(&n, err, sizeof err) == -1 && strstr(err, "libtabula-no-such-lib"), "second call: %s", err);

    /* a library without one of the symbols */
    static const char *const libm_only[] = {"libm.so.6", NULL};
    static void *nothing;
    static const dynlib_sym missing_sym[] = {{"cos", (void **)&my_cos}, {"tabula_no_such_fn", &nothing}, {NULL, NULL}};
    dynlib s = {libm_only, "a test", missing_sym, 0, ""};
    CHECK(dynlib_load(&s, err, sizeof err) == -1, "a missing symbol loaded");
    CHECK(strstr(err, "tabula_no_such_fn") != NULL, "%s", err);
    return check_report("dynlib");
}
