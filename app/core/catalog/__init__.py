"""Catalog and discovery: repository listings and file patterns, memory fit,
compatible-drafter finder, hub search, model import. Qt-free; the GUI and the CLI build on it."""
