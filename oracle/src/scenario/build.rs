//! Building the runnable [`Setup`] from a parsed [`Scenario`]: the cards, the players and
//! their zones, the steps and scripted decisions resolved to objects, and the expectations'
//! names checked. Each error carries the dotted path of the node at fault.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::Setup;
use super::error::BuildError;
use super::format::{Assertion, CardSetup, Scenario, ScriptedDecision, Step};
use crate::cards::def::UnmodelledWhen;
use crate::cards::{CardPool, PoolError, closest};
use crate::model::{Flags, Game, LibraryShape, Obj, ObjFlags, ObjId, Player, PlayerId, ZoneRef};
use crate::rules::apnap::bit;
use crate::rules::characteristics::{card_chars, face_down_chars};
use crate::rules::zones::{can_enter_battlefield, default_knowledge};
use crate::sim::script::{ScriptEntry, ScriptKind};
use crate::sim::{Action, TargetChoice};
use crate::yaml::slug;

pub(super) struct Builder<'a> {
    scenario: &'a Scenario,
    /// The pool with the scenario's hypothetical cards: `base` itself for a scenario with none
    /// (most), copied only to add some (copying the pool was a tenth of loading a scenario).
    pool: std::borrow::Cow<'a, CardPool>,
    base: &'a CardPool,
    names: Vec<String>,
    game: Game,
    ids: BTreeMap<String, ObjId>,
    chars: BTreeMap<String, Arc<crate::model::Chars>>,
    next_suffix: BTreeMap<String, usize>,
    /// Each card name's slug, worked out once (a generated library repeats a few names).
    slugs: crate::model::FastMap<String, String>,
}

/// Where a card's setup is in the scenario (`players[0].library[3]`), for error messages: written
/// out only for an error (formatting it for every card was about an eighth of loading a
/// generated scenario).
enum CardPath {
    Player { player: usize, key: &'static str, index: usize },
    Battlefield(usize),
    Exile(usize),
}

impl std::fmt::Display for CardPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CardPath::Player { player, key, index } => write!(f, "players[{player}].{key}[{index}]"),
            CardPath::Battlefield(index) => write!(f, "battlefield[{index}]"),
            CardPath::Exile(index) => write!(f, "exile[{index}]"),
        }
    }
}

impl<'a> Builder<'a> {
    pub(super) fn new(scenario: &'a Scenario, base: &'a CardPool) -> Self {
        Builder {
            scenario,
            pool: std::borrow::Cow::Borrowed(base),
            base,
            names: Vec::new(),
            game: Game {
                players: Vec::new(),
                objs: Vec::new(),
                zones: BTreeMap::new(),
                shapes: Vec::new(),
                token_defs: base.token_defs(),
                tokens_made: 0,
                graveyard_batch: BTreeMap::new(),
                batches: 0,
                open_batch: None,
                searched_own_library: 0,
                dealt_combat_damage_with: Vec::new(),
                permanents_to_graveyards_earlier: 0,
                permanents_to_graveyards: 0,
                turn_position: crate::rules::turn_structure::TurnPosition::Unnamed,
                id_order: Arc::from(Vec::new()),
            },
            ids: BTreeMap::new(),
            chars: BTreeMap::new(),
            next_suffix: BTreeMap::new(),
            slugs: crate::model::fast_map(0),
        }
    }

