/* main.c — build the Lua state, register tabula's libraries, run the Lua main. */
#include "libs.h"

#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    lua_State *L = luaL_newstate();
    if (!L) {
        fputs("tabula: cannot create the Lua state (out of memory)\n", stderr);
        return 1;
    }
    /* generational collection: the searches' many short-lived tables (ISMCTS
       determinizations, playouts) cost about an eighth less CPU than incremental */
    lua_gc(L, LUA_GCGEN, 0, 0);
    luaL_openlibs(L);
    tabula_preload(L);
    int rc = tabula_run(L, argc, argv);
    lua_close(L);
    return rc;
}
