"""Test data shared by several test files."""

# A small valid 5x5 map file.
TINY_MAP = """
id = "tiny"
name = "Tiny"
rows = 5
cols = 5
entries = ["A1:N", "C1:N", "E2:E", "E4:E", "A5:S", "C5:S"]
walls = ["A1-B1"]
[rooms]
A2.items = ["loot"]
A4.items = ["loot"]
E1.items = ["loot"]
E5.items = ["loot"]
C3.items = ["dragon"]
B1.items = ["weapon:A"]
D1.items = ["weapon:B"]
B3.items = ["weapon:C"]
D3.items = ["weapon:D"]
B5.items = ["weapon:E"]
D5.items = ["weapon:F"]
A3.items = ["monster:A"]
E3.items = ["monster:B"]
C2.items = ["monster:C"]
C4.items = ["monster:D"]
B2.items = ["monster:E"]
D4.items = ["monster:F"]
"""
