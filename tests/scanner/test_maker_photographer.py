"""The photographer's Dungeon Maker sheets: legal games by the rules, ink only where a player puts it, and a
photo in every condition the map sheets are photographed in."""
import numpy as np
import pytest

import photographer
from games.heroes import built_items, problems, read_dungeon, record_problems, SheetRecord, sheet_score
from games.review import Entry, Rule
from games.maker import load_maker, roll_loot
from sheets.maker import maker_layout
from photographer.hand import hand_style
from photographer.maker import blank_maker_sheet, fill_maker_sheet, play_maker
from scanner.maker import MakerMarks, _cast_a_box_off

PX = 5.0
SEEDS = range(1, 13)


@pytest.fixture(scope="module")
def maker():
    return load_maker()


@pytest.fixture(scope="module")
def games():
    return {seed: play_maker(roll_loot(seed, 1), np.random.default_rng(seed)) for seed in SEEDS}


def _scanned(shot, maker):
    """A photographed sheet read as ``scrawl scan`` reads it: its scan, and its scored entry."""
    from generator.kinds import BLANKS
    from games.heroes import score_entry
    from scanner.load import load_photo_bytes
    from scanner.scan import scan_photo

    scans, _ = scan_photo(load_photo_bytes(shot.data, shot.truth["source"])[0], BLANKS)
    return scans[0], score_entry(scans[0].to_json(), maker)


def _record(truth: dict) -> SheetRecord:
    return SheetRecord(**{key: tuple(truth[key]) if isinstance(truth[key], list) else truth[key]
                          for key in SheetRecord.__dataclass_fields__})


def test_every_game_is_legal(games, maker):
    for seed, truth in games.items():
        dungeon = read_dungeon(truth["dungeon"], maker)
        assert problems(dungeon, maker) == [], seed
        assert record_problems(dungeon, _record(truth), maker) == [], seed
        assert truth["rounds"] == maker.rounds
        assert len(set(truth["spells_got"])) == len(truth["spells_got"]) == 1 + truth["potions"]
        assert set(truth["spells_cast"]) <= set(truth["spells_got"])
        assert truth["souls"] + truth["hearts"] <= maker.heroes


def test_coin_left_adds_up(games, maker):
    for seed, truth in games.items():
        dungeon = read_dungeon(truth["dungeon"], maker)
        costs = sum(maker.item(item).cost for _, item in built_items(dungeon))
        loot = truth["gems"] * maker.loot["gem_coin"] + truth["potions"] * maker.loot["potion_coin"]
        bargains = 2 * truth["spells_cast"].count("bargain")
        assert truth["dungeon"]["coins"] == maker.start_coin + loot - costs + bargains, seed
        assert truth["dungeon"]["spells"] == len(truth["spells_got"]) - len(truth["spells_cast"])
        assert min(truth["coin_trail"]) >= 0 and truth["coin_trail"][-1] == truth["dungeon"]["coins"]


def test_score_is_the_sheets(games, maker):
    for truth in games.values():
        assert truth["score"] == sheet_score(read_dungeon(truth["dungeon"], maker), _record(truth), maker)["total"]


def test_builds_vary(games):
    built = {spec.get("room") or spec.get("on") or ("acid" if spec.get("acid") else "path")
             for truth in games.values() for spec in truth["dungeon"]["tiles"].values() if "loot" not in spec}
    assert {"path", "acid", "spikes"} <= built and built & {"slime", "skeleton", "ghost"} \
        and built & {"giant-bat", "boss-slime", "golem"}
    assert len({truth["dungeon"]["entrance"] for truth in games.values()}) >= 3


def test_same_seed_same_game():
    one, two = (play_maker(roll_loot(7, 2), np.random.default_rng(3)) for _ in range(2))
    assert one == two


# -- the ink ----------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def filled(games):
    layout = maker_layout(roll_loot(2, 1), "a4")
    blank = blank_maker_sheet(layout, PX)
    style = hand_style(np.random.default_rng(0), "blue", tool="ballpoint")
    page = fill_maker_sheet(layout, games[2], np.random.default_rng(1), style=style, px_per_mm=PX, page=blank,
                            sloppy=0.5, noise=False)
    ink = (blank.astype(int) - page.astype(int)).max(axis=2) > 40
    return layout, games[2], ink


def _share(ink, rect, grow=0.0) -> float:
    r = rect.grown(grow)
    patch = ink[int(r.y * PX):int(r.bottom * PX), int(r.x * PX):int(r.right * PX)]
    return float(patch.mean()) if patch.size else 0.0


def test_ticks_land_in_their_boxes(filled, maker):
    layout, truth, ink = filled
    dungeon = read_dungeon(truth["dungeon"], maker)
    built = {(room.name, item) for room, item in built_items(dungeon)}
    for tile in layout.tiles:
        for item, box in tile.marks:
            share = _share(ink, box, -0.4)
            assert (share > 0.08) == ((tile.id, item) in built), (tile.id, item, share)


def test_paths_cross_the_middle_of_linked_sides_only(filled):
    layout, truth, ink = filled
    tiles = truth["dungeon"]["tiles"]
    start, way_in = truth["dungeon"]["entrance"].split(":")
    for tile in layout.tiles:
        sides = tiles.get(tile.id, {}).get("path") or tiles.get(tile.id, {}).get("bridge") or ""
        r = tile.rect
        for side in "NESW":
            lo, hi = (r.x + 0.37 * r.w, r.x + 0.63 * r.w) if side in "NS" else (r.y + 0.37 * r.h, r.y + 0.63 * r.h)
            edge = {"N": r.y, "S": r.bottom, "W": r.x, "E": r.right}[side]
            band = ink[int((edge - 1) * PX):int((edge + 1) * PX), int(lo * PX):int(hi * PX)] if side in "NS" \
                else ink[int(lo * PX):int(hi * PX), int((edge - 1) * PX):int((edge + 1) * PX)]
            assert band.any() == (side in sides), (tile.id, side)
    out = layout.tile(start).rect
    beyond = {"N": out.y - 1.5, "S": out.bottom + 1.5, "W": out.x - 1.5, "E": out.right + 1.5}[way_in]
    x, y = (out.centre[0], beyond) if way_in in "NS" else (beyond, out.centre[1])
    assert ink[int(y * PX) - 5:int(y * PX) + 5, int(x * PX) - 10:int(x * PX) + 10].any()


