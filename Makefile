# iogauge — plain make.  `make run` and `make test` install what is missing first.
CC      ?= gcc
PREFIX  ?= /usr/local
DESTDIR ?=
CFLAGS  ?= -O2 -g
WARN     = -Wall -Wextra -Werror
BASE     = -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -pthread -Isrc $(STORECFLAGS)
# libpq and SQLite through pkg-config (Debian ships both .pc files).
STORELIBS := $(shell pkg-config --libs sqlite3 libpq 2>/dev/null || echo -lsqlite3 -lpq)
STORECFLAGS := $(shell pkg-config --cflags sqlite3 libpq 2>/dev/null || echo -I/usr/include/postgresql)
LIBS     = -luring -laio -lblkid -ljansson -lisal -lxxhash -lcrypto -llzo2 -lz -lzstd $(STORELIBS) -lm -pthread
SAN      = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

SRC      = $(sort $(wildcard src/*.c src/*/*.c))
LIBSRC   = $(filter-out src/main.c,$(SRC))
OBJ      = $(SRC:%.c=build/rel/%.o)
SANOBJ   = $(SRC:%.c=build/san/%.o)
UNIT     = $(sort $(wildcard tests/unit/test_*.c))
# iogauge-mpi: the same objects, with src/cluster/mpi/ (compiled by mpicc) in place of cluster_none.c.
MPICC   ?= mpicc
MPISRC   = $(sort $(wildcard src/cluster/mpi/*.c))
MPIOBJ   = $(filter-out build/rel/src/cluster/cluster_none.o,$(OBJ)) $(MPISRC:%.c=build/mpi/%.o)
MPISANOBJ = $(filter-out build/san/src/cluster/cluster_none.o,$(SANOBJ)) $(MPISRC:%.c=build/mpi-san/%.o)
UNITBIN  = $(UNIT:tests/unit/%.c=build/san/tests/%)
# `make clang`: the release build by clang, its own objects under build/clang/ (CI builds it).
CLANG   ?= clang
CLANGOBJ = $(SRC:%.c=build/clang/%.o)
# -MMD -MP: each object's header list in its .d file (included at the end), so editing a
# header rebuilds exactly its users.
DEP      = -MMD -MP
# A test program's sources and objects, without the headers among its prerequisites.
SRCS_OBJS = $(filter %.c %.o,$^)
HEADERS   = $(wildcard src/*/*.h src/*/*/*.h)

# Each variant's compile command, recorded in build/VARIANT/flags; every object of the
# variant depends on that file, rewritten only when the command changes, so a new CC,
# CFLAGS or MPICC rebuilds the variant (make CC=clang after a gcc build, for one).
CMD_rel     = $(CC) $(CFLAGS) $(WARN) $(BASE)
CMD_san     = $(CC) -O1 -g $(SAN) $(WARN) $(BASE)
CMD_mpi     = $(MPICC) $(CFLAGS) $(WARN) $(BASE)
CMD_mpi-san = $(MPICC) -O1 -g $(SAN) $(WARN) $(BASE)
CMD_clang   = $(CLANG) $(CFLAGS) $(WARN) $(BASE)

.PHONY: all run test unit e2e deps san mpi clang install install-fio-link fio-regression clean docs bench bench-limit screenshots fuzz fuzz-build fuzz-smoke check-tsan FORCE
all: iogauge iogauge.1 docs/options.md docs/fio.md

.PRECIOUS: build/%/flags # made by a pattern rule: kept, not deleted as intermediate
build/%/flags: FORCE
	@mkdir -p $(@D); echo '$(CMD_$*) $(LIBS)' | cmp -s - $@ || echo '$(CMD_$*) $(LIBS)' > $@

deps:
	@scripts/deps.sh

iogauge: $(OBJ)
	@echo "  LD      $@"; $(CC) $(CFLAGS) $(BASE) -o $@ $^ $(LIBS)

build/iogauge-san: $(SANOBJ)
	@echo "  LD-SAN  $@"; $(CC) -O1 -g $(SAN) $(BASE) -o $@ $^ $(LIBS)

iogauge-mpi: $(MPIOBJ)
	@echo "  LD-MPI  $@"; $(MPICC) $(CFLAGS) $(BASE) -o $@ $^ $(LIBS)

build/iogauge-mpi-san: $(MPISANOBJ)
	@echo "  LD-MPI-SAN $@"; $(MPICC) -O1 -g $(SAN) $(BASE) -o $@ $^ $(LIBS)

build/iogauge-clang: $(CLANGOBJ)
	@echo "  LD-CLANG $@"; $(CLANG) $(CFLAGS) $(BASE) -o $@ $^ $(LIBS)

build/mpi/%.o: %.c build/mpi/flags
	@mkdir -p $(dir $@)
	@echo "  MPICC   $<"; $(CMD_mpi) $(DEP) -c -o $@ $<

build/mpi-san/%.o: %.c build/mpi-san/flags
	@mkdir -p $(dir $@)
	@echo "  MPICC-SAN $<"; $(CMD_mpi-san) $(DEP) -c -o $@ $<

# The MPI build (mpirun -np N iogauge-mpi ...); the plain iogauge never links MPI.
mpi: iogauge-mpi build/iogauge-mpi-san

build/rel/%.o: %.c build/rel/flags
	@mkdir -p $(dir $@)
	@echo "  CC      $<"; $(CMD_rel) $(VERSION_DEF) $(DEP) -c -o $@ $<

build/san/%.o: %.c build/san/flags
	@mkdir -p $(dir $@)
	@echo "  CC-SAN  $<"; $(CMD_san) $(VERSION_DEF) $(DEP) -c -o $@ $<

build/clang/%.o: %.c build/clang/flags
	@mkdir -p $(dir $@)
	@echo "  CLANG   $<"; $(CMD_clang) $(VERSION_DEF) $(DEP) -c -o $@ $<

# Test programs are compiled and linked in one step (no .d of their own): any header rebuilds them.
# UNIT_LDFLAGS_NAME: a test's own link flags (test_steady wraps runner_run: its rounds are
# measured over their nominal time, so their IOPS do not depend on the machine's load).
UNIT_LDFLAGS_test_steady = -Wl,--wrap=runner_run
build/san/tests/%: tests/unit/%.c $(filter-out build/san/src/main.o,$(SANOBJ)) $(HEADERS)
	@mkdir -p $(dir $@)
	@echo "  LD-SAN  $@"; $(CMD_san) -o $@ $(SRCS_OBJS) $(LIBS) -lcmocka $(UNIT_LDFLAGS_$*)

# The version as built (scripts/version.sh): build/version changes only when it does, and
# only version.o is rebuilt then.
VERSION_STR := $(shell scripts/version.sh)
ifeq ($(VERSION_STR),)
$(error scripts/version.sh gave no version)
endif
VERSION_OBJ  = $(foreach v,rel san clang fuzz tsan,build/$(v)/src/base/version.o)
build/version: FORCE
	@mkdir -p build; echo '$(VERSION_STR)' | cmp -s - $@ || echo '$(VERSION_STR)' > $@
$(VERSION_OBJ): build/version
$(VERSION_OBJ): VERSION_DEF = -DIOGAUGE_BUILD_VERSION='"$(VERSION_STR)"'

# The HTML report's script and style, embedded by html_assets.c (.incbin; not in the .d files).
$(foreach v,rel san clang fuzz tsan,build/$(v)/src/report/html_assets.o): src/report/html.js src/report/html.css

# Generated from the option table: never edited by hand.
iogauge.1: iogauge
	./iogauge --help-man > $@
docs/options.md: iogauge
	./iogauge --help-markdown > $@
docs/fio.md: iogauge
	./iogauge --help-fio-markdown > $@
docs: iogauge.1 docs/options.md docs/fio.md

run: deps all
	./iogauge

unit: $(UNITBIN)
	@tests/run-unit.sh $(UNITBIN)

san: build/iogauge-san $(UNITBIN)

# The release build by clang, with the same -Wall -Wextra -Werror (.ci/run builds it).
clang: build/iogauge-clang

# The builds on every core (make test alone, without -j, built one file at a time: minutes in CI).
test: deps
	@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$$(nproc)) all san mpi fuzz-build
	@tests/run-all.sh

