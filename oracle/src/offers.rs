//! Option-set conformance: did the engine offer each player exactly the legal options?
//!
//! One observed outcome shows one choice; an engine that offers an illegal option it happens not
//! to pick (the cards below Aven Mindcensor's window, a basic land to Lobotomy's caster), or that
//! never offers a legal one (a "may" it always answers yes, a search that always takes every
//! copy), passes every outcome check. So an engine may report, with its `result`, what it
//! offered at each decision ([`Offer`], protocol 2, declared with `hello.supports.offers`), and
//! `check` compares that with what the rules offer at the same decision: [`legal_at`] asks the
//! rules modules (the same [`Decision`] the simulator builds, with its search plans), and
//! [`compare`] names, for every illegal option offered and every legal option missing, the clause
//! it breaks.
//!
//! Decisions compared: searches (the candidate cards and how few / how many may be found), "may"
//! choices (whether the choice was offered at all), and card choices (choose, sacrifice, discard,
//! dredge). Other decisions (names, casts during a resolution, targets, trigger order) are not
//! compared, and offers of them are ignored.

use std::collections::BTreeSet;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::model::{Game, ZoneRef};
use crate::mutants::Mutant;
use crate::rules::search::Quality;
use crate::sim::{Choice, Decider, Decision, MayAbout, SimError};
use crate::verdict::Difference;

/// The kinds of decision an offer can describe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OfferKind {
    /// Which cards a search finds (701.23): `cards` are the cards the searcher could find,
    /// `min`/`max` how few and how many the engine lets them find.
    Search,
    /// A "may": reporting it says the choice was offered (`cards` empty).
    May,
    /// A card chosen among options (Lobotomy's "choose a card other than a basic land card").
    Choose,
    /// A permanent to sacrifice.
    Sacrifice,
    /// Cards to discard.
    Discard,
    /// A card to dredge instead of drawing (declining is always an option).
    Dredge,
    /// A card name to choose (Cranial Extraction, Memoricide): `names` are the names offered.
    /// Any real card's name of the right kind may be chosen (201.4), so an offer may hold names
    /// the oracle doesn't know; it checks that every name of the right kind of a card in the
    /// game is offered (each half of a split card on its own, 709.4a) and that no name it knows
    /// to be of the wrong kind, a token's, or both halves together is. Reporting name offers is
    /// optional: a name decision without one isn't a difference.
    Name,
}

impl OfferKind {
    /// As written in offers and messages.
    pub fn name(self) -> &'static str {
        match self {
            OfferKind::Search => "search",
            OfferKind::May => "may",
            OfferKind::Choose => "choose",
            OfferKind::Sacrifice => "sacrifice",
            OfferKind::Discard => "discard",
            OfferKind::Dredge => "dredge",
            OfferKind::Name => "name",
        }
    }
}

/// What an engine offered a player at one decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Offer {
    /// The scenario step (0-based) the decision came up in.
    pub step: usize,
    /// Who decided.
    pub player: String,
    /// What kind of decision.
    pub decision: OfferKind,
    /// The cards offered (card ids): for a search, every card the searcher could find.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cards: Vec<String>,
    /// For a search: the fewest cards the engine lets the searcher find.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<usize>,
    /// For a search: the most cards the engine lets the searcher find.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<usize>,
    /// For a name choice: the card names offered.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
}

/// The legal options at one decision, as the rules give them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Legal {
    /// The offer the rules make (cards sorted).
    pub offer: Offer,
    /// For a search: whether a stated quality lets the searcher fail to find (701.23b).
    pub stated_quality: bool,
    /// For a search: whether a public zone forces finds (701.23b).
    pub public_forced: bool,
    /// For a search limited to the top of a library: that library's other cards (701.23f).
    pub below_window: BTreeSet<String>,
    /// For a search: its searcher's index, to tell outside-the-game cards of others (701.23j).
    pub searcher: usize,
    /// Only one answer is legal, so an engine needn't ask.
    pub forced: bool,
    /// For a name choice: the kind of card named (201.4).
    pub name_filter: Option<crate::cards::instructions::Filter>,
    /// For a search whose choices another player makes (723.5, Opposition Agent): the name of
    /// the player searching; the offer belongs to the player controlling them.
    pub controlled_searcher: Option<String>,
}

