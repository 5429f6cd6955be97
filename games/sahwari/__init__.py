"""Sahwari: the rules engine, being built (not registered yet: bot/registry.py
lists only finished games). So far: the content tables (``content.py``) and
the map and its movement rules (``board.py``)."""
