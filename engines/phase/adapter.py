#!/usr/bin/env python3
"""mtg-oracle adapter (protocol 2) for phase.rs, driven through the PyPI wheel `phase-python`.

Run it with the interpreter of a venv that has `engines/phase/requirements.txt` installed:

    mtg-oracle check --engine "/path/to/venv/bin/python engines/phase/adapter.py" --validate

Every card is built from the scenario's own `cards` (name, cost, types and Oracle text) with
`phase.build_oracle_face`: phase parses the Oracle text itself, and a card whose parse has parts
phase marks `Unimplemented` makes the scenario `unsupported` with phase's own description.

The game is set up by starting a phase game with each player's cards as their deck, then writing
the exact zones into the exported state and loading it back with phase's debug mode on (debug
actions give mana, put permanents onto the battlefield, draw, and move cards for the steps that
come from outside the scenario). Everything the outcome reports comes from phase: its events
(`SpellCast`, `ZoneChanged`, `PlayerPerformedAction` searched/shuffled, `CardsRevealed`, ...),
its prompts (the cards a `SearchChoice` offers, and the ones selected) and its final zones.
"""
import importlib.metadata
import json
import os
import re
import sys
import uuid

import phase

try:  # the installed wheel's version (engines/phase/requirements.txt pins 0.103.0)
    ENGINE_VERSION = importlib.metadata.version("phase-python")
except importlib.metadata.PackageNotFoundError:
    ENGINE_VERSION = "unknown"
TRACE = int(os.environ.get("PHASE_ADAPTER_TRACE", "0"))  # >0: log phase's events to stderr

# Observables (protocol 2) phase reports. `searched`: phase logs its searches (its SearchChoice
# prompt and SearchedLibrary event), so they are reported and judged. It has no per-player
# knowledge of hidden cards (`known`), does not say when a search was limited to the top of a
# library (`library_top`), logs no "looked at" event, no reveal of an empty hand and no trigger
# kind; a card put back on top of the library it was searched from is not logged as a move either.
OBSERVABLES = ["searched"]

# `dies` and `to_graveyard` steps put creatures into the graveyard through phase's own state-based
# actions (toughness 0), so replacement effects and leave-the-battlefield effects apply; any other
# permanent makes the scenario unsupported. `step-exile` is left out: phase could only do it by a
# debug move that skips replacement and leave-the-battlefield effects.
FEATURES = ["hypothetical-card", "step-dies", "step-to-graveyard"]


class Unsupported(Exception):
    """The scenario needs something phase (or this adapter) can't do."""


class NoSuchChoice(Exception):
    """A scripted decision phase does not offer."""

    def __init__(self, decision, offered, message):
        super().__init__(message)
        self.decision = decision
        self.offered = offered
        self.message = message


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


# ---------------------------------------------------------------------------------------------
# Cards


COLOR_LETTERS = "WUBRG"
MANA_TYPES = ["White", "Blue", "Black", "Red", "Green", "Colorless"]
KEYWORD_LINE = re.compile(r"^[A-Za-z][a-z]+(?:[ -][a-z]+)?(?: (?:\{[^}]*\})+| \d+| X)?$")


def mtgjson_keywords(oracle):
    """The keyword abilities of an Oracle text, as MTGJSON lists them (`keywords`): each line
    that is a comma-separated list of keywords ("Flying, trample", "Dredge 4", "Flashback {1}{U}")
    once its reminder text is removed."""
    keywords = []
    for line in (oracle or "").split("\n"):
        line = re.sub(r"\s*\([^)]*\)", "", line).strip()
        if not line or line.endswith("."):
            continue
        parts = [p.strip() for p in line.split(",")]
        if all(KEYWORD_LINE.match(p) for p in parts):
            for p in parts:
                word = re.split(r" (?=[{\dX])", p)[0]
                keywords.append(word[0].upper() + word[1:])
    return keywords


def mtgjson_card(card, layout="normal"):
    """An MTGJSON-shaped (AtomicCard) dict of one card or split half from the scenario's `cards`."""
    cost = card.get("mana_cost") or ""
    mana_value, colors = 0, set()
    for symbol in re.findall(r"\{([^}]*)\}", cost):
        if symbol.isdigit():
            mana_value += int(symbol)
        elif symbol not in ("X", "Y", "Z"):
            mana_value += 1
            colors.update(ch for ch in symbol if ch in COLOR_LETTERS)
    if card.get("colors"):
        colors = {c for c in card["colors"] if c in COLOR_LETTERS}
    types = list(card.get("types") or [])
    type_line = " ".join(list(card.get("supertypes") or []) + types)
    if card.get("subtypes"):
        type_line += " — " + " ".join(card["subtypes"])
    data = {
        "name": card["name"],
        "manaCost": cost,
        "type": type_line,
        "types": types,
        "subtypes": list(card.get("subtypes") or []),
        "supertypes": list(card.get("supertypes") or []),
        "text": card.get("oracle") or "",
        "layout": layout,
        "identifiers": {},
        "colorIdentity": sorted(colors),
        "colors": sorted(colors),
        "manaValue": mana_value,
        "keywords": mtgjson_keywords(card.get("oracle")),
    }
    if card.get("power_toughness"):
        data["power"], data["toughness"] = card["power_toughness"].split("/")
    return data


def unimplemented_parts(value, found):
    """Collects the descriptions of every `Unimplemented` node and `Unknown` mode of a parsed card
    face (phase's own marks for Oracle text it could not turn into rules)."""
    if isinstance(value, dict):
        if value.get("type") == "Unimplemented":
            found.append(value.get("description") or value.get("name") or "unimplemented")
        if isinstance(value.get("Unknown"), str):  # e.g. a trigger condition phase couldn't read
            found.append(f"unknown: {value['Unknown']}")
        for item in value.values():
            unimplemented_parts(item, found)
    elif isinstance(value, list):
        for item in value:
            unimplemented_parts(item, found)
    return found


FACE_CACHE = {}


