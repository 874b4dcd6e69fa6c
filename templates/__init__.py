"""Templates: maps, decks, die and tables as TOML data, validated on load."""
