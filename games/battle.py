"""Doodle dice monsters: the combat phase, played round by round by the rules of RULES.md section 5.

``play_battle(roster, rng)`` plays two players' rosters to the end and returns the
result with its log: a list of events (plain dicts, one per thing that happened,
each with its ``round`` and ``event`` kind), which ``scrawl.battle_report`` turns
into lines. The only randomness is ``rng.randint(1, sides)``, one call per die
rolled, in this order: initiative ties (the tied cores, highest roll first, a
tied roll rolls again), and for each attack: nullifier, weapon die, black
reroll, white reroll, shield die. The same roster and the same rolls give the
same battle, so a seeded run and a hand-worked case go through the same code.

The table
  The roster is the table right after round 1's sketching phase: round 1 is
  straight combat, and the roster's monsters count as sketched in round 1 (a
  brown core cannot be attacked then). Every later round first gathers dice and
  sketches, then fights.

How each player plays, where the rules leave the choice to them
  Gathering   up to 5 dice from the reserve into the active pool, largest first.
  Sketching   every active die is sketched, largest first: a new monster takes
              one die as its core and the next as its weapon; a last odd die is
              a monster of a core alone. New monsters are numbered after the
              roster's ("Ann's monster 3") and do not add parts to old ones.
  Actions     each action of a turn is the first of these that can be done:
              1. orange: disable the largest enemy weapon no larger than its core
                 whose monster has yet to act this round, if that weapon is
                 larger than its own largest weapon ready to attack;
              2. attack with its largest weapon not used this turn;
              3. green: heal an ally's most damaged part by n;
              4. purple: gather one more die, if the reserve holds more than
                 the next gathering takes (5; the rest would wait a round);
              5. struggle, if it has not this round;
              otherwise the monster waits.
  Targets     an attack aims at the enemy core with the least life left that
              the attack's average damage would fell; failing that, at the enemy
              part with the least life left (cores first on ties). Ties: the
              enemy's monsters and parts in the order they are listed.
  Defending   pink pulls the first enemy attack each round that is aimed at an
              ally (the attacker then picks a target in the pink monster); a
              shield takes every attack aimed at another part of its monster
              (a shield not yet hit this round first, then the one with the
              most life); a nullifier is declared on the first attack each
              round it may cancel.
  Rerolls     black: once per round, an enemy weapon roll above half its sides,
              at any monster of its side, is rolled again (the side's first
              black monster with its reroll left). White: once per round, its
              own weapon roll of half its sides or less is rolled again.

The colour powers as played (n = core sides // 4): red +n on each weapon roll
(not struggling); blue: its core and shields take n less from each hit; green
heals its most damaged part (the core on ties) by n at the start of its turn;
yellow acts first; brown cannot be attacked in the round it is sketched; gray:
when a shield takes its attack, n of the damage goes on to the part aimed at,
and neither blue nor a shield roll reduces that n; its attacks ignore blue's
reduction; colourless has the power of its ally with the largest core (first
listed on ties; its own n), none without an ally; an orange core disables only
weapons, and a disabled weapon cannot attack until the end of the round.

Struggling is an attack of the core: 1 damage per 4 sides of the core die, no
roll. An attack when the enemy has no monster in play makes the enemy remove
its smallest active die, or its smallest reserve die when none is active. A
player with no monsters, no active dice and no reserve dice has lost. A battle
still going after ``round_cap`` rounds is a draw.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from games.monsters import Die, Roster, monster_label, part_label

ROUND_CAP = 100
GATHER = 5


@dataclass(frozen=True)
class Battle:
    players: tuple[str, str]
    winner: str | None          # None: a draw
    reason: str                 # "out" (the loser has nothing left) or "round_cap"
    rounds: int                 # the round the battle ended in
    log: tuple[dict, ...] = field(compare=False)
    left: dict = field(compare=False, default_factory=dict)     # player -> monsters and dice still in play


@dataclass(frozen=True)
class Odds:
    players: tuple[str, str]
    wins: tuple[int, int]
    draws: int
    rounds: tuple[int, ...]     # how long each battle lasted
    first_seed: int
    round_cap: int

    @property
    def trials(self) -> int:
        return len(self.rounds)

    def chance(self, player: str) -> float:
        return self.wins[self.players.index(player)] / self.trials


def seeded_rng(seed: int) -> random.Random:
    """The dice of battle ``seed``: the same seed, the same rolls."""
    return random.Random(f"dungeon-scrawl/battle/v1/{seed}")


def play_battle(roster: Roster, rng: random.Random, *, round_cap: int = ROUND_CAP) -> Battle:
    """Play the battle between the roster's two players to the end (or to ``round_cap`` rounds)."""
    if len(roster.players) != 2:
        raise ValueError(f"a battle is between two players, not {len(roster.players)}")
    return _Combat(roster, rng).play(round_cap)


