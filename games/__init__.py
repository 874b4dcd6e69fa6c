"""The games as plain Python: maps, rules, scoring, random maps. No paper, no pixels, no IO beyond reading templates."""