    pub(super) fn build(mut self) -> Result<Setup, BuildError> {
        let s = self.scenario;
        for (i, def) in s.cards.iter().enumerate() {
            if self.base.get(&def.name).is_some() {
                return Err(BuildError::new(
                    format!("cards[{i}].name"),
                    format!("`{}` is already in the card pool; give a hypothetical card a name of its own", def.name),
                ));
            }
            // A definition that fails a structural check is located at the card, a second card
            // of the same name at its name.
            self.pool.to_mut().insert(def.clone()).map_err(|e| match e {
                PoolError::Invalid(_) => BuildError::new(format!("cards[{i}]"), e.to_string()),
                _ => BuildError::new(format!("cards[{i}].name"), e.to_string()),
            })?;
        }
        if !(2..=4).contains(&s.players.len()) {
            return Err(BuildError::new(
                "players".into(),
                format!("a scenario has 2 to 4 players, not {}", s.players.len()),
            ));
        }
        for (i, p) in s.players.iter().enumerate() {
            if self.names.contains(&p.name) {
                return Err(BuildError::new(
                    format!("players[{i}].name"),
                    format!("two players are named `{}`", p.name),
                ));
            }
            if p.name.is_empty() || p.name.contains('.') || p.name.contains(':') {
                return Err(BuildError::new(
                    format!("players[{i}].name"),
                    "a player's name must be non-empty, without `.` or `:`".into(),
                ));
            }
            self.names.push(p.name.clone());
            self.game.players.push(Player { name: p.name.clone(), life: p.life });
            // Creature types are compared as printed (205.3m: capitalised words such as Rogue);
            // a misspelt case or a card type would silently never match, so it is an error.
            for (k, t) in p.dealt_combat_damage_with.iter().enumerate() {
                let capitalised = t.chars().next().is_some_and(|c| c.is_ascii_uppercase())
                    && t.chars().all(|c| c.is_ascii_alphabetic() || c == '-' || c == '\'');
                let card_type = [
                    "Artifact",
                    "Battle",
                    "Creature",
                    "Enchantment",
                    "Instant",
                    "Kindred",
                    "Land",
                    "Planeswalker",
                    "Sorcery",
                    "Tribal",
                ]
                .contains(&t.as_str());
                if !capitalised || card_type {
                    return Err(BuildError::new(
                        format!("players[{i}].dealt_combat_damage_with[{k}]"),
                        format!(
                            "`{t}` is not a creature type as printed (one capitalised word, such as Rogue or Faerie; 205.3m)"
                        ),
                    ));
                }
            }
            self.game.dealt_combat_damage_with.push(p.dealt_combat_damage_with.clone());
            // A bound that keeps gravestorm's copies (and the outcomes they multiply) few.
            if p.permanents_put_into_graveyard_earlier > crate::rules::gravestorm::MAX_EARLIER {
                return Err(BuildError::new(
                    format!("players[{i}].permanents_put_into_graveyard_earlier"),
                    format!(
                        "{} is more than the oracle models: at most {} permanents put into one graveyard earlier this turn",
                        p.permanents_put_into_graveyard_earlier,
                        crate::rules::gravestorm::MAX_EARLIER
                    ),
                ));
            }
            self.game.permanents_to_graveyards_earlier += p.permanents_put_into_graveyard_earlier;
        }
        for (i, p) in s.players.iter().enumerate() {
            let zones = [
                ("library", ZoneRef::Library(i), &p.library),
                ("hand", ZoneRef::Hand(i), &p.hand),
                ("graveyard", ZoneRef::Graveyard(i), &p.graveyard),
                ("outside", ZoneRef::Outside(i), &p.outside),
            ];
            for (key, zone, cards) in zones {
                for (j, c) in cards.iter().enumerate() {
                    let path = CardPath::Player { player: i, key, index: j };
                    if let Some(owner) = c.owner.as_ref().filter(|o| **o != p.name) {
                        return Err(BuildError::new(
                            format!("{path}.owner"),
                            format!(
                                "owner `{owner}` given, but a card in {}'s {key} is owned by {} (400.3)",
                                p.name, p.name
                            ),
                        ));
                    }
                    if c.controller.is_some() {
                        return Err(BuildError::new(
                            format!("{path}.controller"),
                            "only permanents have controllers".into(),
                        ));
                    }
                    self.add(c, zone, i, i, &path)?;
                }
            }
            self.game.shapes.push(LibraryShape::ordered(p.library.len()));
        }
        for (j, c) in s.battlefield.iter().enumerate() {
            let path = CardPath::Battlefield(j);
            let owner = self.player_opt(c.owner.as_deref(), &format_args!("{path}.owner"))?.unwrap_or(0);
            let controller =
                self.player_opt(c.controller.as_deref(), &format_args!("{path}.controller"))?.unwrap_or(owner);
            self.add(c, ZoneRef::Battlefield, owner, controller, &path)?;
        }
        // 704.5j: the state-based action would already have left one of them (704.3).
        if let Some(group) = crate::rules::legend::legend_rule_groups(&self.game).first() {
            return Err(BuildError::new(
                "battlefield".into(),
                format!(
                    "{}; a scenario can't start in a state a state-based action would change",
                    crate::rules::legend::describe(&self.game, group)
                ),
            ));
        }
        for (j, c) in s.exile.iter().enumerate() {
            let path = CardPath::Exile(j);
            if c.controller.is_some() {
                return Err(BuildError::new(format!("{path}.controller"), "only permanents have controllers".into()));
            }
            let owner = self.player_opt(c.owner.as_deref(), &format_args!("{path}.owner"))?.unwrap_or(0);
            self.add(c, ZoneRef::Exile, owner, owner, &path)?;
        }
        let actions = s
            .steps
            .iter()
            .enumerate()
            .map(|(i, step)| self.action(step, &format!("steps[{i}]")))
            .collect::<Result<Vec<_>, _>>()?;
        check_step_sequence(&s.steps)?;
        let script = s
            .decisions
            .iter()
            .enumerate()
            .map(|(i, d)| self.decision(d, &format!("decisions[{i}]")))
            .collect::<Result<Vec<_>, _>>()?;
        self.check_expectations()?;
        // Each object's rank in a stable sort by id (the order a shuffle leaves a library in).
        let objs = &self.game.objs;
        let mut by_id: Vec<ObjId> = (0..objs.len()).collect();
        by_id.sort_by(|&a, &b| objs[a].id.cmp(&objs[b].id));
        let mut id_order = vec![u32::MAX; objs.len()];
        for (rank, obj) in by_id.into_iter().enumerate() {
            id_order[obj] = u32::try_from(rank).unwrap_or(u32::MAX);
        }
        self.game.id_order = Arc::from(id_order);
        Ok(Setup { game: self.game, actions, script, ids: self.ids, id_index: Default::default() })
    }