def battle_odds(roster: Roster, seed: int, trials: int, *, round_cap: int = ROUND_CAP) -> Odds:
    """Play ``trials`` battles with seeds ``seed``, ``seed + 1``, ... and count who won each."""
    battles = [play_battle(roster, seeded_rng(seed + i), round_cap=round_cap) for i in range(trials)]
    names = tuple(player.name for player in roster.players)
    return Odds(names, tuple(sum(b.winner == name for b in battles) for name in names),
                sum(b.winner is None for b in battles), tuple(b.rounds for b in battles), seed, round_cap)


# -- the table during a battle ---------------------------------------------------------------
@dataclass(eq=False)
class _Part:
    type: str
    die: Die
    damage: int
    label: str
    hit: bool = False           # a shield hit this round has rolled its die
    declared: bool = False      # a nullifier declared this round
    disabled: bool = False      # by an orange core, until the end of the round

    @property
    def life(self) -> int:
        return self.die.sides - self.damage


@dataclass(eq=False)
class _Monster:
    label: str
    side: int
    core: _Part
    parts: list[_Part]
    sketched: int               # the round it was sketched in
    acted: bool = False         # has had its turn this round
    struggled: bool = False
    pulled: bool = False        # pink: pulled an attack this round
    forced: bool = False        # black: forced a reroll this round
    rerolled: bool = False      # white: rerolled this round

    def every_part(self) -> list[_Part]:
        return [self.core] + self.parts

    def working(self, kind: str) -> list[_Part]:
        return [part for part in self.parts if part.type == kind and not part.disabled]

    def dice(self) -> list[Die]:
        return [part.die for part in self.every_part()]


@dataclass(eq=False)
class _Side:
    name: str
    reserve: list[Die]
    active: list[Die]
    monsters: list[_Monster]
    numbered: int               # monsters sketched so far, for the next one's number

    def out(self) -> bool:
        return not self.monsters and not self.active and not self.reserve


