# tabula — build, test and install.
#   make deps            install system packages (Debian, as root)
#   make                 build ./tabula (and build/rel/mock_server for the tests)
#   make test            build and run every test (C unit tests, then `tabula test`),
#                        JOBS files at a time (default: the number of cores)
#   make check           the quick tier: the C unit tests and the Lua files not marked
#                        "-- slow:" (the inner loop, under a minute)
#   make test SANITIZE=1 the same under AddressSanitizer + UBSan (built in build/san)

PKGS     := lua5.4 libcjson libcurl cairo zlib
# libcurl and cairo are opened on first use (src/dynlib.c), not linked: a
# command that makes no request and draws nothing never loads them
LINKED   := libcjson zlib
# lpeg and Lua are linked statically from Debian's lua-lpeg-dev and liblua5.4-dev
# (as the lua5.4 binary is: no relocations at start, direct calls)
LPEG_A   := $(firstword $(wildcard /usr/lib/*/liblua5.4-lpeg.a /usr/lib/liblua5.4-lpeg.a) liblua5.4-lpeg.a)
LUA_A    := $(firstword $(wildcard /usr/lib/*/liblua5.4.a /usr/lib/liblua5.4.a) liblua5.4.a)
RE_LUA   := /usr/share/lua/5.4/re.lua

CC       ?= gcc
OPT      ?= -O2
CFLAGS   := -std=c11 $(OPT) -g -Wall -Wextra -Werror -D_GNU_SOURCE \
            $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS   := $(LPEG_A) $(LUA_A) $(shell pkg-config --libs $(LINKED) 2>/dev/null) -lm -ldl
LDFLAGS  += -Wl,--as-needed

ifeq ($(SANITIZE),1)
BUILD    := build/san
CFLAGS   += -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS  += -fsanitize=address,undefined
BIN      := $(BUILD)/tabula
# leak checking stays on; tests/lsan.supp lists the library caches kept on purpose
export ASAN_OPTIONS := detect_leaks=1:abort_on_error=0
export LSAN_OPTIONS := suppressions=$(CURDIR)/tests/lsan.supp
export UBSAN_OPTIONS := print_stacktrace=1
else
BUILD    := build/rel
BIN      := tabula
endif

# Pure C cores: never include lua.h.
CORE     := loop json fs sha256 proc xiangqi xqsearch http image image_layout chess go draw gosolve stats \
            dynlib curl_api cairo_api sock frames
# Lua bindings: each ends in one luaopen_tabula_*.
BIND     := l_host l_loop l_json l_fs l_proc l_xiangqi l_xqsearch l_http l_image l_chess l_go l_iconv l_draw l_gosolve l_stats l_sock l_zlib l_frames libs
OBJS     := $(addprefix $(BUILD)/,$(addsuffix .o,$(CORE) $(BIND) re_lua))
CTESTS   := $(patsubst tests/c/%.c,$(BUILD)/tests/%,$(wildcard tests/c/test_*.c))

.PHONY: all deps test check ctest luatest luacheck clean bench install uninstall test-cluster agent-programs

JOBS     ?= $(shell nproc 2>/dev/null || echo 1)

all: $(BIN) $(BUILD)/mock_server

$(BIN): $(OBJS) $(BUILD)/main.o
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: src/%.c $(wildcard src/*.h) | $(BUILD)
	$(CC) $(CFLAGS) -Isrc -c -o $@ $<

# lpeg's re.lua, embedded at build time from the system's lua-lpeg package.
$(BUILD)/re_lua.c: $(RE_LUA) | $(BUILD)
	@{ echo '/* generated from $(RE_LUA) by make; do not edit */'; \
	   echo '#include <stddef.h>'; \
	   echo 'const unsigned char tabula_re_lua[] = {'; \
	   od -An -v -tx1 $< | sed -e 's/ \([0-9a-f][0-9a-f]\)/0x\1,/g'; \
	   echo '};'; echo 'const size_t tabula_re_lua_len = sizeof tabula_re_lua;'; } > $@

$(BUILD)/re_lua.o: $(BUILD)/re_lua.c
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD):
	mkdir -p $(BUILD)/tests