    /// The player named `name`; `path` (formatted only for an error) says where the name is.
    fn player(&self, name: &str, path: &dyn std::fmt::Display) -> Result<PlayerId, BuildError> {
        self.names.iter().position(|n| n == name).ok_or_else(|| {
            let hint = closest(name, self.names.iter().map(String::as_str))
                .map(|c| format!(" (did you mean `{c}`?)"))
                .unwrap_or_default();
            BuildError::new(
                path.to_string(),
                format!("unknown player `{name}`{hint}; players are {}", self.names.join(", ")),
            )
        })
    }

    fn player_opt(&self, name: Option<&str>, path: &dyn std::fmt::Display) -> Result<Option<PlayerId>, BuildError> {
        name.map(|n| self.player(n, path)).transpose()
    }

    fn card(&self, id: &str, path: &str) -> Result<ObjId, BuildError> {
        self.ids.get(id).copied().ok_or_else(|| {
            let hint = closest(id, self.ids.keys().map(String::as_str))
                .map(|c| format!(" (did you mean `{c}`?)"))
                .unwrap_or_default();
            BuildError::new(path.to_string(), format!("no card has the id `{id}`{hint}"))
        })
    }

    /// A card id an expectation may name: a card of the setup, or a token the run may create
    /// (`clue-token-1`, CR 111.10f).
    fn outcome_card(&self, id: &str, path: &str) -> Result<(), BuildError> {
        if crate::rules::tokens::token_def_for_id(&self.game, id).is_some() {
            return Ok(());
        }
        // A copy of a card made to be cast (707.12) is named `<card id>-copy-<n>`.
        if let Some((of, n)) = id.rsplit_once("-copy-")
            && n.parse::<u32>().is_ok_and(|n| n > 0)
            && self.ids.contains_key(of)
        {
            return Ok(());
        }
        self.card(id, path).map(|_| ())
    }

