# dbscale build. Sources are found by glob so a new file in a room
# (driver/ROOM/foo.c) or a new syscall test (driver/micro/tests/foo.c) needs no
# edit here; a new room is one word in ROOMS.

CC      ?= cc
PREFIX  ?= /usr/local
VERSION := 0.1.0
GIT     := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)

# Flags come from the libraries' own pkg-config files (Debian ships them).
PKGS       := libpq libmariadb inih jansson luajit zlib libcrypto liblzma libzstd
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lpq -lmariadb -linih -ljansson -lluajit-5.1 -lz -lcrypto -llzma -lzstd) -lpthread -lm

# The rooms of driver/ (see the README's layout). Headers are included by the
# room they live in ("stats/hist.h"), so only driver/ is on the include path.
ROOMS   := core stats engines client lua sweep machine servers results analysis plot page report verbs micro ranks vm study why
INC     := -Idriver

# snprintf truncation is how this code bounds strings on purpose (messages,
# labels); gcc's guess that it "may" truncate is noise, so that one is off.
WARN    := -Wall -Wextra -Werror -Wno-missing-field-initializers -Wno-format-truncation -Wno-unknown-warning-option
CFLAGS  ?= -O2 -g
# override: `make asan` passes its own CFLAGS, and these must still apply
override CFLAGS += -std=c11 -D_GNU_SOURCE $(WARN) $(PKG_CFLAGS) $(INC) -MMD -MP \
           -DDBSCALE_VERSION='"$(VERSION)"' -DDBSCALE_GIT='"$(GIT)"' \
           -DDBSCALE_CONFIGDIR='"$(PREFIX)/share/dbscale/configs"' -I$(B)/gen
# -rdynamic: Lua scripts call sb_counter_inc & co. through LuaJIT's ffi.C
LDLIBS  := $(PKG_LIBS) -rdynamic

