# Folio — operator interface. `make run` and `make test` work on a fresh machine: they install what is missing.
SHELL := /bin/bash
.DEFAULT_GOAL := help
NPM_STAMP := node_modules/.folio-installed
export FOLIO_ROOT := $(CURDIR)
# glibc's allocator for every Node process started here (the API, the worker, tests, benchmarks): a page's
# steps allocate and free page-sized buffers many times over, and by default each is a fresh mmap that the kernel
# faults in 4 KiB at a time (3.5 million faults, a fifth of the CPU, for 11 pages). Transparent huge pages where
# the kernel offers them (madvise), buffers up to 32 MiB from the arena, freed memory kept up to 128 MiB and two
# arenas: the 11-page scanned PDF of `make bench` took 92.7 s instead of 108.4 s through the product path, worker
# peak RSS 1279 MiB instead of 1324 (engine/README.md). Ignored by other C libraries; set it yourself to override it,
# or to give it to `folio-restore` run by hand.
export GLIBC_TUNABLES ?= glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=134217728:glibc.malloc.top_pad=33554432:glibc.malloc.arena_max=2

help:
	@echo "make run            install what is missing, start Folio at http://127.0.0.1:8000 (API + worker + web app)"
	@echo "make test           install what is missing and run every test suite (backend on SQLite and PostgreSQL, engine, web, browser)"
	@echo "make check          format, lint, types, then tests"
	@echo "make lint           eslint (type-aware)"
	@echo "make typecheck      tsc --noEmit in every workspace"
	@echo "make test-scale     the multi-process scale-out suite (2 API nodes, 2 workers, PostgreSQL, Redis, S3) and its figures"
	@echo "make bench          API and job throughput figures"
	@echo "make bench-quality  restoration benchmark: public eval set and a fresh seed, baselines, gap"
	@echo "make models         opt-in: convert the ESRGAN models to ONNX (no step of the default plan uses them)"
	@echo "make train          generate training pairs and train the page network into engine/weights (about 1.5 h on 2 cores)"
	@echo "make train-photo    train the photo and dust networks into engine/weights (about 105 min on 2 cores)"

# npm dependencies, reinstalled when the lock file changes. Install scripts are governed by
# "allowScripts" in package.json (better-sqlite3 builds from source; onnxruntime-node's GPU download is off).
$(NPM_STAMP): package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

