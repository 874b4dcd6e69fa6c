"""Test data and helpers shared by several test files."""
from collections import deque


def reachable(dungeon, starts):
    """Rooms reachable from ``starts`` through passages: the tests' own search, not the model's."""
    seen, queue = set(starts), deque(starts)
    while queue:
        room = queue.popleft()
        for side in "NESW":
            other = room.neighbour(side)
            if dungeon.side_kind(room, side) == "passage" and other not in seen:
                seen.add(other)
                queue.append(other)
    return seen


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
