"""What the sheets of one game tell about each other's readings, and what each doubt would change.

Every player of a game draws the same cards, and Traps hit between sheets, so a
doubt on one sheet may change another's score, and a sheet may answer, or
contradict, another's reading. ``flag_shared_doubts`` adds to each sheet's
review list what the game's other sheets say (and takes out what they answer);
``weigh_review`` says of each entry what the other reading would score, and
orders each list by it. Both work on scored sheets (``games.state.SheetResult``)
whose review entries came from the scanner (``scanner.scan``); ``games.game``
calls them when it scores a scanned game.
"""
from __future__ import annotations

from games.maps import SIDES
from games.review import READING_DOUBTS, Entry, Rule


def flag_shared_doubts(results, errors: list[dict]) -> None:
    """Add to each sheet's review what other sheets' doubts could change in its score.

    Traps are resolved between sheets, so a room of one sheet whose reading
    may hide a Trap, or show one that is not there (``_may_hide_trap``), may
    change the score of every other sheet with a drawing in that room; and a
    photo that could not be read hides its traps from everyone.
    """
    _drop_refuted_doubts(results)
    _flag_broken_links(results)
    _late_numbers(results)
    _flag_card_counts(results)
    sure = [_sure_traps(result) for result in results]
    most_traps = _most_traps(results, sure)
    _flag_trap_counts(results, sure)
    for index, result in enumerate(results):
        doubted = sorted({(entry.where, room) for entry in result.review
                          if entry.rule not in _OWN_SHEET_ONLY and (room := _room(entry.where)) is not None
                          and _may_hide_trap(result, room)})
        for room_name, room in doubted:
            if not result.sheet.board.at(room).trap and len(sure[index]) >= most_traps[result.sheet.dungeon]:
                continue        # every Trap this sheet can hold is drawn elsewhere, surely: none hides here
            for other_index, other in enumerate(results):
                if other_index != index and other.sheet.dungeon == result.sheet.dungeon \
                        and not other.sheet.board.at(room).empty:
                    other.review.append(Entry(room_name, Rule.OTHER_SHEET_UNSURE,
                                              f"{result.sheet.label} needs a look at {room_name}; a Trap there "
                                              f"would change this sheet's score", source=result.sheet.source))
    if errors:
        missing = ", ".join(sorted({entry.get("source", "?") for entry in errors}))
        for result in results:
            result.review.append(Entry("game", Rule.SHEET_MISSING,
                                       f"not read: {missing}; Traps on a sheet not read are not counted"))


_OTHER_SHEETS = (Rule.OTHER_SHEET_UNSURE, Rule.SHEET_MISSING, Rule.MIXED_MAPS)

# Doubts that cannot change another sheet's score: a Diamond's or Emerald's cross-out is read on its own
# sheet only (no Trap is ever drawn in a room with a printed item), and so are the rules about such marks.
_OWN_SHEET_ONLY = (Rule.OTHER_SHEET_UNSURE, Rule.UNSURE_MARK, Rule.MARKS_DIFFER, Rule.DIAMOND_ROLL, Rule.EMERALD_MARK,
                   Rule.UNKNOWN_MARK, Rule.CURSE_ORDER, Rule.CURSE_ROLL)


