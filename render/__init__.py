"""Board images: each game's ``render_<game>(view, names, lang) -> PNG bytes``.

Shared drawing pieces (palette, fonts, hex geometry, caches, encoding) live in
:mod:`render.common`. Renderers see only views, never engine state.
"""
