"""The end of a game: the results as CSV (a spreadsheet's rows) and as a picture to share (PNG)."""
from __future__ import annotations

import csv
import io
import json
import os

from fastapi import APIRouter
from fastapi.responses import Response

from scrawl.api.common import StoreDep, errors, game_or_404
from scrawl.scoring import dungeon_of, game_document

router = APIRouter(tags=["results"])


@router.get("/api/games/{gid}/results.csv", response_class=Response,
            responses={200: {"content": {"text/csv": {}}}, **errors(404)})
def results_csv(gid: str, store: StoreDep) -> Response:
    """The standings as CSV: place, player number, name, total, then each scoring item's points; a monster
    battle's result: each side's monsters, what it had left, and its chance to win."""
    game = game_or_404(store, gid)
    document = _with_result_or_404(store, game)
    rows = {"maker": maker_csv, "monster": battle_csv}.get(game["kind"], standings_csv)(document)
    return Response(rows, media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="results-{document["code"]}.csv"'})


@router.get("/api/games/{gid}/results.png", response_class=Response,
            responses={200: {"content": {"image/png": {}}}, **errors(404)})
def results_png(gid: str, store: StoreDep) -> Response:
    """The standings as a picture to share: the map, the game code, each player's place, name and total,
    the winners first (a monster battle: who won, and what each side had left)."""
    game = game_or_404(store, gid)
    document = _with_result_or_404(store, game)
    if game["kind"] == "monster":
        fight = document["battle"]
        headline = (f"{fight['winner']} wins in round {fight['rounds_played']}" if fight["winner"] is not None
                    else f"A draw after {fight['rounds_played']} rounds")
        picture = standings_png(battle_standings(document), "Monster battle", headline)
    elif game["kind"] == "maker":
        picture = standings_png(document, "Dungeon Maker", document["winner"]["line"])
    else:
        picture = standings_png(document, dungeon_of(json.dumps(game["map"], sort_keys=True)).name)
    return Response(picture, media_type="image/png",
                    headers={"Content-Disposition": f'inline; filename="results-{document["code"]}.png"',
                             "Cache-Control": "no-store"})


def _with_result_or_404(store, game: dict) -> dict:
    """The game's document (``game_document``); a monster battle's only once its battle is played."""
    from fastapi import HTTPException

    document = game_document(store, game)
    if game["kind"] == "monster" and not document["battle"]["ready"]:
        raise HTTPException(404, f"the battle is not played yet: {document['battle']['waiting']}")
    return document


def battle_csv(document: dict) -> str:
    """A played monster battle as CSV rows, one a side: its result, its chance to win over the trials the
    page shows, its monsters at the start and at the end (a battle sketches new ones from dice), its dice
    left, the rounds and the dice (seed)."""
    fight = document["battle"]
    chances = {side["name"]: side["percent"] for side in fight["odds"]["chances"]}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["player", "name", "result", "chance to win %", "monsters at the start", "monsters at the end",
                     "dice at the end", "rounds", "dice"])
    for roster in document["rosters"]:
        name = roster["name"]
        left = fight["left"].get(name, {})
        result = "draw" if fight["winner"] is None else "won" if fight["winner"] == name else "lost"
        writer.writerow([roster["player"], _cell(name), result, chances.get(name, ""), len(roster["monsters"]),
                         len(left.get("monsters", [])), len(left.get("active", [])) + len(left.get("reserve", [])),
                         fight["rounds_played"], fight["seed"]])
    return out.getvalue()


def battle_standings(document: dict) -> dict:
    """A played battle in ``standings_png``'s terms: the winner first (both first in a draw), each with the
    monsters it had left."""
    fight = document["battle"]
    rows = []
    for roster in document["rosters"]:
        count = len(fight["left"].get(roster["name"], {}).get("monsters", []))
        rows.append({"place": 1 if fight["winner"] in (None, roster["name"]) else 2, "player": roster["player"],
                     "name": roster["name"], "total": f"{count} monster{'' if count == 1 else 's'} left"})
    return {"code": document["code"], "players": document["players"],
            "scoreboard": sorted(rows, key=lambda row: row["place"])}


def standings_csv(document: dict) -> str:
    """``game_document``'s scoreboard as CSV rows, players without a sheet last with no place."""
    sheets = {sheet["id"]: sheet for sheet in document["sheets"]}
    labels = {}
    for sheet in document["sheets"]:
        for line in sheet["score"]["lines"]:
            labels.setdefault(line["item"], line["label"])
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    items = [f"{item} {label}" for item, label in sorted(labels.items())]
    writer.writerow(["place", "player", "name", "total"] + items)
    for row in document["scoreboard"]:
        points = {line["item"]: line["points"] for line in sheets[row["sheet"]]["score"]["lines"]}
        writer.writerow([row["place"], row["player"], _cell(row["name"]), row["total"]]
                        + [points.get(item, "") for item in sorted(labels)])
    seen = {row["player"] for row in document["scoreboard"]}
    for number, name in enumerate(document["players"], start=1):
        if number not in seen:
            writer.writerow(["", number, _cell(name), ""] + [""] * len(labels))
    return out.getvalue()


