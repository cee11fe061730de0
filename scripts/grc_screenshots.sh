#!/usr/bin/env bash
# Renders every examples/*.grc to docs/images/<name>.png as GNU Radio Companion draws it
# (GRC's own canvas code under Xvfb; scripts/grc_layout.py), so the pictures in the
# README and docs/ follow the examples. Installs what it needs (xvfb, GTK for Python)
# through scripts/install_deps.sh screenshots.
# SPDX-License-Identifier: GPL-3.0-or-later
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
"$GPUOFDM_SRC/scripts/install_deps.sh" screenshots
export GRC_BLOCKS_PATH="$GPUOFDM_SRC/grc${GRC_BLOCKS_PATH:+:$GRC_BLOCKS_PATH}"
cd "$GPUOFDM_SRC"
xvfb-run -a /usr/bin/python3 scripts/grc_layout.py check examples/*.grc
xvfb-run -a /usr/bin/python3 scripts/grc_layout.py screenshot docs/images examples/*.grc