def _flag_broken_links(results) -> None:
    """A segment that links to nothing (``games.rules`` says so of each of its rooms) is often a stroke
    misread in the room next to it: where the segment's path leads through a passage to a drawn room that
    does not meet it, and that room is not already in the list, the list asks about the side there (not
    from a room the photo does not show: what was read there is not a path to go by). (The
    random legal player's sheets, like a person's, never leave a segment unlinked, so on a scanned sheet
    it is a misreading, on one side of the passage or the other.) So too for a segment joined to the path only
    through segments of later rounds, where meeting the room there would join it in time: besides a round
    number misread (``_late_numbers``), a stroke missed in the room across (seed 865, a folded sheet under
    ``--degrade motion`` and ``haze``: C6's path led into B6, whose stroke to it was lost, and only C6's
    round number was asked about)."""
    from games.board import Board, Drawing
    from games.maps import OPPOSITE
    from games.rules import SIDE_WORDS, late_segments, reached

    for result in results:
        dungeon, board = result.sheet.dungeon, result.sheet.board
        unlinked = {_room(problem.where) for problem in result.problems if problem.rule == Rule.UNLINKED}
        if not unlinked:
            continue
        linked = reached(dungeon, board, lambda drawing: True)
        named = {_room(entry.where) for entry in result.review}
        unseen = {_room(entry.where) for entry in result.review if entry.rule == Rule.CANNOT_SEE}
        for room in sorted(unlinked - unseen - {None}):
            for side in board.at(room).exits:
                other = room.neighbour(side)
                there = board.at(other)
                if other in named or not there.entered or OPPOSITE[side] in there.exits \
                        or not dungeon.contains(other) or dungeon.side_kind(room, side) != "passage":
                    continue
                exits = "".join(s for s in SIDES if s in there.exits or s == OPPOSITE[side])
                if room in linked:      # a late segment: asked only where meeting it there joins it in time
                    met = Board({**board.drawings, other: Drawing.segment(exits, there.round)}, board.unusable,
                                board.marks)
                    if room in late_segments(dungeon, met):
                        continue
                named.add(other)
                result.review.append(Entry(other.name, Rule.UNSURE_LINK,
                                           f"the path of {room.name} leads to this room's {SIDE_WORDS[OPPOSITE[side]]} "
                                           f"side, but no stroke here was read to meet it: is there one?",
                                           alternative={"exits": exits, "trap": False}))


def _late_numbers(results) -> None:
    """Segments said to join the path only through segments of later rounds (``games.rules``) are, on a
    scanned sheet, most often one round number misread (a 1 and a 7 alike in a hurried hand, a 7 whose bar
    a pencil left faint). Where exactly one room's number, were it unread, leaves no segment late, the
    entries about each late segment become one about that number, in that room: where to look. A lone late
    segment joined to the path through one room says which."""
    from dataclasses import replace

    from games.board import Board
    from games.rules import late_segments, reached

    for result in results:
        if not any(problem.rule == Rule.UNLINKED for problem in result.problems):
            continue        # the rules found no segment late (most sheets): nothing to work out again
        dungeon, board = result.sheet.dungeon, result.sheet.board
        linked = reached(dungeon, board, lambda drawing: True)
        late = {room: when for room, when in late_segments(dungeon, board).items() if room in linked}
        if not late:
            continue
        explains = []
        for room, drawing in board:
            if drawing.entered and drawing.round is not None and dungeon.contains(room):
                unread = Board({**board.drawings, room: replace(drawing, round=None)}, board.unusable, board.marks)
                if not any(other in linked for other in late_segments(dungeon, unread)):
                    explains.append(room)
        entry = _late_entry(board, late, explains)
        if entry is None:
            continue
        told = {(problem.where, problem.why) for problem in result.problems
                if problem.rule == Rule.UNLINKED and _room(problem.where) in late}
        result.review = [old for old in result.review if (old.where, old.why) not in told] + [entry]


