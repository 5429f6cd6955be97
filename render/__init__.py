"""Board images: each game's ``render_<game>(view, names, lang) -> PNG bytes``.

Renderers see only views, never engine state, and are pure and CPU-only.
The shared toolkit, one job per module:

- :mod:`render.text`: the font (Source Sans Pro, regular and bold), printable
  names, fitting and drawing text;
- :mod:`render.palette`: ink, paper, accents and the seat styles;
- :mod:`render.shapes`: polygons, seat markers, crown and arrow;
- :mod:`render.grids`: hex and square grids, coordinates around them;
- :mod:`render.sprites`: supersampled sprites and pasting;
- :mod:`render.panel`: the score and turn panel under every board;
- :mod:`render.png`: PNG encoding for Discord.
"""