# driver/ranks/mpi_*.c and driver/main_mpi.c need MPI: only build/dbscale-mpi
# has them (below).
MPI_SRC  := driver/main_mpi.c $(wildcard driver/ranks/mpi_*.c)
MPICC    ?= $(shell command -v mpicc 2>/dev/null)
SRC      := driver/main.c $(filter-out $(MPI_SRC),$(wildcard $(ROOMS:%=driver/%/*.c) driver/micro/tests/*.c))
HDR      := $(wildcard $(ROOMS:%=driver/%/*.h))
LIB_SRC  := $(filter-out driver/main.c,$(SRC))
UNIT_SRC := $(wildcard tests/unit/test_*.c)

B        ?= build
OBJ      := $(SRC:%.c=$(B)/obj/%.o)
LIB_OBJ  := $(LIB_SRC:%.c=$(B)/obj/%.o)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
MPI_BIN  := $(if $(MPICC),$(B)/dbscale-mpi)

.PHONY: all deps check check-vm unit unit-bin integration asan asan-check tsan fuzz fuzz-build demo bench install clean format format-check house

all: $(B)/dbscale $(MPI_BIN) $(B)/dbscale.1 $(B)/dbscale.bash-completion

# The man page and the bash completion are written by dbscale itself from
# its option tables, so they cannot drift from what the parsers take.
$(B)/dbscale.1: $(B)/dbscale
	@echo "  GEN $@"
	@$(B)/dbscale --man >$@.tmp && mv $@.tmp $@

$(B)/dbscale.bash-completion: $(B)/dbscale
	@echo "  GEN $@"
	@$(B)/dbscale --bash-completion >$@.tmp && mv $@.tmp $@

$(B)/dbscale: $(OBJ)
	@echo "  LD  $@"
	@$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# dbscale-mpi: the same library objects plus driver/ranks/mpi_*.c and its
# own main (driver/main_mpi.c, dispatching with the ranks' hooks), compiled
# and linked with Open MPI's mpicc. Built when mpicc is installed; the plain
# dbscale never links MPI (see the README, "Many client hosts").
MPI_OBJ := $(MPI_SRC:%.c=$(B)/obj/%.o)

$(B)/dbscale-mpi: $(LIB_OBJ) $(MPI_OBJ)
	@echo "  LD  $@"
	@$(MPICC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(MPI_OBJ): $(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  MPICC $<"
	@$(MPICC) $(CFLAGS) -DDBSCALE_MPI -c -o $@ $<

# Text files compiled in as C strings: driver/vm/guest_init.sh (a guest's
# /init) becomes $(B)/gen/guest_init.inc, which initramfs.c includes, and
# driver/lua/lapi_prelude.lua (the Lua half of the sysbench API) becomes
# $(B)/gen/lapi_prelude.inc, which lapi_state.c includes.
TEXT_TO_C = @mkdir -p $(dir $@) && echo "  GEN $@" && \
    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $< >$@.tmp && mv $@.tmp $@

$(B)/gen/%.inc: driver/vm/%.sh
	$(TEXT_TO_C)

$(B)/gen/%.inc: driver/lua/%.lua
	$(TEXT_TO_C)

$(B)/obj/driver/vm/initramfs.o: $(B)/gen/guest_init.inc
$(B)/obj/driver/lua/lapi_state.o: $(B)/gen/lapi_prelude.inc

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC  $<"
	@$(CC) $(CFLAGS) -c -o $@ $<

# The unit tests (and the fuzz targets) link the library objects from one
# archive, so each takes only the members it needs: 66 links of every object
# were 54 CPU-s of the plain unit-bin build (4 MB a binary), and more under
# the sanitizers.
LIB_A := $(B)/libdbscale.a

$(LIB_A): $(LIB_OBJ)
	@echo "  AR  $@"
	@rm -f $@ && ar rcs $@ $^

$(B)/tests/%: tests/unit/%.c $(LIB_A)
	@mkdir -p $(dir $@)
	@echo "  LD  $@"
	@$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_A) $(LDLIBS) -lcmocka

# Installs what is missing (root) or prints the apt-get line (not root).
deps:
	@sh scripts/deps.sh

unit: $(UNIT_BIN)
	@sh tests/run-unit.sh $(UNIT_BIN)

unit-bin: $(UNIT_BIN)

integration: $(B)/dbscale $(MPI_BIN)
	@sh tests/run-integration.sh $(B)/dbscale

# What CI and the README run: the code's format, the build, the house rules
# (make house), the unit tests
# (plain and under AddressSanitizer + UBSan), the ThreadSanitizer build, and
# the integration tests against real throwaway servers.
# The plain build uses every CPU; then the integration run starts, and the
# unit tests' binaries and the sanitizer builds (which only the unit tests
# and asan_run / tsan_run need; cpuset_hotplug, an alone test, runs
# test_cpuset, built first) run beside its alone tests at the lowest
# priority, on the CPU those leave
# idle (about half of it in hung_server or mpi_faults: servers stopped on
# purpose, timeouts waited out); the unit tests run after them, by themselves,
# before the rest. tests/run-integration.sh (IT_BESIDE_ALONE, IT_BEFORE_POOL)
# says how, and stops the check if either fails. IT_STRICT=1: make deps ran,
# so a test skipped for a tool the deps install is a failure, not a skip
# (docs/testing.md, "Skips"; IT_HIDE=gnuplot make check shows it).
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
check: deps
	@$(MAKE) --no-print-directory format-check
	@$(MAKE) --no-print-directory -j$(JOBS) all $(B)/tests/test_cpuset
	@$(MAKE) --no-print-directory house
	@IT_BESIDE_ALONE='$(MAKE) --no-print-directory -j$(JOBS) unit-bin && $(MAKE) --no-print-directory -j$(JOBS) B=build/asan $(ASAN_FLAGS) build/asan/dbscale unit-bin && $(MAKE) --no-print-directory -j$(JOBS) tsan' \
	    IT_BEFORE_POOL='sh tests/run-unit.sh --lists "$(UNIT_BIN)" "$(UNIT_BIN:$(B)/%=build/asan/%)"' \
	    IT_STRICT=1 sh tests/run-integration.sh $(B)/dbscale

# The sanitizer build's flags, shared by asan, asan-check and check.
ASAN_FLAGS := CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" \
    LDFLAGS="-fsanitize=address,undefined"

# A longer kernels study than make check's (docs/kernels.md): qemu guests
# under TCG here, about 15 minutes.
check-vm: deps
	@$(MAKE) --no-print-directory all
	@sh tests/vm/study.sh $(B)/dbscale
	@sh tests/vm/study_settings.sh $(B)/dbscale

asan:
	@$(MAKE) --no-print-directory B=build/asan $(ASAN_FLAGS) build/asan/dbscale

# ThreadSanitizer build: the worker loops, histograms and interval reporter
# share counters without locks; tests/integration/tsan_run.sh runs it.
tsan:
	@$(MAKE) --no-print-directory B=build/tsan CFLAGS="-O1 -g -fsanitize=thread" \
	    LDFLAGS="-fsanitize=thread" build/tsan/dbscale

asan-check:
	@$(MAKE) --no-print-directory B=build/asan $(ASAN_FLAGS) build/asan/dbscale unit

# The main job on the embedded default: a throwaway server the tool starts itself.
demo: deps
	@$(MAKE) --no-print-directory all
	@sh scripts/demo.sh $(B)/dbscale

# Side by side with the peers, in one run: sysbench/pgbench (driver),
# sysbench prepare (loading), bare loops (micro harness); and the timings
# the tests only bound (bench/timing.sh: window edges, pacing, stalls).
bench: deps
	@$(MAKE) --no-print-directory all
	@sh bench/run.sh $(B)/dbscale
	@sh bench/lua.sh $(B)/dbscale
	@if [ -x $(B)/dbscale-mpi ]; then sh bench/mpi.sh $(B)/dbscale; fi
	@sh bench/prepare.sh $(B)/dbscale
	@sh bench/timing.sh $(B)/dbscale
	@if [ -f bench/micro.sh ]; then sh bench/micro.sh $(B)/dbscale; fi
	@sh bench/verdicts.sh $(B)/dbscale

# libFuzzer targets (clang): FUZZ_SECONDS per target; fails on any crash, leak
# or undefined behaviour. Crashes become files in tests/fuzz/regressions/.
# The targets link the same rooms as the binary, built once more with the
# fuzzer's coverage hooks into build/fuzz.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := fuzz_options fuzz_config fuzz_results fuzz_plot
FUZZ_CFLAGS  := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all

fuzz-build:
	@$(MAKE) --no-print-directory B=build/fuzz CC=clang \
	    CFLAGS="$(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link" \
	    $(FUZZ_TARGETS:%=build/fuzz/bin/%)

$(B)/bin/fuzz_%: tests/fuzz/fuzz_%.c $(LIB_A)
	@mkdir -p $(dir $@)
	@echo "  LD  $@"
	@$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $< $(LIB_A) $(LDLIBS)

fuzz: fuzz-build
	@sh tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

install: $(B)/dbscale $(B)/dbscale.1 $(B)/dbscale.bash-completion $(MPI_BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/dbscale \
	    $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 755 $(B)/dbscale $(MPI_BIN) $(DESTDIR)$(PREFIX)/bin/
	cp -r schemas graphs configs $(DESTDIR)$(PREFIX)/share/dbscale/
	install -m 644 $(B)/dbscale.1 $(DESTDIR)$(PREFIX)/share/man/man1/dbscale.1
	install -m 644 $(B)/dbscale.bash-completion \
	    $(DESTDIR)$(PREFIX)/share/bash-completion/completions/dbscale

FORMAT_FILES = $(SRC) $(MPI_SRC) $(HDR) $(wildcard tests/unit/*.c tests/unit/*.h)

# The house rules: each room's README.md names the rooms it may include and
# call ("May include:"); scripts/house.py checks every #include and, from the
# objects, every call against it, and that no files call each other in a loop.
house: $(OBJ)
	@python3 scripts/house.py $(B)/obj

format:
	clang-format -i $(FORMAT_FILES)

format-check:
	@clang-format --dry-run --Werror $(FORMAT_FILES) && echo "format-check: clean"

clean:
	rm -rf build

-include $(OBJ:.o=.d) $(MPI_OBJ:.o=.d) $(UNIT_BIN:%=%.d)