    fn add(
        &mut self,
        c: &CardSetup,
        zone: ZoneRef,
        owner: PlayerId,
        controller: PlayerId,
        path: &CardPath,
    ) -> Result<(), BuildError> {
        let def = self.pool.get(&c.card).ok_or_else(|| {
            let hint = self.pool.suggest(&c.card).map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default();
            BuildError::new(
                format!("{path}.card"),
                format!("unknown card `{}`{hint}; define a hypothetical card under `cards:`", c.card),
            )
        })?;
        if zone == ZoneRef::Battlefield && !c.face_down && def.unmodelled_acts.contains(&UnmodelledWhen::OnBattlefield)
        {
            return Err(BuildError::new(
                format!("{path}.card"),
                format!("not modelled: `{}` on the battlefield: {}", c.card, def.unmodelled.as_deref().unwrap_or("")),
            ));
        }
        if zone == ZoneRef::Battlefield && !c.face_down && !can_enter_battlefield(&card_chars(&def)) {
            return Err(BuildError::new(
                format!("{path}.card"),
                format!("`{}` is an instant or sorcery card, which can't be on the battlefield (400.4a)", c.card),
            ));
        }
        if def.token && zone != ZoneRef::Battlefield {
            return Err(BuildError::new(
                path.to_string(),
                format!("`{}` is a token; tokens exist only on the battlefield (111.7)", c.card),
            ));
        }
        let id = match &c.id {
            Some(id) => {
                if self.ids.contains_key(id) {
                    return Err(BuildError::new(format!("{path}.id"), format!("the id `{id}` is used twice")));
                }
                if id.is_empty() || id.starts_with("ability:") {
                    return Err(BuildError::new(
                        format!("{path}.id"),
                        "an id must be non-empty and not start with `ability:`".into(),
                    ));
                }
                id.clone()
            }
            None => {
                let base = match self.slugs.get(&c.card) {
                    Some(base) => base.clone(),
                    None => self.slugs.entry(c.card.clone()).or_insert_with(|| slug(&c.card)).clone(),
                };
                // One counter per base name keeps loading linear in the number of cards.
                let n = self.next_suffix.entry(base.clone()).or_insert(1);
                let mut id = if *n == 1 { base.clone() } else { format!("{base}-{n}") };
                while self.ids.contains_key(&id) {
                    *n += 1;
                    id = format!("{base}-{n}");
                }
                *n += 1;
                id
            }
        };
        if c.loyalty.is_some()
            && (zone != ZoneRef::Battlefield || !def.types.contains(&crate::cards::def::CardType::Planeswalker))
        {
            return Err(BuildError::new(
                format!("{path}.loyalty"),
                "only a planeswalker on the battlefield has loyalty counters (306.5b)".into(),
            ));
        }
        if c.loyalty == Some(0) {
            return Err(BuildError::new(
                format!("{path}.loyalty"),
                "a planeswalker with loyalty 0 is put into its owner's graveyard (704.5i), so it can't start on the battlefield".into(),
            ));
        }
        if c.time_counters.is_some() && (zone != ZoneRef::Exile || def.suspend.is_none() || c.face_down) {
            return Err(BuildError::new(
                format!("{path}.time_counters"),
                "only a face-up card with suspend in exile can start with time counters (702.62a)".into(),
            ));
        }
        if c.tapped && zone != ZoneRef::Battlefield {
            return Err(BuildError::new(format!("{path}.tapped"), "only permanents can be tapped (110.5)".into()));
        }
        if c.face_down && !matches!(zone, ZoneRef::Battlefield | ZoneRef::Exile) {
            return Err(BuildError::new(
                format!("{path}.face_down"),
                "only permanents and exiled cards can be face down (708, 406.3)".into(),
            ));
        }
        let chars = if c.face_down {
            Arc::new(face_down_chars(zone == ZoneRef::Battlefield))
        } else {
            match self.chars.get(&def.name) {
                Some(chars) => chars.clone(),
                None => self.chars.entry(def.name.clone()).or_insert_with(|| Arc::new(card_chars(&def))).clone(),
            }
        };
        // 406.3: a card exiled face down can't be examined, except by players the setup names.
        let face_down_exile = c.face_down && zone == ZoneRef::Exile;
        let mut known = if face_down_exile { 0 } else { default_knowledge(&self.game, zone, owner) };
        for (k, who) in c.known_to.iter().enumerate() {
            if crate::rules::zones::is_public(zone) && !face_down_exile {
                return Err(BuildError::new(
                    format!("{path}.known_to"),
                    "cards in public zones are known to everyone (400.2)".into(),
                ));
            }
            known |= bit(self.player(who, &format_args!("{path}.known_to[{k}]"))?);
        }
        let loyalty = if zone == ZoneRef::Battlefield {
            c.loyalty.unwrap_or_else(|| crate::rules::loyalty::starting_loyalty(&def))
        } else {
            0
        };
        let obj = self.game.objs.len();
        self.game.objs.push(Obj {
            id: id.as_str().into(),
            token: def.token,
            face_down: c.face_down,
            copy: false,
            spell_copy: false,
            def,
            chars,
            owner,
            controller,
            last_controller: controller,
            last_chars: None,
            zone,
            object_no: 0,
            known,
            counters: 0,
            flags: Flags::new(ObjFlags {
                granted_flashback: c.gains_flashback,
                tapped: c.tapped,
                // 306.5b: a planeswalker on the battlefield has its printed loyalty unless the
                // setup says how many loyalty counters earlier turns left on it.
                loyalty,
                // 702.62b: a card with suspend exiled with time counters is suspended.
                time_counters: c.time_counters.unwrap_or(0),
                ..ObjFlags::NONE
            }),
        });
        self.game.zone_mut(zone).push(obj);
        self.ids.insert(id, obj);
        Ok(())
    }