def test_record_boxes(filled, maker):
    layout, truth, ink = filled
    counts = {"gem": truth["gems"], "potion": truth["potions"], "soul": truth["souls"],
              "dungeon_hp": truth["hearts"], "round": truth["rounds"]}
    for name, box in layout.boxes.items():
        prefix, _, number = name.rpartition("_")
        if prefix in counts:
            assert (_share(ink, box, -0.4) > 0.08) == (int(number) <= counts[prefix]), name
    for spell in (s["id"] for s in maker.spells):
        assert (_share(ink, layout.boxes[f"spell_{spell}"], -0.4) > 0.08) == (spell in truth["spells_got"])
        assert (_share(ink, layout.boxes[f"spell_{spell}_cast"], -0.4) > 0.08) == (spell in truth["spells_cast"])


def test_ink_stays_on_the_grid_and_the_record(filled):
    """Without the noise, nothing is drawn in the Market, the rules, Scoring's points or Hero Stats."""
    layout, _, ink = filled
    for name in ("market", "hero_stats"):
        assert _share(ink, layout.panels[name].rect) == 0.0, name
    assert _share(ink, layout.footer) == 0.0 and _share(ink, layout.boxes["name"]) == 0.0


# -- the photos -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("condition", photographer.CONDITIONS)
def test_shots_in_every_condition(condition):
    shots = photographer.make_maker_shots(3, players=1, condition=condition)
    assert len(shots) == 1
    truth = shots[0].truth
    assert truth["source"] == f"maker3-p1-{condition}{shots[0].suffix}" and truth["condition"]["name"] == condition
    assert len(shots[0].data) > 50_000 and truth["photo"]["fill"] > 0.3
    assert set(truth["hidden"]) <= set(truth["touched"]) <= {f"{c}{r}" for c in "ABCDEF" for r in range(1, 7)}


def test_the_game_is_the_same_in_every_photo():
    easy, glare = (photographer.make_maker_shots(5, players=2, **kw) for kw in ({"difficulty": "easy"},
                                                                                 {"condition": "glare"}))
    for one, other in zip(easy, glare):
        assert one.truth["dungeon"] == other.truth["dungeon"] and one.truth["score"] == other.truth["score"]
    assert easy[0].truth["dungeon"] != easy[1].truth["dungeon"]


def test_a_good_photo_reads_as_built(maker):
    from sheets.page import new_game_code

    code = new_game_code()
    shot = photographer.make_maker_shots(2, players=1, condition="good", code=code)[0]
    _, entry = _scanned(shot, maker)
    assert entry["game"] == shot.truth["game"] == code
    built = {name: spec for name, spec in shot.truth["dungeon"]["tiles"].items() if set(spec) != {"loot"}}
    assert {name: {k: v for k, v in spec.items() if k != "loot"} for name, spec in entry["dungeon"]["tiles"].items()} \
        == built
    assert entry["score"]["total"] == shot.truth["score"]


def test_a_dim_photo_in_vivid_colours_whose_blue_the_camera_crushed_reads_as_built(maker):
    """Seed 988 (``maker_accuracy.py --degrade saturate``: a phone's vivid colours), dim, sheet 9880702. A
    tungsten lamp leaves the paper's blue at half its red, and vivid colours push it to a quarter, 7-23
    levels of 255, where the sensor's noise is most of what is left: divided by the paper's blue, that noise
    coloured the print as a pen colours it. No tile was read right, the Gems and Potions were read ticked,
    named nowhere, and the score was 244 for 1. A channel that dim tells no colour; the other two tell a pen
    from the print."""
    from photographer.degrade import degrade_shot

    shot = photographer.make_maker_shots(9880702, players=1, paper="letter", condition="dim")[0]
    shot = degrade_shot(shot, "saturate", np.random.default_rng(9880702))
    _, entry = _scanned(shot, maker)
    built = {name: spec for name, spec in shot.truth["dungeon"]["tiles"].items() if set(spec) != {"loot"}}
    assert {name: {k: v for k, v in spec.items() if k != "loot"} for name, spec in entry["dungeon"]["tiles"].items()} \
        == built
    assert entry["score"]["total"] == shot.truth["score"] == 1


def test_loot_seed_zero_is_refused():
    with pytest.raises(ValueError):
        photographer.make_maker_shots(0, players=1)


@pytest.mark.parametrize("condition, seed, paper, most_wrong", [
    ("folded", 30000, "a4", 1), ("folded", 30002, "a4", 1), ("pen", 30200, "a4", 6), ("pen", 30201, "a4", 9),
    ("folded", 210301, "a4", 1), ("folded", 210304, "a4", 0), ("folded", 230309, "a4", 0),
    ("folded", 10403, "letter", 0), ("folded", 410011, "letter", 0), ("folded", 410001, "a4", 0),
    ("folded", 2110400, "a4", 2), ("folded", 7550403, "a4", 1), ("curled", 110303, "a4", 1),
    ("steep", 210105, "letter", 0), ("steep", 230103, "a4", 0)])
def test_a_fold_a_curl_or_a_pen_leaves_no_tile_misread_unnamed(maker, condition, seed, paper, most_wrong):
    """A fold straight across the grid read as a path line through a whole row of tiles, some of them named
    nowhere (folded seeds 30000 and 30002 did): the crease is cleared, and a tile along it is read as drawn
    or asked about. A pen lying on the sheet hides tiles, which are named, but its edge reached unseen into a
    neighbour and read as a tick (the pen seeds did): a tile read as holding something next to a hidden one
    is asked about. The crease of seed 210301 ran through C3's Skeleton box and was cleared with the tick
    (now joined across the crease and read);
    the step between the panels of 210304 left print a box's edge off, reading as a Golem's tick; a crease
    found on 230309 was lost when the ink was told from the print with the allowance a fold needs, and read
    as Spike traps ticked along it; the faint crease of 10403 (Letter) was found across the grid but not
    in the margins beside it, so it stayed as ink through a row of boxes (six tiles wrong, all asked
    about). The creases of 410011 and 410001 covered only two thirds of the grid's width (print beside the
    boxes hid them, and a panel's step broke one), so they were not found, and read as Slime ticks along
    row 3, none of them named. On 2110400 a Skeleton's tick sat on the crease in a box the band covered 69%
    of (only boxes covered 70% or more were checked for a tick under it): read beside the band, empty,
    named nowhere. On 7550403 an Acid Pond's hurried tick lay under a faint crease, cleared with it: 20% of
    the band's part of the box was ink beyond the crease's line, under the 25% that then asked about it
    (empty boxes under creases reach 22% at most, over 1,110 of them on 72 folded sheets). A curl squeezing columns A and B (110303) and steep views (210105, 230103) bent the sheet
    faster than the registration's tiles followed, and print a box's edge off read as ticks. But for
    10403's, none of these was named. (Since the registration carries a curl's move on to the paper's edge,
    210301's B1, at the top of the grid where the sheet bends, reads a link to the N side too: named.)"""
    shot = photographer.make_maker_shots(seed, players=1, paper=paper, condition=condition)[0]
    _, entry = _scanned(shot, maker)
    named = {doubt["where"] for doubt in entry["needs_review"]}

    def held(spec: dict) -> dict:
        return {key: value for key, value in spec.items() if key != "loot"}

    read, built = entry["dungeon"]["tiles"], shot.truth["dungeon"]["tiles"]
    wrong = [name for name in sorted(set(read) | set(built)) if held(read.get(name, {})) != held(built.get(name, {}))]
    assert [name for name in wrong if name not in named] == []
    assert len(wrong) <= most_wrong