def maker_csv(document: dict) -> str:
    """A Dungeon Maker game's standings as CSV rows: place, player, name, total, whether it is final (and
    how the hero phase was had), then the Scoring chart's lines and the hero phase's points."""
    sheets = {sheet["id"]: sheet for sheet in document["sheets"]}
    chart = []
    for sheet in document["sheets"]:
        for line in sheet["score"]["lines"]:
            if line["what"] not in chart:
                chart.append(line["what"])
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["place", "player", "name", "total", "final", "heroes", "building"] + chart
                    + ["Souls", "Souls points", "dungeon HP lost", "dungeon HP points"])
    for row in document["scoreboard"]:
        sheet = sheets[row["sheet"]]
        heroes = sheet["heroes"]
        hero = heroes["final"] if heroes["state"] == "played" else sheet["score"]
        points = {line["what"]: line["points"] for line in sheet["score"]["lines"]}
        writer.writerow([row["place"], row["player"], _cell(row["name"]), row["total"],
                         "yes" if row["final"] else "no", heroes["state"].replace("_", " "), sheet["score"]["building"]]
                        + [points.get(what, "") for what in chart]
                        + [hero["souls"], hero["souls_points"], hero["hp_lost"], hero["hp_points"]])
    seen = {row["player"] for row in document["scoreboard"]}
    for number, name in enumerate(document["players"], start=1):
        if number not in seen:
            writer.writerow(["", number, _cell(name), "", "no sheet"] + [""] * (len(chart) + 6))
    return out.getvalue()


def _cell(text: str) -> str:
    """A name as a spreadsheet cell: never read as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


WIDTH, ROW, TOP = 800, 64, 200
INK, FAINT, GOLD, PAPER = (47, 36, 25), (120, 104, 86), (191, 140, 20), (243, 233, 210)


def standings_png(document: dict, title: str, headline: str | None = None) -> bytes:
    """The scoreboard drawn with Pillow: a title, who won (``headline``, else from the places), one row a
    player, the winners highlighted."""
    from PIL import Image, ImageDraw

    rows = document["scoreboard"]
    waiting = [name for number, name in enumerate(document["players"], start=1)
               if number not in {row["player"] for row in rows}]
    height = TOP + ROW * max(1, len(rows) + len(waiting)) + 60
    picture = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(picture)
    draw.text((40, 30), "Dungeon Scrawl", font=_font(44, bold=True), fill=INK)
    draw.text((40, 88), f"{title} \u00b7 game {document['code']}", font=_font(26), fill=FAINT)
    draw.text((40, 130), _short(headline, 44) if headline else winners_line(rows), font=_font(30, bold=True),
              fill=GOLD)
    y = TOP
    for row in rows:
        winner = row["place"] == 1
        if winner:
            draw.rounded_rectangle((24, y - 6, WIDTH - 24, y + ROW - 10), radius=10, fill=(250, 226, 160))
        draw.text((44, y + 6), str(row["place"]), font=_font(34, bold=True), fill=GOLD if winner else FAINT)
        draw.text((110, y + 6), _short(row["name"]), font=_font(34, bold=winner), fill=INK)
        draw.text((WIDTH - 44, y + 6), str(row["total"]), font=_font(34, bold=True), fill=INK, anchor="ra")
        y += ROW
    for name in waiting:
        draw.text((110, y + 6), _short(name), font=_font(30), fill=FAINT)
        draw.text((WIDTH - 44, y + 6), "no sheet", font=_font(26), fill=FAINT, anchor="ra")
        y += ROW
    buffer = io.BytesIO()
    picture.save(buffer, "PNG", optimize=True)
    return buffer.getvalue()


def winners_line(rows: list[dict]) -> str:
    """Who won, ties named together: "Ann wins with 11 points", "A tie: Ann and Bo, 11 points each"."""
    first = [row for row in rows if row["place"] == 1]
    if not first:
        return "No sheet is scored yet"
    points = f"{first[0]['total']} point{'' if abs(first[0]['total']) == 1 else 's'}"
    if len(first) == 1:
        return f"{_short(first[0]['name'])} wins with {points}"
    names = [_short(row["name"]) for row in first]
    return f"A tie: {', '.join(names[:-1])} and {names[-1]}, {points} each"


def _short(name: str, most: int = 22) -> str:
    return name if len(name) <= most else name[:most - 1] + "\u2026"


def _font(size: int, bold: bool = False):
    """reportlab's Vera (it comes with the PDF library), else Pillow's own font."""
    import reportlab
    from PIL import ImageFont

    path = os.path.join(os.path.dirname(reportlab.__file__), "fonts", "VeraBd.ttf" if bold else "Vera.ttf")
    try:
        return ImageFont.truetype(path, size)
    except OSError:
        return ImageFont.load_default(size)
