//! Mutants: the reference engine (`mtg-oracle serve --mutant NAME`) with one known rules bug.
//!
//! Each [`Mutant`] is a bug real engines have had. It is a real change of behaviour: the
//! simulator plays whole games with the bug, and `mtg-oracle mutants` runs the bundled scenarios
//! against every mutant and reports which scenarios catch it: a corpus that lets a mutant survive
//! can't catch that bug in a real engine.
//!
//! A mutant is a parameter of the simulator (`Sim::set_mutant` in `sim`), set only by whoever
//! builds the reference engine's simulator (`serve`, and through it `check`'s mutation run and
//! the fuzzers' engine diff); `explore` and `judge` never set one, so the oracle can't see a
//! mutant by accident. `rules/` knows nothing of mutants: each rules function returns the rules'
//! answer, and the simulator applies the bug where it calls it (each hook names its mutant).
//! Where a bug lives inside a rules computation, the simulator adjusts the rules' result rather
//! than giving the rules function a parameter that only a bug would use, with the helpers below:
//! a split card's mana value ([`split_mana_value_one_half`]), a search plan's forced finds
//! ([`adjust_plan`]), dredge's library-size condition ([`dredge_options_ignoring_library`]) and
//! the windows of a limited search ([`bottom_window`], [`slid_window`], [`below_window`]). The
//! one exception is in rules terms: [`crate::rules::search::library_caps_in_play`] lists every
//! search limit on the battlefield whoever it applies to, which the rules also need for a
//! search's clause. Option sets (`offers.rs`) take the mutant as a parameter the same way.

use crate::cards::def::CardDef;
use crate::model::{Chars, Game, ObjId, PlayerId, ZoneRef};
use crate::rules::search::{PartPlan, Quality};

