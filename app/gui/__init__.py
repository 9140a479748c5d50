"""PySide6 desktop app: thin views over ``app.core``."""