def build_faces(card):
    """The phase card faces of one scenario card (two for a split card), cached by definition."""
    key = json.dumps(card, sort_keys=True)
    if key in FACE_CACHE:
        return FACE_CACHE[key]
    if card.get("split"):
        # phase joins the halves of a split card by their Scryfall oracle id: a stable made-up one.
        oracle_id = str(uuid.uuid5(uuid.NAMESPACE_URL, "mtg-oracle-card:" + card["name"]))
        faces = []
        for index, half in enumerate(card["split"]):
            face = phase.build_oracle_face_multi(mtgjson_card(half, "split"), oracle_id)
            face = dict(face)
            face["layout"] = "split"
            face["face_index"] = index
            faces.append(face)
    else:
        faces = [phase.build_oracle_face(mtgjson_card(card), None)]
    missing = []
    for face in faces:
        unimplemented_parts(face.get("abilities"), missing)
        unimplemented_parts(face.get("triggers"), missing)
        unimplemented_parts(face.get("static_abilities"), missing)
        unimplemented_parts(face.get("replacements"), missing)
    for face in faces:
        for static in face.get("static_abilities") or []:
            if isinstance(static.get("mode"), dict) and "RevealTopOfLibrary" in static["mode"]:
                # phase keeps "play with the top card revealed" as a standing state and logs no
                # reveal as the top card changes: the reveals can't be reported.
                missing.append(f"{static.get('description')} (phase logs no reveal event for it)")
    FACE_CACHE[key] = (faces, missing)
    return faces, missing


ENGINE_CACHE = {}
# A vanilla card each deck gets so that phase starts a game for a player with no cards; it is
# deleted from the state before the game is loaded.
PLACEHOLDER = {"name": "Mtg Oracle Placeholder", "manaCost": "", "type": "Artifact", "types": ["Artifact"],
               "subtypes": [], "supertypes": [], "text": "", "layout": "normal", "identifiers": {},
               "colorIdentity": [], "colors": [], "manaValue": 0}


def build_engine(cards):
    """A phase `Engine` with exactly the scenario's cards (cached by the set of definitions)."""
    key = json.dumps(sorted(json.dumps(c, sort_keys=True) for c in cards))
    if key in ENGINE_CACHE:
        return ENGINE_CACHE[key]
    database = {}
    for card in cards:
        faces, missing = build_faces(card)
        if missing:
            raise Unsupported(f"phase can't run {card['name']} as written: " + "; ".join(missing))
        for face in faces:
            database[face["name"].lower()] = face
    database[PLACEHOLDER["name"].lower()] = phase.build_oracle_face(PLACEHOLDER, None)
    engine = phase.Engine.from_json(json.dumps(database))
    ENGINE_CACHE[key] = engine
    return engine


# ---------------------------------------------------------------------------------------------
# A run


def debug(action_type, data):
    """A phase debug action (allowed by the debug mode the set-up turns on)."""
    return {"type": "Debug", "data": {"type": action_type, "data": data}}


