//! The simulator's vocabulary: the steps it takes ([`Action`]), the choices it asks a
//! [`Decider`] for ([`Decision`], answered with a [`Choice`]), and why a run stops ([`SimError`]).

use crate::model::{Game, ObjId, PlayerId};
use crate::outcome::Event;
use crate::rules::Violation;
use crate::rules::search::PartPlan;

/// A target as chosen when a spell is cast.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetChoice {
    /// An object, remembered with its object number so a zone change makes it illegal (400.7).
    Obj(ObjId, u32),
    /// A player.
    Player(PlayerId),
}

/// One scenario step, resolved to game objects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Cast a spell from hand, or from the graveyard with flashback (CR 701.5, 601, 702.34a).
    Cast {
        /// Caster.
        player: PlayerId,
        /// The card.
        card: ObjId,
        /// Which half of a split card (709.3).
        face: Option<usize>,
        /// Targets, in the order the card lists them.
        targets: Vec<TargetChoice>,
        /// Cast with flashback from the graveyard.
        flashback: bool,
        /// The value of X.
        x: Option<u32>,
        /// The card discarded for the additional cost.
        discard: Option<ObjId>,
        /// The card revealed for the additional cost.
        reveal: Option<ObjId>,
        /// The permanent sacrificed for the additional cost.
        sacrifice: Option<ObjId>,
        /// Paying the card's alternative cost rather than its mana cost (118.9).
        alternative_cost: bool,
        /// How many Phyrexian mana symbols of the cost are paid with 2 life each (107.4f).
        phyrexian_life: u32,
    },
    /// Activate an ability of a card (602), e.g. typecycling from hand.
    Activate {
        /// Who activates.
        player: PlayerId,
        /// The card.
        card: ObjId,
        /// Index into the card's abilities.
        ability: usize,
        /// The value of X.
        x: Option<u32>,
        /// The permanent sacrificed for a "sacrifice a …" cost.
        sacrifice: Option<ObjId>,
        /// The card discarded for a "discard a …" cost.
        discard: Option<ObjId>,
        /// Targets, in the order the ability lists them (602.2b).
        targets: Vec<TargetChoice>,
    },
    /// The game starts: opening-hand actions are chosen in APNAP order, the starting player (the
    /// first player) counting as the active player (101.4e), then happen at once.
    StartGame,
    /// A player discards a card (701.9a).
    Discard(PlayerId, ObjId),
    /// A player takes the special action of ignoring a permanent's "can't search" effect until
    /// end of turn (116.2d, Leonin Arbiter).
    IgnoreEffect(PlayerId, ObjId),
    /// A player takes the special action of suspending a card from their hand: it is exiled with
    /// its time counters, without using the stack (116.2f, 702.62a).
    Suspend(PlayerId, ObjId),
    /// A player plays a land (305.1): from hand, or from exile where an effect allows it (400.7i).
    PlayLand(PlayerId, ObjId),
    /// Permanents go to their owners' graveyards from the battlefield at once.
    ToGraveyard(Vec<ObjId>),
    /// An action the rules forbid, refused for `clause`.
    Attempt {
        /// The action.
        action: Box<Action>,
        /// The clause expected to forbid it.
        clause: String,
    },
    /// Resolve the top object of the stack (608).
    Resolve,
    /// Resolve until the stack is empty.
    ResolveAll,
    /// A creature dies: it is put into its owner's graveyard from the battlefield.
    Dies(ObjId),
    /// A player draws cards (121).
    Draw(PlayerId, u32),
    /// An object is exiled by something outside the scenario (e.g. in response).
    Exile(ObjId),
    /// A step of the active player's turn begins: its turn-based actions, then its "at the
    /// beginning of" triggers (`rules::turn_structure`; 502.3, 504.1, 603.2b).
    BeginStep(crate::cards::instructions::TurnStep),
}

