"""Qt Linguist sources (.ts) and compiled catalogs (.qm) for en, zh_CN, ja, ko."""
