"""The drawing toolkit every game's picture (``games/<g>/picture.py``) is built on.

Pictures see only views, never engine state, and are pure and CPU-only;
this package names no game. One job per module:

- :mod:`render.text`: the fonts (Source Sans Pro, regular and bold, with
  Noto Sans Arabic, Heebo and Noto Sans CJK for names in other scripts),
  printable names, fitting and drawing text in runs (right to left where the
  script is), and the sizes that stay legible once a phone shows the image
  550 px wide (``legible_size``, ``recording_text``);
- :mod:`render.palette`: ink, paper, accents, the seat styles, and telling
  colours apart (contrast, CIEDE2000, colour-blind simulation);
- :mod:`render.shapes`: polygons, seat markers, crown, arrow, robot and flag;
- :mod:`render.grids`: hex and square grids, coordinates around them;
- :mod:`render.sprites`: supersampled sprites and pasting;
- :mod:`render.panel`: the score and turn panel under every board, scaled
  with the image width, with "AI" / "resigned" badges;
- :mod:`render.png`: PNG encoding for Discord;
- :mod:`render.glyphs`: fonts that keep their glyph masks, so a text drawn
  again is not rendered again;
- :mod:`render.memo`: regions of a board pasted back from the pixels they got
  when the same things were drawn there (:mod:`render.lru` holds them);
- :mod:`render.panel_memo`: the panel drawn from rows kept by what they show;
- :mod:`render.chart`: the score-over-time chart of a finished game;
- :mod:`render.replay`: a game's positions as an animated GIF.
"""
