# Two commands do everything on a fresh Debian machine with Swift 6.3:
#   make demo   render the demos (the main job) and print where they are
#   make test   build and run every test
# Both install any missing Debian packages first.

SHELL       := /bin/bash
SWIFT       ?= swift
DEMO_DIR    ?= .build/demo
# Build: pkg-config and the -dev packages. Run: the font, ffmpeg. Tests: every program a test
# starts (Tests/WaterflowTestSupport/ExternalProgram.swift lists them; a test checks this list).
APT_PACKAGES = pkg-config libcairo2-dev libfreetype-dev libpng-dev libdeflate-dev fonts-dejavu-core \
               ffmpeg poppler-utils librsvg2-bin libxml2-utils pngcheck time chromium
SUDO        := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN          = .build/release/waterflow

.PHONY: demo test setup build release clean

setup:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing missing Debian packages:" $$missing; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
	@command -v $(SWIFT) >/dev/null || { echo "error: swift not found; install Swift 6.3 from swift.org"; exit 1; }

build: setup
	$(SWIFT) build

# The Swift runtime and Foundation linked in: a self-contained binary that starts in ~7 ms
# instead of ~14 (dynamic linking was a third of a short `waterflow scroll`). The linker's note
# that Swift's own static Foundation uses mktemp is not about our code, so it is filtered out;
# pipefail keeps the build's exit status.
release: setup
	@set -o pipefail; $(SWIFT) build -c release --static-swift-stdlib --product waterflow 2>&1 \
	  | { grep -v "the use of .mktemp. is dangerous" || true; }

# The tests cover the swift-snapshot-testing strategy too, which sits behind a package trait so
# that packages depending on Waterflow do not fetch swift-snapshot-testing unless they ask.
TRAITS      ?= SnapshotTesting

test: setup
	$(SWIFT) build --build-tests --traits $(TRAITS)
	$(SWIFT) test --skip-build --traits $(TRAITS)

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
	@$(BIN) scroll Assets/Scenes/shop.json --script Assets/Scenes/shop-scroll.json --scale 1 --mark-reuse \
	  -o $(DEMO_DIR)/shop-scroll.gif --contact-sheet $(DEMO_DIR)/shop-scroll-sheet.png \
	  --plot $(DEMO_DIR)/shop-scroll-plot.png --trace $(DEMO_DIR)/shop-scroll-trace.csv
	@$(BIN) scroll Assets/Scenes/reference.json --to 1500 --duration 2 --fps 30 -o $(DEMO_DIR)/reference-scroll.mp4
	@$(BIN) trace Assets/Scenes/reference.json --from 0 --to 600 --step 150
	@echo
	@ls $(DEMO_DIR)
	@echo
	@echo "Demo written to $(abspath $(DEMO_DIR))"

clean:
	rm -rf .build