def test_a_tick_over_a_boxs_letters_in_dim_light_is_read_and_asked_about(maker):
    """In a dim photo (seed 2230700) the Skeleton tick in C5 lies over the box's printed letters, and the
    print's allowance took it for them: read empty (1% inked), named nowhere. Every tile prints the same
    twelve boxes, and that box is far darker than the Skeleton box of the other tiles: it is read as ticked
    and asked about."""
    shot = photographer.make_maker_shots(2230700, players=1, paper="a4", condition="dim")[0]
    assert shot.truth["drawn"]["C5|skeleton"] == "tick"
    _, entry = _scanned(shot, maker)
    darker = [doubt for doubt in entry["needs_review"] if "darker than in the other tiles" in doubt["why"]]
    assert [(doubt["where"], doubt["rule"]) for doubt in darker] == [("C5", "unsure_mark"), ("D6", "unsure_mark"),
                                                                      ("E6", "unsure_mark")]
    assert "is Skeleton's box ticked in C5? Read as ticked" in darker[0]["why"]
    # D6's Path and E6's Boss Slime, between the levels, were read empty: darker too, now read as ticked.
    assert entry["dungeon"]["tiles"] == shot.truth["dungeon"]["tiles"]


def test_pencil_ticks_the_print_hid_are_read_by_how_dark_their_boxes_are(maker):
    """A Letter sheet ticked in pencil (seed 6250802): five ticks over their boxes' printed letters read
    0-4% inked, so three path tiles were read as no path (their lines "but no Path is ticked there") and
    two Slime rooms as nothing. Each box was 36-75% of the sheet's typical tick darker than its kind in the
    other tiles (on 121 sheets, no empty box the photo shows came to 35%): read as ticked, still asked."""
    shot = photographer.make_maker_shots(6250802, players=1, paper="letter", condition="pencil")[0]
    built = shot.truth["dungeon"]["tiles"]
    _, entry = _scanned(shot, maker)
    read = entry["dungeon"]["tiles"]
    held = lambda spec: {key: value for key, value in spec.items() if key != "loot"}
    for name in ("F1", "F3", "E4", "E2", "B5"):
        assert held(read.get(name, {})) == held(built[name]), name
    asked = {doubt["where"] for doubt in entry["needs_review"] if "darker than in the other tiles" in doubt["why"]}
    assert {"E2", "E4", "B5"} <= asked



def test_a_faint_pencil_tick_read_empty_is_asked_about(maker):
    """A pencil's ticks are faint (this sheet's make a box 8-10% darker than elsewhere): A6's Skeleton tick
    (seed 6080804) read empty at 0% inked, 3.6% darker than the Skeleton box of the other tiles, which is
    over a third of the sheet's typical tick but was under the 10/255 kept for a photo's grain; named
    nowhere. Empty boxes on faint-ticked sheets were 1.6% darker at most: the floor is 7/255."""
    shot = photographer.make_maker_shots(6080804, players=1, paper="a4", condition="pencil")[0]
    assert shot.truth["drawn"]["A6|skeleton"] == "tick"
    _, entry = _scanned(shot, maker)
    if entry["dungeon"]["tiles"].get("A6", {}).get("room") != "skeleton":
        asked = [doubt for doubt in entry["needs_review"] if doubt["where"] == "A6"]
        assert len(asked) == 1 and "is Skeleton's box ticked in A6?" in asked[0]["why"]

def test_a_light_pencil_tick_a_little_darker_than_its_box_elsewhere_is_asked_about(maker):
    """Seed 905's pencil, sheet 9050801: B4's Giant Bat tick lies over the box's letters and read 1% inked. The
    box was darker than the Giant Bat box of the other tiles by 0.31 of the sheet's typical tick, under the
    0.35 that reads it as ticked: read empty, the score short, and B4 named nowhere. A box that much darker
    is still read empty (empty boxes come to it too) but asked about."""
    shot = photographer.make_maker_shots(9050801, players=1, paper="a4", condition="pencil")[0]
    assert shot.truth["dungeon"]["tiles"]["B4"] == {"path": "ES", "on": "giant-bat"}
    _, entry = _scanned(shot, maker)
    asked = [doubt for doubt in entry["needs_review"] if doubt["where"] == "B4"]
    assert len(asked) == 1 and asked[0]["rule"] == "unsure_mark"
    assert asked[0]["why"].startswith("is Giant Bat's box ticked in B4? Read as empty")
    assert "a little darker than in the other tiles" in asked[0]["why"]


def test_boxes_read_ticked_but_no_darker_than_elsewhere_are_asked_about(maker):
    """In a photo with a hand's shadow (seed 6030601) the print of B3's Bridge and Acid Pond boxes moved against
    the blank, and the ink map read them ticked (25% and 15% inked), named nowhere. A true tick makes its
    box darker than the same box in the other tiles (by 41% of the sheet's typical tick at the least, on
    1008 ticks); these two are not darker at all: they are read empty and asked about."""
    shot = photographer.make_maker_shots(6030601, players=1, paper="a4", condition="shadow")[0]
    assert "B3|bridge" not in shot.truth["drawn"] and "B3|acid" not in shot.truth["drawn"]
    _, entry = _scanned(shot, maker)
    paler = {doubt["where"]: doubt for doubt in entry["needs_review"]
             if "no darker than in the other tiles" in doubt["why"]}
    assert paler["B3"]["rule"] == "unsure_mark"
    assert "the Bridge path box and the Acid Pond box are no darker" in paler["B3"]["why"]
    # B6's Exit stairs box (12% inked), B2's Slime box (9%) and C6's Path box (11%), nothing drawn in any,
    # are the others: B2 read as a Slime room until such boxes were read empty.
    assert set(paler) == {"B2", "B3", "B6", "C6"}
    assert not {"B6|stairs", "B2|slime", "C6|path"} & set(shot.truth["drawn"])
    assert entry["dungeon"]["tiles"] == shot.truth["dungeon"]["tiles"]