def _late_entry(board, late: dict, explains: list):
    """The one entry about the late segments (``late``: room -> its round), given the rooms whose number,
    unread, leaves none late (``explains``); None where no one number is to blame."""
    if len(late) == 1 and len(explains) == 2 and set(late) < set(explains):
        # One late segment, and one room it joins the path through: either number may be misread.
        (room, when), = late.items()
        through = next(other for other in explains if other != room)
        return Entry(room.name, Rule.UNLINKED, (
            f"drawn in round {when}, but it joins the path only through {through.name}, whose round number "
            f"is read as {board.at(through).round}: is one of the two numbers misread?"))
    if len(explains) != 1:
        return None
    room = explains[0]
    number = board.at(room).round
    others = sorted(set(late) - {room})
    if not others:
        return Entry(room.name, Rule.UNLINKED, (
            f"the round number here is read as {number}: is it {number}? Drawn in round {number}, the "
            f"segment would join the path only through segments of later rounds"))
    rounds = sorted({late[other] for other in others})
    return Entry(room.name, Rule.UNLINKED, (
        f"the round number here is read as {number}: is it {number}? Drawn in round {number}, it would be "
        f"the only way to the path for {', '.join(other.name for other in others)}, drawn in "
        f"round{'s' if len(rounds) > 1 else ''} {', '.join(map(str, rounds))}"))


def _sure_traps(result) -> set:
    """The rooms of a sheet read as a Trap with no doubt that could be wrong about it."""
    return {room for room in result.sheet.board.trap_rooms() if not _may_hide_trap(result, room)}


def _most_traps(results, sure: list[set]) -> dict:
    """Per map, the most Traps each of its sheets can hold. Every player draws every Trap card revealed, so
    all sheets of a game hold the same number of Traps: no more than the deck's Trap cards, nor than any
    sheet's sure Traps (``sure``, per sheet) and rooms that may hide one. Where the sheets disagree (one
    shows more Traps surely than another can hold: sheets of two games, or a Trap missed or made up), only
    the deck bounds them."""
    from games.rules import TRAP_CARDS

    shown: dict = {}
    could: dict = {}
    for result, known in zip(results, sure):
        dungeon = result.sheet.dungeon
        shown[dungeon] = max(shown.get(dungeon, 0), len(known))
        could[dungeon] = min(could.get(dungeon, TRAP_CARDS), _most_held(result, known))
    return {dungeon: most if shown[dungeon] <= most else TRAP_CARDS for dungeon, most in could.items()}


def _most_held(result, known: set) -> int:
    """The most Traps one sheet may hold: its sure Traps (``known``) and each room its review doubts that may
    hide one, or show one that is there."""
    doubtful = {_room(entry.where) for entry in result.review} - {None} - known
    return len(known) + sum(_may_hide_trap(result, room) for room in doubtful)


def _flag_trap_counts(results, sure: list[set]) -> None:
    """Where the sheets of one map show different numbers of sure Traps (``sure``, per sheet), though every
    player draws every Trap card, a Trap was read as something else on one of them (perhaps in a room not
    in doubt), or a mark as a Trap, or a player missed one: every sheet of that map is told, as the Traps
    resolved between them, and so their scores, may be wrong. Not where the rooms already asked about
    account for the difference (one number of Traps lies between each sheet's sure Traps and the most it
    may hold, ``_most_held``): those rooms are named, on their own sheet and, when a Trap there would change
    another sheet's score, on that one too."""
    for dungeon in {result.sheet.dungeon for result in results}:
        group = [(result, known) for result, known in zip(results, sure) if result.sheet.dungeon == dungeon]
        counts = [len(known) for _, known in group]
        if len(set(counts)) <= 1 or max(counts) <= min(_most_held(result, known) for result, known in group):
            continue
        shown = ", ".join(f"{result.sheet.label}: {count}" for (result, _), count in zip(group, counts))
        for result, _ in group:
            result.review.append(Entry("game", Rule.TRAP_COUNT,
                                       f"every player draws every Trap card, but the sheets show different numbers "
                                       f"of Traps read surely ({shown}): look for an X read as a path, or a path "
                                       f"read as an X"))


def _cards(board) -> tuple:
    """A sheet's segments by shape and its tally beside item 6: what two sheets of one game share when
    neither had to tally a card the other drew."""
    from games.rules import cards_drawn

    return cards_drawn(board), board.unusable


