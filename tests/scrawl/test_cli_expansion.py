"""The expansion maps from the command line: the deal rolls the die and says what to mark."""
import json

from games.die import roll_rounds
from games.mapfile import load_map
from tests_support import run_cli


def test_deal_on_an_expansion_map_rolls_the_die_and_says_what_to_mark(capsys):
    code, out, err = run_cli(capsys, "deal", "--seed", "12", "--map", "6")
    assert code == 0 and err == ""
    rolls = roll_rounds(12, 7)
    dungeon = load_map("map6")
    diamond_room = {item.number: room.name for room, item in dungeon.rooms_with("diamond")}
    assert "Replay it with: scrawl deal --seed 12 --map 6" in out
    assert f"Roll {rolls[0]} (" in out
    assert f"Cross out Diamond {rolls[0]} (room {diamond_room[rolls[0]]})" in out
    assert out.count("Roll ") == 7


def test_deal_json_on_an_expansion_map_carries_the_rolls_and_a_plain_deal_does_not(capsys):
    code, out, _ = run_cli(capsys, "deal", "--seed", "12", "--map", "5", "--json")
    rounds = json.loads(out)["rounds"]
    assert code == 0 and [r["roll"]["number"] for r in rounds] == list(roll_rounds(12, 7))
    code, out, _ = run_cli(capsys, "deal", "--seed", "12", "--json")
    assert all("roll" not in r for r in json.loads(out)["rounds"])
    # The cards are the same whichever map is played.
    code, plain, _ = run_cli(capsys, "deal", "--seed", "12")
    assert code == 0 and "Roll" not in plain


def test_deal_on_map_1_needs_no_die_and_a_random_map_is_refused(capsys):
    code, out, _ = run_cli(capsys, "deal", "--seed", "3", "--map", "1")
    assert code == 0 and "Roll" not in out
    code, _, err = run_cli(capsys, "deal", "--map", "random")
    assert code == 2 and err.startswith("scrawl: error: scrawl deal --map takes a map that is the same for everyone")


def test_sheet_prints_an_expansion_map_and_a_random_one_with_features(capsys, tmp_path):
    code, out, err = run_cli(capsys, "sheet", "--map", "3", "-o", tmp_path / "m3.pdf")
    assert code == 0 and err == "" and "The Bone Vault" in out
    layout = json.loads((tmp_path / "m3.layout.json").read_text())
    assert layout["map"]["id"] == "map3"
    assert set(layout["map"]["features"]) == {"caves", "diamonds", "doors", "skull"}
    kinds = {side["kind"].split(":")[0] for side in layout["pages"][0]["sides"]}
    assert "magic_door" in kinds
    code, out, _ = run_cli(capsys, "sheet", "--map", "random", "--seed", "7", "--features", "runes,emeralds",
                           "-o", tmp_path / "r.pdf")
    assert code == 0 and "run with --map random --seed 7 --features runes,emeralds to print this dungeon again" in out
    layout = json.loads((tmp_path / "r.layout.json").read_text())
    code_ = layout["game_code"]
    assert layout["pages"][0]["qr_text"].startswith(f"DS/L2/DOODLES/A4/P1.{code_}/RANDOM.1.7.ER/")
    assert "curse_1_top" in layout["pages"][0]["boxes"]
