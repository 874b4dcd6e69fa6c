"""What ``scrawl deal`` and ``scrawl score`` print for people: plain text tables."""
from __future__ import annotations

from games.board import glyph
from games.deal import Deal
from games.die import roll_rounds, round_instructions
from games.maps import DungeonMap
from games.state import SheetResult

TRAP_GLYPH = "X"


def deal_table(game: Deal, *, replay: str, dungeon: DungeonMap | None = None) -> str:
    """The seven rounds' reveals, one row a round, each card with the shape a player draws; on a map that
    needs the die (``dungeon``, else the map the deal was dealt for), the roll and what it makes a player cross
    out and fill in, under each round."""
    dungeon = dungeon or game.dungeon
    todo = []
    if dungeon is not None and dungeon.needs_die:
        rolls = game.rolls if game.rolls is not None else roll_rounds(game.seed, len(game.rounds))
        todo = round_instructions(dungeon, rolls)
    on_map = f", {dungeon.name}" if dungeon is not None else ""
    lines = [f"Deal {game.seed} ({game.deck_size} cards{', solo: no Trap cards' if game.solo else ''}{on_map})",
             f"Replay it with: {replay}", "", "Round  Draw these on your map"]
    any_draw2 = False
    for index, round_ in enumerate(game.rounds):
        cells = []
        for reveal in round_.reveals:
            mark = glyph(reveal.card.exits) if reveal.card.kind == "segment" else TRAP_GLYPH
            star = "*" if reveal.after_draw2 else ""
            any_draw2 |= reveal.after_draw2
            cells.append(f"{mark} {reveal.words}{star}".ljust(12))
        lines.append(f"  {round_.number}    " + "".join(cells).rstrip())
        if index < len(todo):
            lines += [f"       {line}" for line in todo[index]]
    if any_draw2:
        lines += ["", "* revealed in place of a Draw 2 (the Draw 2 itself is discarded)"]
    lines += ["", "Turn each shape any way you like. A segment you cannot draw: one tally beside item 6."]
    if todo:
        lines += ["The die is rolled after the cards are revealed; the lines under each round say what it makes "
                  "you cross out and fill in."]
    if dungeon is not None and dungeon.gates:
        lines += ["When your path crosses a Rune Gate, fill in the other gate with the same glyph: it is closed."]
    return "\n".join(lines)


def score_report(results: list[SheetResult], errors: list[dict]) -> str:
    """Every game's sheets (``results``, in the order read; games told apart by their code): each sheet's
    breakdown, what needs a person's look, traps, and the game's standings."""
    games: dict[str | None, list[SheetResult]] = {}
    for result in results:
        games.setdefault(result.sheet.game, []).append(result)
    out = []
    for code, game in games.items():
        if len(games) > 1:
            title = f"Game {code}" if code else "Sheets with no game code (printed before codes)"
            out += [f"== {title}, {game[0].sheet.dungeon.name} ==", ""]
        out += _game_report(game, results)
    for entry in errors:
        out.append(f"NOT SCORED {entry.get('source', '?')}: {entry.get('error', '')}")
    return "\n".join(out).rstrip()


def _who(sheet) -> str:
    """A sheet's headline name: the player's name and number, else the player number."""
    if sheet.name:
        return f"{sheet.name} (player {sheet.player})" if sheet.player else sheet.name
    return f"Player {sheet.player}" if sheet.player else sheet.source


def _game_report(game: list[SheetResult], results: list[SheetResult]) -> list[str]:
    out = []
    for result in game:
        sheet = result.sheet
        photo = f"   [{sheet.source}]" if (sheet.player or sheet.name) and sheet.source != sheet.name else ""
        out.append(f"{_who(sheet)}, {sheet.dungeon.name}: {result.score.total} points{photo}")
        width = len(str(max(line.item for line in result.score.lines)))   # items 1-10 line up on a map with 10
        for line in result.score.lines:
            where = " ".join(line.rooms)
            if line.note:
                where = f"{where} ({line.note})".strip()
            out.append(f"  {line.item:>{width}} {line.label:<20}{line.count:>3} {line.points:>+5}   {where}".rstrip())
        for hit in result.hits:
            owner = results[hit.owner].sheet.label
            out.append(f"  trap in {hit.room.name}: " + ("shared with another player, so it hits its owner"
                                                           if hit.shared else f"laid by {owner}"))
        for entry in result.review:
            out.append(f"  NEEDS REVIEW {entry.where or '?'}: {entry.why or ''}")
        out.append("")
    ranked = sorted((r for r in game if r.duplicate_of is None), key=lambda r: -r.score.total)
    if len(ranked) > 1:
        out += ["Standings: " + ", ".join(f"{r.sheet.name or _who(r.sheet)} {r.score.total}" for r in ranked)]
    for result in game:
        if result.duplicate_of is not None:
            out.append(f"Not ranked: {result.sheet.source}, a second sheet of {results[result.duplicate_of].sheet.label}")
    return out + [""]