/// What a "may" decision is about.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum MayAbout {
    /// "You may search" (701.23g: even an empty library may be searched).
    Search,
    /// "You may put counters" on a permanent.
    Counters,
    /// "You may begin the game with this card on the battlefield" (a Leyline).
    BeginOnBattlefield,
    /// "As this land enters, you may pay N life" (a shock land, 614.1c).
    PayLife,
    /// "You may have [a player] mill" (Jace's Erasure; 608.2d).
    Mill,
    /// "You may put [a card] from your hand onto the battlefield" (Stoneforge Mystic; 608.2d).
    PutOntoBattlefield,
    /// Whether the pile holding the card goes to the player's hand (the other to their
    /// graveyard): Fact or Fiction's choice between two piles (700.3).
    PileToHand,
    /// "You may reveal a card you own from outside the game and put it into your hand" (Burning
    /// Wish; 400.11).
    RevealFromOutside,
}

impl MayAbout {
    /// Its name in messages: `search`, `counters`, `begin_on_battlefield`, `pay_life`.
    pub fn name(self) -> &'static str {
        match self {
            MayAbout::Search => "search",
            MayAbout::Counters => "counters",
            MayAbout::BeginOnBattlefield => "begin_on_battlefield",
            MayAbout::PayLife => "pay_life",
            MayAbout::Mill => "mill",
            MayAbout::PutOntoBattlefield => "put_onto_battlefield",
            MayAbout::PileToHand => "pile_to_hand",
            MayAbout::RevealFromOutside => "reveal_from_outside",
        }
    }
}

/// Shown as its quoted name, as a decision's description has always shown it.
impl std::fmt::Debug for MayAbout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.name())
    }
}