/// A known rules bug the reference engine can play with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mutant {
    /// "… then shuffle" after a search is skipped.
    NoShuffleAfterSearch,
    /// Matching cards in a public zone (a graveyard) may be left behind, and are.
    PublicCopiesOptional,
    /// Every matching card in a hidden zone is found for an "all cards" search, whatever the
    /// searcher chose.
    HiddenCopiesForced,
    /// Aven Mindcensor limits the search to the bottom N cards instead of the top N.
    MindcensorBottomN,
    /// Aven Mindcensor also limits its own controller's searches.
    MindcensorLimitsController,
    /// Aven Mindcensor is ignored when the search covers several zones (Splinter, Lobotomy).
    MindcensorIgnoredMultiZone,
    /// After a search limited to the top N, only those N cards are shuffled: the rest keep their
    /// places, so what players knew about them stays known.
    MindcensorShufflesTopOnly,
    /// Found cards are revealed even when the effect doesn't say to reveal them.
    FoundCardRevealed,
    /// Two search instructions merged into one search (701.23h) trigger "whenever a player
    /// searches" abilities once per instruction.
    MergedSearchTriggersTwice,
    /// Simultaneous searchers of one library search one after the other: a later searcher limited
    /// to the top N looks after the earlier ones' finds have left, so the window slides down.
    SequentialSearches,
    /// A split card's mana value off the stack is its first half's, not the sum of both.
    SplitManaValueOneHalf,
    /// Lobotomy's "a card other than a basic land card" is ignored: any card may be chosen.
    LobotomyBasicLand,
    /// A tutored card bound for the top of the library is shuffled in with the rest before it is
    /// put on top, so it becomes a new object nobody has seen (the searcher forgets it).
    FoundCardShuffledIn,
    /// A search simply for a quantity of cards ("a card") may find fewer, and does.
    QuantitySearchFindsFewer,
    /// Searching an empty library isn't counted as a search: no `searched` event, no trigger.
    EmptyLibraryNotSearched,
    /// A search outside the game finds cards other players own too.
    OutsideFindsOthersCards,
    /// A spell cast with flashback is put into its owner's graveyard when it leaves the stack.
    FlashbackNotExiled,
    /// A cycled card triggers "whenever you cycle or discard a card" twice: once as a cycle, once as a discard.
    CycleOrDiscardTwice,
    /// An effect that stops cycling stops only abilities named plain cycling, not typecycling.
    CantCycleMissesTypecycling,
    /// Dredge N may replace a draw even with fewer than N cards in the library.
    DredgeIgnoresLibrarySize,
    /// A cost that mills more cards than the library holds can be paid anyway.
    MillCostPartial,
    /// A split card counts once per half when cards in a zone are counted.
    SplitCountedTwice,
    /// A spell with X cast without paying its mana cost gets X = 1.
    XNotZeroWithoutPaying,
    /// A spell or ability whose every target has become illegal still resolves.
    IllegalTargetsStillResolve,
    /// Revealed cards put back in a new order keep being known to every player.
    RevealedTopStaysKnown,
    /// A card exiled face down is known to every player.
    FaceDownExileVisible,
    /// Option sets (protocol 2 offers): a search limited to the top N cards of a library offers
    /// the cards below that window too, though it never picks them.
    OffersBelowMindcensorWindow,
    /// Option sets: a card choice offers every card of the zone it chooses from — Lobotomy's
    /// caster is offered the basic lands of the revealed hand too — though it never picks one.
    LobotomyOffersBasicLands,
    /// Option sets: "you may search" is never offered; the engine searches without asking.
    MaySearchNotOffered,
    /// A "pay N life" part of an activation cost is not paid: the life total stays as it was.
    LifeCostNotPaid,
    /// A card put onto the battlefield tapped by a search ("put it onto the battlefield tapped")
    /// enters untapped.
    FetchedLandEntersUntapped,
    /// "with mana value X or less" (Green Sun's Zenith, Chord of Calling) is not bounded by X:
    /// any card matching the rest of the description may be found.
    ManaValueXIgnored,
    /// A "can't search libraries" effect (Stranglehold, Leonin Arbiter, Ashiok) is ignored: the
    /// player it stops still searches.
    SearchBanIgnored,
    /// "Sacrifice any number of lands. Search … for up to that many" (Scapeshift) counts every
    /// land the player could have sacrificed, not the ones they did.
    ThatManyCountsEveryOption,
    /// Gifts Ungiven's opponent doesn't choose: the caster picks which found cards go to the
    /// graveyard.
    SplitChosenByCaster,
    /// A mandatory "search …, then shuffle" that a "can't search" effect stops skips the shuffle
    /// too, although only the search is impossible.
    BannedSearchSkipsShuffle,
    /// A search limited to the top cards of a library (Aven Mindcensor) isn't counted as the
    /// player having searched their library, so Archive Trap's alternative cost is refused.
    TrapIgnoresCappedSearch,
    /// Opposition Agent is ignored when an opponent searches: the searcher makes their own
    /// choices of what to find.
    OppositionAgentSearcherChooses,
    /// Opposition Agent's exile is ignored: the cards an opponent's search finds go where the
    /// instruction says.
    OppositionAgentExileIgnored,
    /// A shock land (Hallowed Fountain) whose "you may pay 2 life" wasn't paid as it entered
    /// enters untapped anyway.
    ShockLandUnpaidEntersUntapped,
    /// A search that splits its found cards between the battlefield and the hand (Cultivate)
    /// puts the hand's card onto the battlefield too.
    SplitDestinationAllToBattlefield,
    /// Split second is ignored: a spell is cast, or an ability activated, in response to a spell
    /// with split second (Extirpate).
    SplitSecondIgnored,
    /// "Its controller" (the controller of a target, Ghost Quarter's and Assassin's Trophy's
    /// searcher; Splinter's searched player) is read as the controller of the spell or ability.
    TargetControllerIsYou,
    /// An intervening "if" clause is ignored (603.4): Howling Mine makes a player draw while it
    /// is tapped; Land Tax triggers when no opponent has more lands.
    InterveningIfIgnored,
    /// A Phyrexian mana symbol the caster chose to pay with 2 life (107.4f) costs no life.
    PhyrexianLifeNotPaid,
    /// An activation instruction "Activate only during your upkeep" (Eternal Dragon) is ignored:
    /// the ability is activated in another step or phase, or in another player's turn.
    ActivateOnlyDuringIgnored,
    /// Summoning sickness is ignored: a creature that came under its controller's control this
    /// turn (Stoneforge Mystic) activates a {T} ability.
    SummoningSicknessIgnored,
    /// Cards put from a hand "on top of your library" (Brainstorm) go to its bottom.
    PutBackOnBottom,
    /// Fact or Fiction's caster separates the revealed cards into piles, not an opponent.
    PilesSeparatedByCaster,
    /// "Exile up to two target cards" (Cease) exiles only the first target card.
    OnlyFirstTargetCardExiled,
    /// "Destroy all …" (Desist) destroys indestructible permanents too.
    DestroyAllIgnoresIndestructible,
    /// A creature with lethal damage marked on it (Lightning Bolt on a 2/2) stays on the battlefield.
    LethalDamageIgnored,
    /// Panglacial Wurm may be cast from anywhere in the library being searched, also below the
    /// top N cards a search limited by Aven Mindcensor covers (701.23f).
    WurmCastOutsideSearchWindow,
    /// A wish (Burning Wish: "reveal a card you own from outside the game") is treated as a
    /// search: a "can't search libraries" effect on the player (Stranglehold) stops it.
    WishStoppedBySearchBan,
    /// "Lose half your life, rounded up" (Doomsday) rounds an odd life total down.
    HalfLifeRoundedDown,
    /// Doomsday's "exile the rest" exiles the rest of the library but leaves the graveyard.
    ExileRestSparesGraveyard,
    /// A card a search puts into a graveyard (Entomb) is moved there directly: no replacement
    /// effect applies to it (Darksteel Colossus) and no "put into a graveyard" trigger sees it.
    FoundCardToGraveyardUnwatched,
    /// A planeswalker's loyalty abilities may be activated more than once a turn.
    LoyaltyTwicePerTurn,
    /// A planeswalker with loyalty 0 stays on the battlefield.
    ZeroLoyaltyPlaneswalkerStays,
    /// Guile's replacement is ignored: a spell its controller's spell or ability counters goes
    /// to its owner's graveyard instead of exile, and can't be cast.
    GuileCounterNotReplaced,
    /// Guile's replacement applies to every counter, also one an opponent's spell or ability
    /// makes.
    GuileReplacesOpponentsCounters,
    /// A spell cast as an Adventure (Petty Theft) is put into its owner's graveyard as it
    /// resolves, like any instant, instead of being exiled to be cast later (715.3d).
    AdventureToGraveyard,
    /// A card exiled by its own Adventure may be cast from exile as the Adventure again (715.3d
    /// allows only the normal characteristics).
    AdventureCastAgain,
    /// Prowl is allowed after combat damage dealt to a player by a creature of any type, not only
    /// one sharing a creature type with the spell (702.76a).
    ProwlAnyCreatureType,
    /// A spell's name for "the same name as that spell" (Counterbore) is its card's, not the name
    /// it was cast with: Petty Theft countered looks for Brazen Borrower.
    SpellNamedAsItsCard,
    /// Removing the last time counter from a suspended card triggers nothing, so it is never cast
    /// (702.62a).
    SuspendLastCounterNoCast,
    /// Gravestorm counts only the permanents put into graveyards during the run, not those the
    /// scenario says went there earlier in the turn (702.69a).
    GravestormCountsOnlyThisRun,
    /// A copy of a spell (gravestorm's) is logged as cast (707.10: it is put on the stack, not
    /// cast).
    SpellCopiesCast,
    /// A copy of a spell is put into its owner's graveyard as it resolves, and stays there,
    /// instead of ceasing to exist (704.5e).
    SpellCopyToGraveyard,
    /// A spell with no legal choice of targets is still offered for a free cast during a
    /// resolution (Guile), and cast with no targets (601.2c).
    FreeCastWithoutLegalTarget,
    /// In a search by several players at once (701.23i), a card the first searcher cast from the
    /// library they search (Panglacial Wurm, 601.3) can still be found by a later searcher of
    /// that library, as if it had not left (fuzz finding 12).
    CastCardStillFindable,
}