# Neural models: converted from the TF.js weights inside the @upscalerjs npm packages to ONNX, reproducibly.
# Opt-in (`make models`): no step of the default plan uses them; their tests convert what they need themselves.
MODELS_STAMP := engine/models/.converted
$(MODELS_STAMP): $(NPM_STAMP) $(wildcard engine/scripts/convert-*.ts engine/src/models/convert/*.ts engine/src/models/catalog.ts)
	npm run models -w @folio/engine
	@touch $@

models: $(MODELS_STAMP)

install: $(NPM_STAMP)

# Debian packages: Chromium for browser tests, Tesseract/poppler/OpenCV for the eval scorer.
SYSTEM_TEST_PKGS := chromium
install-browser:
	@command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(SYSTEM_TEST_PKGS); }

# The engine's OCR: Debian's Tesseract with its "fast" English model (tesseract.js is the fallback without it) and
# its orientation model (pages whose glyphs do not say which way up they stand); poppler-utils for the engine tests
# that read restored PDFs back (pdftotext -bbox, pdfimages, pdffonts).
OCR_PKGS := tesseract-ocr tesseract-ocr-eng tesseract-ocr-osd poppler-utils
install-ocr:
	@tesseract --list-langs 2>/dev/null | grep -qx eng && tesseract --list-langs 2>/dev/null | grep -qx osd \
	  && command -v pdftotext >/dev/null || { \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(OCR_PKGS); }

install-eval-tools:
	@command -v tesseract >/dev/null && command -v pdftocairo >/dev/null && python3 -c 'import cv2, skimage' 2>/dev/null || { \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$(grep -v '^#' ../shared/eval/tools/debian-packages.txt); }

typecheck: install
	npm run typecheck

lint: install
	npx eslint .

format-check: install
	npx prettier --check .

check: format-check lint typecheck test

# The page restoration network (engine/training): pairs from the eval generator with more fonts, then about
# 75 minutes of training on the CPU (Debian's python3-torch, a training-time tool only; the product runs the ONNX
# file with onnxruntime-node). TRAIN_SEED and TRAIN_PAGES pick the data; TRAIN_MINUTES the time budget.
TRAIN_DIR ?= $(CURDIR)/data/training
TRAIN_SEED ?= 20261124
TRAIN_PAGES ?= 400
TRAIN_MINUTES ?= 75
# python3-onnx: train.py --init reads the committed .onnx weights, to go on training from them.
TRAIN_PKGS := python3-torch python3-onnx fonts-noto-core fonts-crosextra-carlito fonts-crosextra-caladea \
	fonts-cantarell fonts-ebgaramond fonts-linuxlibertine fonts-texgyre
install-train: install-eval-tools
	@/usr/bin/python3 -c 'import torch, onnx' 2>/dev/null && fc-list | grep -q Carlito || { \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(TRAIN_PKGS); }

train: install-train
	/usr/bin/python3 engine/training/make_pairs.py --out $(TRAIN_DIR)/pairs-$(TRAIN_SEED) --seed $(TRAIN_SEED) --pages $(TRAIN_PAGES)
	cd engine/training && /usr/bin/python3 train.py --pairs $(TRAIN_DIR)/pairs-$(TRAIN_SEED) \
	  --out $(CURDIR)/engine/weights/page-net --minutes $(TRAIN_MINUTES)
	rm -f engine/weights/page-net.pt

# The photo networks (engine/training/train_photo.py): photos of Debian's wallpaper packages (none of the
# benchmark's), damaged by the script's own recipes. The photo network: 40 minutes of training, then 30 more on
# textured patches; the dust network (dust, hairs, scratches): 30 minutes.
PHOTO_PKGS := python3-torch plasma-workspace-wallpapers mate-backgrounds ukui-wallpapers lomiri-wallpapers-20.04
install-train-photo:
	@/usr/bin/python3 -c 'import torch, cv2' 2>/dev/null && test -d /usr/share/backgrounds/mate && \
	  test -d /usr/share/wallpapers/Kite || { \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-opencv $(PHOTO_PKGS); }

train-photo: install-train-photo
	mkdir -p $(TRAIN_DIR)
	cd engine/training && /usr/bin/python3 train_photo.py --out $(TRAIN_DIR)/photo-net-first --minutes 40
	cd engine/training && /usr/bin/python3 train_photo.py --out $(CURDIR)/engine/weights/photo-net \
	  --init $(TRAIN_DIR)/photo-net-first.pt --lr 5e-4 --textured 0.5 --minutes 30
	cd engine/training && /usr/bin/python3 train_photo.py --out $(CURDIR)/engine/weights/dust-net --recipe dust \
	  --lr 1e-3 --textured 0.5 --minutes 30
	rm -f engine/weights/photo-net.pt engine/weights/dust-net.pt
	npx prettier --write engine/weights/photo-net.json engine/weights/dust-net.json

.PHONY: help install models install-train train install-train-photo train-photo install-ocr install-browser install-eval-tools typecheck lint format-check check run test test-scale bench bench-quality

# The web app is built once and served by the backend on the same origin.
web/dist/index.html: $(NPM_STAMP) $(shell find web/src web/public web/index.html -type f 2>/dev/null)
	npm run build -w @folio/web

run: install install-ocr web/dist/index.html
	node --import tsx backend/src/main.ts

# Every suite, each writing a vitest JSON report, its output and its exit code; a failing suite does not hide the
# ones after it, and the closing line adds them up. Backend API tests run twice: on a SQLite file and on
# PostgreSQL (127.0.0.1:5432, test).
RESULTS := $(CURDIR)/test-results
SUITES := engine:@folio/engine:test backend-sqlite:@folio/backend:test:sqlite \
	backend-postgres:@folio/backend:test:postgres web:@folio/web:test e2e:@folio/e2e:test \
	scale:@folio/backend:test:scale
test: install install-ocr install-browser web/dist/index.html
	@rm -rf $(RESULTS) && mkdir -p $(RESULTS); status=0; \
	for suite in $(SUITES); do \
	  name=$${suite%%:*}; rest=$${suite#*:}; ws=$${rest%%:*}; script=$${rest#*:}; \
	  echo "=== $$name: npm run $$script -w $$ws"; \
	  { npm run $$script -w $$ws -- --reporter=default --reporter=json --outputFile.json=$(RESULTS)/$$name.json; \
	    echo $$? > $(RESULTS)/$$name.exit; } 2>&1 | tee $(RESULTS)/$$name.log; \
	  [ "$$(cat $(RESULTS)/$$name.exit)" = 0 ] || status=1; \
	  [ -f $(RESULTS)/$$name.json ] || { echo "$$name wrote no report"; status=1; }; \
	done; \
	node scripts/test-summary.mjs $(RESULTS) || status=1; \
	exit $$status

# The scale-out suite alone (also part of `make test`): builds backend, engine and shared to dist/, then starts
# them as real processes against PostgreSQL and Redis on 127.0.0.1 and a local S3-compatible server.
test-scale: install
	@mkdir -p $(RESULTS)
	npm run test:scale -w @folio/backend -- --reporter=default --reporter=json --outputFile.json=$(RESULTS)/scale.json

bench: install
	npm run bench -w @folio/backend

bench-quality: install install-ocr install-eval-tools
	npm run bench:quality -w @folio/engine