def _with_alternative(board, where: str, other: dict):
    """The board with a room (``where``) read another way (``other``: exits and trap), its round number
    kept."""
    from games.board import Board, Drawing

    room = _room(where)
    drawings = dict(board.drawings)
    kept = board.at(room).round
    if other.get("exits"):
        drawings[room] = Drawing.segment(other["exits"], kept)
    elif other.get("trap"):
        drawings[room] = Drawing.trap_x(kept)
    else:
        drawings.pop(room, None)
    return Board(drawings, board.unusable, board.marks)


def _drop_refuted_doubts(results) -> None:
    """Every player draws every card revealed, so two sheets of one game that show the same segments by
    shape and the same tally most likely show them right. On a sheet that matches another so, a doubt whose
    other reading would break the match is answered, and leaves the review list. Only where nothing else on
    the sheet looks wrong: a broken rule, the tally or a hidden room may hide a second misreading that
    makes up for the first; and two doubts that together keep the match both stay."""
    cards = [_cards(result.sheet.board) for result in results]
    # A sheet answers another's doubts only when nothing on it but a room doubt looks wrong, and none of its
    # own doubts, read the other way, would change its cards: two sheets may be misread alike (a neighbour's
    # stroke run on, or a messy hand's corner cut across the room, read as a dead end on both), and then
    # match each other, each doubt answering the other's away.
    sure = [_cards_sure(result, cards[index]) for index, result in enumerate(results)]
    for index, result in enumerate(results):
        if not any(cards[other] == cards[index] and results[other].sheet.dungeon == result.sheet.dungeon
                   and sure[other] for other in range(len(results)) if other != index):
            continue
        doubts = _room_doubts(result)
        if doubts is None:
            continue
        board = result.sheet.board
        kept = set()
        for first, entry in enumerate(doubts):
            for second in doubts[first + 1:]:
                both = _with_alternative(_with_alternative(board, entry.where, entry.alternative), second.where,
                                         second.alternative)
                if entry.where != second.where and _cards(both) == cards[index]:
                    kept |= {id(entry), id(second)}
        refuted = [entry for entry in doubts if id(entry) not in kept
                   and _cards(_with_alternative(board, entry.where, entry.alternative)) != cards[index]]
        gone = {id(entry) for entry in refuted}
        result.review = [entry for entry in result.review if id(entry) not in gone]


def _cards_sure(result, cards: tuple) -> bool:
    """Whether a sheet's cards (``_cards``) stand whichever way its doubts are answered: every entry on it a
    room doubt whose other reading keeps them."""
    doubts = _room_doubts(result)
    return doubts is not None and all(_cards(_with_alternative(result.sheet.board, entry.where, entry.alternative))
                                      == cards for entry in doubts)


def _room_doubts(result) -> list | None:
    """A sheet's own review entries, when every one is a doubt about a room with another reading to try; None
    when any is not (a broken rule, the tally, a hidden room: it may hide a misreading of its own)."""
    own = [entry for entry in result.review if entry.rule not in _OTHER_SHEETS and entry.where != "game"]
    doubts = [entry for entry in own if entry.alternative is not None and _room(entry.where) is not None]
    return doubts if len(doubts) == len(own) else None


def _flag_card_counts(results) -> None:
    """Where a sheet cannot show the cards another sheet of the same map shows (``games.rules.same_cards``),
    one of them misreads a room, or a tally: a dead end read as a corner, a path missed, a ghost read as a
    stub. When one sheet disagrees with all the others, which agree among themselves, it alone is told;
    otherwise every sheet that disagrees. A disagreement that a room already named in either sheet's review
    explains (read some other way, it makes the two sheets agree) needs no new entry: the misreading is
    most likely there, and the entry about it is where to look."""
    from games.rules import same_cards

    for dungeon in {result.sheet.dungeon for result in results}:
        group = [result for result in results if result.sheet.dungeon == dungeon]
        for result in _odd_sheets(group):
            unexplained = [other for other in group if other is not result
                           and not same_cards(result.sheet.board, other.sheet.board)
                           and not _explained(result, other) and not _explained(other, result)]
            if unexplained:
                result.review.append(Entry("game", Rule.CARD_COUNT, _card_difference(result, unexplained)))