/// A choice the rules leave to a player, or to chance.
#[derive(Debug, Clone)]
pub enum Decision {
    /// "may": whether to do something ([`MayAbout`]).
    May {
        /// Who chooses.
        player: PlayerId,
        /// What about.
        about: MayAbout,
        /// The source of the ability offering the choice, when it matters.
        card: Option<ObjId>,
    },
    /// Which cards a search finds, one set per merged instruction (701.23h).
    Find {
        /// Who searches.
        searcher: PlayerId,
        /// Who makes the searcher's choices: the searcher, or the player controlling them while
        /// they search (723.5, Opposition Agent; [`crate::rules::search::search_chooser`]).
        chooser: PlayerId,
        /// One plan per instruction.
        parts: Vec<PartPlan>,
        /// Every card the searcher looked at.
        looked_at: Vec<ObjId>,
        /// The 701.23f limit, if one applied.
        cap: Option<u32>,
        /// For merged instructions whose own minimums can't all be met: how many cards the whole
        /// search must find (701.23h with 701.23d); 0 otherwise.
        joint_min: usize,
        /// Where each instruction puts the cards it finds.
        to: Vec<crate::cards::instructions::Destination>,
        /// Whether each instruction reveals the cards it finds (701.23e).
        reveal: Vec<bool>,
        /// Whether the found cards are exiled instead of going where the instructions say
        /// (614.1a, Opposition Agent: [`crate::rules::search::found_cards_exiled_for`]), as worked
        /// out when the search is made, so that where a card went doesn't tell which instruction
        /// found it.
        exiled_instead: bool,
    },
    /// Choose `count` different cards among options (one from a revealed hand; two of the cards
    /// Gifts Ungiven found), answered with `Cards`.
    ChooseCard {
        /// Who chooses.
        player: PlayerId,
        /// The options.
        options: Vec<ObjId>,
        /// How many, at most the number of options.
        count: usize,
        /// Any number of the options, none to all, rather than `count` of them (an opponent
        /// separating revealed cards into two piles, 700.3: the cards of one pile).
        any_number: bool,
    },
    /// Choose a permanent to sacrifice, answered with `Cards` holding one of `options`; with
    /// `any_number` ("sacrifice any number of lands", 107.1c), any set of them, none included.
    Sacrifice {
        /// Who sacrifices.
        player: PlayerId,
        /// The options.
        options: Vec<ObjId>,
        /// Any number of the options may be chosen, rather than exactly one.
        any_number: bool,
    },
    /// The order in which a player puts their simultaneous triggered abilities on the stack
    /// (603.3b): the answer lists indexes into `triggers`, first = lowest on the stack.
    OrderTriggers {
        /// Whose triggers.
        player: PlayerId,
        /// Each trigger's source, event, and triggering player.
        triggers: Vec<(ObjId, &'static str, Option<PlayerId>)>,
    },
    /// Whether to dredge instead of drawing (702.52a), and with which card: answered with
    /// `Cards` holding none or one of `options`.
    Dredge {
        /// Who would draw.
        player: PlayerId,
        /// Which of the player's draws in this step, from 1.
        draw: u32,
        /// Cards in their graveyard whose dredge N their library can pay (702.52b).
        options: Vec<ObjId>,
    },
    /// Which cards to discard (701.9b: the discarding player chooses), answered with `Cards`.
    Discard {
        /// Who discards.
        player: PlayerId,
        /// Cards that may be discarded.
        options: Vec<ObjId>,
        /// How many.
        count: usize,
        /// An optional cost: discarding nothing is also an answer.
        optional: bool,
    },
    /// A card name (709.4a: one half's name for a split card), answered with `Name`.
    Name {
        /// Who names.
        player: PlayerId,
        /// Names of cards in the game that may be named.
        options: Vec<String>,
        /// The kind of card named ("a nonland card name"), which decides what else may be
        /// named (201.4): names of cards outside the game are legal too.
        filter: crate::cards::instructions::Filter,
    },
    /// Whether to cast a spell as part of a resolving effect, and which (card, half) — answered
    /// with `Cast`: from a graveyard (Jetsam), a copy (707.12), or from the library being
    /// searched (Panglacial Wurm, 601.3).
    CastFree {
        /// Who may cast.
        player: PlayerId,
        /// Whose zones the options come from (several when the caster chooses the order in
        /// which to cast one spell from each graveyard, 101.4c).
        from: Vec<PlayerId>,
        /// Castable cards, with the half for split cards.
        options: Vec<(ObjId, Option<usize>)>,
        /// Cast without paying its mana cost (118.9); false when the caster pays it (Panglacial
        /// Wurm cast while searching).
        free: bool,
    },
    /// Targets of a triggered ability as it goes on the stack (603.3d), or of a spell cast
    /// during a resolution (601.2c, `spell`), answered with `Targets`.
    Targets {
        /// The ability's controller, or the spell's caster.
        player: PlayerId,
        /// The ability's source, or the card being cast.
        source: ObjId,
        /// The targets of a spell cast during a resolution ([`Decision::CastFree`] chose it), not
        /// of a triggered ability: the `cast` event records them.
        spell: bool,
        /// Every legal combination.
        options: Vec<Vec<TargetChoice>>,
    },
    /// Which of several 701.23f limits applies last (616.1: the searcher orders the replacement
    /// effects), answered with `Limit`.
    SearchLimit {
        /// The searcher.
        player: PlayerId,
        /// The limits of the effects that apply, smallest first.
        options: Vec<u32>,
    },
    /// Which of several replacement effects that would modify a card's move to a graveyard
    /// applies first (616.1, 616.1e), answered with `Name` holding the effect's key.
    Replacement {
        /// The affected card's controller, or its owner (616.1).
        player: PlayerId,
        /// The card.
        card: ObjId,
        /// The applicable effects, the card's own first.
        options: Vec<crate::rules::replacement::GraveyardReplacement>,
    },
    /// The order in which the parts of a total cost are paid (601.2h, 602.2b), answered with
    /// `Order`: indexes into `parts`, first paid first.
    CostOrder {
        /// Who pays.
        player: PlayerId,
        /// The parts that move cards.
        parts: Vec<crate::rules::casting::CostPart>,
    },
    /// Chance: which `count` cards of `from` are where a shuffled library's order put them
    /// (the top card drawn, the top N searched). Not a player's choice.
    Random {
        /// Whose library.
        player: PlayerId,
        /// What the randomness decides: `draw` or `search_window`.
        purpose: &'static str,
        /// Cards that could be there.
        from: Vec<ObjId>,
        /// How many.
        count: usize,
    },
}

impl Decision {
    /// The player the decision belongs to.
    pub fn player(&self) -> PlayerId {
        match self {
            Decision::May { player, .. }
            | Decision::ChooseCard { player, .. }
            | Decision::Sacrifice { player, .. }
            | Decision::Random { player, .. }
            | Decision::OrderTriggers { player, .. }
            | Decision::Dredge { player, .. }
            | Decision::Discard { player, .. }
            | Decision::Name { player, .. }
            | Decision::CastFree { player, .. }
            | Decision::Targets { player, .. }
            | Decision::SearchLimit { player, .. }
            | Decision::Replacement { player, .. }
            | Decision::CostOrder { player, .. } => *player,
            // 723.5: a controlled searcher's choices are their controller's.
            Decision::Find { chooser, .. } => *chooser,
        }
    }
}

/// An answer to a [`Decision`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// Yes / no, for [`Decision::May`].
    Bool(bool),
    /// Cards, for every other decision; for [`Decision::Find`] use [`Choice::Parts`].
    Cards(Vec<ObjId>),
    /// Found cards per merged search instruction.
    Parts(Vec<Vec<ObjId>>),
    /// An order, as indexes, for [`Decision::OrderTriggers`] and [`Decision::CostOrder`].
    Order(Vec<usize>),
    /// A card name, for [`Decision::Name`]; a replacement effect's key, for
    /// [`Decision::Replacement`].
    Name(String),
    /// A spell to cast (card and split half), or none, for [`Decision::CastFree`].
    Cast(Option<(ObjId, Option<usize>)>),
    /// Targets, for [`Decision::Targets`].
    Targets(Vec<TargetChoice>),
    /// A library search limit, for [`Decision::SearchLimit`].
    Limit(u32),
}

