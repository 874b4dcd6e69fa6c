"""What ``scrawl deal`` and ``scrawl score`` print for people: plain text tables."""
from __future__ import annotations

from games.board import glyph
from games.deal import Deal
from games.state import SheetResult

TRAP_GLYPH = "X"


def deal_table(game: Deal, *, replay: str) -> str:
    """The seven rounds' reveals, one row a round, each card with the shape a player draws."""
    lines = [f"Deal {game.seed} ({game.deck_size} cards{', solo: no Trap cards' if game.solo else ''})",
             f"Replay it with: {replay}", "", "Round  Draw these on your map"]
    any_draw2 = False
    for round_ in game.rounds:
        cells = []
        for reveal in round_.reveals:
            mark = glyph(reveal.card.exits) if reveal.card.kind == "segment" else TRAP_GLYPH
            star = "*" if reveal.after_draw2 else ""
            any_draw2 |= reveal.after_draw2
            cells.append(f"{mark} {reveal.words}{star}".ljust(12))
        lines.append(f"  {round_.number}    " + "".join(cells).rstrip())
    if any_draw2:
        lines += ["", "* revealed in place of a Draw 2 (the Draw 2 itself is discarded)"]
    lines += ["", "Turn each shape any way you like. A segment you cannot draw: one tally beside item 6."]
    return "\n".join(lines)


def score_report(results: list[SheetResult], errors: list[dict]) -> str:
    """Every sheet's breakdown, what needs a person's look, traps, and the final standings."""
    out = []
    for result in results:
        sheet = result.sheet
        who = sheet.source if sheet.player is None else f"{sheet.source} (player {sheet.player})"
        out.append(f"{who}, {sheet.dungeon.name}: {result.score.total} points")
        for line in result.score.lines:
            where = " ".join(line.rooms)
            if line.note:
                where = f"{where} ({line.note})".strip()
            out.append(f"  {line.item} {line.label:<20}{line.count:>3} {line.points:>+5}   {where}".rstrip())
        for hit in result.hits:
            owner = results[hit.owner].sheet.source
            out.append(f"  trap in {hit.room.name}: " + ("shared with another player, so it hits its owner"
                                                           if hit.shared else f"laid by {owner}"))
        for entry in result.review:
            out.append(f"  NEEDS REVIEW {entry.get('where', '?')}: {entry.get('why', '')}")
        out.append("")
    for entry in errors:
        out.append(f"NOT SCORED {entry.get('source', '?')}: {entry.get('error', '')}")
    if errors:
        out.append("")
    if len(results) > 1:
        ranked = sorted(results, key=lambda r: -r.score.total)
        out.append("Standings: " + ", ".join(f"{r.sheet.source} {r.score.total}" for r in ranked))
    return "\n".join(out).rstrip()
