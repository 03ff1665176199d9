# npusim: one non-recursive Makefile.
#   make [BUILD=debug|release|asan|ubsan]   build libnpusim.a, npusim and the tests
#   make check      build and run every test (unit, conformance, fuzz replay)
#   make check-asan unit tests and fuzz replay under the sanitizers (CI runs both)
#   make demo       install missing packages, build, run the bundled model
#   make bench      benchmarks (release build)
#   make fuzz       libFuzzer targets (clang)
#   make lint       layer and prefix rules (docs/architecture.md), cppcheck
# All output goes under build/$(BUILD)/.

BUILD ?= debug
B ?= build/$(BUILD)
CC ?= cc
ifeq ($(origin CC),default)
CC := gcc
endif

SHARED ?= ../shared

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
        -Wformat=2 -Wvla -Wundef
CSTD := -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L
DEPFLAGS := -MMD -MP
OPT_debug := -O1 -g
OPT_release := -O2 -g -DNDEBUG
OPT_asan := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
OPT_ubsan := -O1 -g -fsanitize=undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
OPT := $(OPT_$(BUILD))
ifeq ($(OPT),)
$(error BUILD must be debug, release, asan or ubsan)
endif
# -fPIC: the same objects make libnpusim.a and libnpusim.so; no semantic
# interposition, so that calls within a file still inline as without -fPIC
CFLAGS_ALL := $(CSTD) $(WARN) $(OPT) -fPIC -fno-semantic-interposition -I. $(CFLAGS)
LDFLAGS_ALL := $(filter -fsanitize=%,$(OPT)) $(LDFLAGS)
# zlib: traces/ only (CONVENTIONS.md); everything that links the library needs -lz
ZLIB_CFLAGS := $(shell pkg-config --cflags zlib 2>/dev/null)
ZLIB_LIBS := $(shell pkg-config --libs zlib 2>/dev/null || echo -lz)
LDLIBS_ALL := -lm -lpthread $(ZLIB_LIBS) $(LDLIBS)
# MPI (dist/ only, docs/distributed.md): Open MPI when pkg-config finds it
# (libopenmpi-dev); without it, or with NO_MPI=1, npusim runs as one process
# and says how to get MPI.  Give a NO_MPI=1 build its own B.
ifneq ($(NO_MPI),1)
MPI_FOUND := $(shell pkg-config --exists ompi-c 2>/dev/null && echo 1)
endif
ifeq ($(MPI_FOUND),1)
MPI_CFLAGS := -DNPUSIM_HAVE_MPI $(patsubst -I%,-isystem %,$(shell pkg-config --cflags ompi-c))
LDLIBS_ALL += $(shell pkg-config --libs ompi-c)
endif

