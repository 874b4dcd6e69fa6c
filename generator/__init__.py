"""Printable sheets and decks, drawn with reportlab from the pure sheet layout."""
