"""Remote servers: endpoints and keys, acceptance parsers, and serve commands from the registry."""