$(BUILD)/tests/%: tests/c/%.c $(addprefix $(BUILD)/,$(addsuffix .o,$(CORE))) | $(BUILD)
	$(CC) $(CFLAGS) $(LDFLAGS) -Isrc -o $@ $^ $(LDLIBS)

# the mock model server the Lua tests talk to over loopback
$(BUILD)/mock_server: tests/mock_server.c tests/mock_families.c tests/mock_families.h tests/mock_tools.c tests/mock_tools.h tests/mock_batch.c tests/mock_batch.h | $(BUILD)
	$(CC) $(CFLAGS) $(LDFLAGS) -pthread -o $@ tests/mock_server.c tests/mock_families.c tests/mock_tools.c tests/mock_batch.c -lcjson

# the C unit tests, JOBS at a time: a line each ("ok  name: N checks passed, 0
# failed"); a failing one's output in full
ctest: $(CTESTS)
	@printf '%s\n' $(CTESTS) | xargs -P $(JOBS) -n 1 sh -c \
	  'out=$$("$$0" 2>&1) && echo "ok   c/$$out" || { printf "FAIL %s\n%s\n" "$$0" "$$out"; exit 255; }'

luatest: $(BIN) $(BUILD)/mock_server
	TABULA_MOCK_SERVER=$(BUILD)/mock_server ./$(BIN) test --jobs $(JOBS) $(TESTFLAGS)

luacheck: $(BIN) $(BUILD)/mock_server
	TABULA_MOCK_SERVER=$(BUILD)/mock_server ./$(BIN) test --jobs $(JOBS) --quick $(TESTFLAGS)

test: ctest luatest

check: ctest luacheck

# a single-node Slurm on this machine (installs slurm-wlm and munge; root; not in CI)
test-cluster: $(BIN)
	bash tests/cluster/slurm.sh

# make agent-programs [PROGRAMS="qwen-code codex"]: the real agent programs (issue 44)
# from npm, pinned, in build/agents (node_modules/.bin); docs/AGENT-PROGRAMS.md says why
# these versions (the newest whose engines field accepts Node 20)
AGENT_PKGS := codex=@openai/codex@0.171.0 opencode=opencode-ai@1.18.33 \
              qwen-code=@qwen-code/qwen-code@0.15.10 claude-code=@anthropic-ai/claude-code@2.1.197 \
              gemini-cli=@google/gemini-cli@0.61.0
AGENT_NAMES := $(foreach p,$(AGENT_PKGS),$(firstword $(subst =, ,$(p))))
PROGRAMS   ?= $(AGENT_NAMES)
agent-programs:
	@for p in $(PROGRAMS); do case " $(AGENT_PKGS) " in *" $$p="*) ;; \
	  *) echo "make agent-programs: unknown program $$p (known: $(AGENT_NAMES))" >&2; exit 2;; esac; done
	mkdir -p build/agents
	npm install --prefix build/agents --save-exact --no-audit --no-fund --no-update-notifier \
	  $(foreach p,$(PROGRAMS),$(patsubst $(p)=%,%,$(filter $(p)=%,$(AGENT_PKGS))))

bench: $(BIN)
	@for b in bench/*.sh; do echo "== $$b"; bash $$b || true; done

deps:
	apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
	  build-essential pkg-config ca-certificates \
	  liblua5.4-dev lua5.4 lua-lpeg lua-lpeg-dev libcjson-dev libcurl4-openssl-dev zlib1g-dev \
	  libcairo2-dev fonts-wqy-zenhei fonts-dejavu-core \
	  fairy-stockfish stockfish gnugo nodejs time chromium python3-numpy

# make install [PREFIX=/usr/local] [DESTDIR=...]: the binary in $(PREFIX)/bin, its Lua
# files, prompts, games, scenarios, examples and docs in $(PREFIX)/share/tabula (where
# the binary looks for them), so `tabula run xiangqibench` works from any directory
PREFIX   ?= /usr/local
SHARE    := $(DESTDIR)$(PREFIX)/share/tabula
install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(SHARE)
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/tabula
	cp -R lua prompts games scenarios examples docs $(SHARE)/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/tabula
	rm -rf $(SHARE)

clean:
	rm -rf build tabula