class Run:
    """One scenario in phase: its set-up, the calls to phase and the event log they produce."""

    def __init__(self, scenario, mode):
        self.scenario = scenario
        self.scripted = mode == "scripted"
        self.players = [p["name"] for p in scenario["players"]]
        self.seat = {name: i for i, name in enumerate(self.players)}
        self.cards = {c["name"]: c for c in scenario["cards"]}
        self.events = []
        self.offers = []
        self.step = 0
        self.ids = {}  # phase object id -> scenario card id
        self.objects = {}  # scenario card id -> phase object id
        self.owner = {}  # scenario card id -> owner name
        self.used_decisions = set()
        self.token_counts = {}
        self.pending_search = None  # the searched event waiting for its found cards
        self.triggers = {}  # phase stack entry id -> its triggered event
        self.cost_choices = {}  # the current step's cost choices (x, sacrifice, discard)
        self.activating, self.activating_name = None, None  # the ability a step activates
        self.actor = 0
        self.draws = {}  # (step, seat) -> draws (and draws replaced by dredge) so far
        self.search_leftover = {}  # player -> (decision index, scripted cards not yet found, step, offer)
        self.x_chosen = {}  # object id -> X phase reported before the spell was cast

    # -- set-up -------------------------------------------------------------------------------

    def setup(self):
        s = self.scenario
        for player in s["players"]:
            if player.get("outside"):
                raise Unsupported("cards outside the game: phase has no zone for them")
            for zone in ("library", "hand", "graveyard"):
                for card in player.get(zone) or []:
                    if card.get("face_down"):
                        raise Unsupported("face-down cards")
        placements = []  # (owner, card entry, zone)
        for player in s["players"]:
            for zone in ("library", "hand", "graveyard"):
                for card in player.get(zone) or []:
                    placements.append((player["name"], card, zone))
        for card in s.get("battlefield") or []:
            placements.append((card["owner"], card, "battlefield"))
        for card in s.get("exile") or []:
            placements.append((card["owner"], card, "exile"))
        for _, card, _ in placements:
            definition = self.cards.get(card["card"])
            if definition is None:
                raise Unsupported(f"no definition of {card['card']}")
            if definition.get("token") and card not in (s.get("battlefield") or []):
                raise Unsupported(f"a {card['card']} token outside the battlefield at set-up")
            if card.get("gains_flashback"):
                raise Unsupported("a card that gained flashback at set-up (Recoup, Snapcaster Mage): phase has no debug action that grants it")
        self.engine = build_engine(s["cards"])
        decks = {name: [] for name in self.players}
        for owner, card, _ in placements:
            decks[owner].append(card["card"])
        # phase wants a card in every deck: each deck gets one placeholder card, removed from the
        # state before the game is loaded (it is never in any zone).
        deck_args = [decks[name] + [PLACEHOLDER["name"]] for name in self.players]
        try:
            game = self.engine.new_game(deck_args[0], deck_args[1],
                                        extra_players=deck_args[2:] or None, seed=1,
                                        format="Standard" if len(self.players) == 2 else "FreeForAll")
        except Exception as e:  # noqa: BLE001 - phase's own reason
            raise Unsupported(f"phase can't start this game: {e}")
        for _ in range(8):
            waiting = game.waiting_for()
            if waiting["type"] != "MulliganDecision":
                break
            for pending in waiting["data"]["pending"]:
                game.apply(pending["player"], {"type": "MulliganDecision", "data": {"choice": {"type": "Keep"}}})
        exported = game.state()
        state = exported["state"]
        objects = state["objects"]
        # Match each placement to an object of that owner with that card name.
        free = {}
        for oid, obj in objects.items():
            free.setdefault((obj["owner"], obj["name"]), []).append(int(oid))
        for key in free:
            free[key].sort()
        zones = {name: {"library": [], "hand": [], "graveyard": []} for name in self.players}
        exile, battlefield, token_permanents = [], [], []
        for owner, card, zone in placements:
            name = card["card"]
            candidates = free.get((self.seat[owner], name)) or free.get((self.seat[owner], name.split(" // ")[0]))
            if not candidates:
                raise Unsupported(f"phase made no object for {name}")
            oid = candidates.pop(0)
            self.ids[oid] = card["id"]
            self.objects[card["id"]] = oid
            self.owner[card["id"]] = owner
            if zone in ("library", "hand", "graveyard"):
                zones[owner][zone].append(oid)
                objects[str(oid)]["zone"] = zone.capitalize()
            elif zone == "exile":
                exile.append(oid)
                objects[str(oid)]["zone"] = "Exile"
            elif self.cards[name].get("token"):
                # phase moves no token out of a library (111.8), so a token starts on the
                # battlefield by being written there.
                objects[str(oid)]["is_token"] = True
                objects[str(oid)]["zone"] = "Battlefield"
                objects[str(oid)]["controller"] = self.seat[card.get("controller") or owner]
                token_permanents.append(oid)
            else:
                battlefield.append((oid, card))
                zones[owner]["library"].append(oid)  # put onto the battlefield after loading
                objects[str(oid)]["zone"] = "Library"
        for player in state["players"]:
            name = self.players[player["id"]]
            for zone in ("library", "hand", "graveyard"):
                player[zone] = list(zones[name][zone])
            player["graveyard"].reverse()  # phase keeps a graveyard's top card last
            life = self.scenario["players"][player["id"]].get("life")
            if life is not None:
                player["life"] = life
        for oid in [oid for oid, obj in objects.items() if obj["name"] == PLACEHOLDER["name"]]:
            del objects[oid]
        # The set-up's history (the opening draws, phase's journal of them) is not part of the
        # scenario's position: dropping it also keeps the state small to load.
        journal = state.get("resolved_rules_journal")
        if isinstance(journal, dict) and {"entries", "nodes"} <= journal.keys():
            journal.update(entries=[], nodes=[], next_command_ordinal=0, next_settlement_node_ordinal=0)
        state["zone_changes_this_turn"] = []
        state["exile"] = exile
        state["battlefield"] = token_permanents
        state["debug_mode"] = True
        state["format_config"]["allow_debug_actions"] = True
        state["phase"] = "PreCombatMain"
        state["active_player"] = 0
        state["priority_player"] = 0
        state["turn_number"] = 2
        state["waiting_for"] = {"type": "Priority", "data": {"player": 0}}
        try:
            self.game = self.engine.load_game(exported)
        except ValueError as e:
            raise Unsupported(f"phase can't load the scenario's position: {e}")
        for oid, card in battlefield:
            self.apply(0, debug("MoveToZone", {"object_id": oid, "to_zone": "Battlefield", "simulate": False}), log=False)
            controller = self.seat[card.get("controller") or card["owner"]]
            if controller != self.seat[card["owner"]]:
                self.apply(0, debug("SetController", {"object_id": oid, "controller": controller}), log=False)
            self.apply(0, debug("SetSummoningSickness", {"object_id": oid, "sick": False}), log=False)
        # (The permanents waited at the bottom of their owner's library; the debug move took
        # them out of it, so each library is exactly the scenario's.)

    # -- engine calls and the event log -------------------------------------------------------

    def apply(self, actor, action, log=True):
        self.actor = actor
        try:
            result = self.game.apply(actor, action)
        except ValueError as e:
            raise EngineRefused(str(e))
        if TRACE:
            sys.stderr.write(f"APPLY {actor} {action if isinstance(action, dict) else (action.kind, action.data)}\n")
            for event in result.events:
                sys.stderr.write(f"   EV {json.dumps(event)[:TRACE]}\n")
        if log:
            for event in result.events:
                self.translate(event)
            self.watch_stack()
        return result

    def watch_stack(self):
        """Logs a `triggered` event for every triggered ability phase put on the stack (phase
        emits no event for some of them, so the stack is read after each action), with the
        targets phase records on it."""
        stack = self.game.stack()
        for entry in stack:  # bottom first
            kind = entry.get("kind") or {}
            if kind.get("type") != "TriggeredAbility":
                continue
            data = kind.get("data") or {}
            targets = [self.target_name(t) for t in (data.get("ability") or {}).get("targets") or []]
            event = self.triggers.get(entry["id"])
            if event is None:
                source = data.get("source_id", entry.get("source_id"))
                event = {"event": "triggered", "source": self.name_of(source),
                         "controller": self.players[entry["controller"]]}
                trigger = data.get("trigger_event") or {}
                if trigger.get("type") in ("PlayerPerformedAction", "Cycled", "Discarded", "PermanentSacrificed"):
                    event["player"] = self.players[(trigger.get("data") or {})["player_id"]]
                self.triggers[entry["id"]] = event
                self.log(event)
            if targets:
                event["targets"] = targets

    def name_of(self, oid):
        card = self.ids.get(oid)
        if card is None:
            raise Unsupported(f"phase made an object (#{oid}) this adapter can't name")
        return card

    def zone_name(self, zone, oid):
        if zone in ("Library", "Hand", "Graveyard"):
            return f"{self.owner[self.name_of(oid)]}.{zone.lower()}"
        return {"Battlefield": "battlefield", "Exile": "exile", "Stack": "stack"}.get(zone) or zone.lower()

    def log(self, event):
        event["step"] = self.step
        self.events.append(event)

    def translate(self, event):
        kind, data = event["type"], event.get("data") or {}
        if kind == "SpellCast":
            self.log(self.cast_event(data))
        elif kind == "XValueChosen":
            self.x_chosen[data["object_id"]] = data["value"]
            for event in reversed(self.events):
                if event["event"] == "cast" and event["card"] == self.ids.get(data["object_id"]):
                    event["x"] = data["value"]
                    break
        elif kind == "AbilityActivated":
            source = data["source_id"]
            if source == self.activating:
                self.log({"event": "activated", "player": self.players[self.actor], "card": self.name_of(source),
                          "ability": self.activating_name})
            else:
                raise Unsupported(f"phase activated an ability of {self.ids.get(source, source)} no step asked for")
        elif kind == "ZoneChanged":
            oid = data["object_id"]
            if data.get("from") is None:
                return  # a token created on the battlefield: its `created` event
            if oid not in self.ids:
                return
            self.log({"event": "moved", "card": self.name_of(oid),
                      "from": self.zone_name(data["from"], oid), "to": self.zone_name(data["to"], oid)})
        elif kind == "PlayerPerformedAction":
            action, who = data["action"], self.players[data["player_id"]]
            if action == "SearchedLibrary":
                event = {"event": "searched", "player": who, "zones": [], "found": []}
                self.pending_search = event
                self.log(event)
            elif action == "ShuffledLibrary":
                self.log({"event": "shuffled", "library": who})
        elif kind == "CardDrawn":
            key = (self.step, data["player_id"])
            self.draws[key] = self.draws.get(key, 0) + 1
        elif kind == "ReplacementApplied" and data.get("event_type") == "Draw":
            source = data["source_id"]
            keywords = self.game.object(source).get("keywords") or []
            if any(isinstance(k, dict) and "Dredge" in k for k in keywords):
                owner = self.game.object(source)["owner"]
                key = (self.step, owner)
                self.draws[key] = self.draws.get(key, 0) + 1
                self.log({"event": "dredged", "player": self.players[owner], "card": self.name_of(source),
                          "draw": self.draws[key]})
        elif kind == "CardsRevealed":
            cards = [self.name_of(c) for c in data.get("card_ids") or []]
            if cards:
                self.log({"event": "revealed", "player": self.players[data["player"]], "cards": cards})
        elif kind == "LifeChanged":
            amount = data.get("amount", 0)
            who = self.players[data["player_id"]]
            if amount < 0:
                self.log({"event": "lost_life", "player": who, "amount": -amount})
            elif amount > 0:
                self.log({"event": "gained_life", "player": who, "amount": amount})
        elif kind == "Discarded":
            self.log({"event": "discarded", "player": self.players[data["player_id"]], "card": self.name_of(data["object_id"])})
        elif kind == "PermanentSacrificed":
            self.log({"event": "sacrificed", "player": self.players[data["player_id"]], "card": self.name_of(data["object_id"])})
        elif kind == "CounterAdded":
            if data.get("counter_type") in ("P1P1", "Plus1Plus1", {"type": "P1P1"}):
                self.log({"event": "counters", "card": self.name_of(data["object_id"]), "count": data.get("count", 1)})
        elif kind == "TokenCreated":
            self.created_token(data)

    def cast_event(self, data):
        """A `cast` event from phase's SpellCast and the spell's stack entry (its casting variant,
        and for a split card the half phase put on the stack)."""
        oid = data["object_id"]
        card = self.name_of(oid)
        event = {"event": "cast", "player": self.players[data["controller"]], "card": card}
        entry = next((e for e in self.game.stack() if e["id"] == oid), None)
        variant = (((entry or {}).get("kind") or {}).get("data") or {}).get("casting_variant")
        if variant == "Flashback":
            event["flashback"] = True
        if oid in self.x_chosen:
            event["x"] = self.x_chosen.pop(oid)
        definition = self.definition_of(card)
        if definition is not None and definition.get("split"):
            if variant == "Fuse":
                event["face"] = definition["name"]
            else:
                event["face"] = self.game.object(oid)["name"]
        return event

    def definition_of(self, card):
        for collection in (self.scenario["players"],):
            for player in collection:
                for zone in ("library", "hand", "graveyard"):
                    for entry in player.get(zone) or []:
                        if entry["id"] == card:
                            return self.cards.get(entry["card"])
        for entry in (self.scenario.get("battlefield") or []) + (self.scenario.get("exile") or []):
            if entry["id"] == card:
                return self.cards.get(entry["card"])
        return None

    def created_token(self, data):
        oid = data["object_id"]
        obj = self.game.object(oid)
        token = (obj.get("name") or "token").lower().replace(" ", "-")
        self.token_counts[token] = self.token_counts.get(token, 0) + 1
        card = f"{token}-token-{self.token_counts[token]}"
        self.ids[oid] = card
        self.objects[card] = oid
        self.owner[card] = self.players[obj["owner"]]
        self.log({"event": "created", "player": self.players[obj["controller"]], "card": card, "token": obj.get("name")})