def test_boxes_between_the_levels_that_the_photos_darkness_settles_are_not_asked_about(maker):
    """A good photo read right in full (seed 7190001) asked three questions about empty boxes with 4-7% ink,
    between the levels that read a box empty and ticked (print's residue). The same boxes are no darker than
    their kind in the other tiles, as every empty box between the levels on 130 sheets was (ticks there were
    a third of the sheet's typical tick darker or more): nothing is left to ask."""
    shot = photographer.make_maker_shots(7190001, players=1, paper="a4", condition="good")[0]
    _, entry = _scanned(shot, maker)
    held = lambda spec: {key: value for key, value in spec.items() if key != "loot"}
    read, built = entry["dungeon"]["tiles"], shot.truth["dungeon"]["tiles"]
    assert {name: held(spec) for name, spec in read.items() if held(spec)} == \
        {name: held(spec) for name, spec in built.items() if held(spec)}
    assert entry["needs_review"] == [] and entry["score"]["total"] == shot.truth["score"]


def test_boxes_under_a_pen_are_read_empty_and_their_tiles_asked_about(maker):
    """A pen lying across the grid (seed 6251001): its dark body over tick boxes read as ticks, so B1, B2,
    C2 and D6, where nothing was built, read as a Boss Slime, a Giant Bat, a Ghost room with a path and
    an Acid Pond, a Ghost room and an Acid Pond (each asked about as unseen). A box the photo does not show
    is now read empty: the tiles read as built, and each is still asked about."""
    shot = photographer.make_maker_shots(6251001, players=1, paper="a4", condition="pen")[0]
    _, entry = _scanned(shot, maker)
    unseen = {doubt["where"] for doubt in entry["needs_review"] if doubt["rule"] == "cannot_see"}
    for name in ("B1", "B2", "C2", "D6"):
        assert name not in shot.truth["dungeon"]["tiles"] and name not in entry["dungeon"]["tiles"], name
        assert name in unseen


def test_a_record_row_the_registration_may_have_slipped_along_is_asked_about(maker):
    """A steep Letter photo (seed 6190202): the registration matched the Gems row's repeating boxes a box off
    (its move changing 0.6 pixel per pixel there; a flat or evenly tilted sheet's under 0.1): the three ticks
    moved along and the empty fourth box read as ticked too, 4 Gems for 3, named nowhere. The row is asked about, as a
    monster record sheet's places are where it curls."""
    shot = photographer.make_maker_shots(6190202, players=1, paper="letter", condition="steep")[0]
    assert shot.truth["gems"] == 3
    _, entry = _scanned(shot, maker)
    if entry["record"]["gems"] != 3:
        asked = [doubt for doubt in entry["needs_review"] if doubt["where"] == "Gems"]
        assert len(asked) == 1 and asked[0]["rule"] == "unsure_mark"
        assert "the Gems boxes may be read one box off" in asked[0]["why"]


def _broad_pen(monkeypatch, times: float) -> None:
    """The photographer's pen drawing every stroke ``times`` as wide as its hand's (a marker broader than any
    the random hands hold)."""
    import photographer.hand as hand

    def stroke(self, path_mm, wobble=None):
        points = hand.wobbled(hand.densify(path_mm), self.style.wobble_mm if wobble is None else wobble, self.rng)
        self.ink.stroke(points, times * self.style.width_mm * self.rng.uniform(0.92, 1.08), self.pressure(len(points)))
        return points
    monkeypatch.setattr(hand.Pen, "stroke", stroke)


def test_a_tile_the_registration_may_have_slipped_across_is_asked_about(maker, monkeypatch):
    """A dim photo of a sheet with 3 mm of curl, ticked with a pen 1.8 times as broad as our hands' (seed
    8450700): the registration's move jumps by about a box's width across B5, C5, B6 and C6, so C5's cross
    in the Slime box lies between boxes in the registered photo. C5 read as nothing built, the score 4 off,
    and C5 was named nowhere. A tile where the move jumps is now asked about, as a record row is; B5, B6 and
    C6, asked about already for their own boxes, are not asked a second time."""
    _broad_pen(monkeypatch, 1.8)
    shot = photographer.make_maker_shots(8450700, players=1, paper="a4", condition="dim")[0]
    assert shot.truth["dungeon"]["tiles"]["C5"] == {"room": "slime"}
    _, entry = _scanned(shot, maker)
    bent = [doubt["where"] for doubt in entry["needs_review"] if "the sheet bends here" in doubt["why"]]
    if entry["dungeon"]["tiles"].get("C5") != {"room": "slime"}:
        assert "C5" in bent
        assert "C5's tick boxes may be read one box off" in next(
            doubt["why"] for doubt in entry["needs_review"] if doubt["where"] == "C5")
    asked = [doubt["where"] for doubt in entry["needs_review"]]
    assert all(asked.count(tile) == 1 for tile in bent)


@pytest.mark.parametrize("condition, seed, field", [("curled", 7470304, "spells_cast"),
                                                     ("pencil", 7530804, "spells_cast"),
                                                     ("steep", 7490106, "hearts")])
def test_a_record_row_registered_a_millimetre_off_is_read_where_its_print_lines_up(maker, condition, seed, field):
    """The Spells' cast boxes sit at the page's right edge, where a curl (7470304) or a pencil sheet's
    registration (7530804) left their printed edges a millimetre or two off: every empty cast box read as
    ticked, four spells cast for none, and the score a point off. A steep view (7490106) left the dungeon
    HP row's crossed hearts 3 and 4 beside their boxes, read empty: 2 hearts for 4, the score 4 off. Each
    row and Spells box is now read where its print lines up best: the record and the score read right."""
    shot = photographer.make_maker_shots(seed, players=1, paper="a4", condition=condition)[0]
    _, entry = _scanned(shot, maker)
    read, made = entry["record"][field], shot.truth[field]
    assert (sorted(read) if isinstance(read, list) else read) == (sorted(made) if isinstance(made, list) else made)
    assert entry["score"]["total"] == sheet_score(read_dungeon(shot.truth["dungeon"], maker), _record(shot.truth),
                                                  maker)["total"]