/// Why a simulation stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SimError {
    /// A decision's answer broke a rule.
    Illegal {
        /// The rule and what happened.
        violation: Violation,
        /// The step it happened in.
        step: usize,
        /// The legal answers, described, when there are few enough to list.
        options: Vec<String>,
    },
    /// A step can't be taken as written (card not where the step needs it, bad target…).
    Invalid {
        /// The step.
        step: usize,
        /// What is wrong.
        message: String,
    },
    /// A scripted decision (by index in the scenario's `decisions`) is not a legal answer.
    ScriptIllegal {
        /// Index of the scripted decision.
        entry: usize,
        /// The rule and what happened.
        violation: Violation,
        /// The legal answers, described.
        options: Vec<String>,
    },
    /// The scenario needs something the oracle doesn't model.
    Unsupported {
        /// The step.
        step: usize,
        /// What isn't modelled.
        message: String,
    },
    /// The rules forbid the step (a cost that can't be paid, a card that can't be cast so).
    Refused {
        /// The step.
        step: usize,
        /// The clause that forbids it.
        clause: &'static str,
        /// Why.
        message: String,
    },
    /// Too many outcomes to enumerate.
    TooLarge(String),
    /// The decider had no answer (for example an observed log that lacks the event).
    NoAnswer {
        /// The step.
        step: usize,
        /// What was missing.
        message: String,
        /// The clause the missing event is about.
        clause: &'static str,
    },
}

impl SimError {
    /// Where in the scenario it happened: `steps[N]`, `decisions[N]`, or empty when the whole
    /// scenario is concerned (too large to enumerate).
    pub fn place(&self) -> String {
        match self {
            SimError::Illegal { step, .. }
            | SimError::Invalid { step, .. }
            | SimError::Unsupported { step, .. }
            | SimError::Refused { step, .. }
            | SimError::NoAnswer { step, .. } => format!("steps[{step}]"),
            SimError::ScriptIllegal { entry, .. } => format!("decisions[{entry}]"),
            SimError::TooLarge(_) => String::new(),
        }
    }