class EngineRefused(Exception):
    """phase rejected an action."""


class GameEnded(Exception):
    """phase ended the game (a player lost): the remaining steps can't happen."""


class Play(Run):
    """A run's steps, phase's prompts and the outcome (set-up and the event log are in `Run`)."""

    # -- priority -----------------------------------------------------------------------------

    def waiting(self):
        return self.game.waiting_for()

    def give_priority(self, seat):
        """Passes priority around until `seat` holds it (never all the way round)."""
        for _ in range(len(self.players)):
            waiting = self.waiting()
            if waiting["type"] == "GameOver":
                raise GameEnded()
            if waiting["type"] != "Priority":
                raise Unsupported(f"phase waits for {waiting['type']} where a step needs priority")
            holder = waiting["data"]["player"]
            if holder == seat:
                return
            self.apply(holder, {"type": "PassPriority"})
        raise Unsupported("phase never gave priority to the player a step names")

    def add_mana(self, seat):
        self.apply(seat, debug("AddMana", {"player_id": seat, "mana": [m for m in MANA_TYPES for _ in range(12)]}), log=False)

    def stack_size(self):
        return len(self.game.stack())

    # -- steps --------------------------------------------------------------------------------

    def run_steps(self):
        for index, step in enumerate(self.scenario["steps"]):
            self.step = index
            if step == "resolve":
                self.resolve_top()
            elif step == "resolve_all":
                while self.stack_size():
                    self.resolve_top()
            elif isinstance(step, dict) and "cast" in step:
                self.cast(step["cast"])
            elif isinstance(step, dict) and "activate" in step:
                self.activate(step["activate"])
            elif isinstance(step, dict) and "attempt" in step:
                self.attempt(step["attempt"]["step"])
            elif isinstance(step, dict) and "play" in step:
                self.play(step["play"])
            elif isinstance(step, dict) and "draw" in step:
                self.draw(step["draw"])
            elif isinstance(step, dict) and "dies" in step:
                self.dies(step["dies"])
            elif isinstance(step, dict) and "to_graveyard" in step:
                self.dies(step["to_graveyard"])  # permanents put into graveyards at once
            else:
                name = step if isinstance(step, str) else next(iter(step))
                raise Unsupported(f"the adapter can't carry out a '{name}' step in phase")
            self.check_leftovers()
        for event in self.events:
            if event["event"] == "searched" and not event["zones"]:
                raise Unsupported("phase logged a search that offered no card without saying whose library it "
                                  "searched (its SearchedLibrary event names only the searcher)")

    def check_leftovers(self):
        """A scripted search whose cards phase never offered is a choice phase doesn't offer."""
        for who, leftover in self.search_leftover.items():
            if leftover:
                index, rest, _, offer = leftover
                raise NoSuchChoice(index, offer, f"phase never offered {rest} to {who}'s search")
        self.search_leftover = {}

    def cards_of(self, spec):
        if isinstance(spec, str):
            return [spec]
        if isinstance(spec, list):
            return spec
        for key in ("card", "cards"):
            if key in spec:
                return self.cards_of(spec[key])
        raise Unsupported(f"step shape {spec}")

    def dies(self, spec):
        """Creatures die (or are put into graveyards at once) from outside the scenario: their
        toughness becomes 0 and phase's own
        state-based actions put it into the graveyard (704.5f) as the next player gets priority, with everything that follows a
        real death (leaves-the-battlefield effects, dies triggers). phase's debug move skips
        those, so it isn't used, and a non-creature can't die this way."""
        for card in self.cards_of(spec):
            oid = self.objects[card]
            if "Creature" not in ((self.game.object(oid).get("card_types") or {}).get("core_types") or []):
                raise Unsupported(f"{card} isn't a creature: phase can only move it by a debug action that skips leave-the-battlefield effects")
            self.apply(0, debug("SetBasePowerToughness", {"object_id": oid, "power": None, "toughness": 0}))
        # phase checks state-based actions (and puts triggers on the stack) when a player would
        # receive priority: the player holding it passes once.
        waiting = self.waiting()
        if waiting["type"] != "Priority":
            raise Unsupported(f"phase waits for {waiting['type']} where a creature should die")
        self.apply(waiting["data"]["player"], {"type": "PassPriority"})
        self.settle()

    def draw(self, spec):
        player = spec["player"] if isinstance(spec, dict) else spec
        count = spec.get("count", 1) if isinstance(spec, dict) else 1
        self.apply(self.seat[player], debug("DrawCards", {"player_id": self.seat[player], "count": count}))
        self.settle()

    def cast(self, spec):
        seat = self.seat[spec["player"]]
        self.give_priority(seat)
        self.add_mana(seat)
        oid = self.objects[spec["card"]]
        options = [a for a in self.game.actions() if a.kind == "CastSpell" and a.data.get("object_id") == oid]
        if not options:
            raise Unsupported(f"phase offers no way for {spec['player']} to cast {spec['card']} here")
        self.cost_choices = {"x": spec.get("x"), "discard": spec.get("discard"), "reveal": spec.get("reveal"),
                             "face": spec.get("face"), "flashback": spec.get("flashback"),
                             "phyrexian_life": spec.get("phyrexian_life") or 0}
        self.apply(seat, options[0])
        self.settle(cast_targets=spec.get("targets") or [])
        self.cost_choices = {}

    def activate(self, spec):
        seat = self.seat[spec["player"]]
        self.give_priority(seat)
        self.add_mana(seat)
        oid = self.objects[spec["card"]]
        options = sorted((a for a in self.game.actions() if a.kind == "ActivateAbility" and a.data.get("source_id") == oid),
                         key=lambda a: a.data["ability_index"])
        if not options:
            raise Unsupported(f"phase offers no ability of {spec['card']} to activate here")
        action = options[0]
        if len(options) > 1:
            abilities = self.game.object(oid).get("abilities") or []
            named = [a for a in options
                     if spec["ability"].lower() in (abilities[a.data["ability_index"]].get("description") or "").lower()]
            if len(named) != 1:
                raise Unsupported(f"can't tell which of phase's abilities of {spec['card']} is '{spec['ability']}'")
            action = named[0]
        self.cost_choices = {"x": spec.get("x"), "sacrifice": spec.get("sacrifice"), "discard": spec.get("discard")}
        self.activating, self.activating_name = oid, spec["ability"]
        try:
            self.apply(seat, action)
        except EngineRefused as e:
            raise Unsupported(f"phase refuses to activate {spec['card']}'s {spec['ability']}: {e}")
        self.settle()
        self.cost_choices = {}

    def step_options(self, kind, spec):
        """phase's legal actions for a cast, activate or play step (after giving the player
        priority and mana)."""
        seat = self.seat[spec["player"]]
        self.give_priority(seat)
        self.add_mana(seat)
        oid = self.objects[spec["card"]]
        action_kind, key = {"cast": ("CastSpell", "object_id"), "activate": ("ActivateAbility", "source_id"),
                            "play": ("PlayLand", "object_id")}[kind]
        return [a for a in self.game.actions() if a.kind == action_kind and a.data.get(key) == oid]

    def play(self, spec):
        options = self.step_options("play", spec)
        if not options:
            raise Unsupported(f"phase offers no way for {spec['player']} to play {spec['card']} here")
        self.apply(self.seat[spec["player"]], options[0])
        self.settle()

    def attempt(self, inner):
        """A step the rules forbid: it is `refused` when phase offers no such action or rejects
        it; if phase lets it happen, it is carried out (and the oracle will see it)."""
        kind = next(iter(inner))
        spec = inner[kind]
        if kind not in ("cast", "activate", "play"):
            raise Unsupported(f"an attempted '{kind}' step")
        options = self.step_options(kind, spec)
        oid = self.objects[spec["card"]]
        zone = self.game.object(oid).get("zone")
        if kind == "cast" and spec.get("flashback") and zone != "Graveyard":
            options = []  # phase casts a card from elsewhere only as a normal cast, never with flashback
        if options:
            try:
                {"cast": self.cast, "activate": self.activate, "play": self.play}[kind](spec)
                return
            except EngineRefused:
                pass
            except Unsupported as e:
                if "refuses" not in str(e):
                    raise
        self.log({"event": "refused", "player": spec["player"], "card": spec["card"]})

    def resolve_top(self):
        """Every player passes in turn until the top object of the stack has left it."""
        stack = self.game.stack()
        if not stack:
            return  # phase's stack is empty (it didn't put there what the step expects): nothing resolves
        top = stack[-1]["id"]
        for _ in range(6 * len(self.players) + 6):
            waiting = self.waiting()
            if waiting["type"] == "Priority":
                if all(entry["id"] != top for entry in self.game.stack()):
                    return
                self.apply(waiting["data"]["player"], {"type": "PassPriority"})
            else:
                self.answer(waiting)
        raise Unsupported("phase did not resolve the top of the stack")

    # -- prompts ------------------------------------------------------------------------------

    def settle(self, cast_targets=()):
        """Answers phase's prompts until it waits for priority again."""
        for _ in range(50):
            waiting = self.waiting()
            if waiting["type"] == "Priority":
                return
            self.answer(waiting, cast_targets)
        raise Unsupported("phase kept prompting")

    def next_decision(self, kind, player):
        for index, decision in enumerate(self.scenario.get("decisions") or []):
            if index in self.used_decisions or kind not in decision:
                continue
            if decision[kind].get("player") == player:
                self.used_decisions.add(index)
                return index, decision[kind]
        return None, None

    def answer(self, waiting, cast_targets=()):
        kind, data = waiting["type"], waiting.get("data") or {}
        if kind == "GameOver":
            raise GameEnded()
        actions = self.game.actions()
        if kind == "SearchChoice":
            seat = data["player"]
            who = self.players[seat]
            offered = [self.name_of(c) for c in data["cards"]]
            sizes = [len(a.data["cards"]) for a in actions if a.kind == "SelectCards"]
            offer = {"step": self.step, "player": who, "decision": "search", "cards": offered,
                     "min": min(sizes) if sizes else 0, "max": max(sizes) if sizes else 0}
            self.offers.append(offer)
            leftover = self.search_leftover.get(who)
            if leftover is not None and leftover[2] == self.step:
                index, find = leftover[0], leftover[1]
            else:
                index, decision = self.next_decision("search", who) if self.scripted else (None, None)
                find = list(decision["find"]) if decision is not None else None
            if find is not None:
                # One scripted search may be asked as several prompts (one per instruction of a
                # merged search, 701.23h): each prompt takes the scripted cards it offers.
                size = offer["max"]
                wanted = [c for c in find if c in offered][:size]
                rest = [c for c in find if c not in wanted]
                self.search_leftover[who] = (index, rest, self.step, offer) if rest else None
                wanted_ids = sorted(self.objects[c] for c in wanted)
                choice = [a for a in actions if a.kind == "SelectCards" and sorted(a.data["cards"]) == wanted_ids]
                if not choice:
                    raise NoSuchChoice(index, offer, f"phase offers no selection of exactly {wanted}")
                action = choice[0]
            else:
                action = actions[0]
            if self.pending_search is not None:
                # phase names the library searched; the zones its resolving search effect lists
                # (`source_zones`, e.g. Memoricide's graveyard, hand and library) are searched
                # too, and a card it offers from another zone shows that zone was searched.
                owner = self.players[data["library_owner"]]
                zones = {f"{owner}.library"}
                for zone in self.resolving_search_zones():
                    zones.add(f"{owner}.{zone.lower()}")
                for oid in data["cards"]:
                    zone = self.game.object(oid).get("zone")
                    if zone in ("Graveyard", "Hand"):
                        zones.add(self.zone_name(zone, oid))
                self.pending_search["zones"] = sorted(zones)
                self.pending_search["found"] = [self.name_of(c) for c in action.data["cards"]]
                self.pending_search = None
            self.apply(seat, action)
            return
        if kind in ("TargetSelection", "TriggerTargetSelection"):
            self.choose_targets(kind, data, actions, cast_targets)
            return
        if kind == "OptionalEffectChoice" and "you may cast" in (data.get("description") or "").lower():
            # A "you may cast" during a resolution is a `cast` decision (its offers aren't compared).
            seat = data["player"]
            index, decision = self.next_decision("cast", self.players[seat]) if self.scripted else (None, None)
            accept = decision is None or decision.get("card") is not None
            choice = [a for a in actions if a.kind == "DecideOptionalEffect" and a.data.get("accept") == accept]
            self.apply(seat, choice[0])
            return
        if kind == "OptionalEffectChoice":
            seat = data["player"]
            who = self.players[seat]
            self.offers.append({"step": self.step, "player": who, "decision": "may", "cards": []})
            index, decision = self.next_decision("may", who) if self.scripted else (None, None)
            accept = decision["accept"] if decision is not None else True
            choice = [a for a in actions if a.kind == "DecideOptionalEffect" and a.data.get("accept") == accept]
            if not choice:
                raise NoSuchChoice(index, {"step": self.step, "player": who, "decision": "may", "cards": []},
                                   f"phase offers no answer accept={accept}")
            self.apply(seat, choice[0])
            return
        if kind == "ModalFaceChoice":
            face = self.cost_choices.get("face")
            definition = self.definition_of(self.ids.get(data["object_id"]))
            if not face or not definition or not definition.get("split"):
                raise Unsupported(f"phase asks which face to cast where the step names none: {json.dumps(data)[:200]}")
            halves = [h["name"] for h in definition["split"]]
            if face not in halves:
                raise Unsupported(f"phase can't cast '{face}' of {definition['name']} on its own")
            self.apply(data["player"], {"type": "ChooseModalFace", "data": {"back_face": halves.index(face) == 1}})
            return
        if kind == "CastingVariantChoice":
            face = self.cost_choices.get("face")
            definition = self.definition_of(self.ids.get(data["object_id"]))
            options = data.get("options") or []
            if face and definition and definition.get("split"):
                halves = [h["name"] for h in definition["split"]]
                want = ("Fuse", None) if face == "both" else ("Normal", ["Left", "Right"][halves.index(face)] if face in halves else None)
            else:
                want = ("Flashback", None) if self.cost_choices.get("flashback") else ("Normal", None)
            for index, option in enumerate(options):
                if option.get("variant") == want[0] and (want[1] is None or option.get("face") == want[1]):
                    self.apply(data["player"], {"type": "ChooseCastingVariant", "data": {"index": index}})
                    return
            raise Unsupported(f"phase offers no {want} casting of {definition['name'] if definition else '?'}: {options}")
        if kind == "PhyrexianPayment":
            # The step's `phyrexian_life: N` pays the first N Phyrexian symbols with 2 life each
            # (CR 107.4f), the rest with mana.
            with_life = self.cost_choices.get("phyrexian_life") or 0
            choices = [{"type": "PayLife" if i < with_life else "PayMana"} for i, _ in enumerate(data.get("shards") or [])]
            self.apply(data["player"], {"type": "SubmitPhyrexianChoices", "data": {"choices": choices}})
            return
        if kind == "ChooseXValue":
            x = self.cost_choices.get("x")
            if x is None:
                raise Unsupported("phase asks for X where the scenario gives none")
            self.apply(data["player"], {"type": "ChooseX", "data": {"value": x}})
            return
        if kind == "PayCost":
            cost = (data.get("kind") or {}).get("type")
            wanted = self.cost_choices.get({"Sacrifice": "sacrifice", "Discard": "discard"}.get(cost, ""))
            if wanted is None:
                raise Unsupported(f"phase asks for a {cost} cost the step doesn't pay: {json.dumps(data)[:300]}")
            wanted = sorted(self.objects[c] for c in self.cards_of(wanted))
            choice = [a for a in actions if a.kind == "SelectCards" and sorted(a.data["cards"]) == wanted]
            if not choice:
                raise Unsupported(f"phase does not let the cost be paid with {wanted}: {[(a.kind, a.data) for a in actions]}")
            self.apply(data["player"], choice[0])
            return
        if kind in ("EffectZoneChoice", "DiscardChoice", "ChooseFromZoneChoice"):
            decision_kind = {"DiscardChoice": "discard", "ChooseFromZoneChoice": "choose"}.get(kind)
            if kind == "EffectZoneChoice":
                decision_kind = {"Sacrifice": "sacrifice", "Discard": "discard"}.get(data.get("effect_kind"))
            if decision_kind is None:
                raise Unsupported(f"phase asks for a {kind} ({data.get('effect_kind')}) this adapter doesn't answer")
            self.select_cards(decision_kind, data, actions)
            return
        if kind == "DigChoice":
            # Looking at cards and choosing which to keep: no scripted decision describes it; phase's
            # first offered choice.
            self.apply(data["player"], actions[0])
            return
        if kind == "NamedChoice":
            seat = data["player"]
            index, decision = self.next_decision("name", self.players[seat]) if self.scripted else (None, None)
            options = [a for a in actions if a.kind == "ChooseOption"]
            if decision is not None:
                options = [a for a in options if a.data.get("choice") == decision["name"]]
                if not options:
                    # The protocol has no offer kind for names: the message says what phase offered.
                    raise NoSuchChoice(index, None,
                                       f"phase doesn't let {self.players[seat]} name {decision['name']} "
                                       f"(it offers {[a.data.get('choice') for a in actions if a.kind == 'ChooseOption']})")
            if data.get("choice_type") == "CardName":
                self.log({"event": "named", "player": self.players[seat], "name": options[0].data.get("choice")})
            self.apply(seat, options[0])
            return
        if kind == "ReplacementChoice" and [c.get("description") for c in data.get("candidates") or []] == ["Accept", "Decline"]:
            # An optional replacement: phase's dredge prompt ("Accept"/"Decline").
            seat = data["player"]
            who = self.players[seat]
            source = data["candidates"][0]["source_id"]
            self.offers.append({"step": self.step, "player": who, "decision": "dredge", "cards": [self.name_of(source)]})
            index, decision = self.next_decision("dredge", who) if self.scripted else (None, None)
            if decision is not None and decision.get("card") not in (None, self.name_of(source)):
                raise NoSuchChoice(index, {"step": self.step, "player": who, "decision": "dredge", "cards": [self.name_of(source)]},
                                   f"phase offers to dredge only {self.name_of(source)} here")
            accept = decision is None or decision.get("card") is not None
            self.apply(seat, {"type": "ChooseReplacement", "data": {"index": 0 if accept else 1}})
            return
        if kind == "OrderTriggers":
            # The oracle scripts no trigger order: phase's first offered order.
            self.apply(data["player"], actions[0])
            return
        raise Unsupported(f"phase asks for a {kind} this adapter doesn't answer (step {self.step}): "
                          f"{json.dumps(data)[:300]}; phase's actions: {[(a.kind, a.data) for a in actions][:6]}")

    def resolving_search_zones(self):
        """The zones phase's resolving search effect names (its parsed `source_zones`), when its
        resolving stack entry has search effects that all name the same zones; else none."""
        found = []

        def walk(node):
            if isinstance(node, dict):
                if node.get("type") == "SearchLibrary":
                    found.append(tuple(node.get("source_zones") or ("Library",)))
                for value in node.values():
                    walk(value)
            elif isinstance(node, list):
                for value in node:
                    walk(value)

        walk(self.game.state().get("state", {}).get("resolving_stack_entry"))
        if len(set(found)) != 1:
            return []
        return [z for z in found[0] if z in ("Graveyard", "Hand", "Library")]

    def select_cards(self, decision_kind, data, actions):
        """A choice of cards phase offers as `SelectCards` actions (sacrifice, discard, choose)."""
        seat = data["player"]
        who = self.players[seat]
        offered = [self.name_of(c) for c in data.get("cards") or []]
        offer = {"step": self.step, "player": who, "decision": decision_kind, "cards": offered}
        self.offers.append(offer)
        index, decision = self.next_decision(decision_kind, who) if self.scripted else (None, None)
        choices = [a for a in actions if a.kind == "SelectCards"]
        if decision is not None:
            wanted = decision.get("cards") if "cards" in decision else [decision.get("card")]
            wanted = sorted(self.objects.get(c, -1) for c in wanted if c is not None)
            choices = [a for a in choices if sorted(a.data["cards"]) == wanted]
            if not choices:
                raise NoSuchChoice(index, offer, f"phase offers no {decision_kind} of exactly {wanted}")
        if not choices:
            raise Unsupported(f"phase's {decision_kind} prompt has no selection to make: {[(a.kind, a.data) for a in actions]}")
        self.apply(seat, choices[0])

    def choose_targets(self, kind, data, actions, cast_targets):
        seat = data["player"]
        who = self.players[seat]
        if kind == "TargetSelection":
            wanted = list(cast_targets)
        else:
            index, decision = self.next_decision("targets", who) if self.scripted else (None, None)
            wanted = list(decision["targets"]) if decision is not None else None
        for _ in range(8):
            actions = [a for a in self.game.actions()]
            waiting = self.waiting()
            if waiting["type"] != kind:
                return
            targets = [a for a in actions if a.kind == "ChooseTarget"]
            if wanted is None or not wanted:
                pick = targets[0] if (wanted is None and targets) else None
                if pick is None:
                    others = [a for a in actions if a.kind not in ("ChooseTarget", "CancelCast")]
                    # phase ends an "up to N targets" choice with a ChooseTarget of no target.
                    others += [a for a in targets if a.data.get("target") is None]
                    if not others:
                        raise Unsupported(f"phase's {kind} has no way to finish: {[(a.kind, a.data) for a in actions]}")
                    pick = others[0]
            else:
                target = wanted.pop(0)
                if target in self.seat:
                    ref = {"Player": self.seat[target]}
                else:
                    ref = {"Object": self.objects.get(target)}
                match = [a for a in targets if a.data.get("target") == ref]
                if not match:
                    raise Unsupported(f"phase does not offer {target} as a target (it offers "
                                      f"{[self.target_name(a.data.get('target')) for a in targets]})")
                pick = match[0]
            self.apply(seat, pick)
        raise Unsupported(f"phase's {kind} did not end")

    def target_name(self, ref):
        if isinstance(ref, dict) and "Player" in ref:
            return self.players[ref["Player"]]
        if isinstance(ref, dict) and "Object" in ref:
            return self.ids.get(ref["Object"], f"#{ref['Object']}")
        return str(ref)

    # -- outcome ------------------------------------------------------------------------------

    def outcome(self):
        zones = {}
        life = {}
        for seat, name in enumerate(self.players):
            player = self.game.player(seat)
            life[name] = player["life"]
            for zone in ("library", "hand", "graveyard"):
                cards = [self.name_of(o) for o in player[zone]]
                if zone == "graveyard":
                    cards.reverse()  # phase keeps a graveyard's top card last
                if cards:
                    zones[f"{name}.{zone}"] = cards
        battlefield = [self.name_of(o["id"]) for o in self.game.battlefield()]
        exile = [self.name_of(o["id"]) for o in self.game.exile()]
        stack = [self.stack_entry_name(e) for e in reversed(self.game.stack())]
        for zone, cards in (("battlefield", battlefield), ("exile", exile), ("stack", stack)):
            if cards:
                zones[zone] = cards
        counters = {}
        for obj in self.game.battlefield():
            count = sum(v for k, v in (obj.get("counters") or {}).items() if "P1P1" in str(k) or "Plus" in str(k))
            if count:
                counters[self.name_of(obj["id"])] = count
        return {"zones": zones, "known": {}, "life": life, "counters": counters, "events": self.events}

    def stack_entry_name(self, entry):
        oid = entry.get("id") or entry.get("object_id")
        if oid in self.ids:
            return self.ids[oid]
        source = entry.get("source_id")
        if source in self.ids:
            return f"ability:{self.ids[source]}"
        raise Unsupported(f"a stack entry this adapter can't name: {json.dumps(entry)[:200]}")


