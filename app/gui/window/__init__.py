"""The main window's parts, one job each, composed by :class:`app.gui.main_window.MainWindow`:
the navigation column, the status bar, the keyboard actions and Quit, and opening a model's
launch dialog."""