class _Combat:
    def __init__(self, roster: Roster, rng: random.Random):
        self.rng = rng
        self.log: list[dict] = []
        self.round = 0
        self.winner: _Side | None = None
        self.sides = []
        for index, player in enumerate(roster.players):
            monsters = []
            for number, monster in enumerate(player.monsters, 1):
                parts = [_Part(p.type, p.die, p.damage, part_label(k, p)) for k, p in enumerate(monster.parts, 1)]
                core = _Part("core", monster.core.die, monster.core.damage, "core")
                monsters.append(_Monster(monster_label(player.name, number, monster.name), index, core, parts, 1))
            self.sides.append(_Side(player.name, list(player.reserve), list(player.active), monsters,
                                    len(player.monsters)))

    def play(self, round_cap: int) -> Battle:
        for side in self.sides:
            if side.out():
                self._note("out", player=side.name)
        if any(side.out() for side in self.sides):
            standing = [side for side in self.sides if not side.out()]
            return self._result(standing[0] if len(standing) == 1 else None, "out")
        while self.round < round_cap:
            self.round += 1
            if self.round > 1:
                for side in self.sides:
                    self._gather(side, GATHER, by=None)
                for side in self.sides:
                    self._sketch(side)
            self._new_round()
            for monster in self._initiative():
                if monster in self.sides[monster.side].monsters:
                    self._turn(monster)
                    if self.winner is not None:
                        return self._result(self.winner, "out")
        return self._result(None, "round_cap")

    def _result(self, winner: _Side | None, reason: str) -> Battle:
        self._note("end", winner=winner.name if winner else None, reason=reason)
        left = {side.name: {"monsters": [m.label for m in side.monsters], "active": [d.name for d in side.active],
                            "reserve": [d.name for d in side.reserve]} for side in self.sides}
        return Battle((self.sides[0].name, self.sides[1].name), winner.name if winner else None, reason,
                      self.round, tuple(self.log), left)

    def _note(self, event: str, **fields) -> None:
        self.log.append({"round": self.round, "event": event, **fields})

    def _roll(self, die: Die) -> int:
        return self.rng.randint(1, die.sides)

    # -- the powers -------------------------------------------------------------------------
    def _power(self, monster: _Monster) -> str:
        """The colour power the monster has now: its core's colour, or what a colourless core copies."""
        colour = monster.core.die.colour
        if colour != "colourless":
            return colour
        allies = [m for m in self.sides[monster.side].monsters
                  if m is not monster and m.core.die.colour != "colourless"]
        if not allies:
            return "none"
        return max(allies, key=lambda m: m.core.die.sides).core.die.colour      # first listed on ties

    def _attackable(self, side: _Side) -> list[_Monster]:
        # A brown core cannot be attacked in the round it is sketched.
        return [m for m in side.monsters if not (self._power(m) == "brown" and m.sketched == self.round)]

    # -- a round ------------------------------------------------------------------------------
    def _gather(self, side: _Side, count: int, by: str | None) -> None:
        taken = sorted(side.reserve, key=lambda d: -d.sides)[:count]
        for die in taken:
            side.reserve.remove(die)
        side.active += taken
        if taken:
            self._note("gather", player=side.name, dice=[d.name for d in taken], by=by)

    def _sketch(self, side: _Side) -> None:
        dice = sorted(side.active, key=lambda d: -d.sides)
        side.active = []
        while dice:
            core, dice = dice[0], dice[1:]
            weapons, dice = dice[:1], dice[1:]
            side.numbered += 1
            label = monster_label(side.name, side.numbered, None)
            parts = [_Part("weapon", die, 0, "part 1") for die in weapons]
            side.monsters.append(_Monster(label, self.sides.index(side), _Part("core", core, 0, "core"), parts,
                                          self.round))
            self._note("sketch", player=side.name, monster=label, core=core.name,
                       parts=[{"part": "part 1", "type": "weapon", "die": d.name} for d in weapons])

    def _new_round(self) -> None:
        for side in self.sides:
            for monster in side.monsters:
                monster.acted = monster.struggled = monster.pulled = monster.forced = monster.rerolled = False
                for part in monster.every_part():
                    part.hit = part.declared = part.disabled = False

    def _initiative(self) -> list[_Monster]:
        """Smallest core first; yellow cores before all the others; tied cores roll, highest first."""
        everyone = [m for side in self.sides for m in side.monsters]
        rolls: dict[_Monster, list[int]] = {m: [] for m in everyone}
        order = []
        for key in sorted({(self._power(m) != "yellow", m.core.die.sides) for m in everyone}):
            tied = [m for m in everyone if (self._power(m) != "yellow", m.core.die.sides) == key]
            order += self._break_tie(tied, rolls)
        self._note("initiative", order=[{"monster": m.label, "core": m.core.die.name,
                                         "yellow": self._power(m) == "yellow", "rolls": rolls[m]} for m in order])
        return order

    def _break_tie(self, tied: list[_Monster], rolls: dict) -> list[_Monster]:
        if len(tied) < 2:
            return tied
        rolled = [(self._roll(m.core.die), m) for m in tied]
        for roll, monster in rolled:
            rolls[monster].append(roll)
        order = []
        for value in sorted({roll for roll, _ in rolled}, reverse=True):
            order += self._break_tie([m for roll, m in rolled if roll == value], rolls)
        return order

    # -- a turn -------------------------------------------------------------------------------
    def _turn(self, monster: _Monster) -> None:
        if self._power(monster) == "green":
            self._heal(monster, monster, by=None)
        actions = 1 + len(monster.working("combo"))
        used: list[_Part] = []
        done = 0
        while done < actions and self.winner is None and self._act(monster, used):
            done += 1
        if not done:
            self._note("wait", monster=monster.label)
        monster.acted = True

    def _act(self, monster: _Monster, used: list[_Part]) -> bool:
        """One action, the first of the policy's list that can be done; False when none can."""
        side, enemy = self.sides[monster.side], self.sides[1 - monster.side]
        power = self._power(monster)
        can_attack = bool(self._attackable(enemy)) or not enemy.monsters
        ready = [p for p in monster.working("weapon") if p not in used]
        own = max((p.die.sides for p in ready), default=0) if can_attack else 0
        if power == "orange":
            aims = [(m, p) for m in enemy.monsters if not m.acted for p in m.working("weapon")
                    if own < p.die.sides <= monster.core.die.sides]
            if aims:
                target, part = max(aims, key=lambda mp: mp[1].die.sides)
                part.disabled = True
                self._note("disable", monster=monster.label, target=target.label, part=part.label, die=part.die.name)
                return True
        if ready and can_attack:
            weapon = max(ready, key=lambda p: p.die.sides)
            used.append(weapon)
            self._attack(monster, weapon)
            return True
        if power == "green":
            hurt = [m for m in side.monsters if m is not monster and any(p.damage for p in m.every_part())]
            if hurt:
                self._heal(max(hurt, key=lambda m: max(p.damage for p in m.every_part())), monster, by=monster.label)
                return True
        if power == "purple" and len(side.reserve) > GATHER:
            self._gather(side, 1, by=monster.label)
            return True
        if not monster.struggled and can_attack:
            monster.struggled = True
            self._attack(monster, None)
            return True
        return False

    def _heal(self, patient: _Monster, healer: _Monster, by: str | None) -> None:
        part = max(patient.every_part(), key=lambda p: p.damage)     # the core on ties: it is listed first
        amount = min(part.damage, healer.core.die.n)
        if amount:
            part.damage -= amount
            self._note("heal", monster=patient.label, part=part.label, amount=amount, life=part.life, by=by)

    # -- an attack ----------------------------------------------------------------------------
    def _attack(self, attacker: _Monster, weapon: _Part | None) -> None:
        """An attack with a weapon, or a struggle (``weapon`` None), in the order of operations."""
        enemy = self.sides[1 - attacker.side]
        power, n = self._power(attacker), attacker.core.die.n
        bonus = n if weapon is not None and power == "red" else 0
        average = (weapon.die.sides + 1) / 2 + bonus if weapon is not None else attacker.core.die.n
        struck = weapon or attacker.core
        if not enemy.monsters:
            self._note("attack", monster=attacker.label, part=struck.label, die=struck.die.name,
                       struggle=weapon is None, target=None, aimed=None)
            self._remove_die(enemy, attacker)
            return
        target, aimed = _aim(self._attackable(enemy), average)
        self._note("attack", monster=attacker.label, part=struck.label, die=struck.die.name, struggle=weapon is None,
                   target=target.label, aimed=aimed.label)
        target, aimed = self._pink_pull(enemy, target, aimed, average)
        hit, shield = self._shield_takes(target, aimed)
        if self._nullified(target, hit):
            return
        # 4. The weapon die; 5. black and white rerolls. Struggling rolls nothing.
        damage = self._weapon_roll(attacker, weapon, enemy, power, bonus) if weapon is not None else attacker.core.die.n
        # Gray: n of the damage goes past a shield that took the attack, onto the part aimed at.
        passed = min(n, damage) if shield is not None and power == "gray" else 0
        damage -= passed
        # 6. The shield die, the first time each round the shield is hit.
        blocked = 0
        if hit.type == "shield" and not hit.hit:
            hit.hit = True
            blocked = self._roll(hit.die)
            self._note("shield_roll", monster=target.label, part=hit.label, die=hit.die.name, roll=blocked)
        # 7. The damage taken.
        self._damage(target, hit, damage, blocked, ignores_blue=power == "gray")
        if passed and self.winner is None and aimed in target.every_part() and target in enemy.monsters:
            self._damage(target, aimed, passed, 0, ignores_blue=True, passed=True)

    def _pink_pull(self, enemy: _Side, target: _Monster, aimed: _Part, average: float) -> tuple[_Monster, _Part]:
        """Step 1: a pink monster pulls the first attack each round aimed at an ally onto itself."""
        for pink in self._attackable(enemy):
            if pink is not target and not pink.pulled and self._power(pink) == "pink":
                pink.pulled = True
                target, aimed = _aim([pink], average)
                self._note("pink", monster=pink.label, aimed=aimed.label)
                break
        return target, aimed

    def _shield_takes(self, target: _Monster, aimed: _Part) -> tuple[_Part, _Part | None]:
        """Step 2: the part hit, and the shield that takes an attack aimed at another part of its monster."""
        hit, shield = aimed, None
        shields = [p for p in target.working("shield") if p is not aimed]
        if aimed.type != "shield" and shields:
            shield = min(shields, key=lambda p: (p.hit, -p.life))
            hit = shield
            self._note("shield", monster=target.label, part=shield.label, instead_of=aimed.label)
        return hit, shield

    def _nullified(self, target: _Monster, hit: _Part) -> bool:
        """Step 3: whether a nullifier (not the part hit), declared on the first attack each round it may cancel,
        cancels this one."""
        for nullifier in target.working("nullifier"):
            if nullifier is not hit and not nullifier.declared:
                nullifier.declared = True
                roll = self._roll(nullifier.die)
                cancelled = roll <= nullifier.die.sides // 2
                self._note("nullifier", monster=target.label, part=nullifier.label, die=nullifier.die.name, roll=roll,
                           cancelled=cancelled)
                return cancelled
        return False

    def _weapon_roll(self, attacker: _Monster, weapon: _Part, enemy: _Side, power: str, bonus: int) -> int:
        """Steps 4 and 5: the damage of the weapon die's roll, after black's and white's rerolls, with red's bonus."""
        roll = self._roll(weapon.die)
        self._note("roll", monster=attacker.label, part=weapon.label, die=weapon.die.name, roll=roll, bonus=bonus)
        half = weapon.die.sides // 2
        black = [m for m in enemy.monsters if self._power(m) == "black" and not m.forced]
        if black and roll > half:
            black[0].forced = True
            roll = self._reroll(weapon, roll, black[0], "black")
        if power == "white" and not attacker.rerolled and roll <= half:
            attacker.rerolled = True
            roll = self._reroll(weapon, roll, attacker, "white")
        return roll + bonus

    def _reroll(self, weapon: _Part, was: int, by: _Monster, colour: str) -> int:
        roll = self._roll(weapon.die)
        self._note("reroll", monster=by.label, colour=colour, die=weapon.die.name, was=was, roll=roll)
        return roll

    def _damage(self, target: _Monster, part: _Part, dealt: int, blocked: int, *, ignores_blue: bool,
                passed: bool = False) -> None:
        side = self.sides[target.side]
        # Blue: the core and the shields take n less from each hit.
        reduced = 0
        if not ignores_blue and self._power(target) == "blue" and part.type in ("core", "shield"):
            reduced = target.core.die.n
        amount = max(0, dealt - blocked - reduced)
        part.damage += amount
        self._note("damage", monster=target.label, part=part.label, dealt=dealt, blocked=blocked,
                   reduced=min(reduced, max(0, dealt - blocked)), amount=amount, life=max(0, part.life), passed=passed)
        if part.life > 0:
            return
        if part is target.core:
            side.monsters.remove(target)
            self._note("monster_falls", monster=target.label, dice=[d.name for d in target.dice()])
        else:
            target.parts.remove(part)
            self._note("part_falls", monster=target.label, part=part.label, die=part.die.name)
        self._check_out(side)

    def _remove_die(self, side: _Side, attacker: _Monster) -> None:
        pool = side.active if side.active else side.reserve
        die = min(pool, key=lambda d: d.sides)
        pool.remove(die)
        self._note("die_removed", player=side.name, die=die.name, pool="active" if pool is side.active else "reserve",
                   by=attacker.label)
        self._check_out(side)

    def _check_out(self, side: _Side) -> None:
        if side.out():
            self._note("out", player=side.name)
            self.winner = self.sides[1 - self.sides.index(side)]


def _aim(monsters: list[_Monster], average: float) -> tuple[_Monster, _Part]:
    """The target policy: the weakest core the average hit would fell, else the part with the least life."""
    cores = [(m, m.core) for m in monsters if m.core.life <= average]
    if cores:
        return min(cores, key=lambda mp: mp[1].life)
    return min(((m, p) for m in monsters for p in m.every_part()), key=lambda mp: (mp[1].life, mp[1] is not mp[0].core))