def handle_run(message):
    run = Play(message["scenario"], message.get("mode", "scripted"))
    run.setup()
    try:
        run.run_steps()
    except GameEnded:
        pass  # the outcome is the position phase ended the game in
    return run.outcome(), run.offers


def main():
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "start":
            send({"type": "hello", "protocol": 2,
                  "engine": {"name": "phase.rs (phase-python)", "version": ENGINE_VERSION},
                  "supports": {"players": [2, 3, 4], "cards": "any", "features": FEATURES,
                               "observables": OBSERVABLES, "offers": True}})
        elif kind == "run":
            seq = message["seq"]
            try:
                outcome, offers = handle_run(message)
                send({"type": "result", "seq": seq, "outcome": outcome, "offered": offers})
            except Unsupported as e:
                send({"type": "unsupported", "seq": seq, "reason": str(e)})
            except EngineRefused as e:
                send({"type": "unsupported", "seq": seq, "reason": f"phase rejects a step's action: {e}"})
            except NoSuchChoice as e:
                answer = {"type": "no_such_choice", "seq": seq, "decision": e.decision, "message": e.message}
                if e.offered is not None:
                    answer["offered"] = e.offered
                send(answer)
            except Exception as e:  # noqa: BLE001 - reported, the next scenario still runs
                send({"type": "error", "seq": seq, "message": f"{type(e).__name__}: {e}"})
        elif kind == "stop":
            break


if __name__ == "__main__":
    main()
