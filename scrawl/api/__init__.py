"""The game-night page's HTTP API, one router per part: ``server`` (the address, the maps), ``games``,
``photos`` (uploads and overlay pictures), ``corrections`` (a person's readings of rooms and tallies)
and ``printing`` (sheets and decks as PDF). ``scrawl.web.create_app`` puts them together."""
