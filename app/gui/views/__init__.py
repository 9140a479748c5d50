"""Widgets of the main window and its dialogs."""