    fn action(&self, step: &Step, path: &str) -> Result<Action, BuildError> {
        Ok(match step {
            Step::Cast {
                player,
                card,
                face,
                targets,
                flashback,
                x,
                discard,
                alternative_cost,
                reveal,
                sacrifice,
                phyrexian_life,
            } => {
                let player = self.player(player, &format!("{path}.cast.player"))?;
                let obj = self.card(card, &format!("{path}.cast.card"))?;
                let def = &self.game.obj(obj).def;
                let face = match face {
                    None => None,
                    // Both halves, fused (702.102); whether that is allowed is a rules question.
                    Some(name) if name == "both" && def.is_split() => Some(crate::rules::casting::FUSED),
                    // A half of a split card (709.3) or an adventurer card's Adventure (715.3).
                    Some(name) => Some(def.face_named(name).ok_or_else(|| {
                        let halves: Vec<&str> = def.face_names();
                        BuildError::new(
                            format!("{path}.cast.face"),
                            if halves.is_empty() {
                                format!(
                                    "`{}` is not a split card or an adventurer card, so it has no half or Adventure to name",
                                    def.name
                                )
                            } else if let Some(adventure) = &def.adventure {
                                format!("`{name}` is not {}'s Adventure, which is {}", def.name, adventure.name)
                            } else {
                                format!(
                                    "`{name}` is not a half of {}; its halves are {}",
                                    def.name,
                                    halves.join(" and ")
                                )
                            },
                        )
                    })?),
                };
                let targets = targets
                    .iter()
                    .enumerate()
                    .map(|(k, t)| self.target(t, &format!("{path}.cast.targets[{k}]")))
                    .collect::<Result<Vec<_>, _>>()?;
                let discard = match discard {
                    Some(d) => Some(self.card(d, &format!("{path}.cast.discard"))?),
                    None => None,
                };
                let reveal = match reveal {
                    Some(r) => Some(self.card(r, &format!("{path}.cast.reveal"))?),
                    None => None,
                };
                let sacrifice = match sacrifice {
                    Some(s) => Some(self.card(s, &format!("{path}.cast.sacrifice"))?),
                    None => None,
                };
                Action::Cast {
                    player,
                    card: obj,
                    face,
                    targets,
                    flashback: *flashback,
                    x: *x,
                    discard,
                    reveal,
                    sacrifice,
                    alternative_cost: *alternative_cost,
                    phyrexian_life: *phyrexian_life,
                }
            }
            Step::Activate { player, card, ability, x, sacrifice, discard, targets } => {
                let player = self.player(player, &format!("{path}.activate.player"))?;
                let obj = self.card(card, &format!("{path}.activate.card"))?;
                let def = &self.game.obj(obj).def;
                let abilities: Vec<&str> =
                    def.face_slice().iter().flat_map(|f| f.abilities.iter().map(|a| a.name.as_str())).collect();
                let index = abilities.iter().position(|a| a == ability).ok_or_else(|| {
                    let unmodelled =
                        def.unmodelled.as_ref().map(|u| format!("; not modelled: {u}")).unwrap_or_default();
                    BuildError::new(
                        format!("{path}.activate.ability"),
                        format!(
                            "{} has no ability `{ability}`; its abilities are [{}]{unmodelled}",
                            def.name,
                            abilities.join(", ")
                        ),
                    )
                })?;
                let sacrifice = match sacrifice {
                    Some(c) => Some(self.card(c, &format!("{path}.activate.sacrifice"))?),
                    None => None,
                };
                let discard = match discard {
                    Some(c) => Some(self.card(c, &format!("{path}.activate.discard"))?),
                    None => None,
                };
                let targets = targets
                    .iter()
                    .enumerate()
                    .map(|(k, t)| self.target(t, &format!("{path}.activate.targets[{k}]")))
                    .collect::<Result<Vec<_>, _>>()?;
                Action::Activate { player, card: obj, ability: index, x: *x, sacrifice, discard, targets }
            }
            Step::StartGame => Action::StartGame,
            Step::Play { player, card } => Action::PlayLand(
                self.player(player, &format!("{path}.play.player"))?,
                self.card(card, &format!("{path}.play.card"))?,
            ),
            Step::Suspend { player, card } => Action::Suspend(
                self.player(player, &format!("{path}.suspend.player"))?,
                self.card(card, &format!("{path}.suspend.card"))?,
            ),
            Step::IgnoreEffect { player, card } => Action::IgnoreEffect(
                self.player(player, &format!("{path}.ignore_effect.player"))?,
                self.card(card, &format!("{path}.ignore_effect.card"))?,
            ),
            Step::Discard { player, card } => Action::Discard(
                self.player(player, &format!("{path}.discard.player"))?,
                self.card(card, &format!("{path}.discard.card"))?,
            ),
            Step::ToGraveyard { cards } => Action::ToGraveyard(
                cards
                    .iter()
                    .enumerate()
                    .map(|(k, c)| self.card(c, &format!("{path}.to_graveyard.cards[{k}]")))
                    .collect::<Result<Vec<_>, _>>()?,
            ),
            Step::Attempt { step, refused } => {
                if matches!(**step, Step::Attempt { .. }) {
                    return Err(BuildError::new(
                        format!("{path}.attempt.step"),
                        "an attempt can't wrap another attempt".into(),
                    ));
                }
                let inner = self.action(step, &format!("{path}.attempt.step"))?;
                Action::Attempt { action: Box::new(inner), clause: refused.clone() }
            }
            Step::Resolve => Action::Resolve,
            Step::ResolveAll => Action::ResolveAll,
            Step::Dies { card } => Action::Dies(self.card(card, &format!("{path}.dies.card"))?),
            Step::Draw { player, count } => Action::Draw(self.player(player, &format!("{path}.draw.player"))?, *count),
            Step::Exile { card } => Action::Exile(self.card(card, &format!("{path}.exile.card"))?),
            Step::BeginStep(step) => Action::BeginStep(*step),
        })
    }

