"""Rooms the camera could not see are named (cannot_see), never read as empty; a sheet whose QR code cannot
be read is read by its game's map."""
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from sheets.page import corner_markers, qr_rect
from generator.kinds import BLANKS
from photographer import make_game_shots
from scanner.batch import scan_bytes
from tests_support import run_cli


def _to_photo(truth: dict, paper: str = "a4"):
    """Paper millimetres -> photo pixels, from where the photographer put the corner markers."""
    paper_points, photo_points = [], []
    for marker in corner_markers(paper):
        r = marker.rect
        paper_points += [(r.x, r.y), (r.right, r.y), (r.right, r.bottom), (r.x, r.bottom)]
        photo_points += truth["photo"]["markers"][str(marker.id)]
    matrix, _ = cv2.findHomography(np.float32(paper_points), np.float32(photo_points))
    return lambda points: cv2.perspectiveTransform(np.float32(points).reshape(-1, 1, 2), matrix).reshape(-1, 2)


def _jpeg(image: np.ndarray) -> bytes:
    return cv2.imencode(".jpg", cv2.cvtColor(image, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()


@pytest.fixture(scope="module")
def shot():
    return make_game_shots(5, players=1, difficulty="easy", keep_photos=True)[0]


def _room_centre(shot, name: str) -> tuple[float, float]:
    from games.mapfile import load_map
    from sheets.dungeon import sheet_layout

    cell = next(c for c in sheet_layout(load_map("classic"), "a4").rooms if c.room.name == name)
    return cell.rect.x + cell.rect.w / 2, cell.rect.y + cell.rect.h / 2


def _review(data: bytes) -> tuple[dict, list[dict]]:
    outcome = scan_bytes(data, "photo.jpg", BLANKS)
    sheet, = outcome.sheets
    return sheet, sheet["needs_review"]


def _wrong_rooms(sheet: dict, truth: dict) -> set[str]:
    def key(rooms, name):
        drawn = rooms.get(name, {})
        return drawn.get("exits", ""), drawn.get("trap", False)
    return {name for name in set(sheet["rooms"]) | set(truth["rooms"])
            if key(sheet["rooms"], name) != key(truth["rooms"], name)}


def test_a_clear_photo_has_no_hidden_room(shot):
    sheet, review = _review(shot.data)
    assert not [entry for entry in review if entry["rule"] == "cannot_see"]
    assert _wrong_rooms(sheet, shot.truth) == set()


def test_a_phones_tone_mapping_lifting_the_paper_beside_heavy_lines_hides_no_room():
    """A phone's local tone mapping (``photographer.degrade``'s hdr) lifts the paper beside the walls and the
    strokes to white. That is not glare: the print and the strokes there are as clear as anywhere. This clear
    photo (an expansion map, 4 players' game, the third sheet) had seven rooms called unseen before, each
    beside a heavy line, though every room reads right."""
    from photographer.degrade import degrade_shot

    shot = degrade_shot(make_game_shots(85850000, players=4, condition="good", map_id="map1")[2], "hdr",
                        np.random.default_rng(0))
    sheet, review = _review(shot.data)
    assert [entry["where"] for entry in review if entry["rule"] == "cannot_see"] == []
    assert _wrong_rooms(sheet, shot.truth) == set()


def test_a_pen_lying_over_rooms_names_them_and_every_room_read_wrong(shot):
    to_photo = _to_photo(shot.truth)
    (x0, y0), (x1, y1) = _room_centre(shot, "D5"), _room_centre(shot, "F6")
    along = np.array([x1 - x0, y1 - y0]) / np.hypot(x1 - x0, y1 - y0)
    side = np.array([-along[1], along[0]]) * 4.0                # an 8 mm wide pen
    body = to_photo([(x0, y0) + side, (x1, y1) + side, (x1, y1) - side, (x0, y0) - side])
    photo = shot.photo.copy()
    cv2.fillPoly(photo, [np.int32(np.round(body))], (28, 36, 80), cv2.LINE_AA)
    sheet, review = _review(_jpeg(photo))
    hidden = {entry["where"] for entry in review if entry["rule"] == "cannot_see"}
    assert {"E6", "F6"} <= hidden
    assert _wrong_rooms(sheet, shot.truth) <= {entry["where"] for entry in review}
    assert all("look at" in entry["why"] for entry in review if entry["rule"] == "cannot_see")


def _band_over(shot, start: str, end: str, half_mm: float, opaque: bool) -> bytes:
    """The photo with a band ``2 * half_mm`` wide from room ``start``'s middle to ``end``'s, its edges soft
    over half a millimetre, at 70% of the paper's brightness: opaque (a pale pen: the print under it gone)
    or a shadow (the print under it darkened with the paper)."""
    to_photo = _to_photo(shot.truth)
    (x0, y0), (x1, y1) = _room_centre(shot, start), _room_centre(shot, end)
    along = np.array([x1 - x0, y1 - y0]) / np.hypot(x1 - x0, y1 - y0)
    side = np.array([-along[1], along[0]]) * half_mm
    body = to_photo([(x0, y0) + side, (x1, y1) + side, (x1, y1) - side, (x0, y0) - side])
    mask = np.zeros(shot.photo.shape[:2], np.float32)
    cv2.fillPoly(mask, [np.int32(np.round(body))], 1.0, cv2.LINE_AA)
    px_per_mm = float(np.linalg.norm(to_photo([(0, 0)])[0] - to_photo([(1, 0)])[0]))
    mask = cv2.GaussianBlur(mask, (0, 0), 0.5 * px_per_mm)[..., None]
    photo = shot.photo.astype(np.float32)
    paper = np.percentile(photo[mask[..., 0] > 0.5], 90, axis=0)
    covering = 0.7 * (paper if opaque else photo)
    return _jpeg(np.clip(photo * (1 - mask) + covering * mask, 0, 255).astype(np.uint8))


def test_a_pale_pen_names_the_rooms_it_lies_over_even_where_no_print_is_lost(shot):
    """A silver pen is as grey as a shadow; across plain paper no print is lost under it. Its shape, a long
    straight band 8 mm wide, says it lies on the sheet."""
    sheet, review = _review(_band_over(shot, "B2", "G3", 4.0, opaque=True))
    hidden = {entry["where"] for entry in review if entry["rule"] == "cannot_see"}
    assert {"B2", "C2", "F3", "G3"} <= hidden
    assert _wrong_rooms(sheet, shot.truth) <= {entry["where"] for entry in review}


def test_an_arms_shadow_as_grey_is_no_object(shot):
    """The same grey in a band as wide as an arm's shadow, the print seen through it: nothing lies there."""
    sheet, review = _review(_band_over(shot, "B2", "G3", 18.0, opaque=False))
    assert not [entry for entry in review if entry["rule"] == "cannot_see"]
    assert _wrong_rooms(sheet, shot.truth) == set()


def test_a_silver_pens_end_over_two_rooms_corners_names_them():
    """A photographed game (the pen condition): the far end of a silver pen lies across the corners of G5
    and H5. Its grey hides no print there, and its edge read as paths; before, neither room was named."""
    shot = make_game_shots(13160002, players=3, condition="pen", map_id="map5", paper="a4")[1]
    assert shot.truth["condition"]["colour"] == "silver"
    sheet, review = _review(shot.data)
    hidden = {entry["where"] for entry in review if entry["rule"] == "cannot_see"}
    assert {"G5", "H5"} <= hidden
    assert _wrong_rooms(sheet, shot.truth) <= {entry["where"] for entry in review}


def test_glare_washing_out_a_room_names_it(shot):
    to_photo = _to_photo(shot.truth)
    centre = to_photo([_room_centre(shot, "C3")])[0]
    radius = float(np.linalg.norm(to_photo([(0, 0)])[0] - to_photo([(14, 0)])[0]))
    rows, cols = np.mgrid[0:shot.photo.shape[0], 0:shot.photo.shape[1]]
    glare = np.clip(1.6 - np.hypot(cols - centre[0], rows - centre[1]) / radius, 0, 1)[..., None]
    photo = np.clip(shot.photo * (1 - glare) + 254 * glare, 0, 255).astype(np.uint8)
    sheet, review = _review(_jpeg(photo))
    assert "C3" in {entry["where"] for entry in review if entry["rule"] == "cannot_see"}
    assert _wrong_rooms(sheet, shot.truth) <= {entry["where"] for entry in review}


def test_glare_over_the_tally_box_names_it_and_says_what_was_read(shot):
    """The tally box is looked at like a room: washed out by glare, its count is not taken on trust."""
    from games.mapfile import load_map
    from sheets.dungeon import sheet_layout

    box = sheet_layout(load_map("classic"), "a4").unusable_tally
    to_photo = _to_photo(shot.truth)
    centre = to_photo([(box.x + box.w / 2, box.y + box.h / 2)])[0]
    radius = float(np.linalg.norm(to_photo([(0, 0)])[0] - to_photo([(14, 0)])[0]))
    rows, cols = np.mgrid[0:shot.photo.shape[0], 0:shot.photo.shape[1]]
    glare = np.clip(1.6 - np.hypot(cols - centre[0], rows - centre[1]) / radius, 0, 1)[..., None]
    sheet, review = _review(_jpeg(np.clip(shot.photo * (1 - glare) + 254 * glare, 0, 255).astype(np.uint8)))
    tally = [entry for entry in review if entry["where"] == "tally 6"]
    assert [entry["rule"] for entry in tally] == ["cannot_see"]
    assert f"(read as {sheet['unusable']})" in tally[0]["why"]
    assert not [entry for entry in _review(shot.data)[1] if entry["where"] == "tally 6"]


@pytest.fixture(scope="module")
def game_without_one_qr(tmp_path_factory):
    """The three photos of one game; the second sheet's QR code smudged beyond reading."""
    return _with_second_qr_smudged(make_game_shots(7, players=3, difficulty="easy", keep_photos=True),
                                   tmp_path_factory.mktemp("noqr"))


def _with_second_qr_smudged(shots, folder) -> tuple[list[str], list[dict]]:
    """The shots written to ``folder`` as JPEGs, player 2's QR code painted over; their paths and truths."""
    paths, truths = [], []
    for shot in shots:
        photo = shot.photo.copy()
        if shot.truth["player"] == 2:
            q = qr_rect("a4").grown(1.0)
            quad = _to_photo(shot.truth)([(q.x, q.y), (q.right, q.y), (q.right, q.bottom), (q.x, q.bottom)])
            cv2.fillPoly(photo, [np.int32(np.round(quad))], (150, 150, 150))
        path = folder / f"p{shot.truth['player']}.jpg"
        path.write_bytes(_jpeg(photo))
        paths.append(str(path))
        truths.append(shot.truth)
    return paths, truths


def test_a_sheet_without_a_readable_qr_code_is_read_by_its_games_map(capsys, game_without_one_qr):
    paths, truths = game_without_one_qr
    code, out, err = run_cli(capsys, "scan", *paths, "--json")
    document = json.loads(out)
    assert code == 1 and document["errors"] == []
    sheets = {Path(s["source"]).name: s for s in document["sheets"]}
    second = sheets["p2.jpg"]
    assert second["player"] == 2 and second["map"] == {"id": "classic", "seed": None}
    assert _wrong_rooms(second, truths[1]) == set()
    assert [entry["rule"] for entry in second["needs_review"] if entry["where"] == "photo"] == ["no_qr_code"]


def test_alone_it_needs_the_map_named(capsys, game_without_one_qr):
    paths, truths = game_without_one_qr
    code, out, err = run_cli(capsys, "scan", paths[1])
    assert code == 2 and "no readable QR code" in err and "--map" in err
    assert len(err.strip().splitlines()) == 1
    code, out, err = run_cli(capsys, "scan", paths[1], "--map", "classic", "--json")
    sheet, = json.loads(out)["sheets"]
    assert code == 1 and sheet["player"] == 1 and _wrong_rooms(sheet, truths[1]) == set()


def test_the_game_night_page_reads_it_by_the_games_map(tmp_path, game_without_one_qr):
    from fastapi.testclient import TestClient

    from scrawl.web import create_app

    paths, truths = game_without_one_qr
    with TestClient(create_app(tmp_path / "data")) as client:
        gid = client.post("/api/games", json={"players": ["Ann", "Bo", "Cy"]}).json()["id"]
        for path in (paths[0], paths[1]):
            answer = client.post(f"/api/games/{gid}/photos", files={"photo": (Path(path).name, Path(path).read_bytes(),
                                                                              "image/jpeg")})
            assert answer.status_code == 201
        sheets = {s["source"]: s for s in answer.json()["sheets"]}
    assert sheets["p2.jpg"]["player"] == 2 and _wrong_rooms(sheets["p2.jpg"], truths[1]) == set()
    assert "no_qr_code" in [entry["rule"] for entry in sheets["p2.jpg"]["needs_review"]]


def test_a_photo_that_shows_too_little_of_the_map_gives_no_score_and_says_what_to_do(shot):
    """Most of the map under a hand: a score from the little left would be a guess."""
    to_photo = _to_photo(shot.truth)
    (x0, y0), (x1, y1) = _room_centre(shot, "A1"), _room_centre(shot, "H6")
    hand = to_photo([(x0 - 12, y0 - 12), (x1 + 12, y0 - 12), (x1 + 12, y1 + 12), (x0 - 12, y1 + 12)])
    photo = shot.photo.copy()
    cv2.fillPoly(photo, [np.int32(np.round(hand))], (196, 146, 120), cv2.LINE_AA)
    outcome = scan_bytes(_jpeg(photo), "hand.jpg", BLANKS)
    assert outcome.sheets == []
    error, = [entry["error"] for entry in outcome.errors]
    assert "rooms cannot be seen clearly in this photo" in error and "take it again" in error
    assert "something lying on the sheet" in error and "hardly shows" not in error


def test_a_photo_too_dim_and_hazy_to_show_the_print_says_to_take_it_in_better_light(shot):
    """Haze over a dim photo (as a lens smeared with a thumb's grease in a dim room): the corner squares are found
    and the QR code is read, but the print of every room hardly shows. Not glare or a shadow here and there: the
    advice is better light and a clean lens, not moving the lamp."""
    from photographer.degrade import degrade

    rng = np.random.default_rng(1)
    photo = degrade(degrade(shot.photo, "haze:0.7", rng), "dark:0.45", rng)
    outcome = scan_bytes(_jpeg(photo), "hazy.jpg", BLANKS)
    assert outcome.sheets == []
    error, = [entry["error"] for entry in outcome.errors]
    assert "rooms cannot be seen clearly in this photo: the print hardly shows anywhere" in error
    assert "take it again in brighter, even light" in error


@pytest.mark.parametrize("args, line", [
    (["--map", "random"], "scrawl: error: scrawl scan --map random needs the seed printed on the sheet: add --seed N"),
    (["--map", "9"], "scrawl: error: unknown map '9': use --map classic, --map 1 to 6, --map random or --map FILE.toml")])
def test_a_map_that_cannot_be_used_is_one_line_and_exit_2(capsys, game_without_one_qr, args, line):
    paths, _ = game_without_one_qr
    code, out, err = run_cli(capsys, "scan", paths[1], *args)
    assert code == 2 and out == "" and err.strip() == line


def test_a_random_expansion_sheet_without_its_qr_code_is_read_by_its_games_map(tmp_path):
    """A random map with expansion features is named with a list of features: it must still serve as the
    game's map for a sheet whose QR code is smudged."""
    from scanner.batch import game_document, scan_files

    paths, truths = _with_second_qr_smudged(
        make_game_shots(12, players=2, map_id="random-expansion", difficulty="easy", keep_photos=True), tmp_path)
    document = game_document(scan_files(paths, BLANKS, rolls=truths[0]["rolls"]))
    assert document["errors"] == []
    second = next(sheet for sheet in document["sheets"] if sheet["source"] == paths[1])
    assert second["player"] == 2 and second["map"] == truths[1]["map"]
    assert _wrong_rooms(second, truths[1]) == set()


def test_a_silver_pen_and_its_shadow_over_a_dungeon_maker_sheet_name_the_tiles_under_it():
    """A silver pen across a Dungeon Maker sheet's grid, with the shadow beside it, is a grey band 17 mm wide:
    wider than a pen alone, so before no tile was named as hidden, and the pen's body read as ticks and
    paths (named only as odd readings). A band that long and that narrow is a pen."""
    from photographer import make_maker_shots

    shot = make_maker_shots(51001, players=1, paper="a4", condition="pen")[0]
    outcome = scan_bytes(shot.data, "maker.jpg", BLANKS)
    dungeon, = outcome.dungeons
    hidden = {entry["where"] for entry in dungeon["needs_review"] if entry["rule"] == "cannot_see"}
    assert set(shot.truth["hidden"]) <= hidden
    assert len(hidden) <= 14        # the tiles along the pen, not the whole grid


def test_a_pens_tip_over_the_end_of_a_life_track_names_the_track():
    """A black pen's tapered tip lies over the first two boxes of monster 2's core life track, and they read
    crossed (2 damage, none crossed). Finding the pen loses its tip (the median that finds it is 5 mm
    wide), so the track was named nowhere; a pen now reaches on past both ends of where it is found."""
    from photographer import make_monster_shots

    shot = make_monster_shots(3004, players=2, paper="a4", condition="pen", faults=0)[1]
    outcome = scan_bytes(shot.data, "monsters.jpg", BLANKS)
    roster, = outcome.rosters
    hidden = {entry["where"] for entry in roster["needs_review"] if entry["rule"] == "cannot_see"}
    assert "monster 2 core life" in hidden
    assert "monster 1 core life" not in hidden and "monster 3 core life" not in hidden


def test_glare_over_the_side_to_a_hidden_room_asks_about_the_link_through_it():
    """Glare washes out G2 (named) and reaches the side H2 shares with it, where H2's path runs through: the
    stroke was lost in the glare, H2 read ES for ESW, named nowhere. A side whose middle the photo does not
    show is asked about in the room that reads it unlinked."""
    shot = make_game_shots(22355001, players=3, condition="glare", map_id="random", paper="a4")[0]
    sheet, review = _review(shot.data)
    assert "G2" in {entry["where"] for entry in review if entry["rule"] == "cannot_see"}
    asked = {entry["where"]: entry["why"] for entry in review if entry["rule"] == "unsure_link"}
    assert "is there a stroke to the left side?" in asked.get("H2", "")
    assert _wrong_rooms(sheet, shot.truth) <= {entry["where"] for entry in review}


def test_glare_fading_a_souls_tick_asks_about_the_souls_boxes():
    """A lamp's glare over the Scoring panel, not bright enough to wash the paper out, fades the pink tick in
    the second Souls box to 1% inked: read 1 Soul for 2, named nowhere. Where glare brightens the paper a
    sixth over the paper around it, and over most of the page's, the counted boxes read empty are asked
    about."""
    from photographer import make_maker_shots

    shot = make_maker_shots(470505, players=1, paper="letter", condition="glare")[0]
    dungeon, = scan_bytes(shot.data, "maker.jpg", BLANKS).dungeons
    souls = [entry for entry in dungeon["needs_review"] if entry["where"] == "Souls"]
    assert len(souls) == 1 and "box 2 empty" in souls[0]["why"] and "glare brightens" in souls[0]["why"]
    assert dungeon["record"]["souls"] == 1 and shot.truth["souls"] == 2



def test_glare_fading_a_spell_cast_tick_asks_about_that_spell():
    """Glare over the Spells panel washes the tick in Wild build's cast box out to nothing: read as not
    cast, named nowhere (a spell cast is a hero-phase record like the Souls). The spells' boxes are looked
    at for glare too, and each spell's box read empty there is asked about once, in plain words."""
    from photographer import make_maker_shots

    shot = make_maker_shots(6070500, players=1, paper="a4", condition="glare")[0]
    dungeon, = scan_bytes(shot.data, "maker.jpg", BLANKS).dungeons
    wild = [entry for entry in dungeon["needs_review"] if entry["where"] == "Wild build cast"]
    assert len(wild) == 1 and wild[0]["why"].startswith("is the Wild build cast box ticked? Read as empty")
    assert "glare brightens the paper at the box" in wild[0]["why"]
    assert dungeon["record"]["spells_cast"] == [] and shot.truth["spells_cast"] == ["wild"]

def test_glare_brightens_paper_beyond_the_page_white_and_a_lit_strip_beside_a_shadow_does_not():
    """Both are brighter than the paper around them; only glare is brighter than most of the page."""
    from scanner.visibility import COVER_PX_PER_MM, brightened

    size = int(200 * COVER_PX_PER_MM)
    page = np.full((size, size, 3), 190, np.uint8)
    cv2.circle(page, (60, 60), 15, (232, 232, 232), -1)           # a glare spot, 30 mm across
    page[:, 120:] = 100                                             # a hand's shadow over the right side ...
    page[:, 150:162] = 190                                          # ... lit between two fingers' shadows
    bright = brightened(page)
    assert bright[60, 60] and not bright[100, 156] and not bright[150, 60]


def test_glare_lights_its_halo_and_a_few_millimetres_around_it():
    """Glare fades away, not off: a light mark a few millimetres beyond where its halo is found may be washed
    out too (monster sheets, glare: of ten pool dice and life tracks marked but read empty, seven lay 1-4 mm
    outside it). ``glare_lit`` reaches ``GLARE_REACH_MM`` beyond the halo, and no further; a lit strip
    beside a shadow is not glare."""
    from scanner.visibility import COVER_PX_PER_MM, GLARE_REACH_MM, brightened, brightened_and_lit, glare_lit

    size = int(200 * COVER_PX_PER_MM)
    page = np.full((size, size, 3), 190, np.uint8)
    cv2.circle(page, (60, 60), 15, (232, 232, 232), -1)
    page[:, 120:] = 100
    page[:, 150:162] = 190
    halo, lit = brightened(page), glare_lit(page)
    both = brightened_and_lit(page)             # the two maps from one look at the paper, as the two alone
    assert (both[0] == halo).all() and (both[1] == lit).all()
    edge = max(x for x in range(size) if halo[60, x])                 # the halo's right edge on the spot's row
    reach = int(GLARE_REACH_MM * COVER_PX_PER_MM)
    assert lit[60, edge + reach] and not lit[60, edge + reach + 2]
    assert not lit[100, 156] and not lit[150, 60]


def test_glare_on_a_brightly_exposed_page_lights_the_paper_it_whitens():
    """A page photographed bright (its paper at 230 of 255) leaves glare little room to brighten it: a
    wide spot at the camera's white is under the 8% over the paper around it that marks glare washing the
    paper out (its own light raises that median), and under the halo's 10% over the page. Paper at the
    camera's white and 5% brighter than most of the page's is lit; a page white all over is not."""
    from scanner.visibility import COVER_PX_PER_MM, glare_lit

    size = int(200 * COVER_PX_PER_MM)
    page = np.full((size, size, 3), 230, np.uint8)
    cv2.circle(page, (60, 60), 25, (250, 250, 250), -1)            # a glare spot, 50 mm across
    assert glare_lit(page)[60, 60] and not glare_lit(page)[150, 150]
    assert not glare_lit(np.full((size, size, 3), 250, np.uint8)).any()


def test_glare_washing_out_a_life_tracks_crosses_on_a_bright_page_asks_about_the_track():
    """Monster sheets, glare, seed 169008 (player 2): glare over the end of monster 1 part 1's life track
    washed its six crosses out to nothing, and the page's paper was bright (230), so the glare was found
    neither as a halo nor as washed-out paper: no damage read, named nowhere. The track's first box is now
    asked about."""
    from generator.kinds import BLANKS
    from photographer import make_monster_shots
    from scanner.load import load_photo_bytes
    from scanner.scan import scan_photo

    shot = make_monster_shots(169008, players=2, paper="a4", faults=2, condition="glare")[1]
    scans, _ = scan_photo(load_photo_bytes(shot.data, shot.truth["source"])[0], BLANKS, None)
    asked = [d for d in scans[0].to_json()["needs_review"] if d["where"].startswith("monster 1 part 1 life")]
    assert [(d["where"], d["rule"]) for d in asked] == [("monster 1 part 1 life box 1", "unsure_mark")]
    assert "glare" in asked[0]["why"]


def test_a_wide_lens_bowing_the_sheets_edge_past_the_reading_area_reads_the_photo_there():
    """A steep view through a wide lens (game 68852000, classic map, player 1): the lens bows the sheet's
    edge up to 7 mm from where the markers' homography puts it, so the registration read column A's pixels
    from beyond the reading area, where there were none: its edge row was smeared across the column, the
    print there looked lost, and A2-A6 and A8 were named "the print of this room cannot be seen" (on the
    four other players' sheets too, as rooms whose Trap may be unknown). The photo around the area is
    read there now: nothing is asked about, and every room reads as drawn."""
    shot = make_game_shots(68852000, players=5, condition="steep", map_id="classic", paper="a4")[0]
    sheet, review = _review(shot.data)
    assert [entry for entry in review if entry["rule"] == "cannot_see"] == []
    assert _wrong_rooms(sheet, shot.truth) == set()


def test_a_greyed_line_as_thin_as_a_shadows_edge_is_no_pen_and_a_pens_band_is():
    """A straight shadow's edge (and a curl's shading) leaves a greyed line about 3 mm thick along it, as long
    as a pen: it was taken for a pale pen lying there. A pen's greyed band, with its shadow, is 10-14 mm."""
    from scanner.visibility import _straight_bands

    greyed = np.zeros((200, 150), bool)
    greyed[20:100, 40:43] = True          # 80 mm by 3 mm (COVER_PX_PER_MM = 1)
    assert not _straight_bands(greyed).any()
    greyed[110:190, 80:92] = True         # 80 mm by 12 mm
    bands = _straight_bands(greyed)
    assert bands[150, 85] and not bands[50, 41]


def test_a_pen_with_print_greyed_beside_it_is_still_a_pen_and_a_shadow_as_long_is_not():
    """A patch of print or a stroke greyed beside a pen widens the rectangle round it past a pen's 22 mm,
    though nearly all along its length it is a pen's width: it is a pen. A shadow's patch as long, wider
    along much of it, is not."""
    from scanner.visibility import _straight_bands

    greyed = np.zeros((200, 200), bool)
    greyed[20:32, 20:150] = True          # 130 mm by 12 mm
    greyed[32:44, 70:75] = True           # and 12 mm out beside 5 mm of it: a rectangle 130 by 24 mm
    bands = _straight_bands(greyed)
    assert bands[25, 30] and bands[40, 72]
    shadow = np.zeros((200, 200), bool)
    shadow[100:112, 20:110] = True        # 90 mm long, 12 mm wide over half of it, 30 mm over the rest
    shadow[100:130, 65:110] = True
    assert not _straight_bands(shadow).any()


def test_a_silver_pen_across_the_map_beside_greyed_print_names_the_rooms_under_it():
    """Seed 782 (game 78260002, map 3, the pen condition, player 3): a silver pen lay across the map from A4
    to G8. Greyed print beside it made the rectangle round its grey band 24 mm wide, over a pen's 22: only
    the rooms where print was lost under it were named, and D6, its path's bottom side crossed by the pen's
    dark edge, read as a path to the bottom too, named nowhere. The pen is found along its length now."""
    shots = make_game_shots(78260002, players=4, condition="pen", map_id="map3", paper="a4")
    shot = next(shot for shot in shots if shot.truth["player"] == 3)
    assert shot.truth["rooms"]["D6"]["exits"] == "NW"
    sheet, review = _review(shot.data)
    hidden = {entry["where"] for entry in review if entry["rule"] == "cannot_see"}
    assert {"D6", "D7", "E7", "F8"} <= hidden
    assert _wrong_rooms(sheet, shot.truth) <= {entry["where"] for entry in review}
