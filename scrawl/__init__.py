"""The front doors: the scrawl command and the game-night web page."""
