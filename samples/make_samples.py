"""Rebuild the samples: sheet PDFs and the PNG pictures the README shows, and a game to score.

    python samples/make_samples.py
"""
from __future__ import annotations

import json
from pathlib import Path

import pypdfium2 as pdfium

from games.cards import load_deck
from games.deal import deal
from games.mapfile import load_map, map_reference
from games.player import play
from games.randommap import random_map
from generator.deck import render_deck
from sheets.dungeon import sheet_layout
from generator.sheet import render_sheets

HERE = Path(__file__).resolve().parent
PICTURE_DPI = 110
SAMPLE_GAME = "K7QX"        # the game code printed on the sample sheets ('scrawl sheet' picks a new one each time)


def make(name: str, dungeon, paper: str, players: int) -> None:
    layout = sheet_layout(dungeon, paper)
    pdf_path = HERE / f"{name}.pdf"
    render_sheets(layout, players, pdf_path, SAMPLE_GAME)
    pdf_path.with_suffix(".layout.json").write_text(json.dumps(layout.to_json(players, SAMPLE_GAME), indent=1) + "\n")
    page = pdfium.PdfDocument(pdf_path)[0]
    image = page.render(scale=PICTURE_DPI / 72).to_pil().convert("RGB")
    image.quantize(colors=64).save(HERE / f"{name}.png", optimize=True)
    print(f"wrote {pdf_path.name} and {name}.png")


def make_deck_picture(name: str, deck_name: str, pages: tuple[int, ...]) -> None:
    """Pages of a printed deck side by side, as one PNG for the README (the PDF itself is not kept)."""
    from PIL import Image

    pdf_path = HERE / f"{name}.tmp.pdf"
    render_deck(load_deck(deck_name), pdf_path, paper="a4", backs="duplex")
    document = pdfium.PdfDocument(pdf_path)
    images = [document[i].render(scale=PICTURE_DPI / 2 / 72).to_pil().convert("RGB") for i in pages]
    document.close()
    pdf_path.unlink()
    gap = 12
    sheet = Image.new("RGB", (sum(im.width for im in images) + gap * (len(images) - 1), images[0].height), "white")
    for i, image in enumerate(images):
        sheet.paste(image, (i * (image.width + gap), 0))
    sheet.quantize(colors=64).save(HERE / f"{name}.png", optimize=True)
    print(f"wrote {name}.png")


def make_loot_sheet(name: str, seed: int, paper: str) -> None:
    """A Dungeon Maker sheet and its picture for the README."""
    from games.maker import roll_loot
    from sheets.maker import layouts_json, maker_layout
    from generator.maker_sheet import render_maker_sheets

    layouts = [maker_layout(roll_loot(seed, 1), paper)]
    pdf_path = HERE / f"{name}.pdf"
    render_maker_sheets(layouts, pdf_path)
    pdf_path.with_suffix(".layout.json").write_text(json.dumps(layouts_json(layouts), indent=1) + "\n")
    page = pdfium.PdfDocument(pdf_path)[0]
    page.render(scale=PICTURE_DPI / 72).to_pil().convert("RGB").quantize(colors=64).save(HERE / f"{name}.png",
                                                                                         optimize=True)
    print(f"wrote {pdf_path.name} and {name}.png")


def make_game(name: str, dungeon, seed: int, players: list[str]) -> None:
    """Sheets of one game played by the random legal player, as a person would type them in (no scores)."""
    game = deal(load_deck("doodles"), seed)
    sheets = []
    for number, who in enumerate(players, start=1):
        board = play(dungeon, game, seed * 10 + number)
        sheets.append({"source": who, "map": map_reference(dungeon), "player": number,
                       "rooms": board.rooms_json(), "unusable": board.unusable})
    document = {"format": "scrawl.scan/1", "sheets": sheets, "errors": []}
    (HERE / f"{name}.json").write_text(json.dumps(document, indent=1) + "\n")
    print(f"wrote {name}.json (deal seed {seed})")


def make_photos(seed: int, difficulty: str, players: int, megapixels: float, map_id: str = "classic") -> None:
    """Phone photos of one played game from the synthetic photographer, and what a careful person reads
    on them: ``photos/game-SEED[-MAP]-DIFFICULTY.expected.json`` (the scan document, scored; on an
    expansion map with the marks and the game's rolls)."""
    from photographer import make_game_shots, write_shots

    from games.state import game_json, read_game, score_game

    folder = HERE / "photos"
    shots = make_game_shots(seed, players=players, map_id=map_id, difficulty=difficulty, megapixels=megapixels)
    paths = write_shots(shots, folder)
    for path in folder.glob(f"game{seed}-*.truth.json"):
        path.unlink()                   # the expected document below holds the truth of all of them
    for path in folder.glob(f"game{seed}-*.heic"):
        from PIL import Image

        Image.open(path).save(path, quality=60)     # a quarter of the size, and it still reads the same
    sheets = []
    for shot, path in zip(shots, paths):
        truth = {k: v for k, v in shot.truth.items() if k in ("map", "player", "rooms", "unusable", "marks")}
        sheets.append({"source": f"samples/photos/{path.name}", **truth})
    rolls = shots[0].truth.get("rolls")
    document = {"format": "scrawl.scan/1", "sheets": sheets, **({"rolls": rolls} if rolls else {})}
    results = score_game(read_game(document, "truth")[0])
    document = game_json(results, [])
    if rolls:
        document["rolls"] = rolls
    name = f"game-{seed}-{'' if map_id == 'classic' else map_id + '-'}{difficulty}.expected.json"
    (folder / name).write_text(json.dumps(document, indent=1) + "\n")
    print(f"wrote {len(paths)} photos and photos/{name}: " +
          ", ".join(f"{r.sheet.source.rsplit('/', 1)[-1]} {r.score.total}" for r in results))