def test_a_doubtful_cast_tick_of_a_spell_not_got_is_read_empty_and_asked_about(maker):
    """A dim photo (seed 7690704): its grain at the page's right edge inked Mend's empty cast box 9%, between
    the levels of a box surely empty and surely ticked, read the likelier way: ticked, the score 2 off. Mend's
    ring is surely empty, and only a spell got can be cast: the box is read empty, and still asked about."""
    shot = photographer.make_maker_shots(7690704, players=1, paper="a4", condition="dim")[0]
    _, entry = _scanned(shot, maker)
    assert "mend" not in shot.truth["spells_got"] and sorted(entry["record"]["spells_cast"]) == sorted(
        shot.truth["spells_cast"])
    asked = [doubt for doubt in entry["needs_review"] if doubt["where"] == "Mend cast"]
    assert len(asked) == 1 and "Read as empty" in asked[0]["why"] and "only a spell got can be cast" in asked[0]["why"]
    assert entry["score"]["total"] == sheet_score(read_dungeon(shot.truth["dungeon"], maker), _record(shot.truth),
                                                  maker)["total"]


def test_a_photo_that_leaves_a_third_of_the_tiles_in_doubt_opens_its_list_with_a_retake():
    """A sheet bowed 18 mm along its middle and photographed 23 degrees off square leaves 19 tiles asked
    about (the print of two cannot be told, and the sheet bends fast round eleven): the list starts by
    saying a new photo may be quicker than checking them, and a short list (the fold of seed 10402) does
    not."""
    from generator.kinds import BLANKS
    from scanner.load import load_photo_bytes
    from scanner.maker import RETAKE_TILES
    from scanner.scan import scan_photo

    def review(seed: int, paper: str, condition: str) -> list[dict]:
        shot = photographer.make_maker_shots(seed, players=1, paper=paper, condition=condition)[0]
        scans, _ = scan_photo(load_photo_bytes(shot.data, shot.truth["source"])[0], BLANKS)
        return scans[0].to_json()["needs_review"]

    curled = review(9680301, "a4", "curled")
    tiles = {entry["where"] for entry in curled[1:] if entry["where"][:1] in "ABCDEF" and entry["where"][1:].isdigit()}
    assert len(tiles) >= RETAKE_TILES
    assert curled[0]["where"] == "photo" and curled[0]["rule"] == "unsure_reading"
    assert curled[0]["why"].startswith(f"{len(tiles)} of the 36 tiles are asked about below: taking the photo again")
    assert all(entry["where"] != "photo" for entry in review(10402, "a4", "folded"))


def test_a_tiles_doubtful_boxes_are_asked_about_in_one_entry():
    """A sheet under glare (seed 9680502, A4) leaves several boxes of a tile in doubt, in three tiles: one entry
    per tile, naming each box and how it was read. (The curled Letter sheet of seed 10302 did so until its
    registration reached far enough to read it.)"""
    from generator.kinds import BLANKS
    from scanner.load import load_photo_bytes
    from scanner.scan import scan_photo

    shot = photographer.make_maker_shots(9680502, players=1, paper="a4", condition="glare")[0]
    scans, _ = scan_photo(load_photo_bytes(shot.data, shot.truth["source"])[0], BLANKS)
    marks = [entry for entry in scans[0].to_json()["needs_review"] if entry["rule"] == "unsure_mark"]
    assert len({entry["where"] for entry in marks}) == len(marks)
    grouped = [entry for entry in marks if entry["why"].startswith(f"which boxes are ticked in {entry['where']}? "
                                                                    f"Read as: ")]
    assert len(grouped) >= 2
    assert all(entry["why"].count("% inked)") >= 2 for entry in grouped)


def test_a_tick_on_a_folds_crease_is_read_or_asked_about(maker):
    """The crease of seed 230301 runs through row 4's lower boxes and was cleared with B4's Exit stairs
    tick: B4 is asked about, saying the crease ran through that box; the empty boxes it crossed in the other
    tiles hold no more ink than the crease and are not. The band covers nearly all of that box, so its fill
    was read over the cleared band; the ink beyond the crease's line there is a tick's, and it is read as
    ticked (it was read empty). So were 8710404's two Slime ticks in B3 and C3, three points of the score. On
    210301 the crease crossed C3's Skeleton tick aslant, the tick's two ends on either side of the cleared
    band not over one another: it is joined across the band and read, and nothing is asked (it was cleared
    with the crease, and asked about; since the registration carries a bend's move on to the paper's edge it
    is read so again, and asked about, a right reading with a question)."""
    from generator.kinds import BLANKS
    from games.heroes import score_entry
    from scanner.load import load_photo_bytes
    from scanner.scan import scan_photo

    def scan(seed: int) -> tuple[dict, dict]:
        shot = photographer.make_maker_shots(seed, players=1, paper="a4", condition="folded")[0]
        scans, _ = scan_photo(load_photo_bytes(shot.data, shot.truth["source"])[0], BLANKS)
        return scans[0].to_json(), shot.truth

    stairs, _ = scan(230301)
    review = stairs["needs_review"]
    assert [(entry["where"], entry["rule"]) for entry in review] == [("B4", "unsure_mark")]
    assert review[0]["why"].startswith("is Exit stairs's box ticked in B4? Read as ticked")
    assert "a fold's crease runs through the Exit stairs box" in review[0]["why"]
    assert stairs["dungeon"]["stairs"] == "B4"
    slimes, truth = scan(8710404)
    entry = score_entry(slimes, maker)
    assert entry["dungeon"]["tiles"]["B3"] == entry["dungeon"]["tiles"]["C3"] == {"room": "slime"}
    assert entry["score"]["total"] == truth["score"] == 7
    creased = [doubt["where"] for doubt in slimes["needs_review"] if "a fold's crease runs through" in doubt["why"]]
    assert creased == ["B3", "C3"]
    aslant, _ = scan(210301)
    assert aslant["dungeon"]["tiles"]["C3"] == {"room": "skeleton"}
    assert all(doubt["where"] != "C3" or "a fold's crease runs through the Skeleton box" in doubt["why"]
               for doubt in aslant["needs_review"])


@pytest.mark.parametrize("seed, place, near, asked", [
    (50500, "E5", "E6", "whose print the photo does not show: is E5 empty?"),
    (50501, "dungeon HP", "the Souls boxes", "the photo does not show: are the dungeon HP hearts as read?")])
def test_glare_beside_what_the_photo_does_not_show_is_asked_about(maker, seed, place, near, asked):
    """Glare fades out over millimetres: it hid E6 and washed out the Slime's tick in E5, whose print still
    showed (seed 50500); it hid the Souls boxes and washed out the crossed hearts beside them (seed 50501).
    Both were read wrong and named nowhere; now each is asked about. (E5's Slime box, whose outline the glare
    washed out with the tick, now names E5 as a place the photo does not show, which says as much.)"""
    shot = photographer.make_maker_shots(seed, players=1, paper="a4", condition="glare")[0]
    _, entry = _scanned(shot, maker)
    why = [doubt["why"] for doubt in entry["needs_review"] if doubt["where"] == place]
    assert any(text.startswith("next to ") and near in text.split(":")[0] and asked in text
               or text.startswith("the print of a box of this tile cannot be seen") for text in why), why