/// The legal options at `decision`, or `None` for a kind of decision that isn't compared.
pub fn legal_at(game: &Game, step: usize, decision: &Decision) -> Option<Legal> {
    let player = decision.player();
    let ids = |cards: &[usize]| -> Vec<String> {
        let mut v: Vec<String> = cards.iter().map(|&c| game.obj(c).id_string()).collect();
        v.sort();
        v.dedup();
        v
    };
    let mk = |kind, cards: Vec<String>, min, max, forced| Legal {
        offer: Offer {
            step,
            player: game.players[player].name.clone(),
            decision: kind,
            cards,
            min,
            max,
            names: Vec::new(),
        },
        stated_quality: false,
        public_forced: false,
        below_window: BTreeSet::new(),
        searcher: player,
        forced,
        name_filter: None,
        controlled_searcher: None,
    };
    Some(match decision {
        Decision::May { .. } => mk(OfferKind::May, Vec::new(), None, None, false),
        // 700.3: a pile may hold none to all of the cards.
        Decision::ChooseCard { options, any_number: true, .. } => {
            mk(OfferKind::Choose, ids(options), Some(0), Some(options.len()), false)
        }
        Decision::ChooseCard { options, count, .. } if *count != 1 => {
            mk(OfferKind::Choose, ids(options), Some(*count), Some(*count), options.len() <= *count)
        }
        Decision::ChooseCard { options, .. } => mk(OfferKind::Choose, ids(options), None, None, options.len() <= 1),
        // 107.1c: "any number" is from none to all of them, never forced.
        Decision::Sacrifice { options, any_number: true, .. } => {
            mk(OfferKind::Sacrifice, ids(options), Some(0), Some(options.len()), false)
        }
        Decision::Sacrifice { options, .. } => mk(OfferKind::Sacrifice, ids(options), None, None, options.len() <= 1),
        Decision::Discard { options, count, optional, .. } => {
            mk(OfferKind::Discard, ids(options), None, None, !optional && options.len() <= *count)
        }
        Decision::Dredge { options, .. } => mk(OfferKind::Dredge, ids(options), None, None, options.is_empty()),
        Decision::Name { options, filter, .. } => {
            let mut legal = mk(OfferKind::Name, Vec::new(), None, None, true);
            legal.offer.names = options.clone();
            legal.offer.names.sort();
            legal.offer.names.dedup();
            legal.name_filter = Some(filter.clone());
            legal
        }
        Decision::Find { searcher, chooser, parts, cap, joint_min, looked_at, .. } => {
            let union: BTreeSet<usize> = parts.iter().flat_map(|p| p.candidates.iter().copied()).collect();
            let cards: Vec<usize> = union.iter().copied().collect();
            let min = if *joint_min > 0 { *joint_min } else { parts.iter().map(|p| p.min).sum() };
            let max = parts.iter().map(|p| p.max).sum::<usize>().min(union.len());
            let mut legal = mk(OfferKind::Search, ids(&cards), Some(min), Some(max), min == max && max == union.len());
            legal.stated_quality = parts.iter().any(|p| p.quality == Quality::Stated);
            legal.public_forced = parts.iter().any(|p| p.all && !p.public.is_empty());
            // 701.23j looks at the searcher's own cards, whoever makes the choices (723.5).
            legal.searcher = *searcher;
            if searcher != chooser {
                legal.controlled_searcher = Some(game.players[*searcher].name.clone());
            }
            if cap.is_some() {
                let window: BTreeSet<usize> = looked_at.iter().copied().collect();
                let libraries: BTreeSet<ZoneRef> =
                    looked_at.iter().map(|&o| game.obj(o).zone).filter(|z| matches!(z, ZoneRef::Library(_))).collect();
                legal.below_window = libraries
                    .into_iter()
                    .flat_map(|z| game.zone(z).iter().copied())
                    .filter(|o| !window.contains(o))
                    .map(|o| game.obj(o).id_string())
                    .collect();
            }
            legal
        }
        _ => return None,
    })
}

/// What the reference engine offers at `decision`: the legal options, except under a `mutant`
/// that offers more or less (each hook names its mutant).
pub fn reference_offer(game: &Game, step: usize, decision: &Decision, mutant: Option<Mutant>) -> Option<Offer> {
    let is = |m: Mutant| mutant == Some(m);
    let legal = legal_at(game, step, decision)?;
    let mut offer = legal.offer;
    match decision {
        // Mutant `offers-below-mindcensor-window`: the cards below the window are offered too.
        Decision::Find { .. } if is(Mutant::OffersBelowMindcensorWindow) => {
            offer.cards.extend(legal.below_window);
        }
        // Mutant `lobotomy-offers-basic-lands`: every card of the revealed hand is offered.
        Decision::ChooseCard { options, .. } if is(Mutant::LobotomyOffersBasicLands) => {
            if let Some(&first) = options.first() {
                offer.cards.extend(game.zone(game.obj(first).zone).iter().map(|&o| game.obj(o).id_string()));
            }
        }
        // Mutant `may-search-not-offered`: "you may search" is answered yes without asking.
        Decision::May { about: MayAbout::Search, .. } if is(Mutant::MaySearchNotOffered) => return None,
        _ => {}
    }
    offer.cards.sort();
    offer.cards.dedup();
    offer.names.sort();
    offer.names.dedup();
    Some(offer)
}