    fn decision(&self, d: &ScriptedDecision, path: &str) -> Result<ScriptEntry, BuildError> {
        let entry = |kind: ScriptKind, who: &str, key: &str| -> Result<ScriptEntry, BuildError> {
            Ok(ScriptEntry::of(kind, self.player(who, &format!("{path}.{key}.player"))?))
        };
        let cards = |ids: &[String], at: &str| -> Result<Vec<ObjId>, BuildError> {
            ids.iter().enumerate().map(|(k, c)| self.card(c, &format!("{path}.{at}[{k}]"))).collect()
        };
        // `card: x` or `cards: [x, y]`: exactly one of the two.
        let one_or_several =
            |card: &Option<String>, several: &Option<Vec<String>>, key: &str| -> Result<Vec<ObjId>, BuildError> {
                match (card, several) {
                    (Some(c), None) => Ok(vec![self.card(c, &format!("{path}.{key}.card"))?]),
                    (None, Some(ids)) => cards(ids, &format!("{key}.cards")),
                    _ => Err(BuildError::new(
                        format!("{path}.{key}"),
                        "give exactly one of `card` (one card) and `cards` (a list)".into(),
                    )),
                }
            };
        Ok(match d {
            ScriptedDecision::Search { player, find } => {
                ScriptEntry { cards: cards(find, "search.find")?, ..entry(ScriptKind::Search, player, "search")? }
            }
            ScriptedDecision::May { player, accept } => {
                ScriptEntry { accept: *accept, ..entry(ScriptKind::May, player, "may")? }
            }
            ScriptedDecision::Choose { player, card, cards: several } => ScriptEntry {
                cards: one_or_several(card, several, "choose")?,
                ..entry(ScriptKind::Choose, player, "choose")?
            },
            ScriptedDecision::Sacrifice { player, card, cards: several } => ScriptEntry {
                cards: one_or_several(card, several, "sacrifice")?,
                ..entry(ScriptKind::Sacrifice, player, "sacrifice")?
            },
            ScriptedDecision::Dredge { player, card } => ScriptEntry {
                cards: match card {
                    Some(c) => vec![self.card(c, &format!("{path}.dredge.card"))?],
                    None => Vec::new(),
                },
                accept: card.is_some(),
                ..entry(ScriptKind::Dredge, player, "dredge")?
            },
            ScriptedDecision::Discard { player, cards: ids } => {
                ScriptEntry { cards: cards(ids, "discard.cards")?, ..entry(ScriptKind::Discard, player, "discard")? }
            }
            ScriptedDecision::Name { player, name } => {
                ScriptEntry { name: Some(name.clone()), ..entry(ScriptKind::Name, player, "name")? }
            }
            ScriptedDecision::Cast { player, card, face, targets } => {
                // A copy made during the run (707.12) is named `<card id>-copy-<n>`: its halves
                // are the original's.
                let copy_of = card.as_ref().and_then(|c| c.rsplit_once("-copy-")).and_then(|(of, n)| {
                    n.parse::<u32>().ok().filter(|&n| n > 0).and_then(|_| self.ids.get(of).copied())
                });
                let obj = match (card, copy_of) {
                    (Some(_), Some(of)) => Some(of),
                    (Some(c), None) => Some(self.card(c, &format!("{path}.cast.card"))?),
                    (None, _) => None,
                };
                let face = match (obj, face) {
                    (Some(o), Some(f)) => {
                        let def = &self.game.obj(o).def;
                        Some(def.face_named(f).ok_or_else(|| {
                            BuildError::new(format!("{path}.cast.face"), format!("`{f}` is not a half of {}", def.name))
                        })?)
                    }
                    _ => None,
                };
                // 601.2c: targets are chosen only for a spell that has them.
                if let (Some(_), Some(o)) = (targets, obj) {
                    let def = &self.game.obj(o).def;
                    if def.cast_face(face).spell.as_ref().is_none_or(|s| s.targets.is_empty()) {
                        return Err(BuildError::new(
                            format!("{path}.cast.targets"),
                            format!("{} has no targets to choose (601.2c); leave `targets` out", def.name),
                        ));
                    }
                }
                ScriptEntry {
                    cards: obj.into_iter().collect(),
                    accept: obj.is_some(),
                    face,
                    run_time_card: copy_of.and(card.clone()),
                    cast_targets_given: targets.is_some(),
                    targets: targets
                        .iter()
                        .flatten()
                        .enumerate()
                        .map(|(k, t)| self.target(t, &format!("{path}.cast.targets[{k}]")))
                        .collect::<Result<_, _>>()?,
                    ..entry(ScriptKind::Cast, player, "cast")?
                }
            }
            ScriptedDecision::Replacement { player, card, effect } => {
                if crate::rules::replacement::GraveyardReplacement::from_key(effect).is_none() {
                    let keys: Vec<&str> =
                        crate::rules::replacement::GraveyardReplacement::ALL.iter().map(|r| r.key()).collect();
                    return Err(BuildError::new(
                        format!("{path}.replacement.effect"),
                        format!("`{effect}` is not a replacement effect; one of: {}", keys.join(", ")),
                    ));
                }
                ScriptEntry {
                    cards: vec![self.card(card, &format!("{path}.replacement.card"))?],
                    name: Some(effect.clone()),
                    ..entry(ScriptKind::Replacement, player, "replacement")?
                }
            }
            ScriptedDecision::Targets { player, targets } => ScriptEntry {
                targets: targets
                    .iter()
                    .enumerate()
                    .map(|(k, t)| self.target(t, &format!("{path}.targets.targets[{k}]")))
                    .collect::<Result<_, _>>()?,
                ..entry(ScriptKind::Targets, player, "targets")?
            },
        })
    }

