"""Qt item models over core objects (registry, downloads, conversations)."""