impl Mutant {
    /// Every mutant, in a fixed order.
    pub const ALL: [Mutant; 71] = [
        Mutant::NoShuffleAfterSearch,
        Mutant::PublicCopiesOptional,
        Mutant::HiddenCopiesForced,
        Mutant::MindcensorBottomN,
        Mutant::MindcensorLimitsController,
        Mutant::MindcensorIgnoredMultiZone,
        Mutant::MindcensorShufflesTopOnly,
        Mutant::FoundCardRevealed,
        Mutant::MergedSearchTriggersTwice,
        Mutant::SequentialSearches,
        Mutant::SplitManaValueOneHalf,
        Mutant::LobotomyBasicLand,
        Mutant::FoundCardShuffledIn,
        Mutant::QuantitySearchFindsFewer,
        Mutant::EmptyLibraryNotSearched,
        Mutant::OutsideFindsOthersCards,
        Mutant::FlashbackNotExiled,
        Mutant::CycleOrDiscardTwice,
        Mutant::CantCycleMissesTypecycling,
        Mutant::DredgeIgnoresLibrarySize,
        Mutant::MillCostPartial,
        Mutant::SplitCountedTwice,
        Mutant::XNotZeroWithoutPaying,
        Mutant::IllegalTargetsStillResolve,
        Mutant::RevealedTopStaysKnown,
        Mutant::FaceDownExileVisible,
        Mutant::OffersBelowMindcensorWindow,
        Mutant::LobotomyOffersBasicLands,
        Mutant::MaySearchNotOffered,
        Mutant::LifeCostNotPaid,
        Mutant::FetchedLandEntersUntapped,
        Mutant::ManaValueXIgnored,
        Mutant::SearchBanIgnored,
        Mutant::ThatManyCountsEveryOption,
        Mutant::SplitChosenByCaster,
        Mutant::BannedSearchSkipsShuffle,
        Mutant::TrapIgnoresCappedSearch,
        Mutant::OppositionAgentSearcherChooses,
        Mutant::OppositionAgentExileIgnored,
        Mutant::ShockLandUnpaidEntersUntapped,
        Mutant::SplitDestinationAllToBattlefield,
        Mutant::SplitSecondIgnored,
        Mutant::TargetControllerIsYou,
        Mutant::InterveningIfIgnored,
        Mutant::PhyrexianLifeNotPaid,
        Mutant::ActivateOnlyDuringIgnored,
        Mutant::SummoningSicknessIgnored,
        Mutant::PutBackOnBottom,
        Mutant::PilesSeparatedByCaster,
        Mutant::OnlyFirstTargetCardExiled,
        Mutant::DestroyAllIgnoresIndestructible,
        Mutant::LethalDamageIgnored,
        Mutant::WurmCastOutsideSearchWindow,
        Mutant::WishStoppedBySearchBan,
        Mutant::HalfLifeRoundedDown,
        Mutant::ExileRestSparesGraveyard,
        Mutant::FoundCardToGraveyardUnwatched,
        Mutant::LoyaltyTwicePerTurn,
        Mutant::ZeroLoyaltyPlaneswalkerStays,
        Mutant::GuileCounterNotReplaced,
        Mutant::GuileReplacesOpponentsCounters,
        Mutant::AdventureToGraveyard,
        Mutant::AdventureCastAgain,
        Mutant::ProwlAnyCreatureType,
        Mutant::SpellNamedAsItsCard,
        Mutant::SuspendLastCounterNoCast,
        Mutant::GravestormCountsOnlyThisRun,
        Mutant::SpellCopiesCast,
        Mutant::SpellCopyToGraveyard,
        Mutant::FreeCastWithoutLegalTarget,
        Mutant::CastCardStillFindable,
    ];

