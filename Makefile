# Two commands do everything on a fresh Debian machine with Swift 6.3:
#   make demo   render the demos (the main job) and print where they are
#   make test   build and run every test
# and `make docs` builds the DocC catalogs into a static site.
# Both install any missing Debian packages first.

SHELL       := /bin/bash
SWIFT       ?= swift
DEMO_DIR    ?= .build/demo
# Build: pkg-config and the -dev packages. Run: the fonts, ffmpeg
# (fonts-dejavu-extra: the oblique face a font-stack test puts first). Tests: every program a
# test starts (Tests/WaterflowTestSupport/ExternalProgram.swift lists them; a test checks this list).
APT_PACKAGES = pkg-config libcairo2-dev libpango1.0-dev libfreetype-dev libpng-dev libdeflate-dev \
               libturbojpeg0-dev \
               libwebp-dev fonts-dejavu-core fonts-dejavu-extra fonts-wqy-microhei fonts-noto-color-emoji \
               ffmpeg poppler-utils librsvg2-bin libxml2-utils pngcheck time chromium chromium-driver \
               python3 python3-pip
# Python packages tests import (junitparser reads our JUnit reports back, as CI plugins do;
# selenium drives Chromium through the review page with Debian's chromedriver), for
# the python3 first on PATH. Debian's own python3 refuses pip installs unless told otherwise
# (PEP 668); other users install into their home.
PIP_PACKAGES = junitparser selenium
PIP_INSTALL := $(if $(filter 0,$(shell id -u)),PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip install -q,python3 -m pip install -q --user --break-system-packages)
SUDO        := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN          = .build/release/waterflow

.PHONY: demo test docs setup build release clean

