# dbscale build. Sources are found by glob so a new room (driver/foo.c) or a new
# syscall test (driver/micro/tests/foo.c) needs no edit here.

CC      ?= cc
PREFIX  ?= /usr/local
VERSION := 0.1.0
GIT     := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)

PKG_CFLAGS := -I/usr/include/postgresql $(shell mariadb_config --cflags 2>/dev/null)
PKG_LIBS   := -lpq $(shell mariadb_config --libs 2>/dev/null || echo -lmariadb) -linih -lpthread -lm

# snprintf truncation is how this code bounds strings on purpose (messages,
# labels); gcc's guess that it "may" truncate is noise, so that one is off.
WARN    := -Wall -Wextra -Werror -Wno-missing-field-initializers -Wno-format-truncation
CFLAGS  ?= -O2 -g
# override: `make asan` passes its own CFLAGS, and these must still apply
override CFLAGS += -std=c11 -D_GNU_SOURCE $(WARN) $(PKG_CFLAGS) -Idriver -MMD -MP \
           -DDBSCALE_VERSION='"$(VERSION)"' -DDBSCALE_GIT='"$(GIT)"'
LDLIBS  := $(PKG_LIBS)

SRC      := $(wildcard driver/*.c driver/micro/*.c driver/micro/tests/*.c)
LIB_SRC  := $(filter-out driver/main.c,$(SRC))
UNIT_SRC := $(wildcard tests/unit/test_*.c)

B        ?= build
OBJ      := $(SRC:%.c=$(B)/obj/%.o)
LIB_OBJ  := $(LIB_SRC:%.c=$(B)/obj/%.o)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)

.PHONY: all deps check unit integration asan asan-check tsan fuzz demo bench install clean format format-check

all: $(B)/dbscale

$(B)/dbscale: $(OBJ)
	@echo "  LD  $@"
	@$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC  $<"
	@$(CC) $(CFLAGS) -c -o $@ $<

$(B)/tests/%: tests/unit/%.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@echo "  LD  $@"
	@$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS) -lcmocka

# Installs what is missing (root) or prints the apt-get line (not root).
deps:
	@sh scripts/deps.sh

unit: $(UNIT_BIN)
	@sh tests/run-unit.sh $(UNIT_BIN)

integration: $(B)/dbscale
	@sh tests/run-integration.sh $(B)/dbscale

# What CI and the README run: everything, against real servers, and the
# unit tests plus one real run again under AddressSanitizer + UBSan.
check: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory unit
	@$(MAKE) --no-print-directory asan-check
	@$(MAKE) --no-print-directory tsan
	@$(MAKE) --no-print-directory integration

asan:
	@$(MAKE) --no-print-directory B=build/asan \
	    CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" \
	    LDFLAGS="-fsanitize=address,undefined" build/asan/dbscale

# ThreadSanitizer build: the worker loops, histograms and interval reporter
# share counters without locks; tests/integration/tsan_run.sh runs it.
tsan:
	@$(MAKE) --no-print-directory B=build/tsan CFLAGS="-O1 -g -fsanitize=thread" \
	    LDFLAGS="-fsanitize=thread" build/tsan/dbscale

asan-check:
	@$(MAKE) --no-print-directory B=build/asan \
	    CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" \
	    LDFLAGS="-fsanitize=address,undefined" build/asan/dbscale unit

# The main job on the embedded default: a throwaway server the tool starts itself.
demo: deps
	@$(MAKE) --no-print-directory all
	@sh scripts/demo.sh $(B)/dbscale

# Side by side with the peers, in one run: sysbench/pgbench (driver),
# sysbench prepare (loading), bare loops (micro harness).
bench: deps
	@$(MAKE) --no-print-directory all
	@sh bench/run.sh $(B)/dbscale
	@sh bench/prepare.sh $(B)/dbscale
	@if [ -f bench/micro.sh ]; then sh bench/micro.sh $(B)/dbscale; fi

# libFuzzer targets (clang): FUZZ_SECONDS per target; fails on any crash, leak
# or undefined behaviour. Crashes become files in tests/fuzz/regressions/.
FUZZ_SECONDS ?= 60
fuzz:
	@sh tests/fuzz/run.sh $(FUZZ_SECONDS)

install: $(B)/dbscale
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/dbscale
	install -m 755 $(B)/dbscale $(DESTDIR)$(PREFIX)/bin/dbscale
	cp -r schemas graphs configs $(DESTDIR)$(PREFIX)/share/dbscale/

format:
	clang-format -i $(SRC) $(wildcard driver/*.h driver/micro/*.h tests/unit/*.c)

format-check:
	clang-format --dry-run --Werror $(SRC) $(wildcard driver/*.h driver/micro/*.h tests/unit/*.c)

clean:
	rm -rf build

-include $(OBJ:.o=.d) $(UNIT_BIN:%=%.d)