    /// The name used on the command line (`serve --mutant NAME`).
    pub fn name(self) -> &'static str {
        match self {
            Mutant::NoShuffleAfterSearch => "no-shuffle-after-search",
            Mutant::PublicCopiesOptional => "public-copies-optional",
            Mutant::HiddenCopiesForced => "hidden-copies-forced",
            Mutant::MindcensorBottomN => "mindcensor-bottom-n",
            Mutant::MindcensorLimitsController => "mindcensor-limits-controller",
            Mutant::MindcensorIgnoredMultiZone => "mindcensor-ignored-multi-zone",
            Mutant::MindcensorShufflesTopOnly => "mindcensor-shuffles-top-only",
            Mutant::FoundCardRevealed => "found-card-revealed",
            Mutant::MergedSearchTriggersTwice => "merged-search-triggers-twice",
            Mutant::SequentialSearches => "sequential-searches",
            Mutant::SplitManaValueOneHalf => "split-mana-value-one-half",
            Mutant::LobotomyBasicLand => "lobotomy-basic-land",
            Mutant::FoundCardShuffledIn => "found-card-shuffled-in",
            Mutant::QuantitySearchFindsFewer => "quantity-search-finds-fewer",
            Mutant::EmptyLibraryNotSearched => "empty-library-not-searched",
            Mutant::OutsideFindsOthersCards => "outside-finds-others-cards",
            Mutant::FlashbackNotExiled => "flashback-not-exiled",
            Mutant::CycleOrDiscardTwice => "cycle-or-discard-twice",
            Mutant::CantCycleMissesTypecycling => "cant-cycle-misses-typecycling",
            Mutant::DredgeIgnoresLibrarySize => "dredge-ignores-library-size",
            Mutant::MillCostPartial => "mill-cost-partial",
            Mutant::SplitCountedTwice => "split-counted-twice",
            Mutant::XNotZeroWithoutPaying => "x-not-zero-without-paying",
            Mutant::IllegalTargetsStillResolve => "illegal-targets-still-resolve",
            Mutant::RevealedTopStaysKnown => "revealed-cards-stay-known-after-reorder",
            Mutant::FaceDownExileVisible => "face-down-exile-visible",
            Mutant::OffersBelowMindcensorWindow => "offers-below-mindcensor-window",
            Mutant::LobotomyOffersBasicLands => "lobotomy-offers-basic-lands",
            Mutant::MaySearchNotOffered => "may-search-not-offered",
            Mutant::LifeCostNotPaid => "life-cost-not-paid",
            Mutant::FetchedLandEntersUntapped => "fetched-land-enters-untapped",
            Mutant::ManaValueXIgnored => "mana-value-x-ignored",
            Mutant::SearchBanIgnored => "search-ban-ignored",
            Mutant::ThatManyCountsEveryOption => "that-many-counts-every-option",
            Mutant::SplitChosenByCaster => "split-chosen-by-caster",
            Mutant::BannedSearchSkipsShuffle => "banned-search-skips-shuffle",
            Mutant::TrapIgnoresCappedSearch => "trap-ignores-capped-search",
            Mutant::OppositionAgentSearcherChooses => "opposition-agent-searcher-chooses",
            Mutant::OppositionAgentExileIgnored => "opposition-agent-exile-ignored",
            Mutant::ShockLandUnpaidEntersUntapped => "shock-land-unpaid-enters-untapped",
            Mutant::SplitDestinationAllToBattlefield => "split-destination-all-to-battlefield",
            Mutant::SplitSecondIgnored => "split-second-ignored",
            Mutant::TargetControllerIsYou => "target-controller-is-you",
            Mutant::InterveningIfIgnored => "intervening-if-ignored",
            Mutant::PhyrexianLifeNotPaid => "phyrexian-life-not-paid",
            Mutant::ActivateOnlyDuringIgnored => "activate-only-during-ignored",
            Mutant::SummoningSicknessIgnored => "summoning-sickness-ignored",
            Mutant::PutBackOnBottom => "put-back-on-bottom",
            Mutant::PilesSeparatedByCaster => "piles-separated-by-caster",
            Mutant::OnlyFirstTargetCardExiled => "only-first-target-card-exiled",
            Mutant::DestroyAllIgnoresIndestructible => "destroy-all-ignores-indestructible",
            Mutant::LethalDamageIgnored => "lethal-damage-ignored",
            Mutant::WurmCastOutsideSearchWindow => "wurm-cast-outside-search-window",
            Mutant::WishStoppedBySearchBan => "wish-stopped-by-search-ban",
            Mutant::HalfLifeRoundedDown => "half-life-rounded-down",
            Mutant::ExileRestSparesGraveyard => "exile-rest-spares-graveyard",
            Mutant::FoundCardToGraveyardUnwatched => "found-card-to-graveyard-unwatched",
            Mutant::LoyaltyTwicePerTurn => "loyalty-twice-per-turn",
            Mutant::ZeroLoyaltyPlaneswalkerStays => "zero-loyalty-planeswalker-stays",
            Mutant::GuileCounterNotReplaced => "guile-counter-not-replaced",
            Mutant::GuileReplacesOpponentsCounters => "guile-replaces-opponents-counters",
            Mutant::AdventureToGraveyard => "adventure-to-graveyard",
            Mutant::AdventureCastAgain => "adventure-cast-again",
            Mutant::ProwlAnyCreatureType => "prowl-any-creature-type",
            Mutant::SpellNamedAsItsCard => "spell-named-as-its-card",
            Mutant::SuspendLastCounterNoCast => "suspend-last-counter-no-cast",
            Mutant::GravestormCountsOnlyThisRun => "gravestorm-counts-only-this-run",
            Mutant::SpellCopiesCast => "spell-copies-cast",
            Mutant::SpellCopyToGraveyard => "spell-copy-to-graveyard",
            Mutant::FreeCastWithoutLegalTarget => "free-cast-without-legal-target",
            Mutant::CastCardStillFindable => "cast-card-still-findable",
        }
    }

    /// The bug, in words.
    pub fn description(self) -> &'static str {
        match self {
            Mutant::NoShuffleAfterSearch => "no shuffle after a search that says \"then shuffle\"",
            Mutant::PublicCopiesOptional => "matching cards in a graveyard may be left behind by an \"all\" search",
            Mutant::HiddenCopiesForced => "every matching card in a hand or library is found, whatever was chosen",
            Mutant::MindcensorBottomN => "Aven Mindcensor limits the search to the bottom N cards, not the top N",
            Mutant::MindcensorLimitsController => "Aven Mindcensor limits its controller's own searches too",
            Mutant::MindcensorIgnoredMultiZone => "Aven Mindcensor is ignored for a multi-zone search (Splinter)",
            Mutant::MindcensorShufflesTopOnly => "after a Mindcensor search only the top N cards are shuffled",
            Mutant::FoundCardRevealed => "found cards are revealed when the effect doesn't say so",
            Mutant::MergedSearchTriggersTwice => "a merged search (701.23h) fires search triggers once per instruction",
            Mutant::SequentialSearches => "simultaneous searchers of one library search one after another",
            Mutant::SplitManaValueOneHalf => "a split card's mana value is its first half's, not the sum",
            Mutant::LobotomyBasicLand => "Lobotomy may choose a basic land card",
            Mutant::FoundCardShuffledIn => "a tutored card is shuffled in before it goes on top (becomes unknown)",
            Mutant::QuantitySearchFindsFewer => "a search for \"a card\" may find nothing although cards are there",
            Mutant::EmptyLibraryNotSearched => "searching an empty library is not a search (no event, no trigger)",
            Mutant::OutsideFindsOthersCards => "a search outside the game finds other players' cards",
            Mutant::FlashbackNotExiled => "a spell cast with flashback goes to the graveyard instead of exile",
            Mutant::CycleOrDiscardTwice => "\"cycles or discards\" abilities trigger twice for a cycled card",
            Mutant::CantCycleMissesTypecycling => "\"players can't cycle\" doesn't stop typecycling",
            Mutant::DredgeIgnoresLibrarySize => "dredge is offered with fewer cards in the library than N",
            Mutant::MillCostPartial => "a mill cost larger than the library can be paid by milling what is there",
            Mutant::SplitCountedTwice => "a split card counts as two cards when cards are counted",
            Mutant::XNotZeroWithoutPaying => "X is 1, not 0, for a spell cast without paying its mana cost",
            Mutant::IllegalTargetsStillResolve => "a spell or ability whose targets are all illegal still resolves",
            Mutant::RevealedTopStaysKnown => "cards reordered on top of a library stay known to everyone",
            Mutant::FaceDownExileVisible => "a card exiled face down is visible to every player",
            Mutant::OffersBelowMindcensorWindow => {
                "a search limited to the top N offers the cards below them too (never picks them)"
            }
            Mutant::LobotomyOffersBasicLands => {
                "a card choice offers every card of the zone, like Lobotomy offering basic lands (never picks them)"
            }
            Mutant::MaySearchNotOffered => "\"you may search\" is not offered: the engine searches without asking",
            Mutant::LifeCostNotPaid => "a \"pay N life\" activation cost (a fetch land's) is not paid",
            Mutant::FetchedLandEntersUntapped => "a card put onto the battlefield tapped by a search enters untapped",
            Mutant::ManaValueXIgnored => "\"mana value X or less\" is ignored: a bigger matching card may be found",
            Mutant::TrapIgnoresCappedSearch => {
                "Archive Trap's cost ignores a search Aven Mindcensor limited (it still counts as searching)"
            }
            Mutant::SearchBanIgnored => "a player under Stranglehold (a \"can't search\" effect) still searches",
            Mutant::SplitChosenByCaster => {
                "Gifts Ungiven's opponent doesn't choose: its caster picks the two found cards for the graveyard"
            }
            Mutant::ThatManyCountsEveryOption => {
                "Scapeshift searches for up to as many lands as its caster controlled, not as many as they sacrificed"
            }
            Mutant::BannedSearchSkipsShuffle => {
                "a mandatory search stopped by a \"can't search\" effect skips its \"then shuffle\" too"
            }
            Mutant::OppositionAgentSearcherChooses => {
                "Opposition Agent's controller doesn't get the choice: an opponent searching their library chooses"
            }
            Mutant::OppositionAgentExileIgnored => {
                "cards an opponent finds under Opposition Agent go where the search says instead of into exile"
            }
            Mutant::ShockLandUnpaidEntersUntapped => {
                "Hallowed Fountain enters untapped though its 2 life wasn't paid as it entered"
            }
            Mutant::SplitDestinationAllToBattlefield => {
                "Cultivate puts both found lands onto the battlefield tapped, none into the hand"
            }
            Mutant::SplitSecondIgnored => {
                "a spell is cast or an ability activated while a split second spell is on the stack"
            }
            Mutant::TargetControllerIsYou => {
                "\"its controller\" (of a target) is read as the spell's or ability's controller: the wrong player searches"
            }
            Mutant::InterveningIfIgnored => {
                "an intervening \"if\" is ignored: Howling Mine makes the player draw while it is tapped"
            }
            Mutant::PhyrexianLifeNotPaid => {
                "a Phyrexian mana symbol paid with life (Surgical Extraction's {B/P}) costs no life"
            }
            Mutant::ActivateOnlyDuringIgnored => {
                "\"activate only during your upkeep\" is ignored: Eternal Dragon returns itself in the main phase"
            }
            Mutant::SummoningSicknessIgnored => {
                "summoning sickness is ignored: a creature that entered this turn activates a {T} ability"
            }
            Mutant::PutBackOnBottom => {
                "Brainstorm puts the two cards from hand on the bottom of the library, not on top"
            }
            Mutant::PilesSeparatedByCaster => {
                "Fact or Fiction's caster separates the revealed cards into piles, not an opponent"
            }
            Mutant::OnlyFirstTargetCardExiled => "Cease exiles only its first target card, not up to two",
            Mutant::LethalDamageIgnored => "a creature with lethal damage (Lightning Bolt on a 2/2) isn't destroyed",
            Mutant::DestroyAllIgnoresIndestructible => {
                "Desist (\"destroy all\") destroys indestructible permanents too"
            }
            Mutant::WurmCastOutsideSearchWindow => {
                "Panglacial Wurm is cast from below the top N cards that an Aven Mindcensor search covers"
            }
            Mutant::WishStoppedBySearchBan => {
                "Burning Wish is treated as a search: Stranglehold (\"can't search libraries\") stops it"
            }
            Mutant::HalfLifeRoundedDown => "Doomsday's \"lose half your life, rounded up\" rounds an odd total down",
            Mutant::ExileRestSparesGraveyard => "Doomsday exiles the rest of the library but not the graveyard",
            Mutant::FoundCardToGraveyardUnwatched => {
                "a card a search puts into a graveyard skips the replacement effects and triggers that watch cards put there"
            }
            Mutant::LoyaltyTwicePerTurn => {
                "a planeswalker's loyalty ability is activated a second time in one turn (Ashiok, Dream Render's -1)"
            }
            Mutant::ZeroLoyaltyPlaneswalkerStays => "a planeswalker with loyalty 0 stays on the battlefield",
            Mutant::GuileCounterNotReplaced => {
                "Guile's controller counters a spell and it goes to the graveyard, not exile, and can't be cast"
            }
            Mutant::GuileReplacesOpponentsCounters => {
                "Guile also exiles a spell an opponent's spell counters, and lets its controller cast it"
            }
            Mutant::AdventureToGraveyard => "a resolved Adventure (Petty Theft) goes to the graveyard instead of exile",
            Mutant::AdventureCastAgain => "a card exiled on an adventure may be cast from exile as its Adventure again",
            Mutant::ProwlAnyCreatureType => {
                "prowl is allowed after combat damage by a creature of any type, not a Rogue (Knowledge Exploitation)"
            }
            Mutant::SpellNamedAsItsCard => {
                "Counterbore reads a countered Adventure's name off its card (Brazen Borrower), not the spell (Petty Theft)"
            }
            Mutant::SuspendLastCounterNoCast => {
                "the last time counter removed from a suspended card (Ancestral Vision) doesn't let it be cast"
            }
            Mutant::GravestormCountsOnlyThisRun => {
                "gravestorm counts only the permanents the run put into graveyards, not those of earlier in the turn"
            }
            Mutant::SpellCopiesCast => "a copy of a spell (gravestorm's) is logged as cast",
            Mutant::SpellCopyToGraveyard => {
                "a resolved copy of a spell goes to its owner's graveyard and stays there instead of ceasing to exist"
            }
            Mutant::FreeCastWithoutLegalTarget => {
                "a spell with no legal target (Guile's exiled spell) is still offered for a free cast during a resolution"
            }
            Mutant::CastCardStillFindable => {
                "a Panglacial Wurm one searcher cast can still be found by a later searcher of the same library"
            }
        }
    }

    /// Whether the bug shows only in what the engine offers (protocol 2 option sets): every
    /// outcome it produces is legal, so only the option-set check catches it.
    pub fn only_in_offers(self) -> bool {
        matches!(
            self,
            Mutant::OffersBelowMindcensorWindow
                | Mutant::LobotomyOffersBasicLands
                | Mutant::MaySearchNotOffered
                // Who makes a search's choice shows only in who is offered it: the cards that may
                // be found are the same (outcomes differ only where a script names the chooser).
                | Mutant::OppositionAgentSearcherChooses
        )
    }

    /// The clause the bug breaks.
    pub fn clause(self) -> &'static str {
        match self {
            Mutant::NoShuffleAfterSearch => "701.24a",
            Mutant::PublicCopiesOptional | Mutant::HiddenCopiesForced => "701.23b",
            Mutant::MindcensorBottomN
            | Mutant::MindcensorLimitsController
            | Mutant::MindcensorIgnoredMultiZone
            | Mutant::MindcensorShufflesTopOnly => "701.23f",
            Mutant::FoundCardRevealed => "701.23e",
            Mutant::MergedSearchTriggersTwice => "701.23h",
            Mutant::SequentialSearches => "701.23i",
            Mutant::SplitManaValueOneHalf => "709.4",
            Mutant::LobotomyBasicLand => "608.2d",
            Mutant::FoundCardShuffledIn => "701.24b",
            Mutant::QuantitySearchFindsFewer => "701.23d",
            Mutant::EmptyLibraryNotSearched => "701.23g",
            Mutant::OutsideFindsOthersCards => "701.23j",
            Mutant::FlashbackNotExiled => "702.34a",
            Mutant::CycleOrDiscardTwice => "702.29d",
            Mutant::CantCycleMissesTypecycling => "702.29f",
            Mutant::DredgeIgnoresLibrarySize => "702.52b",
            Mutant::MillCostPartial => "701.17b",
            Mutant::SplitCountedTwice => "709.2",
            Mutant::XNotZeroWithoutPaying => "107.3b",
            Mutant::IllegalTargetsStillResolve => "608.2b",
            Mutant::RevealedTopStaysKnown => "701.20d",
            Mutant::FaceDownExileVisible => "406.3",
            Mutant::OffersBelowMindcensorWindow => "701.23f",
            Mutant::LobotomyOffersBasicLands | Mutant::MaySearchNotOffered => "608.2d",
            Mutant::LifeCostNotPaid => "119.4",
            Mutant::FetchedLandEntersUntapped => "110.5b",
            Mutant::ManaValueXIgnored => "701.23a",
            Mutant::SearchBanIgnored => "101.2",
            Mutant::ThatManyCountsEveryOption => "701.23d",
            Mutant::SplitChosenByCaster => "608.2d",
            Mutant::BannedSearchSkipsShuffle => "701.24a",
            Mutant::TrapIgnoresCappedSearch => "118.9",
            Mutant::OppositionAgentSearcherChooses => "723.5",
            Mutant::OppositionAgentExileIgnored => "614.1a",
            Mutant::ShockLandUnpaidEntersUntapped => "110.5b",
            Mutant::SplitDestinationAllToBattlefield => "701.23a",
            Mutant::SplitSecondIgnored => "702.61a",
            Mutant::TargetControllerIsYou => "608.2h",
            Mutant::InterveningIfIgnored => "603.4",
            Mutant::PhyrexianLifeNotPaid => "107.4f",
            Mutant::ActivateOnlyDuringIgnored => "602.1b",
            Mutant::SummoningSicknessIgnored => "302.6",
            Mutant::PutBackOnBottom => "401.4",
            Mutant::PilesSeparatedByCaster => "700.3",
            Mutant::OnlyFirstTargetCardExiled => "701.13a",
            Mutant::DestroyAllIgnoresIndestructible => "702.12b",
            Mutant::LethalDamageIgnored => "704.5g",
            Mutant::WurmCastOutsideSearchWindow => "601.3",
            Mutant::WishStoppedBySearchBan => "400.11",
            Mutant::HalfLifeRoundedDown => "107.1a",
            Mutant::ExileRestSparesGraveyard => "701.13a",
            Mutant::FoundCardToGraveyardUnwatched => "614.1a",
            Mutant::LoyaltyTwicePerTurn => "606.3",
            Mutant::ZeroLoyaltyPlaneswalkerStays => "704.5i",
            Mutant::GuileCounterNotReplaced => "614.1a",
            Mutant::GuileReplacesOpponentsCounters => "701.6a",
            Mutant::AdventureToGraveyard => "715.3d",
            Mutant::AdventureCastAgain => "715.3d",
            Mutant::ProwlAnyCreatureType => "702.76a",
            Mutant::SpellNamedAsItsCard => "701.23a",
            Mutant::SuspendLastCounterNoCast => "702.62a",
            Mutant::GravestormCountsOnlyThisRun => "702.69a",
            Mutant::SpellCopiesCast => "707.10",
            Mutant::SpellCopyToGraveyard => "704.5e",
            Mutant::FreeCastWithoutLegalTarget => "614.1a",
            Mutant::CastCardStillFindable => "701.23a",
        }
    }

    /// The mutant with this name.
    pub fn from_name(name: &str) -> Option<Mutant> {
        Mutant::ALL.into_iter().find(|m| m.name() == name)
    }
}