    fn target(&self, t: &str, tp: &str) -> Result<TargetChoice, BuildError> {
        if let Some(p) = self.names.iter().position(|n| n == t) {
            Ok(TargetChoice::Player(p))
        } else if let Some(&o) = self.ids.get(t) {
            Ok(TargetChoice::Obj(o, 0))
        } else {
            let all = self.names.iter().chain(self.ids.keys()).map(String::as_str);
            let hint = closest(t, all).map(|c| format!(" (did you mean `{c}`?)")).unwrap_or_default();
            Err(BuildError::new(
                tp.to_string(),
                format!("`{t}` is neither a card id nor a player{hint}; players are {}", self.names.join(", ")),
            ))
        }
    }

    fn zone(&self, name: &str, path: &str) -> Result<ZoneRef, BuildError> {
        ZoneRef::parse(name, &self.names).map_err(|e| BuildError::new(path.to_string(), e.to_string()))
    }

    fn check_expectations(&self) -> Result<(), BuildError> {
        let e = &self.scenario.expect;
        let lists = [("always", &e.always), ("sometimes", &e.sometimes), ("never", &e.never)];
        for (key, list) in lists {
            for (i, a) in list.iter().enumerate() {
                self.check_assertion(a, &format!("expect.{key}[{i}]"))?;
            }
        }
        if let Some(fin) = &e.final_zones {
            for (zone, cards) in fin {
                let path = format!("expect.final[{zone}]");
                self.zone(zone, &path)?;
                for (k, c) in cards.iter().enumerate() {
                    if !c.starts_with("ability:") {
                        self.outcome_card(c, &format!("{path}[{k}]"))?;
                    }
                }
            }
        }
        Ok(())
    }