setup:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing missing Debian packages:" $$missing; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
	@missing=$$(for p in $(PIP_PACKAGES); do python3 -m pip show -q $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing missing Python packages:" $$missing; \
	  $(PIP_INSTALL) $$missing; \
	fi
	@command -v $(SWIFT) >/dev/null || { echo "error: swift not found; install Swift 6.3 from swift.org"; exit 1; }

build: setup
	$(SWIFT) build

# Two programs (Sources/waterflow/Launcher.swift says why): `waterflow-core`, the whole tool,
# and `waterflow`, which runs a plain diff itself and hands everything else to waterflow-core.
#
# waterflow-core has the Swift runtime and Foundation linked in: a self-contained binary that
# starts in ~7 ms instead of ~14 (dynamic linking was a third of a short `waterflow scroll`).
# Linked at a fixed address (not position-independent): the loader then has none of the binary's
# 95,000 relative relocations to apply and 240 fewer pages to fault in, 1.5 ms of every process
# (10.2 against 11.7 ms for a 4×4 `waterflow diff`, 30 runs); the cost is that the executable's
# own code is not moved by address-space randomization (libraries, heap and stack still are).
#
# The launcher links everything statically, the C library too: with no shared library to load it
# starts in 1.2 ms instead of 2.3, and a diff of two 750×1334 frames peaks at 14.3 MB instead of
# 16.2. Its compiler flags differ, so it builds in a folder of its own, and is then copied beside
# waterflow-core. The linker's notes that glibc's dlopen and user lookups need the shared C library
# at run time concern the Swift runtime's optional prespecializations and FoundationEssentials'
# home folders, which the launcher never calls; they, and the note that Swift's own static
# Foundation uses mktemp, are filtered out. pipefail keeps the build's exit status.
RELEASE_FLAGS  = -c release --static-swift-stdlib -Xlinker -no-pie
LAUNCHER_BUILD = .build-launcher
LINKER_NOTES   = -e "the use of .mktemp. is dangerous" -e "in statically linked applications requires at runtime"
release: setup
	@set -o pipefail; $(SWIFT) build $(RELEASE_FLAGS) --product waterflow-core 2>&1 \
	  | { grep -v $(LINKER_NOTES) || true; }
	@set -o pipefail; $(SWIFT) build -c release --scratch-path $(LAUNCHER_BUILD) -Xswiftc -static-executable \
	  --product waterflow 2>&1 | { grep -v $(LINKER_NOTES) || true; }
	@cp $(LAUNCHER_BUILD)/release/waterflow .build/release/.waterflow.tmp
	@mv -f .build/release/.waterflow.tmp .build/release/waterflow

# The tests cover the swift-snapshot-testing strategy too, which sits behind a package trait so
# that packages depending on Waterflow fetch neither swift-snapshot-testing nor swift-syntax
# unless they ask.
TRAITS      ?= SnapshotTesting

test: setup
	$(SWIFT) build --build-tests --traits $(TRAITS)
	$(SWIFT) test --skip-build --traits $(TRAITS)

# The DocC catalogs (Sources/MODULE/MODULE.docc), built by swift-docc-plugin into one static site
# in DOCS_DIR: serve that folder (`python3 -m http.server -d .build/docs`) and open
# /documentation/waterflowlayout. Set DOCS_BASE_PATH when the site is served below the root (for
# GitHub Pages, the repository's name). Any DocC warning (a symbol link that does not resolve, a
# parameter documented that does not exist) fails the build (--warnings-as-errors), as does a
# warning of the plugin's own (a module with nothing to document), and a public symbol that a
# landing page's Topics leave out (.ci/docs-topics). The plugin builds the modules first, so a
# fresh build also shows the compiler's diagnostics, as `make test` does; SwiftPM's -pthread
# warning (see README: Requirements) is filtered out as in `release`.
DOCS_DIR       ?= .build/docs
DOCS_BASE_PATH ?=
DOCS_MODULES    = WaterflowLayout WaterflowView WaterflowStyle WaterflowCells WaterflowScene \
                  WaterflowRender WaterflowMotion WaterflowShots FileTransactions PNGCodec PixelDiff \
                  WaterflowSnapshotTesting Cairo WaterflowJSON \
                  WaterflowComparison WaterflowGolden WaterflowGoldenReport WaterflowReview \
                  WaterflowInputs WaterflowData WaterflowFeeds WaterflowPreview

docs: setup
	@set -o pipefail; mkdir -p .build; \
	$(SWIFT) package --traits $(TRAITS) --allow-writing-to-directory $(DOCS_DIR) generate-documentation \
	  $(addprefix --target ,$(DOCS_MODULES)) --enable-experimental-combined-documentation \
	  --transform-for-static-hosting $(if $(DOCS_BASE_PATH),--hosting-base-path $(DOCS_BASE_PATH)) \
	  --warnings-as-errors --output-path $(DOCS_DIR) 2>&1 \
	  | { grep -v "warning: prohibited flag(s): -pthread" || true; } | tee .build/docs.log
	@if grep -q "^warning:" .build/docs.log; then echo "error: DocC or its plugin warned (above)"; exit 1; fi
	@python3 .ci/docs-topics $(DOCS_DIR) $(DOCS_MODULES)
	@echo "Documentation written to $(abspath $(DOCS_DIR)); serve it with: python3 -m http.server -d $(DOCS_DIR)"

demo: release
	@rm -rf $(DEMO_DIR) && mkdir -p $(DEMO_DIR)
	@for y in 0 600 1100; do \
	  $(BIN) render Assets/Scenes/reference.json --offset $$y --step 50 -o $(DEMO_DIR)/reference-$$y.png || exit 1; \
	  $(BIN) render Assets/Scenes/shop.json --offset $$y --step 50 -o $(DEMO_DIR)/shop-$$y.png || exit 1; \
	done
	@$(BIN) render Assets/Scenes/reference.json --offset 600 --step 50 --overview -o $(DEMO_DIR)/reference-overview.png
	@$(BIN) render Assets/Scenes/reference.json --offset 600 --step 50 --debug -o $(DEMO_DIR)/reference-debug.png
	@$(BIN) render Assets/Scenes/shop.json --offset 300 -o $(DEMO_DIR)/shop.pdf
	@$(BIN) render Assets/Scenes/empty.json -o $(DEMO_DIR)/empty.png
	@$(BIN) render Assets/Scenes/feed-layout.json --offset 900 --step 50 -o $(DEMO_DIR)/feed-layout.png
	@$(BIN) render Assets/Scenes/product.json -o $(DEMO_DIR)/product-light.png
	@$(BIN) render Assets/Scenes/product.json --style Assets/Styles/dark.json -o $(DEMO_DIR)/product-dark.png
	@$(BIN) render Assets/Scenes/shop-zh.json -o $(DEMO_DIR)/shop-zh.png
	@for feed in notes products pins notes-with-ads; do \
	  $(BIN) render Assets/Feeds/$$feed.json -o $(DEMO_DIR)/feed-$$feed.png || exit 1; \
	done
	@$(BIN) scroll Assets/Feeds/notes.json --to 1500 --duration 2 --fps 30 --scale 2 -o $(DEMO_DIR)/feed-notes-scroll.mp4
	@$(BIN) render Assets/Scenes/product-emoji.json -o $(DEMO_DIR)/product-emoji.png
	@$(BIN) scroll Assets/Scenes/shop.json --script Assets/Scenes/shop-scroll.json --scale 1 --mark-reuse \
	  -o $(DEMO_DIR)/shop-scroll.gif --contact-sheet $(DEMO_DIR)/shop-scroll-sheet.png \
	  --plot $(DEMO_DIR)/shop-scroll-plot.png --trace $(DEMO_DIR)/shop-scroll-trace.csv
	@$(BIN) scroll Assets/Scenes/reference.json --to 1500 --duration 2 --fps 30 -o $(DEMO_DIR)/reference-scroll.mp4
	@$(BIN) shots Assets/Shots/shots.json -o $(DEMO_DIR)/shots
	@$(BIN) trace Assets/Scenes/reference.json --from 0 --to 600 --step 150
	@echo
	@ls $(DEMO_DIR)
	@echo
	@echo "Demo written to $(abspath $(DEMO_DIR))"

clean:
	rm -rf .build

# Runs each libFuzzer harness (Tests/Fuzz/Harnesses) for FUZZ_SECONDS, starting from its seeds in
# Tests/Fuzz/Corpus/NAME, and prints libFuzzer's summary. New inputs go to .build-fuzz/corpus,
# crashes to .build-fuzz/artifacts: copy a crash into the seed corpus once it is fixed. Leak
# checks are off: the only reports are caches Foundation and the Swift runtime keep for good.
FUZZ_SECONDS ?= 60
# Which harnesses: all by default, or for example FUZZ_HARNESSES="FuzzLayoutFile FuzzGoldenFiles".
FUZZ_HARNESSES ?= $(notdir $(wildcard Tests/Fuzz/Harnesses/Fuzz*))
# SwiftPM passes each --sanitize as its own -sanitize= flag, and the last one wins: with
# "--sanitize=fuzzer --sanitize=address" nothing is instrumented for coverage. So --sanitize=fuzzer
# tells SwiftPM that libFuzzer provides main, and -Xswiftc gives the compiler both at once.
FUZZ_BUILD    = WATERFLOW_FUZZ=1 $(SWIFT) build -c release --scratch-path .build-fuzz \
                --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address

.PHONY: fuzz
fuzz: setup
	@set -e -o pipefail; for name in $(FUZZ_HARNESSES); do \
	  echo "== building $$name (sanitize=fuzzer,address)"; \
	  $(FUZZ_BUILD) --product $$name 2>&1 | { grep -E "error:|complete" || true; }; \
	done
	@status=0; for name in $(FUZZ_HARNESSES); do \
	  corpus=$${name#Fuzz}; \
	  mkdir -p .build-fuzz/corpus/$$corpus .build-fuzz/artifacts/$$corpus; \
	  dict=Tests/Fuzz/json.dict; [ $$corpus != PNGDecoder ] || dict=Tests/Fuzz/png.dict; \
	  echo "== $$name: $(FUZZ_SECONDS) s from Tests/Fuzz/Corpus/$$corpus"; \
	  ASAN_OPTIONS=detect_leaks=0 .build-fuzz/release/$$name .build-fuzz/corpus/$$corpus Tests/Fuzz/Corpus/$$corpus \
	    -dict=$$dict -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 -detect_leaks=0 \
	    -print_final_stats=1 -artifact_prefix=.build-fuzz/artifacts/$$corpus/ \
	    > .build-fuzz/$$name.log 2>&1 || status=1; \
	  grep -E "(DONE|^Done|^stat::number_of_executed_units|^stat::peak_rss_mb|^==[0-9]+==ERROR|^SUMMARY|^artifact_prefix|^Test unit written)" \
	    .build-fuzz/$$name.log || tail -5 .build-fuzz/$$name.log; \
	done; exit $$status

# make cross-stack [REBUILD=1]: the release binary built here, run in a Debian 13 (trixie) root
# against the goldens recorded here (issue 17). .ci/cross-stack makes the root with debootstrap
# from the mirror apt uses on this machine, in .build/cross-stack/trixie (reused by later runs;
# REBUILD=1 makes a new one), installs there the runtime libraries the binary links (from ldd,
# by trixie's package names) and the fonts, runs `waterflow golden check` in a chroot, then checks
# that a copy with one price changed fails with verdict `content`. It prints the stack in the root,
# every golden's result and a summary, and fails unless every golden passes and the price change
# is caught. Not part of `make test`: it needs root and the network, and takes a minute or two the
# first time. Host packages it needs, installed when missing as `setup` does:
CROSS_STACK_APT_PACKAGES = debootstrap gpgv debian-archive-keyring

.PHONY: cross-stack
cross-stack: release
	@missing=$$(for p in $(CROSS_STACK_APT_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing missing Debian packages:" $$missing; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
	@$(SUDO) .ci/cross-stack $(if $(REBUILD),--rebuild)