def _odd_sheets(group: list) -> list:
    """The sheets of one map that cannot show the cards some other sheet shows. When the most sheets that
    agree among themselves are one set alone, of two sheets or more (a sheet agreeing with another where a
    room it doubts, read its other way, makes it agree: that room's entry is where to look), only the
    sheets outside it: with four players, two read right are not both told because the other two are
    each misread. Otherwise every sheet that disagrees with another."""
    from itertools import combinations

    from games.rules import same_cards

    count = len(group)
    agree = {(a, b): same_cards(group[a].sheet.board, group[b].sheet.board)
             for a in range(count) for b in range(count) if a != b}
    odd = [a for a in range(count) if not all(agree[a, b] for b in range(count) if b != a)]
    if not odd:
        return []
    alike = {(a, b): agree[a, b] or _explained(group[a], group[b]) or _explained(group[b], group[a])
             for a, b in agree}
    for size in range(count, 1, -1):
        sets = [members for members in combinations(range(count), size)
                if all(alike[a, b] for a, b in combinations(members, 2))]
        if len(sets) == 1:
            return [group[a] for a in range(count) if a not in sets[0]]
        if sets:
            break       # as many sheets agree one way as another: no set is the likelier right
    return [group[a] for a in odd]


def _explained(result, other) -> bool:
    """Whether a room of ``result`` the scanner doubts, read its other way, makes it agree with ``other``:
    then the entry about that room is where to look. A sheet with a part hidden in its photo
    shows unknown cards: the entries about what is hidden say where to look."""
    from games.rules import same_cards

    if any(entry.rule == Rule.CANNOT_SEE for entry in result.review):
        return True         # a part of the photo could not be seen: what the sheet shows there is unknown
    board = result.sheet.board
    return any(same_cards(_with_alternative(board, entry.where, reading), other.sheet.board)
               for entry in result.review if entry.rule in READING_DOUBTS and _room(entry.where)
               for reading in ([entry.alternative] if entry.alternative is not None else _READINGS))


# Every reading a room can have, for a reading doubt (``games.review.READING_DOUBTS``) with no
# ``alternative``: nothing, a Trap, or a segment to any sides.
_READINGS = [{"exits": "", "trap": False}, {"exits": "", "trap": True}] + [
    {"exits": "".join(side for bit, side in enumerate(SIDES) if sides >> bit & 1), "trap": False}
    for sides in range(1, 16)]


def _card_difference(result, others: list) -> str:
    """What a person should look for on a sheet whose segments and tally cannot be the other sheets'."""
    from games.cards import SHAPE_NAMES

    mine, tally = _cards(result.sheet.board)
    said = (f"every player draws every card revealed, but this sheet cannot show the cards that "
            f"{', '.join(other.sheet.label for other in others)} show")
    alike = next((other for other in others if other.sheet.board.unusable == tally), None)
    if alike is None:
        return f"{said}, with their tally marks: look for a path, a dead end or a tally mark misread"

    def shapes(counter) -> str:
        return " and ".join(f"{count} {SHAPE_NAMES.get(shape, 'odd segment')}{'s' if count > 1 else ''}"
                            for shape, count in sorted(counter.items(), key=lambda item: str(item[0])))

    theirs = _cards(alike.sheet.board)[0]
    more, fewer = mine - theirs, theirs - mine
    seen = " and ".join(part for part in (f"{shapes(more)} more" if more else "",
                                          f"{shapes(fewer)} fewer" if fewer else "") if part)
    return f"{said}: it has {seen} than {alike.sheet.label}'s sheet, with as many tally marks. Look for a room misread so"