bench: deps all
	bench/vs-fio.sh

# iogauge at the limit (bench/limit.sh, as root): a bare pread loop, t/io_uring, fresh data.
bench-limit: deps all
	bench/limit.sh

# The README's pictures: real quick and scale reports, drawn by headless Chromium (docs/screenshot-*.png).
screenshots: deps iogauge
	scripts/screenshots.sh

install: iogauge iogauge.1
	install -D -m 0755 iogauge $(DESTDIR)$(PREFIX)/bin/iogauge
	install -D -m 0644 iogauge.1 $(DESTDIR)$(PREFIX)/share/man/man1/iogauge.1

# fio 3.33's own regression jobs and examples under fio and iogauge, the slow ones too
# (scripts/fio-regression.sh; ARGS="--full" adds the heavy ones: GiBs and minutes).
fio-regression: iogauge
	scripts/fio-regression.sh $(ARGS)

# Optional: `fio` as a link to iogauge (iogauge fio).  Never installed by `make install`,
# and refused when a fio that is not this link is already at the place or on the PATH.
install-fio-link: install
	@real=$$(command -v fio 2>/dev/null || true); \
	dest=$(DESTDIR)$(PREFIX)/bin/fio; \
	if [ -e "$$dest" ] && [ "$$(readlink "$$dest")" != iogauge ]; then \
		echo "install-fio-link: $$dest exists and is not iogauge's link: left alone" >&2; exit 1; fi; \
	if [ -z "$(DESTDIR)" ] && [ -n "$$real" ] && [ "$$real" != "$$dest" ] && [ "$$(readlink -f "$$real")" != "$$(readlink -f $(PREFIX)/bin/iogauge)" ] && [ "$(FORCE)" != 1 ]; then \
		echo "install-fio-link: a real fio is at $$real; a link at $$dest could shadow it (FORCE=1 installs anyway)" >&2; exit 1; fi; \
	ln -sfn iogauge "$$dest"; echo "$$dest -> iogauge"