impl std::fmt::Display for Mutant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// [`Mutant::SpellCopiesCast`]: the `cast` event such an engine logs for a copy of a spell (read
/// from its JSON form, so that fields a `cast` event gains with a default need no change here).
pub fn copy_logged_as_cast(player: &str, card: &str) -> crate::outcome::Event {
    serde_json::from_value(serde_json::json!({"event": "cast", "player": player, "card": card}))
        .expect("a cast event with a player and a card")
}

/// [`Mutant::MindcensorBottomN`]: the bottom `n` cards of a library instead of its top `n`.
pub fn bottom_window(game: &Game, player: PlayerId, n: u32) -> Vec<ObjId> {
    let cards = game.zone(ZoneRef::Library(player));
    cards[cards.len().saturating_sub(n as usize)..].to_vec()
}

/// [`Mutant::SequentialSearches`]: the top `n` cards of a library once the cards earlier
/// searchers found have left it.
pub fn slid_window(game: &Game, player: PlayerId, n: u32, taken: &std::collections::BTreeSet<ObjId>) -> Vec<ObjId> {
    game.zone(ZoneRef::Library(player)).iter().copied().filter(|o| !taken.contains(o)).take(n as usize).collect()
}

/// [`Mutant::MindcensorShufflesTopOnly`]: what players know of the library cards a capped search
/// didn't look at, to be kept through a shuffle that (wrongly) leaves them alone.
pub fn below_window(game: &Game, player: PlayerId, looked_at: &[ObjId]) -> Vec<(ObjId, u8)> {
    let cards = game.zone(ZoneRef::Library(player));
    cards.iter().filter(|o| !looked_at.contains(o)).map(|&o| (o, game.obj(o).known)).collect()
}

