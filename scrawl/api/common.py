"""What the routers of the page's API share: the limits, the request bodies and their checks, the store
and the game, sheet or room a path names (404 when there is none), and the documented error answers."""
from __future__ import annotations

import json
import threading
from typing import Annotated, Optional

from fastapi import Depends, HTTPException, Request
from pydantic import BaseModel, Field, field_validator, model_validator

from scrawl.scoring import dungeon_of, room_options
from scrawl.store import Store

MAX_PHOTO = 25 * 1024 * 1024            # bytes; a phone's photo is 2-12 MB (scrawl.guard bounds the body)
MAX_GAME_BYTES = 300 * 1024 * 1024      # photos and sheet pictures a game keeps: about 60 phone photos
SCANS_AT_ONCE = 2                       # both cores; more would only make every phone wait longer
MAX_PLAYERS, MAX_NAME = 6, 24
MAX_SEED = 2 ** 53                      # the page's JavaScript numbers hold integers exactly up to here
PAPERS = ("a4", "letter")
TOO_LARGE = f"the photo is larger than {MAX_PHOTO // (1024 * 1024)} MB: send the phone's own photo, not a scan " \
            f"or a panorama"
NOT_AN_IMAGE = "not a photo: send a JPEG, PNG, WebP, HEIC or PDF of the sheet"


# -- request bodies ------------------------------------------------------------------------------------
class NewGame(BaseModel):
    players: list[str] = Field(description="The players' names, in the order of their sheets (Player 1 first).")
    kind: str = Field("map", description='"map": the dungeon map game (scored sheets); "monster": a monster battle '
                                         'between two players\' monster record sheets (the map is not used); '
                                         '"maker": a Dungeon Maker game, 2 to 6 players\' Dungeon Maker sheets.')
    map: str = Field("classic", description='"classic" or "random".')
    seed: Optional[int] = Field(None, ge=0, le=MAX_SEED, description="A random map's seed, or a Dungeon Maker "
                                "game's loot seed (of sheets printed with scrawl loot); left out, one is chosen.")
    paper: str = Field("a4", description='"a4" or "letter".')
    code: Optional[str] = Field(None, description="The game code printed on sheets made already (scrawl sheet "
                                                   "prints one, like K7QX); left out, the game gets a new one.")

    @field_validator("players")
    @classmethod
    def _names(cls, players: list[str]) -> list[str]:
        if not 1 <= len(players) <= MAX_PLAYERS:
            raise ValueError(f"a game has 1 to {MAX_PLAYERS} players, not {len(players)}")
        names = [" ".join(name.split()) for name in players]
        for number, name in enumerate(names, start=1):
            if not name:
                raise ValueError(f"player {number} has no name")
            if len(name) > MAX_NAME:
                raise ValueError(f"player {number}'s name is {len(name)} characters long; at most {MAX_NAME}")
            if not name.isprintable():
                raise ValueError(f"player {number}'s name has a character that cannot be shown")
        twice = sorted({name for name in names if [n.casefold() for n in names].count(name.casefold()) > 1})
        if twice:
            raise ValueError(f"two players are called {twice[0]}: give them names the scoreboard can tell apart")
        return names

    @field_validator("kind")
    @classmethod
    def _kind(cls, kind: str) -> str:
        if kind not in ("map", "monster", "maker"):
            raise ValueError(f"unknown kind of game {kind!r}: choose map (the dungeon map game), monster "
                             f"(a monster battle) or maker (Dungeon Maker)")
        return kind

    @model_validator(mode="after")
    def _two_for_a_battle(self) -> "NewGame":
        if self.kind == "monster" and len(self.players) != 2:
            raise ValueError(f"a monster battle is between two players, not {len(self.players)}: give two names")
        if self.kind == "maker" and len(self.players) < 2:
            raise ValueError("a Dungeon Maker game has 2 to 6 players: give at least two names")
        return self

    @field_validator("map")
    @classmethod
    def _map(cls, name: str) -> str:
        return valid_map(name)

    @field_validator("paper")
    @classmethod
    def _paper(cls, paper: str) -> str:
        return valid_paper(paper)

    @field_validator("code")
    @classmethod
    def _code(cls, code: Optional[str]) -> Optional[str]:
        from sheets.page import game_code

        return game_code(code) if code is not None and code.strip() else None


def valid_map(name: str) -> str:
    """A map a game may be played on: a designed map's id, or random. Raises ``ValueError`` (never a path:
    ``choose_map`` would also read a map file)."""
    from games.mapfile import DESIGNED_MAPS

    if name not in DESIGNED_MAPS + ("random",):
        raise ValueError(f"unknown map {name!r}: choose {', '.join(DESIGNED_MAPS)} or random")
    return name


def valid_paper(paper: str) -> str:
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}: choose a4 or letter")
    return paper


class RoomReadingBody(BaseModel):
    reading: str = Field(description='The sides the segment links to, like "NS" (any case or order); "X" for a '
                                     'Trap; "" for nothing drawn. One of the room\'s options.')


class RoundBody(BaseModel):
    round: Optional[int] = Field(ge=1, le=7, description="The round number written in the room, 1-7; null for none.")


class MarkBody(BaseModel):
    marked: bool = Field(description="Whether the mark is made: a Diamond or Emerald crossed out, a Curse Track "
                                     "half filled, a Rune Gate filled in.")


class RollsBody(BaseModel):
    rolls: list[Annotated[int, Field(ge=1, le=6)]] = Field(max_length=7, description="The die's numbers, one a "
                                                                                     "round, in round order.")


