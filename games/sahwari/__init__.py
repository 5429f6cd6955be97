"""Sahwari: the rules engine, being built (not registered yet: bot/registry.py
lists only finished games). What exists and what remains: docs/sahwari-plan.md."""
