/* libs.h — the table of tabula's C modules, and the host's entry into Lua. */
#ifndef TABULA_LIBS_H
#define TABULA_LIBS_H

#include <lua.h>

#define TABULA_VERSION "0.1.0"

/* Registers every tabula C module (and lpeg, re) in package.preload. */
void tabula_preload(lua_State *L);
/* Sets package.path, then runs tabula.main(argv) under one protected call.
 * Returns the process exit status. */
int tabula_run(lua_State *L, int argc, char **argv);

#endif