/// A decider that notes the legal options of every decision (scripted or not) and answers with
/// `inner`.
pub struct Recorder<D> {
    /// The decider that answers.
    pub inner: D,
    /// The legal options of each decision, in the order they came up.
    pub seen: Vec<Legal>,
    /// Each decision as it came up: the index of its legal options in `seen` (if compared), the
    /// decision, and whether the script answered it.
    pub decisions: Vec<(Option<usize>, Decision, bool)>,
}

impl<D> Recorder<D> {
    /// A recorder around `inner`.
    pub fn new(inner: D) -> Self {
        Recorder { inner, seen: Vec::new(), decisions: Vec::new() }
    }
}

impl<D> Recorder<D> {
    fn note(&mut self, game: &Game, step: usize, decision: &Decision, scripted: bool) {
        let index = legal_at(game, step, decision).map(|l| {
            self.seen.push(l);
            self.seen.len() - 1
        });
        self.decisions.push((index, decision.clone(), scripted));
    }
}

impl<D: Decider> Decider for Recorder<D> {
    fn decide(&mut self, game: &Game, step: usize, decision: &Decision) -> Result<Choice, SimError> {
        self.note(game, step, decision, false);
        self.inner.decide(game, step, decision)
    }

    fn note_scripted(&mut self, game: &Game, step: usize, decision: &Decision, choice: &Choice) {
        self.note(game, step, decision, true);
        self.inner.note_scripted(game, step, decision, choice);
    }
}

/// The clause an illegal or missing option of this kind breaks.
pub fn card_clause(legal: &Legal, game: Option<&Game>, card: &str, offered: bool) -> &'static str {
    match legal.offer.decision {
        OfferKind::Search if offered && legal.below_window.contains(card) => "701.23f",
        OfferKind::Search if offered => {
            let outside_of_other = game.is_some_and(|g| {
                g.objs.iter().any(|o| *o.id == *card && matches!(o.zone, ZoneRef::Outside(p) if p != legal.searcher))
            });
            if outside_of_other { "701.23j" } else { "701.23a" }
        }
        OfferKind::Search => "701.23a",
        OfferKind::May | OfferKind::Choose => "608.2d",
        OfferKind::Sacrifice => "701.21a",
        OfferKind::Discard => "701.9b",
        OfferKind::Dredge => "702.52b",
        OfferKind::Name => "201.4",
    }
}

/// The differences between a name choice's offer and the legal names: a legal name not offered
/// (709.4a when it is one half of a split card, else 201.4), and an offered name the rules say
/// can't be chosen (`check_name`'s clause). Names the oracle doesn't know are not judged.
fn compare_names(legal: &Legal, offer: &Offer, game: Option<&Game>, at: &str) -> Vec<Difference> {
    // Each offered name as the oracle spells it ("forest", "Cease//Desist" are Forest and
    // Cease // Desist), beside the name as offered.
    let offered: Vec<(String, &String)> = offer
        .names
        .iter()
        .map(|n| (game.map_or_else(|| n.trim().to_string(), |g| crate::rules::naming::canonical_name(g, n)), n))
        .collect();
    let mut out = Vec::new();
    for n in legal.offer.names.iter().filter(|n| !offered.iter().any(|(c, _)| c == *n)) {
        let half =
            game.is_some_and(|g| g.objs.iter().any(|o| o.def.is_split() && o.def.split.iter().any(|h| &h.name == n)));
        out.push(Difference {
            clause: if half { "709.4a" } else { "201.4" }.into(),
            message: format!("{at} didn't offer the name `{n}`, which may be chosen"),
        });
    }
    if let (Some(g), Some(filter)) = (game, &legal.name_filter) {
        for (canonical, n) in offered.iter().filter(|(c, _)| !legal.offer.names.contains(c)) {
            if let Err(v) = crate::rules::naming::check_name(g, canonical, filter) {
                out.push(Difference {
                    clause: v.clause.to_string(),
                    message: format!("{at} offered the name `{n}`, which can't be chosen: {}", v.message),
                });
            }
        }
    }
    out
}