def test_a_heart_crossed_at_the_edge_of_the_glares_washed_out_core_is_asked_about(maker):
    """``maker_accuracy.py --sheets 10 --seed 994``, glare, sheet 9940500: a glare spot's core lay beside the
    Scoring chart and washed out the fourth dungeon heart's cross (the photo shows 3% of ink there), beyond
    where it merely brightens the paper. Hearts read 3 for 4, named nowhere. The record boxes are judged by
    where glare lights the paper or lies a few millimetres away, as the monster sheets' are."""
    shot = photographer.make_maker_shots(9940500, players=1, paper="a4", condition="glare")[0]
    assert shot.truth["hearts"] == 4
    _, entry = _scanned(shot, maker)
    named = {doubt["where"]: doubt["why"] for doubt in entry["needs_review"]}
    assert entry["record"]["hearts"] == 4 or "is the dungeon HP box 4 ticked? Read as empty" in named["dungeon HP"]


def _degraded_glare_sheet(seed: int, spec: str, maker) -> tuple[dict, dict, dict]:
    """A glare sheet's photo remade as ``maker_accuracy.py --degrade SPEC`` makes it: its truth, its scored
    entry, and its review entries by place."""
    from generator.kinds import BLANKS
    from games.heroes import score_entry
    from photographer.degrade import degrade_shot
    from scanner.load import load_photo_bytes
    from scanner.scan import scan_photo

    shot = photographer.make_maker_shots(seed, players=1, paper="a4", condition="glare")[0]
    shot = degrade_shot(shot, spec, np.random.default_rng(seed))
    scans, _ = scan_photo(load_photo_bytes(shot.data, shot.truth["source"])[0], BLANKS)
    entry = score_entry(scans[0].to_json(), maker)
    return shot.truth, entry, {doubt["where"]: doubt for doubt in entry["needs_review"]}


def test_a_tile_whose_print_a_phones_tone_mapping_hid_under_glare_is_named(maker):
    """Seed 8620501 (glare) through a phone's local tone mapping (``--degrade hdr``): the glare's brightness
    was evened out, so nothing found C5 hidden, and D5's Skeleton tick beside it, washed out, was read as
    empty: the score one off, nothing flagged. C5's tick boxes show none of their print: it is named, and
    D5 is asked about or read right."""
    truth, entry, named = _degraded_glare_sheet(8620501, "hdr", maker)
    assert truth["dungeon"]["tiles"]["D5"].get("room") == "skeleton"
    assert named["C5"]["rule"] == "cannot_see"
    assert entry["dungeon"]["tiles"].get("D5", {}).get("room") == "skeleton" or "D5" in named


def test_a_tick_box_whose_print_glare_washed_out_in_a_dim_photo_is_named(maker):
    """Seed 8790000 (glare) underexposed (``--degrade dark``): the glare, dimmed below what the visibility
    test finds, washed out F5's three lower boxes and F6's upper ones, but not their tiles' other boxes; F5's
    Slime tick was read as empty, the score one off and nothing flagged. A box whose printed outline shows
    under a tenth of the sheet's median box names its tile."""
    from scanner.scan import BOX_PRINT_SEEN, _boxes_unprinted

    truth, entry, named = _degraded_glare_sheet(8790000, "dark", maker)
    assert truth["dungeon"]["tiles"]["F5"].get("room") == "slime"
    assert named["F5"]["rule"] == "cannot_see"
    assert named["F5"]["why"].startswith("the print of a box of this tile cannot be seen")
    shown = {("A1", "path"): 0.6, ("A1", "slime"): 0.7, ("B1", "path"): 0.65, ("B1", "slime"): 0.6 * BOX_PRINT_SEEN}
    assert _boxes_unprinted(shown) == [("B1", "slime")]
    assert _boxes_unprinted({}) == []


def test_a_players_blob_of_ink_is_not_something_lying_on_the_sheet(maker):
    """The hand of seed 310000 (good light) fills a blob of blue ink in E1, a few millimetres wide: it was
    taken for an object lying over the tile, E1 named "cannot be seen" and its four neighbours asked about.
    A patch of colour that small is ink: the sheet reads as built, with nothing to check."""
    shot = photographer.make_maker_shots(310000, players=1, paper="a4", condition="good")[0]
    _, entry = _scanned(shot, maker)
    assert entry["needs_review"] == []
    assert entry["dungeon"]["tiles"]["E1"] == shot.truth["dungeon"]["tiles"]["E1"]


def test_a_shadows_straight_edge_across_the_grid_hides_no_tile(maker):
    """Seed 891's shadow, sheet 8910601: the shadow's edge ran straight down the grid through D1 and D2. Its
    greyed line, 3 mm thick and 51 mm long, was taken for a pale pen lying there: D1 was named ("something
    lies over this room") and its Skeleton tick, plain in the photo, read as nothing, the score one short.
    The sheet now reads as built, with no tile named as hidden."""
    shot = photographer.make_maker_shots(8910601, players=1, paper="a4", condition="shadow")[0]
    _, entry = _scanned(shot, maker)
    assert not [e for e in entry["needs_review"] if e["rule"] == "cannot_see"]
    assert entry["dungeon"]["tiles"]["D1"] == shot.truth["dungeon"]["tiles"]["D1"] == {"room": "skeleton"}
    assert entry["score"]["total"] == shot.truth["score"]


def test_a_cast_box_lined_up_with_its_print_only_where_the_print_matches_within_reach(maker):
    """Seed 898's dim light, sheet 8980702 (Letter): each Spells cast box is lined up again with its print
    (``scanner.scan._aligned_rows``). In the dim, grainy photo the Wild build and Mend cast boxes matched
    best 1.6 mm to the left, on the edge of the reach, along the text beside them: Mend's tick was missed and
    the text read as a tick in Wild build's box, the score two short with nothing flagged. The best match is
    now looked for inside the reach, and only a peak counts: each box is read where its print lies."""
    shot = photographer.make_maker_shots(8980702, players=1, paper="letter", condition="dim")[0]
    _, entry = _scanned(shot, maker)
    assert sorted(entry["record"]["spells_cast"]) == sorted(shot.truth["spells_cast"]) == ["bargain", "mend"]
    assert entry["score"]["total"] == shot.truth["score"]


