"""Controllers: the pieces that drive core services for the views (chat, launch, downloads, server)."""