    /// What went wrong, as the author of the scenario reads it (without [`SimError::place`]).
    pub fn message(&self) -> String {
        let legal = |options: &[String]| {
            if options.is_empty() { String::new() } else { format!("; legal: {}", options.join("; ")) }
        };
        match self {
            SimError::Invalid { message, .. } | SimError::NoAnswer { message, .. } => message.clone(),
            SimError::ScriptIllegal { violation, options, .. } => {
                format!("not a legal choice — {violation}{}", legal(options))
            }
            SimError::Illegal { violation, options, .. } => format!("{violation}{}", legal(options)),
            SimError::Unsupported { message, .. } => format!("not modelled: {message}"),
            SimError::Refused { clause, message, .. } => format!(
                "the rules forbid this step ({clause}: {message}); to expect that, wrap it in `attempt: {{step: …, \
                 refused: \"{clause}\"}}`"
            ),
            SimError::TooLarge(m) => format!("too large to enumerate: {m}"),
        }
    }
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let place = self.place();
        if place.is_empty() { f.write_str(&self.message()) } else { write!(f, "{place}: {}", self.message()) }
    }
}

impl std::error::Error for SimError {}

/// Answers decisions.
pub trait Decider {
    /// Answers `decision`, taken during `step` of a game now in state `game`.
    fn decide(&mut self, game: &Game, step: usize, decision: &Decision) -> Result<Choice, SimError>;

    /// Told when a script answered `decision` instead, so a decider that reads answers from a
    /// log can account for the log entry that answer corresponds to.
    fn note_scripted(&mut self, _game: &Game, _step: usize, _decision: &Decision, _choice: &Choice) {}

    /// Told of every `revealed` and `looked_at` event the simulation logs, so a decider that reads
    /// answers from a log can account for the entry (a reveal that was no choice, e.g. a
    /// continuously revealed top card whose place is already fixed, 401.5).
    fn note_shown(&mut self, _step: usize, _event: &Event) {}

    /// Told that `decision` (a "may pay life" of an "as enters" replacement, 614.1c) that the
    /// player declined, or wasn't asked, needn't have been offered, and may have been: the
    /// player orders the choices of cards entering at once (101.4c, 616.1), and could pay for
    /// this card before the batch's payments but not after them (119.4). `asked` says whether
    /// this simulation asked it. A decider that checks what an engine offered takes the offer as
    /// optional.
    fn note_offer_optional(&mut self, _game: &Game, _step: usize, _decision: &Decision, _asked: bool) {}
}

/// An answer as an error message shows it: card ids and player names, not the simulator's
/// object numbers (an illegal scripted or observed answer is named in the author's terms).
pub(crate) fn describe_choice(game: &Game, choice: &Choice) -> String {
    let ids = |cards: &[ObjId]| {
        format!("[{}]", cards.iter().map(|&o| game.obj(o).id.as_ref()).collect::<Vec<_>>().join(", "))
    };
    match choice {
        Choice::Bool(true) => "yes".into(),
        Choice::Bool(false) => "no".into(),
        Choice::Cards(cards) => ids(cards),
        Choice::Parts(parts) => format!("[{}]", parts.iter().map(|p| ids(p)).collect::<Vec<_>>().join(", ")),
        Choice::Order(order) => format!("the order {order:?}"),
        Choice::Name(name) => format!("`{name}`"),
        Choice::Cast(None) => "declining".into(),
        Choice::Cast(Some((card, None))) => format!("`{}`", game.obj(*card).id),
        Choice::Cast(Some((card, Some(half)))) => format!("`{}` (half {half})", game.obj(*card).id),
        Choice::Targets(targets) => format!(
            "[{}]",
            targets
                .iter()
                .map(|t| match t {
                    TargetChoice::Obj(o, _) => game.obj(*o).id_string(),
                    TargetChoice::Player(p) => game.players[*p].name.clone(),
                })
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Choice::Limit(n) => format!("a limit of {n}"),
    }
}