clean:
	rm -rf build iogauge iogauge-mpi

# Fuzz targets (libFuzzer with clang, ASan+UBSan): the option and value parsers, job files,
# and the JSON reader of compare/report.  `make fuzz` runs each FUZZ_TIME seconds (60);
# `make test` runs a 3 s smoke pass of each (tests/run-all.sh).
FUZZCC    ?= clang
FUZZ_TIME ?= 60
FUZZFLAGS  = -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
CMD_fuzz   = $(FUZZCC) $(FUZZFLAGS) $(WARN) $(BASE)
FUZZSRC    = $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZBIN    = $(FUZZSRC:tests/fuzz/%.c=build/fuzz/%)
FUZZOBJ    = $(LIBSRC:%.c=build/fuzz/%.o)
.SECONDARY: $(FUZZOBJ) # shared by every target: kept, not rebuilt per target

build/fuzz/%.o: %.c build/fuzz/flags
	@mkdir -p $(dir $@)
	@echo "  CC-FUZZ $<"; $(CMD_fuzz) $(VERSION_DEF) $(DEP) -c -o $@ $<

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZOBJ) $(HEADERS)
	@echo "  LD-FUZZ $@"; $(FUZZCC) -O1 -g -fsanitize=fuzzer,address,undefined $(WARN) $(BASE) -o $@ $(SRCS_OBJS) $(LIBS)

fuzz-build: $(FUZZBIN)

fuzz: deps $(FUZZBIN)
	tests/fuzz/run.sh $(FUZZ_TIME) $(FUZZBIN)

fuzz-smoke: $(FUZZBIN)
	tests/fuzz/run.sh 3 $(FUZZBIN)

# ThreadSanitizer: the same sources, workloads with many threads, signals and read-backs
# (tests/tsan.sh); any data race it reports fails the check.
TSANOBJ  = $(SRC:%.c=build/tsan/%.o)
CMD_tsan = $(CC) -O1 -g -fsanitize=thread $(WARN) $(BASE)

build/tsan/%.o: %.c build/tsan/flags
	@mkdir -p $(dir $@)
	@echo "  CC-TSAN $<"; $(CMD_tsan) $(VERSION_DEF) $(DEP) -c -o $@ $<

build/iogauge-tsan: $(TSANOBJ)
	@echo "  LD-TSAN $@"; $(CC) -O1 -g -fsanitize=thread $(BASE) -o $@ $^ $(LIBS)

check-tsan: deps build/iogauge-tsan
	tests/tsan.sh build/iogauge-tsan

# The header lists written by -MMD (absent before the first build: nothing to rebuild then).
-include $(wildcard $(addsuffix .d,$(basename $(OBJ) $(SANOBJ) $(CLANGOBJ) $(FUZZOBJ) $(TSANOBJ) \
	$(MPISRC:%.c=build/mpi/%.o) $(MPISRC:%.c=build/mpi-san/%.o))))