/// [`Mutant::SplitManaValueOneHalf`]: a split card's characteristics off the stack (`chars`,
/// computed by the rules as both halves combined, 709.4) with its first half's mana value instead
/// of the sum. Other characteristics — one half cast on the stack, a face-down card — are left
/// as they are.
pub fn split_mana_value_one_half(def: &CardDef, chars: &mut Chars) {
    if !def.is_split() || *chars != crate::rules::characteristics::card_chars(def) {
        return;
    }
    if let Some(first) = def.split.first() {
        chars.mana_value = crate::rules::characteristics::face_chars(first).mana_value;
    }
}

/// [`Mutant::PublicCopiesOptional`] and [`Mutant::QuantitySearchFindsFewer`]: a search plan
/// (701.23b–d, [`crate::rules::search::plan_part`]) as the bug plans it — matching cards in public
/// zones treated like hidden ones, or a search for "a card" that may find nothing.
pub fn adjust_plan(mutant: Option<Mutant>, plan: &mut PartPlan) {
    match mutant {
        Some(Mutant::PublicCopiesOptional) => {
            plan.public.clear();
            // The forced finds of a stated quality are the public candidates: none now.
            if plan.quality == Quality::Stated {
                plan.min = 0;
            }
        }
        Some(Mutant::QuantitySearchFindsFewer) if plan.quality == Quality::QuantityOnly => plan.min = 0,
        _ => {}
    }
}

/// [`Mutant::DredgeIgnoresLibrarySize`]: every card in `player`'s graveyard with dredge, however
/// few cards their library has (702.52b says at least N).
pub fn dredge_options_ignoring_library(game: &Game, player: PlayerId) -> Vec<ObjId> {
    game.zone(ZoneRef::Graveyard(player))
        .iter()
        .copied()
        .filter(|&o| game.obj(o).def.face_slice().iter().any(|f| f.dredge.is_some()))
        .collect()
}
