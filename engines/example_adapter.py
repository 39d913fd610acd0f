#!/usr/bin/env python3
"""A complete minimal engine adapter for mtg-oracle (protocol 2).

Its "engine" knows two cards, Demonic Tutor and Diabolic Tutor ("search your library for a card,
put that card into your hand, then shuffle"), and runs scenarios whose steps are exactly "cast
a tutor, resolve it" with nothing on the battlefield or in exile. Every other scenario is
answered `unsupported`, which `mtg-oracle check` reports as UNSUPPORTED, not as a failure.
It declares what it reports (`observables`), and reports the options it offered (`offered`).
"""
import json
import random
import sys

TUTORS = {"Demonic Tutor", "Diabolic Tutor"}


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def card_id(card):
    return card["id"]  # the oracle always spells out every id


def play(scenario):
    """Returns (outcome, offers, None) or (None, None, reason it is unsupported)."""
    steps = scenario["steps"]
    if scenario["battlefield"] or scenario["exile"] or len(steps) != 2 or steps[1] != "resolve":
        return None, None, "only 'cast a tutor, resolve it' with an empty battlefield and exile"
    # The only choice this engine makes is a search's: a scenario that scripts another (a spell
    # cast during the search, Panglacial Wurm's) asks for something it can't do.
    other = sorted({kind for d in scenario["decisions"] for kind in d if kind != "search"})
    if other:
        return None, None, f"this engine makes only search choices, not {', '.join(other)}"
    cast = steps[0].get("cast") if isinstance(steps[0], dict) else None
    players = {p["name"]: p for p in scenario["players"]}
    if cast is None or cast["player"] not in players:
        return None, None, "the first step is not a cast"
    me = players[cast["player"]]
    names = {card_id(c): c["card"] for p in players.values() for z in ("hand", "library") for c in p.get(z, [])}
    if names.get(cast["card"]) not in TUTORS:
        return None, None, "this engine knows only Demonic Tutor and Diabolic Tutor"
    # Zones as lists of ids; libraries and graveyards top first, like the scenario.
    zones = {f"{p['name']}.{z}": [card_id(c) for c in p.get(z, [])]
             for p in players.values() for z in ("library", "hand", "graveyard", "outside")}
    known = {card_id(c): sorted(set(c.get("known_to", [])) | ({p["name"]} if z == "hand" else set()))
             for p in players.values() for z in ("library", "hand", "outside") for c in p.get(z, [])}
    who, tutor = me["name"], cast["card"]
    hand, library, graveyard = f"{who}.hand", f"{who}.library", f"{who}.graveyard"
    events = [{"step": 0, "event": "cast", "player": who, "card": tutor},
              {"step": 0, "event": "moved", "card": tutor, "from": hand, "to": "stack"}]
    zones[hand].remove(tutor)
    known.pop(tutor, None)
    # The search: the engine offers every card of the library, and one must be found if there is
    # one ("a card" states no quality, 701.23d). Report exactly what the engine offered.
    can_find = min(1, len(zones[library]))
    offers = [{"step": 1, "player": who, "decision": "search", "cards": list(zones[library]),
               "min": can_find, "max": can_find}]
    # A scripted decision if there is one, else the top card (any card is legal).
    scripted = [d["search"] for d in scenario["decisions"] if "search" in d and d["search"]["player"] == who]
    found = scripted[0]["find"] if scripted else zones[library][:1]
    events.append({"step": 1, "event": "searched", "player": who, "zones": [library], "found": found})
    for card in found:
        zones[library].remove(card)
        zones[hand].append(card)
        known[card] = [who]  # a new object in its owner's hand: its owner knows it
        events.append({"step": 1, "event": "moved", "card": card, "from": library, "to": hand})
    random.shuffle(zones[library])  # a real shuffle: the library's cards are new objects
    for card in zones[library]:
        known.pop(card, None)
    events.append({"step": 1, "event": "shuffled", "library": who})
    zones[graveyard].insert(0, tutor)
    events.append({"step": 1, "event": "moved", "card": tutor, "from": "stack", "to": graveyard})
    outcome = {"zones": {z: cards for z, cards in zones.items() if cards},
               "known": {c: who_knows for c, who_knows in known.items() if who_knows},
               "life": {p["name"]: p.get("life", 20) for p in players.values()},
               "events": events}
    return outcome, offers, None


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        # Protocol 2. It reads the card names of each scenario itself ("any", then `unsupported`
        # per scenario); it reports every observable but `library_top` (no Aven Mindcensor here,
        # so it never says a search was limited), and the options it offers.
        send({"type": "hello", "protocol": 2,
              "engine": {"name": "example-adapter", "version": "1.0"},
              "supports": {"players": [2, 3, 4], "cards": "any", "features": [],
                           "observables": ["known", "searched", "moves_within_library",
                                           "looked_at", "revealed_empty", "trigger_kind"],
                           "offers": True}})
    elif message["type"] == "run":
        try:
            outcome, offers, why = play(message["scenario"])
            if outcome is None:
                send({"type": "unsupported", "seq": message["seq"], "reason": why})
            else:
                send({"type": "result", "seq": message["seq"], "outcome": outcome, "offered": offers})
        except Exception as e:  # report, don't die: the next scenario still runs
            send({"type": "error", "seq": message["seq"], "message": repr(e)})
    elif message["type"] == "stop":
        break
