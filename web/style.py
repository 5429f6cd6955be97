"""The pages' style sheet and replay script, each with what makes it safe to cache
or run: the sheet's address carries its content's hash (so it is cached for a
year and a new version is a new address), the script's hash goes in the
Content-Security-Policy (the only script a page may run)."""

from __future__ import annotations

import base64
import hashlib
from importlib import resources

_STATIC = resources.files("web").joinpath("static")
STYLE: bytes = _STATIC.joinpath("site.css").read_bytes()
STYLE_FILE = f"site-{hashlib.sha256(STYLE).hexdigest()[:12]}.css"
# The pages' icon (a sun over dunes, on the boards' backdrop), addressed the same way.
ICON: bytes = _STATIC.joinpath("icon.png").read_bytes()
ICON_FILE = f"icon-{hashlib.sha256(ICON).hexdigest()[:12]}.png"
# What /static/ serves: the file's hashed name -> its bytes and type.
STATIC_FILES: dict[str, tuple[bytes, str]] = {
    STYLE_FILE: (STYLE, "text/css"),
    ICON_FILE: (ICON, "image/png"),
}

# The replay slider: swap the board image (and the label and step links) as it
# moves, a little after the last move so that a drag asks for few images. The
# page works without it: the slider's form and the links show any position.
SCRIPT = """\
(function () {
  var range = document.getElementById("position");
  var board = document.getElementById("board");
  if (!range || !board) { return; }
  var base = range.getAttribute("data-board");
  var tags = range.getAttribute("data-tags").split(" ");
  var extra = range.getAttribute("data-query");
  var label = document.getElementById("position-label");
  var prev = document.getElementById("prev");
  var next = document.getElementById("next");
  var last = Number(range.max);
  var said = document.getElementById("position-move");
  var timer = 0;
  function link(n) { return "?position=" + n + extra; }
  function show() {
    var n = Number(range.value);
    board.src = base + n + ".png?v=" + tags[n];
    if (board.parentNode.href !== undefined) { board.parentNode.href = board.src; }
    if (label) { label.textContent = String(n); }
    if (said) { said.hidden = true; }  // it told the position the page opened at
    if (prev) { prev.href = link(Math.max(0, n - 1)); }
    if (next) { next.href = link(Math.min(last, n + 1)); }
  }
  range.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(show, 120);
  });
})();
"""
SCRIPT_HASH = "sha256-" + base64.b64encode(hashlib.sha256(SCRIPT.encode()).digest()).decode()

# Pages may load only their own images, style sheet and that one script.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; img-src 'self'; style-src 'self'; "
    f"script-src '{SCRIPT_HASH}'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