    fn check_assertion(&self, a: &Assertion, path: &str) -> Result<(), BuildError> {
        match a {
            Assertion::Zone { card, zone } => {
                // `ability:<id>` names a triggered or activated ability of that card on the stack.
                self.outcome_card(card.strip_prefix("ability:").unwrap_or(card), &format!("{path}.zone.card"))?;
                self.zone(zone, &format!("{path}.zone.zone"))?;
            }
            Assertion::Count { zone, name, .. } => {
                self.zone(zone, &format!("{path}.count.zone"))?;
                if let Some(n) = name {
                    let known = self.pool.cards().any(|c| c.face_slice().iter().any(|f| &f.name == n) || &c.name == n);
                    if !known {
                        let hint = self.pool.suggest(n).map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default();
                        return Err(BuildError::new(
                            format!("{path}.count.name"),
                            format!("no card is named `{n}`{hint}"),
                        ));
                    }
                }
            }
            Assertion::Top { player, cards } => {
                self.player(player, &format!("{path}.top.player"))?;
                for (k, c) in cards.iter().enumerate() {
                    self.card(c, &format!("{path}.top.cards[{k}]"))?;
                }
            }
            Assertion::Shuffled { player } => {
                self.player(player, &format!("{path}.shuffled.player"))?;
            }
            Assertion::Known { card, to } => {
                self.outcome_card(card, &format!("{path}.known.card"))?;
                for (k, p) in to.iter().enumerate() {
                    self.player(p, &format!("{path}.known.to[{k}]"))?;
                }
            }
            Assertion::Life { player, .. } => {
                self.player(player, &format!("{path}.life.player"))?;
            }
            Assertion::Counters { card, .. } => {
                self.outcome_card(card, &format!("{path}.counters.card"))?;
            }
            Assertion::Tapped { card, .. } => {
                self.outcome_card(card, &format!("{path}.tapped.card"))?;
            }
            Assertion::Events { kind, player, controller, card, zone, library_top, .. } => {
                if controller.is_some() && kind != "triggered" {
                    return Err(BuildError::new(
                        format!("{path}.events.controller"),
                        "`controller` applies to `triggered` events only (for other kinds, `player` is the acting player)"
                            .into(),
                    ));
                }
                if kind == "triggered" && player.is_some() && controller.is_none() {
                    return Err(BuildError::new(
                        format!("{path}.events.player"),
                        "on a `triggered` assertion, `player` is the player whose action triggered the ability \
                         (the outcome JSON's `player`); it used to mean the ability's controller. Write \
                         `controller:` for the controller, or name both `controller:` and `player:` \
                         (docs/scenarios.md, \"`triggered`: `controller` and `player`\"; \
                         tools/migrate-triggered-controller.py rewrites old files)"
                            .into(),
                    ));
                }
                if let Some(c) = controller {
                    self.player(c, &format!("{path}.events.controller"))?;
                }
                if library_top.is_some() && kind != "searched" {
                    return Err(BuildError::new(
                        format!("{path}.events.library_top"),
                        "`library_top` applies to `searched` events only".into(),
                    ));
                }
                const KINDS: [&str; 19] = [
                    "cast",
                    "activated",
                    "searched",
                    "revealed",
                    "shuffled",
                    "triggered",
                    "moved",
                    "chose",
                    "sacrificed",
                    "lost_life",
                    "counters",
                    "looked_at",
                    "discarded",
                    "dredged",
                    "named",
                    "created",
                    "gained_life",
                    "refused",
                    "copied",
                ];
                if !KINDS.contains(&kind.as_str()) {
                    let hint =
                        closest(kind, KINDS.into_iter()).map(|c| format!(" (did you mean `{c}`?)")).unwrap_or_default();
                    return Err(BuildError::new(
                        format!("{path}.events.kind"),
                        format!("unknown event kind `{kind}`{hint}; kinds are {}", KINDS.join(", ")),
                    ));
                }
                if let Some(p) = player {
                    self.player(p, &format!("{path}.events.player"))?;
                }
                // A `named` event's card is the chosen name, which needn't be a card id.
                if let Some(c) = card.as_ref().filter(|_| kind != "named") {
                    self.outcome_card(c, &format!("{path}.events.card"))?;
                }
                if let Some(z) = zone {
                    self.zone(z, &format!("{path}.events.zone"))?;
                }
            }
            Assertion::SearchOrder { players } => {
                for (k, p) in players.iter().enumerate() {
                    self.player(p, &format!("{path}.search_order.players[{k}]"))?;
                }
            }
        }
        Ok(())
    }
}

/// A step of the turn that must be followed at once by another (the untap step by the upkeep,
/// 502.4, 503.1a: what triggers in the untap step goes on the stack in the upkeep) is.
fn check_step_sequence(steps: &[Step]) -> Result<(), BuildError> {
    for (i, step) in steps.iter().enumerate() {
        let Step::BeginStep(begun) = step else { continue };
        if let Some(next) = crate::rules::turn_structure::must_follow(*begun)
            && steps.get(i + 1) != Some(&Step::BeginStep(next))
        {
            return Err(BuildError::new(
                format!("steps[{i}].begin_step"),
                format!(
                    "the {begun:?} step must be followed at once by `begin_step: {}`: no player gets priority in it, so what triggers there goes on the stack in the next step (502.4, 503.1a)",
                    format!("{next:?}").to_lowercase()
                ),
            ));
        }
    }
    Ok(())
}
