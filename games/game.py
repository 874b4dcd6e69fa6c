"""One game's sheets scored together, as ``scrawl scan`` and the game-night page score them.

A scan document may hold the sheets of several games (one game code each):
each game's map sheets are scored together (Traps resolved between them), each
told what the other sheets' doubts could change (``games.doubts``); a second
sheet of one player is scored in that player's place, both flagged. Dungeon
Maker sheets are scored one by one (``games.heroes``). ``games.kinds`` says
which of these each kind of sheet gets.
"""
from __future__ import annotations


def score_document(document: dict, rolls: tuple[int, ...] | list[int] | None = None,
                   scanned: bool = True) -> tuple[list, list[dict]]:
    """Score an unscored scan document as ``scrawl scan`` does: every sheet checked and scored, traps
    resolved between the sheets, and each sheet flagged for the other sheets' doubts that could change
    its score. ``rolls``, when given, replace the document's ``rolls`` (the marks are checked against
    them). Each game code's sheets are a game of their own (``games_of``); a second sheet of one player is
    scored in that player's place, both flagged ``duplicate_sheet``. ``scanned=False`` (sheets typed by
    hand) leaves out what only the scanner's doubts call for. Returns the results (``games.state.SheetResult``) and the errors; ``game_json`` writes them."""
    from games.state import read_game

    if rolls is not None:
        document = {**document, "rolls": list(rolls)}
    sheets, errors = read_game(document, "scan")
    results: list = [None] * len(sheets)
    for members in games_of(sheets):
        kept, twins = _first_of_each_player([sheets[i] for i in members])
        together = [members[i] for i in kept]
        for index, result in zip(together, _score_one_game(sheets, together, errors, document, scanned)):
            results[index] = result
        for twin, first in twins:      # a second sheet of one player: scored in its place, never beside it
            alone = list(together)
            alone[kept.index(first)] = members[twin]
            results[members[twin]] = _score_one_game(sheets, alone, errors, document, scanned)[kept.index(first)]
            results[members[twin]].duplicate_of = members[first]
            _flag_duplicates(results[members[first]], results[members[twin]])
    return results, errors


def games_of(sheets: list) -> list[list[int]]:
    """The sheets (``games.state.SheetState``) by game: the indices of each game code's sheets, in order of
    first appearance; the sheets with no code (printed before codes, or typed) are one game together."""
    games: dict[str | None, list[int]] = {}
    for index, sheet in enumerate(sheets):
        games.setdefault(sheet.game, []).append(index)
    return list(games.values())


def _first_of_each_player(sheets: list) -> tuple[list[int], list[tuple[int, int]]]:
    """The first sheet of each player of one game (and each sheet with no player number), and each later
    sheet claiming a player already seen, with that player's first sheet: ``(kept, [(twin, first)])``."""
    first: dict[tuple, int] = {}
    kept, twins = [], []
    for index, sheet in enumerate(sheets):
        key = (sheet.player, sheet.dungeon) if sheet.player else None
        if key is not None and key in first:
            twins.append((index, first[key]))
        else:
            kept.append(index)
            if key is not None:
                first[key] = index
    return kept, twins


def _score_one_game(sheets: list, together: list[int], errors: list[dict], document: dict, scanned: bool) -> list:
    """The results of the sheets ``together`` (indices into ``sheets``), scored as one game; their trap hits
    name sheets by their index in ``sheets``."""
    from dataclasses import replace

    from games.state import score_game
    from games.doubts import flag_shared_doubts, weigh_review

    results = score_game([sheets[i] for i in together])
    if scanned:
        flag_shared_doubts(results, errors)
        weigh_review(results, document.get("rolls"))
    for result in results:
        result.hits = [replace(hit, owner=together[hit.owner], victim=together[hit.victim]) for hit in result.hits]
    return results


def _flag_duplicates(first, twin) -> None:
    """Both sheets of one player get a ``duplicate_sheet`` entry naming both photos."""
    from games.review import Entry, Rule

    same = first.sheet.board == twin.sheet.board
    what = "the same drawing (one sheet given twice?)" if same else "different drawings (sheets of two games?)"
    game = f" of game {first.sheet.game}" if first.sheet.game else ""
    for result, other in ((first, twin), (twin, first)):
        why = (f"{first.sheet.source} and {twin.sheet.source} both claim player {first.sheet.player}{game}, with "
               f"{what}. Only the first counts for Traps and the standings: give each sheet once")
        result.review.insert(0, Entry("sheet", Rule.DUPLICATE_SHEET, why, source=other.sheet.source))


def score_dungeons(entries: list[dict]) -> list[dict]:
    """The ``dungeons`` entries of a scan (Dungeon Maker sheets) scored one by one
    (``games.heroes.score_entry``)."""
    if not entries:
        return []
    from games.heroes import score_entry
    from games.maker import load_maker

    return [score_entry(entry, load_maker()) for entry in entries]
