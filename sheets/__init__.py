"""What is printed where on every sheet we print: pure layouts, in millimetres.

- ``sheets.page``: the toolkit every sheet shares (papers, margin, corner
  markers, the QR code and ``SheetId``, ``Rect``, the layout JSON envelope);
- ``sheets.dungeon``: the dungeon map sheet;
- ``sheets.roster``: the monster record sheet;
- ``sheets.maker``: the Dungeon Maker sheet.

No reportlab and no OpenCV: ``generator`` draws these layouts, ``scanner``
reads photos against them, and neither imports the other.
"""