/// Every difference between the options one decision's offer gives and the legal ones. `game`
/// (the scenario's starting state) tells whose outside-the-game cards were offered.
pub fn compare_one(legal: &Legal, offer: &Offer, game: Option<&Game>) -> Vec<Difference> {
    let mut out = Vec::new();
    let who = &legal.offer.player;
    let what = legal.offer.decision.name();
    let at = format!("step {}: {who}'s {what}", legal.offer.step);
    if legal.offer.decision == OfferKind::Name {
        return compare_names(legal, offer, game, &at);
    }
    let want: BTreeSet<&String> = legal.offer.cards.iter().collect();
    let got: BTreeSet<&String> = offer.cards.iter().collect();
    for c in got.difference(&want) {
        out.push(Difference {
            clause: card_clause(legal, game, c, true).into(),
            message: format!("{at} offered {c}, which is not a legal option"),
        });
    }
    for c in want.difference(&got) {
        out.push(Difference {
            clause: card_clause(legal, game, c, false).into(),
            message: format!("{at} didn't offer {c}, which is a legal option"),
        });
    }
    if legal.offer.decision == OfferKind::Search {
        let (lmin, lmax) = (legal.offer.min.unwrap_or(0), legal.offer.max.unwrap_or(0));
        // A search with a stated quality may fail to find in a hidden zone (701.23b); a public
        // zone forces finds (701.23b); "up to N" and "N cards" set the count (701.23d).
        let fewer_clause = if legal.stated_quality { "701.23b" } else { "701.23d" };
        let more_forced_clause = if legal.public_forced { "701.23b" } else { "701.23d" };
        if let Some(min) = offer.min {
            if min > lmin {
                out.push(Difference {
                    clause: fewer_clause.into(),
                    message: format!(
                        "{at} lets {who} find no fewer than {min} card(s); the rules let them find {lmin}"
                    ),
                });
            } else if min < lmin {
                out.push(Difference {
                    clause: more_forced_clause.into(),
                    message: format!("{at} lets {who} find as few as {min} card(s); the rules require {lmin}"),
                });
            }
        }
        if let Some(max) = offer.max {
            if max < lmax {
                out.push(Difference {
                    clause: "701.23d".into(),
                    message: format!("{at} lets {who} find at most {max} card(s); the rules allow {lmax}"),
                });
            } else if max > lmax {
                out.push(Difference {
                    clause: "701.23d".into(),
                    message: format!("{at} lets {who} find up to {max} card(s); the rules allow {lmax}"),
                });
            }
        }
    }
    out
}

/// Compares the engine's offers with the legal options of every decision of the judge's replay,
/// in order (offers are matched by step, player and kind). A decision with a choice the engine
/// reported no offer for is a missing option; an offer no decision matches is an illegal one.
pub fn compare(legal: &[Legal], offers: &[Offer], game: Option<&Game>) -> Vec<Difference> {
    let mut used = vec![false; offers.len()];
    let mut out = Vec::new();
    // A "may" an engine needn't have asked (`forced`: a "may pay life" whose choice depends on the
    // order of simultaneous choices, `Decider::note_offer_optional`) takes an offer only when one
    // is left once every "may" that had to be asked has its own: "may" offers name no card, so
    // which offer answers which "may" is only a count.
    let optional_may = |l: &Legal| l.forced && l.offer.decision == OfferKind::May;
    let same_kind = |o: &Offer, l: &Offer| o.step == l.step && o.player == l.player && o.decision == l.decision;
    for l in legal.iter().filter(|l| !optional_may(l)).chain(legal.iter().filter(|l| optional_may(l))) {
        let o = &l.offer;
        let matched = (0..offers.len()).find(|&i| !used[i] && same_kind(&offers[i], o));
        match matched {
            Some(i) => {
                used[i] = true;
                out.extend(compare_one(l, &offers[i], game));
            }
            None if l.forced => {}
            None => {
                let clause = match o.decision {
                    // 723.5: the player controlling the searcher makes the choice.
                    OfferKind::Search if l.controlled_searcher.is_some() => "723.5",
                    OfferKind::Search if l.stated_quality => "701.23b",
                    OfferKind::Search => "701.23d",
                    _ => card_clause(l, game, "", false),
                };
                out.push(Difference {
                    clause: clause.into(),
                    message: format!(
                        "step {}: {}'s {} was not offered (no offer reported) although the rules give a choice",
                        o.step,
                        o.player,
                        o.decision.name()
                    ),
                });
            }
        }
    }
    for (_, o) in offers.iter().enumerate().filter(|(i, _)| !used[*i]) {
        // A search offered to a searcher someone else controls (723.5, Opposition Agent).
        let controller = legal.iter().find(|l| {
            l.offer.step == o.step
                && l.offer.decision == o.decision
                && l.controlled_searcher.as_deref() == Some(o.player.as_str())
        });
        if let Some(l) = controller {
            out.push(Difference {
                clause: "723.5".into(),
                message: format!(
                    "step {}: {} was offered their search's choice, but {} controls them while they search",
                    o.step, o.player, l.offer.player
                ),
            });
            continue;
        }
        out.push(Difference {
            clause: "608.2d".into(),
            message: format!(
                "step {}: {} was offered a {} choice the rules don't give",
                o.step,
                o.player,
                o.decision.name()
            ),
        });
    }
    out
}
