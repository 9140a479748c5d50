"""Launching: the one launch plan, the launch form model, and Auto (what speculation pays here)."""