class PartBody(BaseModel):
    die: Optional[str] = Field(description='The die as "dN colour", like "d8 red"; null: nothing is marked on '
                                           'this row (the part, or the whole monster for a core, is not there).')
    type: Optional[str] = Field(None, description="A part's type: weapon, shield, combo or nullifier (null for "
                                                  "the core).")
    damage: int = Field(0, ge=0, le=20, description="The life boxes crossed off.")


class PoolBody(BaseModel):
    dice: list[str] = Field(max_length=72, description='The dice in the pool, each "dN colour".')


class SeedBody(BaseModel):
    seed: Optional[int] = Field(None, ge=0, le=MAX_SEED, description="The battle's dice; left out, new ones.")


class TileBody(BaseModel):
    path: str = Field("", max_length=8, description='The sides the tile\'s path (or bridge) links, like "NS" (any '
                                                     'case or order); "" for no path.')
    bridge: bool = Field(False, description="The path is a Bridge path (over an Acid Pond).")
    acid: bool = Field(False, description="An Acid Pond is on the tile.")
    room: Optional[str] = Field(None, max_length=40, description='A monster room filling the tile: "slime", '
                                                                 '"skeleton" or "ghost"; null for none.')
    on: Optional[str] = Field(None, max_length=40, description='What is built on the path: "gate", "spikes", '
                                                               '"giant-bat", "boss-slime" or "golem"; null for none.')


class PlaceBody(BaseModel):
    at: Optional[str] = Field(None, max_length=12, description='The entrance as TILE:SIDE ("A1:N"), or the stairs\' '
                                                              'tile ("C4"); null: there is none.')


class RecordBody(BaseModel):
    gems: Optional[int] = Field(None, ge=0, le=40, description="Gems ticked under Loot.")
    potions: Optional[int] = Field(None, ge=0, le=40, description="Potions ticked under Loot.")
    rounds: Optional[int] = Field(None, ge=0, le=40, description="Rounds crossed off.")
    souls: Optional[int] = Field(None, ge=0, le=40, description="Souls ticked (heroes who died).")
    hearts: Optional[int] = Field(None, ge=0, le=40, description="Dungeon HP hearts crossed (heroes who escaped).")
    spells_got: Optional[list[str]] = Field(None, max_length=12, description="The spells circled (got), by id.")
    spells_cast: Optional[list[str]] = Field(None, max_length=12, description="The spells whose cast box is ticked.")


class TallyBody(BaseModel):
    count: int = Field(ge=0, le=40, description="The tally beside scoring item 6 (unusable cards).")


# -- what a path names -----------------------------------------------------------------------------------
def store_of(request: Request) -> Store:
    """The app's store of games (``create_app`` puts it in the app's state)."""
    return request.app.state.store


def scans_of(request: Request) -> threading.BoundedSemaphore:
    """How many photos may be read at once (``SCANS_AT_ONCE``), shared by the app's requests."""
    return request.app.state.scans


StoreDep = Annotated[Store, Depends(store_of)]


def game_or_404(store: Store, gid: str) -> dict:
    game = store.game(gid)
    if game is None:
        raise HTTPException(404, "no such game")
    return game


_CORRECT_INSTEAD = {"map": "this is a dungeon map sheet: correct its rooms instead",
                    "monster": "this is a monster record sheet: correct its part rows and pools instead",
                    "maker": "this is a Dungeon Maker sheet: correct its tiles, entrance, stairs and record instead"}


def stored_kind(sheet: dict) -> str:
    """The kind of sheet a stored sheet is: ``map``, ``monster`` (a roster) or ``maker`` (a dungeon)."""
    return "monster" if "roster" in sheet else "maker" if "dungeon" in sheet else "map"


def sheet_or_404(store: Store, gid: str, sid: str, kind: str = "map") -> tuple[dict, dict]:
    """The game and its sheet ``sid``, a sheet of ``kind`` (a dungeon map sheet, a monster record sheet or a
    Dungeon Maker sheet)."""
    game = game_or_404(store, gid)
    for sheet in store.sheets(gid):
        if sheet["id"] == sid:
            if stored_kind(sheet["sheet"]) != kind:
                raise HTTPException(404, _CORRECT_INSTEAD[stored_kind(sheet["sheet"])])
            return game, sheet
    raise HTTPException(404, "no such sheet")


def room_or_404(sheet: dict, room_name: str) -> tuple[str, list[str]]:
    from games.maps import Room

    dungeon = dungeon_of(json.dumps(sheet["sheet"]["map"], sort_keys=True))
    try:
        room = Room.parse(room_name)
    except ValueError:
        room = None
    if room is None or not dungeon.contains(room):
        raise HTTPException(404, f"no room {room_name} on this sheet's map")
    return room.name, room_options(dungeon, room)


# -- the documented error answers ---------------------------------------------------------------------------
_STATUS_WORDS = {400: "A reading that cannot be drawn there", 404: "No such game, sheet, photo or room",
                 403: "Another phone's photo: only that phone or the host may take it out",
                 409: "Every round is rolled already",
                 413: "The photo is over 25 MB, or the game keeps as many photos as it may", 415: "Not an image", 422: "Invalid input, or a photo that cannot be read"}


def errors(*codes: int) -> dict:
    """OpenAPI documentation of the error answers a route gives."""
    return {code: {"description": _STATUS_WORDS[code], "content": {"application/json": {
        "example": {"detail": "one line a person can act on"}}}} for code in codes}