def test_a_record_row_the_registration_left_off_its_print_is_asked_about(maker):
    """Seed 907's curled paper, sheet 9070309: the curl lifts the sheet's edge, and the registration left the
    Spells 5-7 mm off their print, past what a row is lined up again by. Three spells got and two cast read as
    none, and only Mend's got box was asked about. The Spells' printed outlines show there at 0.12 of what a
    tile's tick box shows (a flat row: 0.7 or more): the Spells are asked about whole. Since the registration
    carries a curl's move on to the paper's edge, the Spells read as made, and are not asked about."""
    shot = photographer.make_maker_shots(9070309, players=1, paper="a4", condition="curled")[0]
    assert sorted(shot.truth["spells_got"]) == ["bargain", "mend", "reroll"]
    _, entry = _scanned(shot, maker)
    off = [doubt for doubt in entry["needs_review"] if "may be read one box off" in doubt["why"]
           and not doubt["where"][1:].isdigit()]
    if sorted(entry["record"]["spells_got"]) == ["bargain", "mend", "reroll"] and \
            sorted(entry["record"]["spells_cast"]) == sorted(shot.truth["spells_cast"]):
        assert off == []
    else:
        assert [(doubt["where"], doubt["rule"]) for doubt in off] == [("Spells", "unsure_mark")]


def test_only_a_row_whose_print_hardly_shows_is_taken_as_off_its_print():
    from scanner.scan import ROW_PRINT_OFF, _rows_off_print

    tiles = {("A1", "path"): 0.5, ("A1", "slime"): 0.4, ("B1", "path"): 0.45}
    shown = {"gem_1": 0.45, "gem_2": 0.5, "spell_reroll": 0.02, "spell_mend": 0.05, "spell_mend_cast": 0.4,
             "soul_1": 0.45 * ROW_PRINT_OFF * 1.1, "soul_2": 0.45 * ROW_PRINT_OFF * 1.1}
    assert _rows_off_print(shown, tiles, {}) == ("Spells",)
    # A row the photo does not show (glare, a thumb) is asked about as such already.
    assert _rows_off_print(shown, tiles, {"spell_mend": "glare"}) == ()
    assert _rows_off_print({}, tiles, {}) == ()


def test_a_thumbs_edge_across_a_potions_box_is_named_not_read_as_a_tick(maker):
    """Seed 947, thumb, sheet 9471103 (``benchmarks/maker_accuracy.py --sheets 10 --seed 947``): the thumb's
    edge runs across the lower half of the first Potions box, whose cover the photo's test found a millimetre
    short of it; its shadow read as a tick, Potions 1 for 0, named nowhere. A Dungeon Maker sheet's record boxes are
    looked round a millimetre wider for a cover (``COVER_REACH``): the box is asked about as unseen."""
    shot = photographer.make_maker_shots(9471103, players=1, paper="a4", condition="thumb")[0]
    assert shot.truth["potions"] == 0
    _, entry = _scanned(shot, maker)
    named = {doubt["where"]: doubt for doubt in entry["needs_review"]}
    if entry["record"]["potions"] != shot.truth["potions"]:
        assert named["Potions box 1"]["rule"] == "cannot_see"


@pytest.mark.parametrize("seed, condition, field, where", [
    (9530704, "dim", "souls", "Souls"),                 # a dim photo's grain in Souls box 4
])
def test_a_record_box_the_photo_shows_no_darker_than_its_empty_kind_is_asked_about(maker, seed, condition, field,
                                                                                   where):
    """``benchmarks/maker_accuracy.py --sheets 10 --seed 953``, dim, sheet 9530704: Souls box 4 read ticked at
    17% of ink, a clump of a dim photo's grain (the photo shows the box as light as the four empty ones), Souls
    1 for 0 and a score of 3 for 0, named nowhere. A record box read ticked that the photo shows no darker than
    the empty boxes of its kind is read empty, and asked about. (Sheet 96105012, curled, whose Wild build cast
    box read the print under a curl the same way, is now registered to the page's edge and reads that box
    empty outright: ``test_the_cast_column_at_a_curled_pages_edge_is_registered_to_its_print``.)"""
    shot = photographer.make_maker_shots(seed, players=1, paper="a4", condition=condition)[0]
    _, entry = _scanned(shot, maker)
    truth = shot.truth[field]
    assert entry["record"][field] == (truth if isinstance(truth, int) else list(truth))
    named = {doubt["where"]: doubt for doubt in entry["needs_review"]}
    # Read without the dim photo's noisy blue channel (``scanner.ink.CHANNEL_LEAST``) the grain no longer
    # clumps in the box, and it reads empty outright; where it is asked about, it is for this reason.
    assert where not in named or "no darker than the empty boxes of its kind" in named[where]["why"]


def test_a_record_box_is_judged_against_the_empty_boxes_of_its_kind():
    """``_paler_records``: a box read ticked whose photo is no darker than the empty boxes of its kind is
    named; a tick as dark as the sheet's others is not; a kind with no box read empty (the rounds here) is not
    judged, nor is a box something lies over or glare brightens."""
    from scanner.maker import MakerMarks, _paler_records

    fills = {"soul_1": 0.02, "soul_2": 0.03, "soul_3": 0.17, "gem_1": 0.6, "gem_2": 0.5, "gem_3": 0.01,
             "round_1": 0.7, "round_2": 0.15}
    shade = {"soul_1": 0.10, "soul_2": 0.11, "soul_3": 0.105, "gem_1": 0.40, "gem_2": 0.38, "gem_3": 0.10,
             "round_1": 0.4, "round_2": 0.1}
    marks = MakerMarks({}, {}, fills, shade=shade)
    assert _paler_records(marks, (0.12, 0.045)) == {"soul_3"}
    # Something lies over it in the photo: asked about as unseen instead.
    assert _paler_records(marks, (0.12, 0.045), unseen={"soul_3"}) == set()
    # Glare brightens the paper there (it lightens a tick as it washes it out): not judged either.
    assert _paler_records(MakerMarks({}, {}, fills, shade=shade, glared=frozenset({"soul_3"})), (0.12, 0.045)) == set()
    # The same ink, the photo as dark there as a tick: nothing to ask.
    assert _paler_records(MakerMarks({}, {}, fills, shade={**shade, "soul_3": 0.35}), (0.12, 0.045)) == set()
    # No shade measured (no darkness map): nothing judged.
    assert _paler_records(MakerMarks({}, {}, fills), (0.12, 0.045)) == set()