def _may_hide_trap(result, room) -> bool:
    """Whether the doubts about a room of one sheet could be wrong about a Trap there: the scanner marks
    such a doubt (``could_be_trap``: a Trap read unsurely, ink that may be an ``X`` read as something else,
    a room it could not see), and the rules about a Trap's room are about one. A doubt only about a
    path's sides changes that sheet's own score, never another's."""
    return any(entry.could_be_trap or entry.rule in _TRAP_RULES
               for entry in result.review if _room(entry.where) == room)


_TRAP_RULES = (Rule.TRAP_WITH_SEGMENT, Rule.TRAP_ON_ITEM, Rule.TOO_MANY_TRAPS)


def _room(where):
    """The room a needs_review entry points at, or None (the tally, the photo, the game)."""
    from games.maps import Room

    try:
        return Room.parse(where)
    except ValueError:
        return None


def weigh_review(results, rolls=None) -> None:
    """Say of each review entry what the other reading would score, and order each sheet's list by how
    much its entries could change the score: a new photo first where a third of the rooms are in doubt,
    then rooms the photo did not show (anything may be there), then the largest change, then what cannot
    be weighed (rules, the tally, the photo).

    A room entry with an ``alternative`` reading is scored with it (traps resolved again between the
    sheets, the game's ``rolls`` as given); an ``other_sheet_unsure`` entry with a Trap put in, or taken out of, the other sheet's room.
    The entry gains ``if_so`` (the sheet's total with the other reading) and its ``why`` says it.
    """
    from games.state import score_game

    if not results:
        return
    totals = [result.score.total for result in results]
    raws = [result.sheet.raw for result in results]
    sources = {raw.get("source"): index for index, raw in enumerate(raws)}

    def total_with(index: int, room: str, drawing: dict | None, of: int) -> int | None:
        changed = [dict(raw, rooms=dict(raw.get("rooms", {}))) for raw in raws]
        if drawing is None:
            changed[index]["rooms"].pop(room, None)
        else:
            changed[index]["rooms"][room] = {**changed[index]["rooms"].get(room, {"round": None}), **drawing}
        sheets, errors = _read(changed, rolls)
        return score_game(sheets)[of].score.total if len(sheets) == len(raws) and not errors else None

    for index, result in enumerate(results):
        for entry in result.review:
            room, if_so = entry.where, None
            if entry.alternative is not None and _room(room) is not None:
                other = entry.alternative
                drawing = other if other.get("exits") or other.get("trap") else None
                if_so = total_with(index, room, drawing, index)
                what = "a Trap" if other.get("trap") else f"a path to {other['exits']}" if other.get("exits") \
                    else "nothing drawn"
            elif entry.rule == Rule.OTHER_SHEET_UNSURE and (origin := sources.get(entry.source)) is not None:
                had = results[origin].sheet.raw.get("rooms", {}).get(room, {})
                if_so = total_with(origin, room, None if had.get("trap") else {"exits": "", "trap": True}, index)
                what = f"{'no' if had.get('trap') else 'a'} Trap on that sheet"
            if if_so is not None and if_so != totals[index]:
                entry.if_so = if_so
                entry.why += f" (if {what}: {if_so} points, not {totals[index]})"
        result.review.sort(key=lambda entry: _weight(entry, totals[index]))


def _weight(entry: Entry, total: int) -> tuple[int, int]:
    if entry.where == "photo" and entry.rule == Rule.UNSURE_READING:
        return -1, 0            # so many rooms in doubt that a new photo is suggested (``scanner.scan``): first
    if entry.rule == Rule.CANNOT_SEE:
        return 0, 0
    if entry.if_so is not None:
        return 1, -abs(entry.if_so - total)
    return 2, 0


def _read(raws: list[dict], rolls):
    from games.state import FORMAT, read_game

    return read_game({"format": FORMAT, "sheets": raws, **({"rolls": rolls} if rolls is not None else {})}, "scan")