CONDITION_MAPS = ("classic", "random", "map5", "classic", "map6", "random", "classic", "map2", "random",
                  "classic", "map5", "random")


def make_condition_photos(first_seed: int = 900) -> None:
    """One solo sheet photographed in each of the photographer's named conditions (``condition-NAME.jpg``),
    and ``photos/conditions.expected.json``: the scan document of their truth, scored, each sheet with its
    ``condition`` and the rooms the condition ``hidden`` (which the scanner must name, not read). A JPEG
    of about 3 megapixels each; seeds are tried from ``first_seed`` up until the photo is a JPEG (a phone
    in a condition may save PNG, WebP or HEIC, too large to keep here)."""
    from photographer import CONDITIONS, make_game_shots

    from games.state import game_json, read_game, score_game

    folder = HERE / "photos"
    sheets, extra = [], []
    for index, condition in enumerate(CONDITIONS):
        seed = first_seed + 100 * index
        while True:
            shot, = make_game_shots(seed, players=1, map_id=CONDITION_MAPS[index],
                                    paper="letter" if index % 4 == 3 else "a4", condition=condition,
                                    megapixels=3.0)
            if shot.suffix == ".jpg":
                break
            seed += 1
        path = folder / f"condition-{condition}.jpg"
        path.write_bytes(shot.data)
        truth = {k: v for k, v in shot.truth.items() if k in ("map", "player", "rooms", "unusable", "marks")}
        sheets.append({"source": f"samples/photos/{path.name}", **truth})
        extra.append({"condition": condition, "seed": seed, "hidden": shot.truth["hidden"],
                      **({"rolls": shot.truth["rolls"]} if "rolls" in shot.truth else {})})
    scored = []
    for sheet, more in zip(sheets, extra):
        rolls = more.get("rolls")
        document = {"format": "scrawl.scan/1", "sheets": [sheet], **({"rolls": rolls} if rolls else {})}
        result, = game_json(score_game(read_game(document, "truth")[0]), [])["sheets"]
        scored.append({**result, **more})
    (folder / "conditions.expected.json").write_text(json.dumps({"format": "scrawl.scan/1", "sheets": scored},
                                                                indent=1) + "\n")
    print("wrote photos/condition-*.jpg and photos/conditions.expected.json: " +
          ", ".join(f"{more['condition']} (seed {more['seed']})" for more in extra))


def make_maker_photo(seed: int, megapixels: float = 4.0) -> None:
    """A phone photo of a finished Dungeon Maker sheet from the synthetic photographer (loot seed ``seed``,
    player 1, a medium camera), ``photos/maker-SEED.expected.json`` (its dungeon, record and final score as
    built and played), and the overlay picture ``scrawl scan --overlay`` draws of it, for the README."""
    from photographer import make_maker_shots

    shot = make_maker_shots(seed, players=1, megapixels=megapixels, code=SAMPLE_GAME)[0]
    path = HERE / "photos" / f"maker-{seed}{shot.suffix}"
    path.write_bytes(shot.data)
    truth = shot.truth
    expected = {"source": f"samples/photos/{path.name}", "dungeon": truth["dungeon"],
                "record": {key: truth[key] for key in ("gems", "potions", "spells_got", "spells_cast", "rounds",
                                                       "souls", "hearts")},
                "score": truth["score"]}
    (HERE / "photos" / f"maker-{seed}.expected.json").write_text(json.dumps(expected, indent=1) + "\n")
    print(f"wrote photos/{path.name} and photos/maker-{seed}.expected.json")
    make_overlay_picture("scan-overlay-maker", [f"samples/photos/{path.name}"])


def make_overlay_picture(name: str, photos: list[str]) -> None:
    """What ``scrawl scan --overlay`` draws for the first of ``photos`` (scanned together), for the README."""
    import tempfile

    from PIL import Image

    from scrawl.cli import main

    import contextlib
    import io

    with tempfile.TemporaryDirectory() as folder, contextlib.redirect_stdout(io.StringIO()):
        main(["scan", *photos, "--overlay", folder, "--json"])
        picture = Image.open(Path(folder) / f"{Path(photos[0]).stem}.overlay.png").convert("RGB")
        picture = picture.resize((picture.width * 3 // 4, picture.height * 3 // 4), Image.LANCZOS)
        picture.quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(HERE / f"{name}.png", optimize=True)
    print(f"wrote {name}.png")


if __name__ == "__main__":
    make("sheet-classic-a4", load_map("classic"), "a4", 1)
    make("sheet-random-1234-letter", random_map(1234), "letter", 1)
    make("sheet-map6-a4", load_map("map6"), "a4", 1)
    make("sheet-map3-letter", load_map("map3"), "letter", 1)
    make_game("game-classic-3p", load_map("classic"), 2026, ["anna", "bo", "chidi"])
    make_deck_picture("deck-pages-a4", "doodles", (4, 6, 7))
    make_deck_picture("deck-traps-a4", "traps", (0,))
    make_loot_sheet("loot-1234-a4", 1234, "a4")
    make_photos(7, "medium", 3, 4.0)
    make_photos(8, "hard", 2, 4.0)
    make_photos(17, "medium", 2, 4.0, map_id="map6")
    make_condition_photos()
    make_overlay_picture("scan-overlay-game7", sorted(f"samples/photos/{p.name}"
                                                      for p in (HERE / "photos").glob("game7-*[!n]")))
    # photos/maker-21.jpg is kept as made by an earlier release (a design 2 sheet, which still scans): not remade.
    make_maker_photo(22)