def test_a_light_pencil_tick_over_a_boxs_letters_is_asked_about(maker):
    """``benchmarks/maker_accuracy.py --sheets 10 --seed 954``, pencil, sheet 9540804: A1's Boss Slime tick, a
    light pencil stroke over the box's letters, left no ink the ink map counts (0%) and darkened the box's mean
    too little to be asked about: read as a path with nothing on it, named nowhere. Its darkest pixels show it
    plainly against the same box in the other tiles (``MARKED``): it is asked about (still read empty: a path
    line across an empty box shows so too)."""
    shot = photographer.make_maker_shots(9540804, players=1, paper="a4", condition="pencil")[0]
    assert shot.truth["dungeon"]["tiles"]["A1"] == {"path": "EW", "on": "boss-slime"}
    scan, entry = _scanned(shot, maker)
    assert scan.marks.ticks[("A1", "boss-slime")] < 0.01
    assert entry["dungeon"]["tiles"]["A1"].get("on") is None
    named = {doubt["where"]: doubt["why"] for doubt in entry["needs_review"]}
    assert "is Boss Slime's box ticked in A1? Read as empty (0% inked)" in named["A1"]
    assert "a light tick over the letters?" in named["A1"]


def test_a_tick_cleared_with_a_folds_crease_is_asked_about(maker):
    """``benchmarks/maker_accuracy.py --sheets 10 --seed 956``, folded, sheet 9560407: the fold's crease ran
    along A4's row of boxes and its clearing took the Acid Pond tick with it (0% inked, too little left beside
    the crease's line to be asked about): A4 read as an empty tile, the score 3 for 4, nothing flagged. The box
    is compared with the same box in the other tiles along the crease (``_crease_darker``): it is darker, as
    a tick makes it, read ticked, and asked about."""
    shot = photographer.make_maker_shots(9560407, players=1, paper="a4", condition="folded")[0]
    assert shot.truth["dungeon"]["tiles"]["A4"] == {"acid": True}
    scan, entry = _scanned(shot, maker)
    assert scan.marks.ticks[("A4", "acid")] < 0.01 and ("A4", "acid") not in scan.marks.darker
    assert entry["dungeon"]["tiles"]["A4"] == {"acid": True}
    named = {doubt["where"]: doubt["why"] for doubt in entry["needs_review"]}
    assert "is Acid Pond's box ticked in A4? Read as ticked" in named["A4"]
    assert "darker than in the other tiles along it" in named["A4"]


def test_a_spells_cast_box_is_compared_with_the_cast_boxes_of_spells_not_got(maker):
    """``benchmarks/maker_accuracy.py --sheets 10 --seed 956``, dim, sheet 9560709: the Wild build cast box read
    ticked at 22% of ink, the photo showing it as light as Mend's, named nowhere; no cast box read surely empty,
    so ``RECORD_PALER`` had nothing to compare it with. Mend's ring is surely empty, so its cast box is empty
    by the rules (only a spell got is cast), and is compared with."""
    shot = photographer.make_maker_shots(9560709, players=1, paper="a4", condition="dim")[0]
    assert "wild" not in shot.truth["spells_cast"] and "mend" not in shot.truth["spells_got"]
    _, entry = _scanned(shot, maker)
    named = {doubt["where"]: doubt["why"] for doubt in entry["needs_review"]}
    # Read without the dim photo's noisy blue channel (``scanner.ink.CHANNEL_LEAST``), the box's grain is
    # lighter than the page's faint ticks and reads ticked at 11%: wrong, but asked about, never silently.
    if "wild" in entry["record"]["spells_cast"]:
        assert "Read as ticked" in named["Wild build cast"]
    else:
        assert "no darker than the empty boxes of its kind" in named["Wild build cast"]


@pytest.mark.parametrize("seed, paper", [(9680301, "a4"), (10302, "letter")])
def test_a_sheet_bowed_along_its_middle_and_photographed_askew_is_read_as_built(maker, seed, paper):
    """A sheet bowed up 17-18 mm along its middle, photographed 23 degrees off square, moves its middle 10-12
    mm from where the corner markers put it. The first registration pass reaches 6 mm, and left the tiles
    beyond it where the others' median put them: seed 9680301 read 12 of its 36 tiles right, every tile
    asked about, and 10302 32 of them. A second pass reaching 10 mm, on a sheet the first moved 4 mm apart
    or more, reads every tile as built."""
    shot = photographer.make_maker_shots(seed, players=1, paper=paper, condition="curled")[0]
    assert shot.truth["camera"]["curl_side"] == "V" and shot.truth["camera"]["curl_mm"] > 17
    _, entry = _scanned(shot, maker)

    def held(spec: dict) -> dict:
        return {key: value for key, value in spec.items() if key != "loot"}

    read, built = entry["dungeon"]["tiles"], shot.truth["dungeon"]["tiles"]
    assert [name for name in sorted(set(read) | set(built)) if held(read.get(name, {})) != held(built.get(name, {}))] \
        == []


@pytest.mark.parametrize("seed, cast", [(9770009, ["bargain"]), (96105012, ["bargain"])])
def test_the_cast_column_at_a_curled_pages_edge_is_registered_to_its_print(maker, seed, cast):
    """Seed 977, curled 18 mm at the page's right edge, sheet 9770009: the registration's smaller tiles at
    the edge found moves of 3.7-4.9 mm, beyond their reach, and were given the whole sheet's median move; the
    Spells' cast boxes were read about 2 mm off their print, and Bargain's tick read 0% (only a neighbour's
    trace was asked about). Sheet 96105012, curled: the print under the curl in the Wild build cast box read
    as a tick (asked about). The edge's tiles may reach further where one beside them moved alike, and a tile not found
    takes its neighbours' move: the casts read as made, and no cast box is asked about."""
    shot = photographer.make_maker_shots(seed, players=1, paper="a4", condition="curled")[0]
    assert shot.truth["spells_cast"] == cast
    _, entry = _scanned(shot, maker)
    assert entry["record"]["spells_cast"] == cast
    assert [doubt["where"] for doubt in entry["needs_review"] if doubt["where"].endswith(" cast")] == []


def test_a_spell_got_and_read_not_cast_beside_a_cast_box_asked_about_is_asked_too(maker):
    """When the registration leaves the cast column a box off its print, a tick is read faintly in the box
    beside its own: the spell got but read not cast is asked about with it."""
    boxes = {f"spell_{spell['id']}{end}": 0.0 for spell in maker.spells for end in ("", "_cast")}
    marks = MakerMarks({}, {}, boxes)
    asked = [Entry("Wild build cast", Rule.UNSURE_MARK, "is the Wild build cast box ticked?", 0.5)]
    more = _cast_a_box_off(maker, marks, ["bargain"], [], asked)
    assert [(doubt.where, doubt.why.endswith("a tick read a box off?")) for doubt in more] == [("Bargain cast", True)]
    assert _cast_a_box_off(maker, marks, ["bargain"], ["bargain"], asked) == []     # read cast: nothing to ask
    assert _cast_a_box_off(maker, marks, ["reroll"], [], asked) == []               # Reroll's is not beside it