# The library: every module but the visualizer (SDL2) and the tools.
LIB_MODULES := base dist chip event graph interp partition model isa compiler runtime memory interconnect sim record traces report
LIB_SRCS := $(foreach m,$(LIB_MODULES),$(wildcard $(m)/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/%.o)
LIB := $(B)/libnpusim.a

TOOL_SRCS := $(wildcard tools/*.c)
TOOL_OBJS := $(TOOL_SRCS:%.c=$(B)/%.o)
NPUSIM := $(B)/npusim
# The shared library: the library and the commands (all but main), for the C
# API (npusim_api.h) and python/npusim (docs/frameworks.md).
SO := $(B)/libnpusim.so

TEST_SRCS := $(wildcard tests/*/test_*.c)
TEST_BINS := $(TEST_SRCS:%.c=$(B)/%)
TEST_SUPPORT_SRCS := $(filter-out $(TEST_SRCS),$(wildcard tests/*.c))
TEST_SUPPORT_OBJS := $(TEST_SUPPORT_SRCS:%.c=$(B)/%.o)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)

BENCH_SRCS := $(wildcard bench/*.c)
BENCH_BINS := $(BENCH_SRCS:%.c=$(B)/%)

# The visualizer (SDL2 + SDL2_ttf; visualizer/, `npusim view`): its flags go
# only to visualizer/ objects and the binaries that link it.  NO_SDL=1 builds
# without it (`npusim view` then says so); give such a build its own B.
ifeq ($(NO_SDL),1)
TEST_BINS := $(filter-out $(B)/tests/visualizer/%,$(TEST_BINS))
BENCH_BINS := $(filter-out $(B)/bench/view_bench,$(BENCH_BINS))
VIZ_OBJS := $(B)/visualizer/png.o $(B)/visualizer/chart.o
TOOL_OBJS += $(VIZ_OBJS)
else
SDL_CFLAGS := $(patsubst -I%,-isystem %,$(shell pkg-config --cflags sdl2 SDL2_ttf 2>/dev/null))
SDL_LIBS := $(shell pkg-config --libs sdl2 SDL2_ttf 2>/dev/null || echo -lSDL2_ttf -lSDL2)
VIZ_OBJS := $(patsubst %.c,$(B)/%.o,$(wildcard visualizer/*.c))
TOOL_OBJS += $(VIZ_OBJS)
endif

FUZZ_TARGETS := $(basename $(notdir $(filter-out fuzz/replay_main.c,$(wildcard fuzz/*.c))))
ifeq ($(NO_SDL),1)
FUZZ_TARGETS := $(filter-out viz_script,$(FUZZ_TARGETS)) # the viewer's --script target needs SDL
endif
FUZZ_REPLAY := $(FUZZ_TARGETS:%=$(B)/fuzz/replay_%)

# The differential fuzzer (fuzz/diff/, docs/fuzzing.md): a program of its
# own, not part of the library.
DIFF_FUZZ_SRCS := $(wildcard fuzz/diff/*.c)
DIFF_FUZZ_OBJS := $(DIFF_FUZZ_SRCS:%.c=$(B)/%.o)
DIFF_FUZZ := $(B)/fuzz/diff_fuzz

ALL_OBJS := $(LIB_OBJS) $(TOOL_OBJS) $(TEST_SUPPORT_OBJS) $(TEST_SRCS:%.c=$(B)/%.o) \
            $(FUZZ_TARGETS:%=$(B)/fuzz/%.o) $(B)/fuzz/replay_main.o $(BENCH_SRCS:%.c=$(B)/%.o) \
            $(DIFF_FUZZ_OBJS)

# keep objects of test and bench binaries (make would delete them as intermediates)
.SECONDARY:

.PHONY: all check check-asan test conform fuzz fuzz-regress demo bench calibrate deps lint clean install FORCE
all: $(LIB) $(SO) $(NPUSIM) $(TEST_BINS) $(FUZZ_REPLAY) $(DIFF_FUZZ) $(BENCH_BINS)

# objects depend on the flags they were built with (-fPIC came later): a
# change of CFLAGS_ALL rebuilds them
$(B)/.flags: FORCE
	@mkdir -p $(B)
	@echo '$(CFLAGS_ALL)' | cmp -s - $@ || echo '$(CFLAGS_ALL)' >$@
FORCE:

$(ALL_OBJS): $(B)/.flags

$(B)/%.o: %.c | $(B)/.dirs
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(DEPFLAGS) -c $< -o $@

$(B)/traces/%.o: CFLAGS_ALL += $(ZLIB_CFLAGS)
$(B)/dist/%.o: CFLAGS_ALL += $(MPI_CFLAGS)

$(B)/.dirs:
	@mkdir -p $(B)
	@touch $@

$(LIB): $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(SO): $(LIB_OBJS) $(filter-out $(B)/tools/npusim.o,$(TOOL_OBJS))
	$(CC) $(LDFLAGS_ALL) -shared -Wl,-soname,libnpusim.so -o $@ $^ $(LDLIBS_ALL)

$(NPUSIM): $(TOOL_OBJS) $(LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $(TOOL_OBJS) $(LIB) $(LDLIBS_ALL)

# the allocation-failure walk wraps malloc, calloc and realloc (tests/runtime/test_alloc_fail.c)
$(B)/tests/runtime/test_alloc_fail: LDFLAGS_ALL += -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc
$(B)/tests/%: $(B)/tests/%.o $(TEST_SUPPORT_OBJS) $(LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $< $(TEST_SUPPORT_OBJS) $(LIB) $(CMOCKA_LIBS) $(LDLIBS_ALL)

$(B)/bench/%: $(B)/bench/%.o $(LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $< $(LIB) $(LDLIBS_ALL) -ldl

$(B)/fuzz/replay_%: $(B)/fuzz/%.o $(B)/fuzz/replay_main.o $(LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL)

$(DIFF_FUZZ): $(DIFF_FUZZ_OBJS) $(LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $(DIFF_FUZZ_OBJS) $(LIB) $(LDLIBS_ALL)

# ---------------------------------------------------------------- checks
# Unit tests, then the conformance corpus against the known-failure lists,
# then the fuzz corpus replay.  tests/run_tests.sh prints the summary.
check: all
	@SHARED=$(SHARED) B=$(B) ./tests/run_tests.sh

test: all
	@SHARED=$(SHARED) B=$(B) ONLY=unit ./tests/run_tests.sh

conform: all
	@SHARED=$(SHARED) B=$(B) ONLY=conform ./tests/run_tests.sh

# Unit tests and the fuzz corpus under the address and undefined-behaviour
# sanitizers (CI runs it after `make check`).
check-asan:
	@$(MAKE) --no-print-directory BUILD=asan all
	@SHARED=$(SHARED) B=build/asan ONLY=unit ./tests/run_tests.sh
	@SHARED=$(SHARED) B=build/asan ONLY=fuzz ./tests/run_tests.sh

fuzz-regress: $(FUZZ_REPLAY)
	@SHARED=$(SHARED) B=$(B) ONLY=fuzz ./tests/run_tests.sh

# libFuzzer builds (clang), one binary per target under build/fuzz/.
FUZZ_B := build/fuzz
FUZZ_CFLAGS := $(CSTD) $(WARN) -O1 -g -I. -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
fuzz:
	@mkdir -p $(FUZZ_B)
	@for t in $(FUZZ_TARGETS); do \
	  echo "clang $$t"; \
	  viz=; [ $$t = viz_script ] && viz="$(wildcard visualizer/*.c) $(SDL_CFLAGS) $(SDL_LIBS)"; \
	  clang $(FUZZ_CFLAGS) -o $(FUZZ_B)/$$t fuzz/$$t.c $(LIB_SRCS) $$viz -lm -lpthread $(ZLIB_LIBS) || exit 1; \
	done
	@echo "run e.g.: $(FUZZ_B)/graph_parse fuzz/corpus/graph_parse -max_total_time=60"

deps:
	@./scripts/install-deps.sh

demo: deps
	@$(MAKE) --no-print-directory BUILD=release all
	@./scripts/demo.sh build/release/npusim

bench:
	@./scripts/install-deps.sh --bench || echo "bench: OpenBLAS not installed; the GEMM ratio is skipped"
	@$(MAKE) --no-print-directory BUILD=release all
	@SHARED=$(SHARED) ./bench/run.sh build/release

# Every row of ../shared/hw/published_perf_calibration.tsv through the model
# generator and the estimator: npusim's figure, the published one, the error
# (docs/estimate.md "Calibration").  Use BUILD=release: it simulates pods.
calibrate: $(NPUSIM)
	@SHARED=$(SHARED) ./scripts/calibrate.sh $(B)
	@SHARED=$(SHARED) ./scripts/calibrate.sh $(B) chips/gpu_calibration.tsv

# The layer and prefix rules (docs/architecture.md), then cppcheck.
lint: all
	@./scripts/lint.sh $(B)
	cppcheck --quiet --std=c11 --enable=warning,performance,portability --error-exitcode=1 --inline-suppr \
	  -I. $(LIB_MODULES) tools

# ---------------------------------------------------------------- install
# make install PREFIX=DIR (DESTDIR for staging): the command, libnpusim.a and
# .so, the public headers under include/npusim/ (npusim.h, npusim_api.h and
# each module's, as the tree includes them), npusim.pc for pkg-config, the
# chip files (share/npusim/chips) and python/npusim (lib/python3/dist-packages).
PREFIX ?= /usr/local
INSTALL_DIR = $(DESTDIR)$(PREFIX)
INSTALL_HEADERS := npusim.h npusim_api.h $(filter-out %_internal.h,$(wildcard $(addsuffix /*.h,$(LIB_MODULES))))
NPUSIM_VERSION := $(shell sed -n 's/^\#define NPUSIM_VERSION "\(.*\)"/\1/p' tools/tools.h)
install: $(LIB) $(SO) $(NPUSIM)
	install -d $(INSTALL_DIR)/bin $(INSTALL_DIR)/lib/pkgconfig $(INSTALL_DIR)/share/npusim/chips \
	  $(INSTALL_DIR)/lib/python3/dist-packages/npusim
	install -m 755 $(NPUSIM) $(INSTALL_DIR)/bin/npusim
	install -m 644 $(LIB) $(INSTALL_DIR)/lib/libnpusim.a
	install -m 755 $(SO) $(INSTALL_DIR)/lib/libnpusim.so
	for h in $(INSTALL_HEADERS); do install -D -m 644 $$h $(INSTALL_DIR)/include/npusim/$$h || exit 1; done
	install -m 644 chips/*.chip chips/*.tsv $(INSTALL_DIR)/share/npusim/chips/
	install -m 644 python/npusim/*.py $(INSTALL_DIR)/lib/python3/dist-packages/npusim/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(NPUSIM_VERSION)|' scripts/npusim.pc.in \
	  >$(INSTALL_DIR)/lib/pkgconfig/npusim.pc

clean:
	rm -rf build

# visualizer rules (see VIZ_OBJS above)
ifeq ($(NO_SDL),1)
$(B)/tools/cmd_view.o: CFLAGS_ALL += -DNPUSIM_NO_SDL
$(B)/visualizer/%.o: CFLAGS_ALL += $(ZLIB_CFLAGS)
else
$(B)/visualizer/%.o: CFLAGS_ALL += $(SDL_CFLAGS) $(ZLIB_CFLAGS)
$(B)/tests/visualizer/%.o: CFLAGS_ALL += $(SDL_CFLAGS)
$(NPUSIM): $(VIZ_OBJS)
$(NPUSIM): LDLIBS_ALL += $(SDL_LIBS)
$(SO): LDLIBS_ALL += $(SDL_LIBS)
$(B)/tests/visualizer/%: $(B)/tests/visualizer/%.o $(VIZ_OBJS) $(TEST_SUPPORT_OBJS) $(LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $< $(VIZ_OBJS) $(TEST_SUPPORT_OBJS) $(LIB) $(CMOCKA_LIBS) $(LDLIBS_ALL) $(SDL_LIBS)
$(B)/bench/view_bench: $(B)/bench/view_bench.o $(VIZ_OBJS) $(LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $< $(VIZ_OBJS) $(LIB) $(LDLIBS_ALL) $(SDL_LIBS)
$(B)/fuzz/replay_viz_script: $(B)/fuzz/viz_script.o $(B)/fuzz/replay_main.o $(VIZ_OBJS) $(LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL) $(SDL_LIBS)
endif

-include $(ALL_OBJS:.o=.d)
